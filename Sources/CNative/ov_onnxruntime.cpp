// ONNX Runtime backend: the library from the PyPI `onnxruntime` wheel is dlopen()ed at run time
// (no headers, no link-time dependency); the part of its C API we call is declared below.
#include "ov_internal.hpp"
#include "ov_onnxruntime.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------------------------
// ov_tensors: a general container of named float32 tensors (also built by other backends).

struct ov_tensors {
    struct Tensor {
        std::string name;
        std::vector<int64_t> shape;
        std::vector<float> storage;  // owned data (empty when `data` points into a kept-alive buffer)
        const float *data = nullptr;
        size_t count = 0;
    };
    std::vector<Tensor> tensors;
    std::vector<std::shared_ptr<void>> owners;  // buffers `data` may point into (e.g. ORT OrtValues)
};

namespace {

size_t elementCount(const std::vector<int64_t> &shape) {
    size_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) throw std::invalid_argument("negative tensor dimension");
        if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d))
            throw std::invalid_argument("tensor element count overflows");
        count *= static_cast<size_t>(d);
    }
    return count;
}

}  // namespace

namespace ov {

ov_tensors *make_tensors(std::vector<TensorOut> &&tensors) {
    auto result = std::make_unique<ov_tensors>();
    result->tensors.resize(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
        TensorOut &in = tensors[i];
        size_t count = elementCount(in.shape);
        if (count != in.data.size())
            throw std::invalid_argument("tensor '" + in.name + "': shape has " + std::to_string(count) +
                                        " elements but data has " + std::to_string(in.data.size()));
        ov_tensors::Tensor &t = result->tensors[i];
        t.name = std::move(in.name);
        t.shape = std::move(in.shape);
        t.storage = std::move(in.data);
        t.data = t.storage.empty() ? nullptr : t.storage.data();
        t.count = count;
    }
    tensors.clear();
    return result.release();
}

}  // namespace ov

// ---------------------------------------------------------------------------------------------
// The ORT C API subset, from include/onnxruntime/core/session/onnxruntime_c_api.h
// (microsoft/onnxruntime). OrtApi is append-only: member N is the N-th function pointer for every
// API version, so the prefix below (members 0...118, all present since API 1-2) is valid for any
// library serving OV_ORT_API_VERSION. Unused members are `void *` placeholders, one per member.

