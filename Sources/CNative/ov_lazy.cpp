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

void *load(const std::string &module) {
    std::lock_guard<std::mutex> lock(modulesLock);
    auto found = modules.find(module);
    if (found != modules.end()) return found->second;
    // Debian's soname: libopencv_imgcodecs.so.406 for 4.6; then the development symlink.
    const std::string base = "libopencv_" + module + ".so";
    const std::string versioned = base + "." + std::to_string(CV_VERSION_MAJOR * 100 + CV_VERSION_MINOR);
    void *handle = dlopen(versioned.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen(base.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        throw Failure(OV_ERR_UNSUPPORTED, "OpenCV's " + module + " module could not be loaded (" + versioned + ": " +
                                              (why ? why : "not found") + "); install libopencv-dev (scripts/setup)");
    }
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
        void *library = dlopen("libtesseract.so.5", RTLD_NOW | RTLD_LOCAL);
        if (!library) library = dlopen("libtesseract.so", RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            const char *why = dlerror();
            throw Failure(OV_ERR_UNSUPPORTED, std::string("Tesseract could not be loaded (libtesseract.so.5: ") +
                                                  (why ? why : "not found") + "); install libtesseract5 (scripts/setup)");
        }
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
#undef OV_TESS_BIND
        // Searched in libtesseract's dependency tree: loaded RTLD_LOCAL, libgomp is not global.
        f.ompSetMaxActiveLevels = reinterpret_cast<void (*)(int)>(dlsym(library, "omp_set_max_active_levels"));
        return f;
    }();
    return table;
}

}  // namespace ov::tess
