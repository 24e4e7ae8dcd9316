// ONNX Runtime loader: dlopen()s the library from the PyPI `onnxruntime` wheel at run time (no headers,
// no link-time dependency), checks it serves OV_ORT_API_VERSION, and creates the process-wide OrtEnv,
// CPU memory info and allocator (ov_ort_load, ov_ort_version).
//
// Decisions
//   - Loaded once per process under a mutex, then published through an atomic (acquire/release) so
//     later calls take no lock; never unloaded (ORT objects may live until exit; dlclose of ORT is
//     unsafe anyway).
//   - A failed load is not cached (it can be retried with a corrected path); a second load of another
//     file is refused, the same file (after resolving symlinks) is OV_OK.
//   - ORT's log severity is "error": old ONNX files listing initializers as graph inputs would
//     otherwise print a line per weight. Its lines go through our logger (CreateEnvWithCustomLogger…):
//     ORT's own wrote ANSI colour codes into stderr and serve's log, and repeated errors every caller
//     gets as a status anyway; ours prints plain lines, and only when OPENVISION_ORT_LOG_LEVEL asks for them.
//   - One CPU arena for every session of the process, capped at ov_model_memory_limit()
//     (CreateAndRegisterAllocator; sessions opt in with "session.use_env_allocators"): a model whose
//     tensors would need more fails with an error where it used to grow without bound (a 158-byte
//     ConstantOfShape model folded 16.8 GB of constants at load). Weights are allocated apart.
#include "ov_ort_api.hpp"
#include "ov_limits.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace ov::ort {

int logSeverity() {
    static const int level = [] {
        const char *value = std::getenv("OPENVISION_ORT_LOG_LEVEL");
        if (!value || !*value) return 3;
        const std::string v(value);
        const char *names[] = {"verbose", "info", "warning", "error", "fatal"};
        for (int i = 0; i < 5; ++i)
            if (v == names[i] || v == std::to_string(i)) return i;
        return 3;
    }();
    return level;
}

/// ORT's log lines: plain text (no colour codes) on stderr, and only when OPENVISION_ORT_LOG_LEVEL was set.
void logLine(void *, OrtLoggingLevel severity, const char *, const char *, const char *location, const char *message) {
    static const bool asked = [] {
        const char *value = std::getenv("OPENVISION_ORT_LOG_LEVEL");
        return value && *value;
    }();
    if (!asked) return;
    const char *names[] = {"verbose", "info", "warning", "error", "fatal"};
    const int level = static_cast<int>(severity);
    std::string line = std::string("onnxruntime ") + (level >= 0 && level < 5 ? names[level] : "log") + ": " +
                       (location && *location ? std::string(location) + ": " : std::string()) + (message ? message : "");
    for (char &c : line)
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = ' ';
    line += '\n';
    fwrite(line.data(), 1, line.size(), stderr);
}

Runtime runtime;
std::atomic<const OrtApi *> loadedApi{nullptr};
const char *const kFix = "run scripts/setup or set OPENVISION_ORT_LIBRARY to the path of libonnxruntime.so";

/// Takes ownership of `status`: NULL means success (returns true); otherwise fills message/code,
/// releases it and returns false.
bool isAllocationFailure(const std::string &message) {
    // BFCArena: "Available memory of N is smaller than requested bytes of M" past max_mem, "Failed to allocate
    // memory for requested buffer of size N" when the system refuses; bad_alloc elsewhere.
    return message.find("Available memory of") != std::string::npos ||
           message.find("Failed to allocate memory") != std::string::npos ||
           message.find("bad_alloc") != std::string::npos;
}

std::string memoryLimitMessage() {
    return "the model needs more memory than the " + std::to_string(ov_model_memory_limit() >> 20) +
           " MiB model memory limit (OPENVISION_MODEL_MEMORY_LIMIT)";
}

bool succeeded(OrtStatus *status, std::string *message, OrtErrorCode *code) {
    if (!status) return true;
    const OrtApi &a = api();
    if (message) {
        const char *text = a.GetErrorMessage(status);
        *message = text ? text : "unknown ONNX Runtime error";
    }
    if (code) *code = a.GetErrorCode(status);
    a.ReleaseStatus(status);
    return false;
}