namespace {

struct OrtStatus;
struct OrtEnv;
struct OrtSession;
struct OrtSessionOptions;
struct OrtValue;
struct OrtRunOptions;
struct OrtTypeInfo;
struct OrtTensorTypeAndShapeInfo;
struct OrtMemoryInfo;
struct OrtModelMetadata;
struct OrtAllocator;  // a struct of function pointers in ORT; only passed back to ORT here

enum OrtErrorCode : int {
    ORT_OK = 0, ORT_FAIL = 1, ORT_INVALID_ARGUMENT = 2, ORT_NO_SUCHFILE = 3, ORT_NO_MODEL = 4,
    ORT_ENGINE_ERROR = 5, ORT_RUNTIME_EXCEPTION = 6, ORT_INVALID_PROTOBUF = 7, ORT_MODEL_LOADED = 8,
    ORT_NOT_IMPLEMENTED = 9, ORT_INVALID_GRAPH = 10, ORT_EP_FAIL = 11
};
enum ONNXTensorElementDataType : int {
    T_UNDEFINED = 0, T_FLOAT = 1, T_UINT8 = 2, T_INT8 = 3, T_UINT16 = 4, T_INT16 = 5, T_INT32 = 6,
    T_INT64 = 7, T_STRING = 8, T_BOOL = 9, T_FLOAT16 = 10, T_DOUBLE = 11, T_UINT32 = 12, T_UINT64 = 13,
    T_COMPLEX64 = 14, T_COMPLEX128 = 15, T_BFLOAT16 = 16
};
enum ONNXType : int { ONNX_TYPE_UNKNOWN = 0, ONNX_TYPE_TENSOR = 1 };
enum OrtLoggingLevel : int { ORT_LOGGING_LEVEL_WARNING = 2 };
enum GraphOptimizationLevel : int {};
enum OrtAllocatorType : int { OrtDeviceAllocator = 0 };
enum OrtMemType : int { OrtMemTypeDefault = 0 };

using S = OrtStatus *;  // every OrtStatus-returning function: NULL = success

struct OrtApi {
    void *CreateStatus;                                                                  //   0
    OrtErrorCode (*GetErrorCode)(const OrtStatus *) noexcept;                            //   1
    const char *(*GetErrorMessage)(const OrtStatus *) noexcept;                          //   2
    S (*CreateEnv)(OrtLoggingLevel, const char *, OrtEnv **) noexcept;                   //   3
    void *CreateEnvWithCustomLogger;                                                     //   4
    void *EnableTelemetryEvents;                                                         //   5
    void *DisableTelemetryEvents;                                                        //   6
    S (*CreateSession)(const OrtEnv *, const char *, const OrtSessionOptions *, OrtSession **) noexcept;  // 7
    void *CreateSessionFromArray;                                                        //   8
    S (*Run)(OrtSession *, const OrtRunOptions *, const char *const *, const OrtValue *const *, size_t,
             const char *const *, size_t, OrtValue **) noexcept;                         //   9
    S (*CreateSessionOptions)(OrtSessionOptions **) noexcept;                            //  10
    void *SetOptimizedModelFilePath;                                                     //  11
    void *CloneSessionOptions;                                                           //  12
    void *SetSessionExecutionMode;                                                       //  13
    void *EnableProfiling;                                                               //  14
    void *DisableProfiling;                                                              //  15
    void *EnableMemPattern;                                                              //  16
    void *DisableMemPattern;                                                             //  17
    void *EnableCpuMemArena;                                                             //  18
    void *DisableCpuMemArena;                                                            //  19
    void *SetSessionLogId;                                                               //  20
    void *SetSessionLogVerbosityLevel;                                                   //  21
    void *SetSessionLogSeverityLevel;                                                    //  22
    S (*SetSessionGraphOptimizationLevel)(OrtSessionOptions *, GraphOptimizationLevel) noexcept;  // 23
    S (*SetIntraOpNumThreads)(OrtSessionOptions *, int) noexcept;                        //  24
    S (*SetInterOpNumThreads)(OrtSessionOptions *, int) noexcept;                        //  25
    void *CreateCustomOpDomain;                                                          //  26
    void *CustomOpDomain_Add;                                                            //  27
    void *AddCustomOpDomain;                                                             //  28
    void *RegisterCustomOpsLibrary;                                                      //  29
    S (*SessionGetInputCount)(const OrtSession *, size_t *) noexcept;                    //  30
    S (*SessionGetOutputCount)(const OrtSession *, size_t *) noexcept;                   //  31
    void *SessionGetOverridableInitializerCount;                                         //  32
    S (*SessionGetInputTypeInfo)(const OrtSession *, size_t, OrtTypeInfo **) noexcept;   //  33
    S (*SessionGetOutputTypeInfo)(const OrtSession *, size_t, OrtTypeInfo **) noexcept;  //  34
    void *SessionGetOverridableInitializerTypeInfo;                                      //  35
    S (*SessionGetInputName)(const OrtSession *, size_t, OrtAllocator *, char **) noexcept;   // 36
    S (*SessionGetOutputName)(const OrtSession *, size_t, OrtAllocator *, char **) noexcept;  // 37
    void *SessionGetOverridableInitializerName;                                          //  38
    void *CreateRunOptions;                                                              //  39
    void *RunOptionsSetRunLogVerbosityLevel;                                             //  40
    void *RunOptionsSetRunLogSeverityLevel;                                              //  41
    void *RunOptionsSetRunTag;                                                           //  42
    void *RunOptionsGetRunLogVerbosityLevel;                                             //  43
    void *RunOptionsGetRunLogSeverityLevel;                                              //  44
    void *RunOptionsGetRunTag;                                                           //  45
    void *RunOptionsSetTerminate;                                                        //  46
    void *RunOptionsUnsetTerminate;                                                      //  47
    void *CreateTensorAsOrtValue;                                                        //  48
    S (*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *, void *, size_t, const int64_t *, size_t,
                                        ONNXTensorElementDataType, OrtValue **) noexcept;  // 49
    void *IsTensor;                                                                      //  50
    S (*GetTensorMutableData)(OrtValue *, void **) noexcept;                             //  51
    void *FillStringTensor;                                                              //  52
    void *GetStringTensorDataLength;                                                     //  53
    void *GetStringTensorContent;                                                        //  54
    S (*CastTypeInfoToTensorInfo)(const OrtTypeInfo *, const OrtTensorTypeAndShapeInfo **) noexcept;  // 55
    S (*GetOnnxTypeFromTypeInfo)(const OrtTypeInfo *, ONNXType *) noexcept;              //  56
    void *CreateTensorTypeAndShapeInfo;                                                  //  57
    void *SetTensorElementType;                                                          //  58
    void *SetDimensions;                                                                 //  59
    S (*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *, ONNXTensorElementDataType *) noexcept;  // 60
    S (*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *, size_t *) noexcept;       //  61
    S (*GetDimensions)(const OrtTensorTypeAndShapeInfo *, int64_t *, size_t) noexcept;   //  62
    void *GetSymbolicDimensions;                                                         //  63
    S (*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *, size_t *) noexcept;  // 64
    S (*GetTensorTypeAndShape)(const OrtValue *, OrtTensorTypeAndShapeInfo **) noexcept;  // 65
    void *GetTypeInfo;                                                                   //  66
    S (*GetValueType)(const OrtValue *, ONNXType *) noexcept;                            //  67
    void *CreateMemoryInfo;                                                              //  68
    S (*CreateCpuMemoryInfo)(OrtAllocatorType, OrtMemType, OrtMemoryInfo **) noexcept;   //  69
    void *CompareMemoryInfo;                                                             //  70
    void *MemoryInfoGetName;                                                             //  71
    void *MemoryInfoGetId;                                                               //  72
    void *MemoryInfoGetMemType;                                                          //  73
    void *MemoryInfoGetType;                                                             //  74
    void *AllocatorAlloc;                                                                //  75
    S (*AllocatorFree)(OrtAllocator *, void *) noexcept;                                 //  76
    void *AllocatorGetInfo;                                                              //  77
    S (*GetAllocatorWithDefaultOptions)(OrtAllocator **) noexcept;                       //  78
    void *AddFreeDimensionOverride;                                                      //  79
    void *GetValue;                                                                      //  80
    void *GetValueCount;                                                                 //  81
    void *CreateValue;                                                                   //  82
    void *CreateOpaqueValue;                                                             //  83
    void *GetOpaqueValue;                                                                //  84
    void *KernelInfoGetAttribute_float;                                                  //  85
    void *KernelInfoGetAttribute_int64;                                                  //  86
    void *KernelInfoGetAttribute_string;                                                 //  87
    void *KernelContext_GetInputCount;                                                   //  88
    void *KernelContext_GetOutputCount;                                                  //  89
    void *KernelContext_GetInput;                                                        //  90
    void *KernelContext_GetOutput;                                                       //  91
    void *ReleaseEnv;                                                                    //  92
    void (*ReleaseStatus)(OrtStatus *) noexcept;                                         //  93
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *) noexcept;                                 //  94
    void (*ReleaseSession)(OrtSession *) noexcept;                                       //  95
    void (*ReleaseValue)(OrtValue *) noexcept;                                           //  96
    void *ReleaseRunOptions;                                                             //  97
    void (*ReleaseTypeInfo)(OrtTypeInfo *) noexcept;                                     //  98
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *) noexcept;         //  99
    void (*ReleaseSessionOptions)(OrtSessionOptions *) noexcept;                         // 100
    void *ReleaseCustomOpDomain;                                                         // 101
    void *GetDenotationFromTypeInfo;                                                     // 102
    void *CastTypeInfoToMapTypeInfo;                                                     // 103
    void *CastTypeInfoToSequenceTypeInfo;                                                // 104
    void *GetMapKeyType;                                                                 // 105
    void *GetMapValueType;                                                               // 106
    void *GetSequenceElementType;                                                        // 107
    void *ReleaseMapTypeInfo;                                                            // 108
    void *ReleaseSequenceTypeInfo;                                                       // 109
    void *SessionEndProfiling;                                                           // 110
    S (*SessionGetModelMetadata)(const OrtSession *, OrtModelMetadata **) noexcept;      // 111
    S (*ModelMetadataGetProducerName)(const OrtModelMetadata *, OrtAllocator *, char **) noexcept;  // 112
    S (*ModelMetadataGetGraphName)(const OrtModelMetadata *, OrtAllocator *, char **) noexcept;     // 113
    S (*ModelMetadataGetDomain)(const OrtModelMetadata *, OrtAllocator *, char **) noexcept;        // 114
    S (*ModelMetadataGetDescription)(const OrtModelMetadata *, OrtAllocator *, char **) noexcept;   // 115
    S (*ModelMetadataLookupCustomMetadataMap)(const OrtModelMetadata *, OrtAllocator *, const char *,
                                              char **) noexcept;                         // 116
    S (*ModelMetadataGetVersion)(const OrtModelMetadata *, int64_t *) noexcept;          // 117
    void (*ReleaseModelMetadata)(OrtModelMetadata *) noexcept;                           // 118
};

