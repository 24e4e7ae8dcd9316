// OpenCV modules loaded on first use, not at process start. Never included by Swift.
//
// Why: linking libopencv_imgcodecs pulls in GDAL (139 shared libraries, ~70 ms and ~45 MB of
// start-up for every process) and libopencv_videoio pulls in FFmpeg and GStreamer (243 libraries,
// ~145 ms); `openvision --version` paid both. These modules are dlopen'ed the first time an image is
// encoded/decoded or a video opened, and the few C++ entry points we call are looked up by their
// (Itanium ABI) symbol names, with the exact C++ signature as the function-pointer type, so calls
// are ordinary C++ calls. Virtual member functions need no lookup: they go through the object's
// vtable, which the module's constructor set. CNative links no library that these wrappers cover;
// a direct use of one of their symbols is an undefined-reference error at link time.
#pragma once

#include "ov_native.h"

#include <stdexcept>
#include <string>

namespace ov {

/// A failure with its status, thrown inside `ov::guarded` bodies and returned as that status.
struct Failure : std::runtime_error {
    ov_status status;
    Failure(ov_status status, const std::string &message) : std::runtime_error(message), status(status) {}
};

namespace lazy {

/// dlopen()s `soname`, then `devLink` (RTLD_NOW | RTLD_LOCAL), never closed; throws
/// `Failure(OV_ERR_UNSUPPORTED)` naming `what`, the loader's reason and `fix` when neither loads.
void *openLibrary(const std::string &soname, const std::string &devLink, const std::string &what, const std::string &fix);

/// Loads OpenCV module `module` (libopencv_<module>.so.<major><minor>) once and returns its handle;
/// throws `Failure(OV_ERR_UNSUPPORTED)` when it cannot be loaded.
void *load(const std::string &module);

/// The address of `mangled` in OpenCV module `module` ("imgcodecs", "videoio"), loading the module
/// (libopencv_<module>.so.<major><minor>) once. Throws `Failure(OV_ERR_UNSUPPORTED)` when the
/// module or the symbol is missing.
void *symbol(const char *module, const char *mangled);

/// `symbol` cast to the function-pointer type `Fn`.
template <typename Fn>
Fn function(const char *module, const char *mangled) {
    return reinterpret_cast<Fn>(symbol(module, mangled));
}

}  // namespace lazy
}  // namespace ov