namespace {

std::mutex loadMutex;
std::atomic<const char *> loadedVersion{""};

std::string resolvedPath(const char *path) {
    char *resolved = ::realpath(path, nullptr);
    if (!resolved) return path;
    std::string result(resolved);
    std::free(resolved);
    return result;
}

ov_status loadLocked(const char *requested) {
    if (loadedApi.load(std::memory_order_acquire)) {
        if (!requested) return ov::ok();
        if (resolvedPath(requested) == runtime.path) return ov::ok();
        return ov::fail(OV_ERR_UNSUPPORTED, "ONNX Runtime is already loaded from " + runtime.path +
                                                "; cannot load another library (" + requested + ") in the same process");
    }
    std::string path;
    if (requested && *requested) {
        path = requested;
    } else {
        const char *env = std::getenv("OPENVISION_ORT_LIBRARY");
        if (!env || !*env)
            return ov::fail(OV_ERR_UNSUPPORTED,
                            std::string("ONNX Runtime library not configured (no path given and OPENVISION_ORT_LIBRARY is unset): ") + kFix);
        path = env;
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return ov::fail(OV_ERR_UNSUPPORTED, "ONNX Runtime library not found at " + path + ": " + std::strerror(errno) + "; " + kFix);
    if (!S_ISREG(info.st_mode))
        return ov::fail(OV_ERR_UNSUPPORTED, "ONNX Runtime library path " + path + " is not a regular file; " + kFix);

    ::dlerror();
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = ::dlerror();
        return ov::fail(OV_ERR_UNSUPPORTED, "cannot load ONNX Runtime library " + path + " (" + (why ? why : "dlopen failed") + "); " + kFix);
    }
    using GetApiBase = const OrtApiBase *(*)();
    auto getApiBase = reinterpret_cast<GetApiBase>(::dlsym(handle, "OrtGetApiBase"));
    const OrtApiBase *base = getApiBase ? getApiBase() : nullptr;
    if (!base || !base->GetApi || !base->GetVersionString) {
        ::dlclose(handle);
        return ov::fail(OV_ERR_UNSUPPORTED, path + " is not an ONNX Runtime library (no OrtGetApiBase); " + kFix);
    }
    const char *version = base->GetVersionString();
    if (!version) version = "unknown";
    const OrtApi *candidate = base->GetApi(OV_ORT_API_VERSION);
    if (!candidate) {
        std::string message = "ONNX Runtime " + std::string(version) + " at " + path +
                              " is too old: OpenVision needs C API version " + std::to_string(OV_ORT_API_VERSION) +
                              " (ONNX Runtime 1." + std::to_string(OV_ORT_API_VERSION) + " or newer); " + kFix;
        ::dlclose(handle);  // nothing from this library is in use yet
        return ov::fail(OV_ERR_UNSUPPORTED, message);
    }

    // Create the process-wide objects with the candidate table (not yet published).
    auto release = [&](OrtStatus *status, std::string *message) {
        if (!status) return true;
        const char *text = candidate->GetErrorMessage(status);
        *message = text ? text : "unknown ONNX Runtime error";
        candidate->ReleaseStatus(status);
        return false;
    };
    std::string message;
    // One intra-op thread pool for the process (ORT's default size: one thread per physical core, spinning
    // between parallel sections), shared by every session that does not ask for its own thread count. With a
    // pool per session, a pipeline of several models (pose detection then landmarks, palms then hands) had
    // the previous model's pool spinning on the cores the next one needed: ~1.6x slower on 2 cores.
    OrtThreadingOptions *threading = nullptr;
    if (!release(candidate->CreateThreadingOptions(&threading), &message))
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime " + std::string(version) + ": cannot create threading options: " + message);
    const bool configured = release(candidate->SetGlobalIntraOpNumThreads(threading, 0), &message) &&
                            release(candidate->SetGlobalInterOpNumThreads(threading, 1), &message);
    OrtEnv *env = nullptr;
    const bool created =
        configured && release(candidate->CreateEnvWithCustomLoggerAndGlobalThreadPools(
                                  logLine, nullptr, static_cast<OrtLoggingLevel>(logSeverity()), "OpenVision", threading, &env),
                              &message);
    candidate->ReleaseThreadingOptions(threading);
    if (!created)
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime " + std::string(version) + ": cannot create the environment: " + message);
    OrtMemoryInfo *cpu = nullptr;
    if (!release(candidate->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &cpu), &message))
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime: cannot create CPU memory info: " + message);
    OrtAllocator *allocator = nullptr;
    if (!release(candidate->GetAllocatorWithDefaultOptions(&allocator), &message)) {
        candidate->ReleaseMemoryInfo(cpu);
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime: cannot get the default allocator: " + message);
    }
    // The capped arena every session allocates its tensors from (see Decisions).
    OrtMemoryInfo *arenaInfo = nullptr;
    OrtArenaCfg *arena = nullptr;
    bool registered = release(candidate->CreateCpuMemoryInfo(OrtArenaAllocator, OrtMemTypeDefault, &arenaInfo), &message) &&
                      release(candidate->CreateArenaCfg(ov_model_memory_limit(), -1, -1, -1, &arena), &message) &&
                      release(candidate->CreateAndRegisterAllocator(env, arenaInfo, arena), &message);
    if (arena) candidate->ReleaseArenaCfg(arena);
    if (arenaInfo) candidate->ReleaseMemoryInfo(arenaInfo);
    if (!registered) {
        candidate->ReleaseMemoryInfo(cpu);
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime: cannot create the capped CPU arena: " + message);
    }
    // On these error paths the OrtEnv (a process singleton inside ORT) and the library stay loaded.

    runtime.handle = handle;
    runtime.base = base;
    runtime.path = resolvedPath(path.c_str());
    runtime.env = env;
    runtime.cpu = cpu;
    runtime.allocator = allocator;
    loadedVersion.store(version, std::memory_order_release);
    loadedApi.store(candidate, std::memory_order_release);
    return ov::ok();
}

}  // namespace

ov_status ensureLoaded() {
    if (loadedApi.load(std::memory_order_acquire)) return OV_OK;
    std::lock_guard<std::mutex> lock(loadMutex);
    return loadLocked(nullptr);
}

}  // namespace ov::ort

using namespace ov::ort;

extern "C" {

ov_status ov_ort_load(const char *library_path) {
    return ov::guarded("ov_ort_load", [&]() -> ov_status {
        std::lock_guard<std::mutex> lock(loadMutex);
        return loadLocked(library_path);
    });
}

const char *ov_ort_version(void) { return loadedVersion.load(std::memory_order_acquire); }

}  // extern "C"