struct OrtApiBase {
    const OrtApi *(*GetApi)(uint32_t version) noexcept;
    const char *(*GetVersionString)() noexcept;
};

#define OV_ORT_SLOT(member, index) \
    static_assert(offsetof(OrtApi, member) == (index) * sizeof(void *), "OrtApi::" #member " is not member " #index)
OV_ORT_SLOT(GetErrorCode, 1);
OV_ORT_SLOT(GetErrorMessage, 2);
OV_ORT_SLOT(CreateEnv, 3);
OV_ORT_SLOT(CreateSession, 7);
OV_ORT_SLOT(Run, 9);
OV_ORT_SLOT(CreateSessionOptions, 10);
OV_ORT_SLOT(SetSessionGraphOptimizationLevel, 23);
OV_ORT_SLOT(SetIntraOpNumThreads, 24);
OV_ORT_SLOT(SetInterOpNumThreads, 25);
OV_ORT_SLOT(SessionGetInputCount, 30);
OV_ORT_SLOT(SessionGetOutputCount, 31);
OV_ORT_SLOT(SessionGetInputTypeInfo, 33);
OV_ORT_SLOT(SessionGetOutputTypeInfo, 34);
OV_ORT_SLOT(SessionGetInputName, 36);
OV_ORT_SLOT(SessionGetOutputName, 37);
OV_ORT_SLOT(CreateTensorWithDataAsOrtValue, 49);
OV_ORT_SLOT(GetTensorMutableData, 51);
OV_ORT_SLOT(CastTypeInfoToTensorInfo, 55);
OV_ORT_SLOT(GetOnnxTypeFromTypeInfo, 56);
OV_ORT_SLOT(GetTensorElementType, 60);
OV_ORT_SLOT(GetDimensionsCount, 61);
OV_ORT_SLOT(GetDimensions, 62);
OV_ORT_SLOT(GetTensorShapeElementCount, 64);
OV_ORT_SLOT(GetTensorTypeAndShape, 65);
OV_ORT_SLOT(GetValueType, 67);
OV_ORT_SLOT(CreateCpuMemoryInfo, 69);
OV_ORT_SLOT(AllocatorFree, 76);
OV_ORT_SLOT(GetAllocatorWithDefaultOptions, 78);
OV_ORT_SLOT(ReleaseStatus, 93);
OV_ORT_SLOT(ReleaseMemoryInfo, 94);
OV_ORT_SLOT(ReleaseSession, 95);
OV_ORT_SLOT(ReleaseValue, 96);
OV_ORT_SLOT(ReleaseTypeInfo, 98);
OV_ORT_SLOT(ReleaseTensorTypeAndShapeInfo, 99);
OV_ORT_SLOT(ReleaseSessionOptions, 100);
OV_ORT_SLOT(SessionGetModelMetadata, 111);
OV_ORT_SLOT(ModelMetadataGetProducerName, 112);
OV_ORT_SLOT(ModelMetadataGetGraphName, 113);
OV_ORT_SLOT(ModelMetadataGetDomain, 114);
OV_ORT_SLOT(ModelMetadataGetDescription, 115);
OV_ORT_SLOT(ModelMetadataLookupCustomMetadataMap, 116);
OV_ORT_SLOT(ModelMetadataGetVersion, 117);
OV_ORT_SLOT(ReleaseModelMetadata, 118);
static_assert(sizeof(OrtApi) == 119 * sizeof(void *), "OrtApi prefix must have 119 members");
#undef OV_ORT_SLOT

// ---------------------------------------------------------------------------------------------
// Process-wide state. Written once under loadMutex, then published through `api` (acquire/release);
// never unloaded (ORT objects may live until exit; dlclose of ORT is unsafe anyway).

struct Runtime {
    void *handle = nullptr;
    const OrtApiBase *base = nullptr;
    std::string path;  // resolved path of the loaded library
    OrtEnv *env = nullptr;
    OrtMemoryInfo *cpu = nullptr;
    OrtAllocator *allocator = nullptr;  // ORT's default CPU allocator (not owned)
};

std::mutex loadMutex;
Runtime runtime;                              // guarded by loadMutex until `api` is published
std::atomic<const OrtApi *> loadedApi{nullptr};
std::atomic<const char *> loadedVersion{""};

const char *const kFix = "run scripts/setup or set OPENVISION_ORT_LIBRARY to the path of libonnxruntime.so";

const OrtApi &api() { return *loadedApi.load(std::memory_order_acquire); }

/// Takes ownership of `status`: NULL means success (returns true); otherwise fills message/code,
/// releases it and returns false.
bool succeeded(OrtStatus *status, std::string *message = nullptr, OrtErrorCode *code = nullptr) {
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

/// Fails with `status` and "where: ORT's message" when `ortStatus` is an error.
#define OV_ORT_TRY(call, status, where)                                                 \
    do {                                                                                \
        std::string ovOrtMessage_;                                                      \
        if (!succeeded((call), &ovOrtMessage_))                                         \
            return ov::fail((status), std::string(where) + ": " + ovOrtMessage_);       \
    } while (0)

struct ReleaseValue { void operator()(OrtValue *v) const noexcept { if (v) api().ReleaseValue(v); } };
struct ReleaseTypeInfo { void operator()(OrtTypeInfo *v) const noexcept { if (v) api().ReleaseTypeInfo(v); } };
struct ReleaseShape {
    void operator()(OrtTensorTypeAndShapeInfo *v) const noexcept { if (v) api().ReleaseTensorTypeAndShapeInfo(v); }
};
struct ReleaseOptions { void operator()(OrtSessionOptions *v) const noexcept { if (v) api().ReleaseSessionOptions(v); } };
struct ReleaseMetadata { void operator()(OrtModelMetadata *v) const noexcept { if (v) api().ReleaseModelMetadata(v); } };
struct FreeOrtString {
    void operator()(char *p) const noexcept {
        if (p) { OrtStatus *s = api().AllocatorFree(runtime.allocator, p); if (s) api().ReleaseStatus(s); }
    }
};
using ValuePtr = std::unique_ptr<OrtValue, ReleaseValue>;
using OrtString = std::unique_ptr<char, FreeOrtString>;

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
    OrtEnv *env = nullptr;
    if (!release(candidate->CreateEnv(ORT_LOGGING_LEVEL_WARNING, "OpenVision", &env), &message))
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime " + std::string(version) + ": cannot create the environment: " + message);
    OrtMemoryInfo *cpu = nullptr;
    if (!release(candidate->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault, &cpu), &message))
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime: cannot create CPU memory info: " + message);
    OrtAllocator *allocator = nullptr;
    if (!release(candidate->GetAllocatorWithDefaultOptions(&allocator), &message)) {
        candidate->ReleaseMemoryInfo(cpu);
        return ov::fail(OV_ERR_INTERNAL, "ONNX Runtime: cannot get the default allocator: " + message);
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

ov_status ensureLoaded() {
    if (loadedApi.load(std::memory_order_acquire)) return OV_OK;
    std::lock_guard<std::mutex> lock(loadMutex);
    return loadLocked(nullptr);
}

// ---------------------------------------------------------------------------------------------

struct IOInfo {
    std::string name;
    int valueType = ONNX_TYPE_UNKNOWN;   // ONNXType
    int elementType = T_UNDEFINED;       // ONNXTensorElementDataType (tensors only)
    std::vector<int64_t> shape;          // -1 = dynamic
};

size_t elementSize(int type) {
    switch (type) {
        case T_FLOAT: case T_INT32: case T_UINT32: return 4;
        case T_UINT8: case T_INT8: case T_BOOL: return 1;
        case T_UINT16: case T_INT16: case T_FLOAT16: case T_BFLOAT16: return 2;
        case T_INT64: case T_UINT64: case T_DOUBLE: return 8;
        default: return 0;
    }
}

const char *typeName(int type) {
    switch (type) {
        case T_FLOAT: return "float"; case T_UINT8: return "uint8"; case T_INT8: return "int8";
        case T_UINT16: return "uint16"; case T_INT16: return "int16"; case T_INT32: return "int32";
        case T_INT64: return "int64"; case T_STRING: return "string"; case T_BOOL: return "bool";
        case T_FLOAT16: return "float16"; case T_DOUBLE: return "double"; case T_UINT32: return "uint32";
        case T_UINT64: return "uint64"; case T_COMPLEX64: return "complex64"; case T_COMPLEX128: return "complex128";
        case T_BFLOAT16: return "bfloat16"; default: return "undefined";
    }
}

/// "[2, 3]"; a model's dynamic (negative) dimensions print as "?" when `model` is set.
std::string shapeText(const int64_t *dims, size_t rank, bool model = false) {
    std::string s = "[";
    for (size_t i = 0; i < rank; ++i) {
        if (i) s += ", ";
        s += model && dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
    }
    return s + "]";
}

ov_status readInfo(const OrtSession *session, bool input, size_t index, IOInfo &info) {
    const OrtApi &a = api();
    const char *where = input ? "ONNX Runtime: reading model input" : "ONNX Runtime: reading model output";
    char *rawName = nullptr;
    OV_ORT_TRY((input ? a.SessionGetInputName : a.SessionGetOutputName)(session, index, runtime.allocator, &rawName),
               OV_ERR_MODEL, where);
    OrtString name(rawName);
    info.name = rawName ? rawName : "";

    OrtTypeInfo *rawType = nullptr;
    OV_ORT_TRY((input ? a.SessionGetInputTypeInfo : a.SessionGetOutputTypeInfo)(session, index, &rawType), OV_ERR_MODEL, where);
    std::unique_ptr<OrtTypeInfo, ReleaseTypeInfo> type(rawType);
    ONNXType valueType = ONNX_TYPE_UNKNOWN;
    OV_ORT_TRY(a.GetOnnxTypeFromTypeInfo(rawType, &valueType), OV_ERR_MODEL, where);
    info.valueType = valueType;
    if (valueType != ONNX_TYPE_TENSOR) return OV_OK;

    const OrtTensorTypeAndShapeInfo *tensor = nullptr;  // owned by `type`
    OV_ORT_TRY(a.CastTypeInfoToTensorInfo(rawType, &tensor), OV_ERR_MODEL, where);
    if (!tensor) return OV_OK;
    ONNXTensorElementDataType elementType = T_UNDEFINED;
    OV_ORT_TRY(a.GetTensorElementType(tensor, &elementType), OV_ERR_MODEL, where);
    info.elementType = elementType;
    size_t rank = 0;
    OV_ORT_TRY(a.GetDimensionsCount(tensor, &rank), OV_ERR_MODEL, where);
    info.shape.assign(rank, -1);
    if (rank) OV_ORT_TRY(a.GetDimensions(tensor, info.shape.data(), rank), OV_ERR_MODEL, where);
    for (int64_t &d : info.shape) if (d < 0) d = -1;
    return OV_OK;
}

// float16 / bfloat16 <-> float32 (IEEE 754, round to nearest even).
float halfToFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            exponent = 127 - 15 + 1;
            while ((mantissa & 0x400u) == 0) { mantissa <<= 1; --exponent; }
            bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
        }
    } else if (exponent == 31) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    uint32_t absolute = x & 0x7fffffffu;
    if (absolute >= 0x7f800000u) return sign | 0x7c00u | (absolute > 0x7f800000u ? 0x200u : 0u);  // inf / NaN
    if (absolute >= 0x477ff000u) return sign | 0x7c00u;                                      // rounds to >= 65520: inf
    if (absolute < 0x38800000u) {                                                            // below 2^-14: subnormal or zero
        float magnitude;
        std::memcpy(&magnitude, &absolute, sizeof magnitude);
        return sign | static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0f));       // units of 2^-24
    }
    absolute += 0xc8000fffu + ((absolute >> 13) & 1u);  // rebias exponent (-112 << 23) and round to nearest even
    return sign | static_cast<uint16_t>(absolute >> 13);
}

