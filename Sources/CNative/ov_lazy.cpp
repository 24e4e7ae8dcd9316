// Loads OpenCV modules on first use (see ov_lazy.hpp for why).
#include "ov_lazy.hpp"
#include "ov_internal.hpp"
#include "ov_tesseract.hpp"

#include <opencv2/core/version.hpp>

#include <dlfcn.h>

#include <map>
#include <mutex>
#include <type_traits>

namespace ov::lazy {

namespace {
std::mutex modulesLock;
std::map<std::string, void *> modules;  // module name → dlopen handle, never closed

}  // namespace

void *openLibrary(const std::string &soname, const std::string &devLink, const std::string &what, const std::string &fix) {
    void *handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen(devLink.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        throw Failure(OV_ERR_UNSUPPORTED, what + " could not be loaded (" + soname + ": " + (why ? why : "not found") + "); " + fix);
    }
    return handle;
}

void *load(const std::string &module) {
    std::lock_guard<std::mutex> lock(modulesLock);
    auto found = modules.find(module);
    if (found != modules.end()) return found->second;
    // Debian's soname: libopencv_imgcodecs.so.406 for 4.6; then the development symlink.
    const std::string base = "libopencv_" + module + ".so";
    void *handle = openLibrary(base + "." + std::to_string(CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR), base,
                               "OpenCV's " + module + " module", "install libopencv-dev (scripts/setup)");
    modules[module] = handle;
    return handle;
}

void *symbol(const char *module, const char *mangled) {
    void *handle = load(module);
    dlerror();
    void *address = dlsym(handle, mangled);
    if (!address)
        throw Failure(OV_ERR_UNSUPPORTED, std::string("OpenCV's ") + module + " module lacks " + mangled +
                                              " (built for OpenCV " CV_VERSION ")");
    return address;
}

}  // namespace ov::lazy

extern "C" ov_status ov_preload_module(const char *module) {
    return ov::guarded("ov_preload_module", [&]() -> ov_status {
        const std::string name = module ? module : "";
        if (name != "imgcodecs" && name != "videoio")
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "not a module loaded on first use: '" + name + "'");
        ov::lazy::load(name);
        return ov::ok();
    });
}

namespace ov::tess {

const Functions &Functions::get() {
    static const Functions table = [] {
        // Debian's libtesseract5 soname; then the development symlink.
        void *library = lazy::openLibrary("libtesseract.so.5", "libtesseract.so", "Tesseract", "install libtesseract5 (scripts/setup)");
        Functions f{};
        auto bind = [&](auto &slot, const char *name) {
            slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(library, name));
            if (!slot) throw Failure(OV_ERR_UNSUPPORTED, std::string("libtesseract lacks ") + name);
        };
#define OV_TESS_BIND(name) bind(f.name, #name);
        OV_TESS_BIND(TessBaseAPICreate)
        OV_TESS_BIND(TessBaseAPIDelete)
        OV_TESS_BIND(TessBaseAPISetVariable)
        OV_TESS_BIND(TessBaseAPIInit2)
        OV_TESS_BIND(TessBaseAPISetPageSegMode)
        OV_TESS_BIND(TessBaseAPISetImage)
        OV_TESS_BIND(TessBaseAPISetSourceResolution)
        OV_TESS_BIND(TessBaseAPIRecognize)
        OV_TESS_BIND(TessBaseAPIGetIterator)
        OV_TESS_BIND(TessBaseAPIClear)
        OV_TESS_BIND(TessBaseAPIEnd)
        OV_TESS_BIND(TessResultIteratorDelete)
        OV_TESS_BIND(TessResultIteratorNext)
        OV_TESS_BIND(TessResultIteratorGetUTF8Text)
        OV_TESS_BIND(TessResultIteratorConfidence)
        OV_TESS_BIND(TessResultIteratorGetPageIteratorConst)
        OV_TESS_BIND(TessPageIteratorIsAtBeginningOf)
        OV_TESS_BIND(TessPageIteratorBoundingBox)
        OV_TESS_BIND(TessDeleteText)
        OV_TESS_BIND(TessPageIteratorOrientation)
        OV_TESS_BIND(TessMonitorCreate)
        OV_TESS_BIND(TessMonitorDelete)
        OV_TESS_BIND(TessMonitorSetCancelFunc)
        OV_TESS_BIND(TessMonitorSetCancelThis)
        OV_TESS_BIND(TessMonitorSetDeadlineMSecs)
#undef OV_TESS_BIND
        f.TessBaseAPIDetectOrientationScript = reinterpret_cast<decltype(f.TessBaseAPIDetectOrientationScript)>(
            dlsym(library, "TessBaseAPIDetectOrientationScript"));
        // C++ members of the iterator classes (Itanium ABI: `this` first), optional: see ov_tesseract.hpp.
        f.leftToRightNext = reinterpret_cast<decltype(f.leftToRightNext)>(
            dlsym(library, "_ZN9tesseract12PageIterator4NextENS_17PageIteratorLevelE"));
        f.leftToRightIsAtBeginningOf = reinterpret_cast<decltype(f.leftToRightIsAtBeginningOf)>(
            dlsym(library, "_ZNK9tesseract12PageIterator15IsAtBeginningOfENS_17PageIteratorLevelE"));
        f.leftToRightText = reinterpret_cast<decltype(f.leftToRightText)>(
            dlsym(library, "_ZNK9tesseract17LTRResultIterator11GetUTF8TextENS_17PageIteratorLevelE"));
        // Searched in libtesseract's dependency tree: loaded RTLD_LOCAL, libgomp is not global.
        f.ompSetMaxActiveLevels = reinterpret_cast<void (*)(int)>(dlsym(library, "omp_set_max_active_levels"));
        // Leptonica (libtesseract's image library) prints its errors to stderr ("Error in pixScanForForeground: no
        // fg pixels found" on some pages): they are Tesseract's internal business, and the CLI's stderr is ours.
        if (auto handler = reinterpret_cast<void (*)(void (*)(const char *))>(dlsym(library, "leptSetStderrHandler")))
            handler([](const char *) {});
        else if (auto severity = reinterpret_cast<int (*)(int)>(dlsym(library, "setMsgSeverity")))
            severity(6);  // L_SEVERITY_NONE
        return f;
    }();
    return table;
}

}  // namespace ov::tess