float bfloat16ToFloat(uint16_t b) {
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

template <typename T>
void convertIntegers(const float *src, size_t n, T *dst) {
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    for (size_t i = 0; i < n; ++i) {
        double v = std::nearbyint(static_cast<double>(src[i]));
        if (std::isnan(v)) v = 0;
        // clamp; for int64 `hi` rounds up to 2^63, so stay strictly below it
        if (v <= lo) dst[i] = std::numeric_limits<T>::lowest();
        else if (v >= hi) dst[i] = std::numeric_limits<T>::max();
        else dst[i] = static_cast<T>(v);
    }
}

/// Converts float32 input data to the model's element type into `buffer`; false if unsupported.
bool convertInput(const float *src, size_t n, int type, std::vector<unsigned char> &buffer) {
    buffer.resize(n * elementSize(type));
    void *dst = buffer.data();
    switch (type) {
        case T_FLOAT16: { auto *d = static_cast<uint16_t *>(dst); for (size_t i = 0; i < n; ++i) d[i] = floatToHalf(src[i]); return true; }
        case T_DOUBLE: { auto *d = static_cast<double *>(dst); for (size_t i = 0; i < n; ++i) d[i] = src[i]; return true; }
        case T_INT64: convertIntegers(src, n, static_cast<int64_t *>(dst)); return true;
        case T_INT32: convertIntegers(src, n, static_cast<int32_t *>(dst)); return true;
        case T_UINT8: convertIntegers(src, n, static_cast<uint8_t *>(dst)); return true;
        case T_INT8: convertIntegers(src, n, static_cast<int8_t *>(dst)); return true;
        default: return false;
    }
}

template <typename T>
void widen(const void *src, size_t n, float *dst) {
    const T *s = static_cast<const T *>(src);
    for (size_t i = 0; i < n; ++i) dst[i] = static_cast<float>(s[i]);
}

/// Converts n elements of ORT type `type` to float32; false if unsupported.
bool convertOutput(const void *src, size_t n, int type, float *dst) {
    switch (type) {
        case T_UINT8: widen<uint8_t>(src, n, dst); return true;
        case T_INT8: widen<int8_t>(src, n, dst); return true;
        case T_UINT16: widen<uint16_t>(src, n, dst); return true;
        case T_INT16: widen<int16_t>(src, n, dst); return true;
        case T_INT32: widen<int32_t>(src, n, dst); return true;
        case T_INT64: widen<int64_t>(src, n, dst); return true;
        case T_UINT32: widen<uint32_t>(src, n, dst); return true;
        case T_UINT64: widen<uint64_t>(src, n, dst); return true;
        case T_DOUBLE: widen<double>(src, n, dst); return true;
        case T_BOOL: { auto *s = static_cast<const uint8_t *>(src); for (size_t i = 0; i < n; ++i) dst[i] = s[i] ? 1.0f : 0.0f; return true; }
        case T_FLOAT16: { auto *s = static_cast<const uint16_t *>(src); for (size_t i = 0; i < n; ++i) dst[i] = halfToFloat(s[i]); return true; }
        case T_BFLOAT16: { auto *s = static_cast<const uint16_t *>(src); for (size_t i = 0; i < n; ++i) dst[i] = bfloat16ToFloat(s[i]); return true; }
        default: return false;
    }
}

/// Describes `list[index]` in `out`; `kind` ("input" or "output") names the list in the range error.
ov_status fillInfo(const std::vector<IOInfo> &list, int index, const char *kind, ov_tensor_info *out) {
    if (index < 0 || static_cast<size_t>(index) >= list.size())
        return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string(kind) + " index " + std::to_string(index) +
                                                     " out of range (model has " + std::to_string(list.size()) + ")");
    const IOInfo &info = list[static_cast<size_t>(index)];
    std::memset(out, 0, sizeof *out);
    size_t n = std::min(info.name.size(), sizeof out->name - 1);
    std::memcpy(out->name, info.name.data(), n);
    out->name[n] = '\0';
    if (info.valueType != ONNX_TYPE_TENSOR) {
        out->element_type = 0;
        out->rank = -1;
        return ov::ok();
    }
    out->element_type = info.elementType;
    out->rank = static_cast<int>(info.shape.size());
    for (size_t i = 0; i < info.shape.size() && i < OV_TENSOR_MAX_RANK; ++i) out->shape[i] = info.shape[i];
    return ov::ok();
}

char *mallocCopy(const char *text) {
    size_t n = std::strlen(text);
    char *copy = static_cast<char *>(std::malloc(n + 1));
    if (!copy) throw std::bad_alloc();
    std::memcpy(copy, text, n + 1);
    return copy;
}

}  // namespace

struct ov_ort_session {
    OrtSession *session = nullptr;
    std::vector<IOInfo> inputs, outputs;
    std::vector<const char *> inputNames, outputNames;  // point into inputs/outputs[i].name
    ~ov_ort_session() { if (session) api().ReleaseSession(session); }
};

extern "C" {

ov_status ov_ort_load(const char *library_path) {
    return ov::guarded("ov_ort_load", [&]() -> ov_status {
        std::lock_guard<std::mutex> lock(loadMutex);
        return loadLocked(library_path);
    });
}

const char *ov_ort_version(void) { return loadedVersion.load(std::memory_order_acquire); }

ov_status ov_ort_session_create(const char *model_path, const ov_ort_options *options, ov_ort_session **out) {
    return ov::guarded("ov_ort_session_create", [&]() -> ov_status {
        if (out) *out = nullptr;
        if (!model_path || !*model_path || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no model path");
        ov_ort_options opts = options ? *options : ov_ort_options{0, 0, 99};
        if (opts.intra_op_threads < 0 || opts.inter_op_threads < 0)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "thread counts must be >= 0");
        int level = opts.graph_optimization_level;
        if (level != 0 && level != 1 && level != 2 && level != 99)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "graph_optimization_level must be 0, 1, 2 or 99, not " + std::to_string(level));
        if (ov_status status = ensureLoaded(); status != OV_OK) return status;
        const OrtApi &a = api();

        OrtSessionOptions *rawOptions = nullptr;
        OV_ORT_TRY(a.CreateSessionOptions(&rawOptions), OV_ERR_INTERNAL, "ONNX Runtime: session options");
        std::unique_ptr<OrtSessionOptions, ReleaseOptions> sessionOptions(rawOptions);
        OV_ORT_TRY(a.SetSessionGraphOptimizationLevel(rawOptions, static_cast<GraphOptimizationLevel>(level)),
                   OV_ERR_INVALID_ARGUMENT, "ONNX Runtime: graph optimization level");
        OV_ORT_TRY(a.SetIntraOpNumThreads(rawOptions, opts.intra_op_threads), OV_ERR_INVALID_ARGUMENT, "ONNX Runtime: intra-op threads");
        OV_ORT_TRY(a.SetInterOpNumThreads(rawOptions, opts.inter_op_threads), OV_ERR_INVALID_ARGUMENT, "ONNX Runtime: inter-op threads");

        auto session = std::make_unique<ov_ort_session>();
        std::string message;
        OrtErrorCode code = ORT_OK;
        if (!succeeded(a.CreateSession(runtime.env, model_path, rawOptions, &session->session), &message, &code)) {
            session->session = nullptr;
            return ov::fail(code == ORT_NOT_IMPLEMENTED ? OV_ERR_UNSUPPORTED : OV_ERR_MODEL,
                            std::string("cannot load ONNX model ") + model_path + ": " + message);
        }
        size_t inputCount = 0, outputCount = 0;
        OV_ORT_TRY(a.SessionGetInputCount(session->session, &inputCount), OV_ERR_MODEL, "ONNX Runtime: input count");
        OV_ORT_TRY(a.SessionGetOutputCount(session->session, &outputCount), OV_ERR_MODEL, "ONNX Runtime: output count");
        session->inputs.resize(inputCount);
        session->outputs.resize(outputCount);
        for (size_t i = 0; i < inputCount; ++i)
            if (ov_status s = readInfo(session->session, true, i, session->inputs[i]); s != OV_OK) return s;
        for (size_t i = 0; i < outputCount; ++i)
            if (ov_status s = readInfo(session->session, false, i, session->outputs[i]); s != OV_OK) return s;
        for (const IOInfo &info : session->inputs) session->inputNames.push_back(info.name.c_str());
        for (const IOInfo &info : session->outputs) session->outputNames.push_back(info.name.c_str());
        *out = session.release();
        return ov::ok();
    });
}

void ov_ort_session_free(ov_ort_session *session) { delete session; }

int ov_ort_input_count(const ov_ort_session *s) { return s ? static_cast<int>(s->inputs.size()) : 0; }
int ov_ort_output_count(const ov_ort_session *s) { return s ? static_cast<int>(s->outputs.size()) : 0; }

ov_status ov_ort_input_info(const ov_ort_session *s, int index, ov_tensor_info *out) {
    return ov::guarded("ov_ort_input_info", [&]() -> ov_status {
        if (!s || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no session or output");
        return fillInfo(s->inputs, index, "input", out);
    });
}

ov_status ov_ort_output_info(const ov_ort_session *s, int index, ov_tensor_info *out) {
    return ov::guarded("ov_ort_output_info", [&]() -> ov_status {
        if (!s || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no session or output");
        return fillInfo(s->outputs, index, "output", out);
    });
}

ov_status ov_ort_metadata(const ov_ort_session *s, const char *key, char **value) {
    return ov::guarded("ov_ort_metadata", [&]() -> ov_status {
        if (value) *value = nullptr;
        if (!s || !key || !value) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no session, key or value");
        const OrtApi &a = api();
        OrtModelMetadata *rawMetadata = nullptr;
        OV_ORT_TRY(a.SessionGetModelMetadata(s->session, &rawMetadata), OV_ERR_MODEL, "ONNX Runtime: model metadata");
        std::unique_ptr<OrtModelMetadata, ReleaseMetadata> metadata(rawMetadata);

        char *raw = nullptr;
        OV_ORT_TRY(a.ModelMetadataLookupCustomMetadataMap(rawMetadata, runtime.allocator, key, &raw), OV_ERR_MODEL,
                   "ONNX Runtime: model metadata");
        OrtString found(raw);
        if (found) {
            *value = mallocCopy(found.get());
            return ov::ok();
        }
        std::string k(key);
        if (k == "model_version") {
            int64_t version = 0;
            OV_ORT_TRY(a.ModelMetadataGetVersion(rawMetadata, &version), OV_ERR_MODEL, "ONNX Runtime: model version");
            // ORT reports an unset model_version as INT64_MAX.
            if (version != std::numeric_limits<int64_t>::max()) *value = mallocCopy(std::to_string(version).c_str());
            return ov::ok();
        }
        S (*getter)(const OrtModelMetadata *, OrtAllocator *, char **) noexcept = nullptr;
        if (k == "producer_name") getter = a.ModelMetadataGetProducerName;
        else if (k == "graph_name") getter = a.ModelMetadataGetGraphName;
        else if (k == "description") getter = a.ModelMetadataGetDescription;
        else if (k == "domain") getter = a.ModelMetadataGetDomain;
        if (getter) {
            raw = nullptr;
            OV_ORT_TRY(getter(rawMetadata, runtime.allocator, &raw), OV_ERR_MODEL, "ONNX Runtime: model metadata");
            OrtString standard(raw);
            if (standard && *standard) *value = mallocCopy(standard.get());
        }
        return ov::ok();
    });
}

ov_status ov_ort_run(ov_ort_session *s, int input_count, const float *const *inputs, const int64_t *const *shapes,
                     const int *ranks, ov_tensors **out) {
    return ov::guarded("ov_ort_run", [&]() -> ov_status {
        if (out) *out = nullptr;
        if (!s || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no session or output");
        const size_t n = s->inputs.size();
        if (input_count < 0 || static_cast<size_t>(input_count) != n)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "the model takes " + std::to_string(n) + " input(s), " +
                                                         std::to_string(input_count) + " given");
        if (n && (!inputs || !ranks)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no inputs or ranks");
        const OrtApi &a = api();

        // Validate everything before creating any ORT object.
        std::vector<size_t> counts(n);
        for (size_t i = 0; i < n; ++i) {
            const IOInfo &info = s->inputs[i];
            const std::string label = "input " + std::to_string(i) + " ('" + info.name + "')";
            if (info.valueType != ONNX_TYPE_TENSOR)
                return ov::fail(OV_ERR_UNSUPPORTED, label + " is not a tensor");
            if (info.elementType != T_FLOAT && info.elementType != T_FLOAT16 && info.elementType != T_DOUBLE &&
                info.elementType != T_INT64 && info.elementType != T_INT32 && info.elementType != T_UINT8 &&
                info.elementType != T_INT8)
                return ov::fail(OV_ERR_UNSUPPORTED, label + " has element type " + typeName(info.elementType) +
                                                        ", which cannot be fed from float32");
            const int rank = ranks[i];
            if (rank < 0 || rank > OV_TENSOR_MAX_RANK)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": rank " + std::to_string(rank) + " is out of range 0...8");
            if (rank > 0 && (!shapes || !shapes[i])) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": no shape");
            const int64_t *dims = rank > 0 ? shapes[i] : nullptr;
            for (int d = 0; d < rank; ++d)
                if (dims[d] < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": negative dimension in shape " + shapeText(dims, rank));
            // Model rank 0 may also mean "shape unknown": leave that to ORT.
            if (!info.shape.empty()) {
                bool match = info.shape.size() == static_cast<size_t>(rank);
                for (int d = 0; match && d < rank; ++d)
                    if (info.shape[d] >= 0 && info.shape[d] != dims[d]) match = false;
                if (!match)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": shape " + shapeText(dims, rank) +
                                                                 " does not match the model's " +
                                                                 shapeText(info.shape.data(), info.shape.size(), true));
            }
            try {
                counts[i] = elementCount(std::vector<int64_t>(dims, dims + rank));
            } catch (const std::invalid_argument &) {
                counts[i] = std::numeric_limits<size_t>::max();
            }
            if (counts[i] > std::numeric_limits<size_t>::max() / sizeof(double))
                return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": shape " + shapeText(dims, rank) + " is too large");
            if (counts[i] > 0 && !inputs[i]) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": no data");
        }

        std::vector<ValuePtr> values(n);
        std::vector<const OrtValue *> raw(n);
        std::vector<std::vector<unsigned char>> converted(n);
        static float emptyData = 0.0f;  // some ORT versions reject a NULL buffer even for 0 elements
        for (size_t i = 0; i < n; ++i) {
            const IOInfo &info = s->inputs[i];
            void *data = const_cast<float *>(inputs[i] ? inputs[i] : &emptyData);  // ORT never writes inputs
            size_t bytes = counts[i] * sizeof(float);
            if (info.elementType != T_FLOAT) {
                convertInput(inputs[i], counts[i], info.elementType, converted[i]);
                data = converted[i].empty() ? static_cast<void *>(&emptyData) : converted[i].data();
                bytes = converted[i].size();
            }
            OrtValue *value = nullptr;
            const int64_t *dims = ranks[i] > 0 ? shapes[i] : nullptr;
            OV_ORT_TRY(a.CreateTensorWithDataAsOrtValue(runtime.cpu, data, bytes, dims, static_cast<size_t>(ranks[i]),
                                                        static_cast<ONNXTensorElementDataType>(info.elementType), &value),
                       OV_ERR_INVALID_ARGUMENT, "ONNX Runtime: input " + std::to_string(i));
            values[i].reset(value);
            raw[i] = value;
        }

        const size_t m = s->outputs.size();
        std::vector<OrtValue *> rawOutputs(m, nullptr);
        std::string message;
        OrtErrorCode code = ORT_OK;
        OrtStatus *status = a.Run(s->session, nullptr, s->inputNames.data(), raw.data(), n, s->outputNames.data(), m,
                                  rawOutputs.data());
        std::vector<ValuePtr> outputs(m);
        for (size_t j = 0; j < m; ++j) outputs[j].reset(rawOutputs[j]);
        if (!succeeded(status, &message, &code))
            return ov::fail(code == ORT_INVALID_ARGUMENT ? OV_ERR_INVALID_ARGUMENT : OV_ERR_INTERNAL,
                            "ONNX Runtime run failed: " + message);

        auto result = std::make_unique<ov_tensors>();
        result->tensors.resize(m);
        for (size_t j = 0; j < m; ++j) {
            ov_tensors::Tensor &t = result->tensors[j];
            t.name = s->outputs[j].name;
            const std::string label = "output " + std::to_string(j) + " ('" + t.name + "')";
            if (!outputs[j]) return ov::fail(OV_ERR_INTERNAL, label + ": ONNX Runtime returned no value");
            ONNXType valueType = ONNX_TYPE_UNKNOWN;
            OV_ORT_TRY(a.GetValueType(outputs[j].get(), &valueType), OV_ERR_INTERNAL, label);
            if (valueType != ONNX_TYPE_TENSOR)
                return ov::fail(OV_ERR_UNSUPPORTED, label + " is not a tensor (sequence/map outputs are not supported)");
            OrtTensorTypeAndShapeInfo *rawShape = nullptr;
            OV_ORT_TRY(a.GetTensorTypeAndShape(outputs[j].get(), &rawShape), OV_ERR_INTERNAL, label);
            std::unique_ptr<OrtTensorTypeAndShapeInfo, ReleaseShape> shapeInfo(rawShape);
            ONNXTensorElementDataType type = T_UNDEFINED;
            size_t rank = 0, count = 0;
            OV_ORT_TRY(a.GetTensorElementType(rawShape, &type), OV_ERR_INTERNAL, label);
            OV_ORT_TRY(a.GetDimensionsCount(rawShape, &rank), OV_ERR_INTERNAL, label);
            t.shape.assign(rank, 0);
            if (rank) OV_ORT_TRY(a.GetDimensions(rawShape, t.shape.data(), rank), OV_ERR_INTERNAL, label);
            OV_ORT_TRY(a.GetTensorShapeElementCount(rawShape, &count), OV_ERR_INTERNAL, label);
            if (type != T_FLOAT && (type == T_STRING || elementSize(type) == 0))
                return ov::fail(OV_ERR_UNSUPPORTED, label + " has element type " + typeName(type) + ", not convertible to float32");
            t.count = count;
            if (count == 0) continue;
            void *data = nullptr;
            OV_ORT_TRY(a.GetTensorMutableData(outputs[j].get(), &data), OV_ERR_INTERNAL, label);
            if (!data) return ov::fail(OV_ERR_INTERNAL, label + ": ONNX Runtime returned no data");
            if (type == T_FLOAT) {
                // No copy: keep the OrtValue (and so its buffer) alive as long as the ov_tensors.
                t.data = static_cast<const float *>(data);
                result->owners.emplace_back(outputs[j].release(), ReleaseValue());
            } else {
                t.storage.resize(count);
                convertOutput(data, count, type, t.storage.data());
                t.data = t.storage.data();
                outputs[j].reset();
            }
        }
        *out = result.release();
        return ov::ok();
    });
}

int ov_tensors_count(const ov_tensors *t) { return t ? static_cast<int>(t->tensors.size()) : 0; }

const float *ov_tensors_data(const ov_tensors *t, int index, int *rank, const int64_t **shape, size_t *element_count) {
    if (!t || index < 0 || static_cast<size_t>(index) >= t->tensors.size()) {
        if (rank) *rank = 0;
        if (shape) *shape = nullptr;
        if (element_count) *element_count = 0;
        return nullptr;
    }
    const ov_tensors::Tensor &tensor = t->tensors[static_cast<size_t>(index)];
    if (rank) *rank = static_cast<int>(tensor.shape.size());
    if (shape) *shape = tensor.shape.data();
    if (element_count) *element_count = tensor.count;
    return tensor.data;
}

const char *ov_tensors_name(const ov_tensors *t, int index) {
    if (!t || index < 0 || static_cast<size_t>(index) >= t->tensors.size()) return "";
    return t->tensors[static_cast<size_t>(index)].name.c_str();
}

void ov_tensors_free(ov_tensors *t) { delete t; }

}  // extern "C"
