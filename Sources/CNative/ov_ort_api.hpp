// Internal to the ONNX Runtime files of CNative (ov_ort_loader.cpp, ov_ort_dtype.cpp, ov_ort_session.cpp):
// the part of ORT's C API we call, declared by hand (the wheel ships no headers), and the process-wide
// runtime the loader fills in.
//
// Decisions
//   - Only a prefix of OrtApi is declared (members 0...157, all part of API 14): OrtApi is
//     append-only, so the prefix is valid for any library serving OV_ORT_API_VERSION (14). The
//     static_asserts below pin every member we call to its index.
//   - Everything is in namespace ov::ort.
#pragma once

#include "ov_internal.hpp"
#include "ov_onnxruntime.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// ---------------------------------------------------------------------------------------------
// The ORT C API subset, from include/onnxruntime/core/session/onnxruntime_c_api.h
// (microsoft/onnxruntime). OrtApi is append-only: member N is the N-th function pointer for every
// API version, so the prefix below (members 0...157, all part of API 14) is valid for any
// library serving OV_ORT_API_VERSION. Unused members are `void *` placeholders, one per member.

namespace ov::ort {

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
struct OrtThreadingOptions;
struct OrtArenaCfg;
struct OrtCustomOpDomain;
struct OrtCustomOp;  // ov_ort_custom.cpp declares it
struct OrtKernelInfo;
struct OrtKernelContext;

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
enum ONNXType : int { ONNX_TYPE_UNKNOWN = 0, ONNX_TYPE_TENSOR = 1, ONNX_TYPE_SEQUENCE = 2, ONNX_TYPE_MAP = 3 };
enum OrtLoggingLevel : int { ORT_LOGGING_LEVEL_VERBOSE = 0, ORT_LOGGING_LEVEL_WARNING = 2, ORT_LOGGING_LEVEL_ERROR = 3 };
/// ORT's logging callback (onnxruntime_c_api.h): param, severity, category, logid, code location, message.
using OrtLoggingFunction = void (*)(void *, OrtLoggingLevel, const char *, const char *, const char *, const char *);
enum GraphOptimizationLevel : int {};
enum OrtAllocatorType : int { OrtDeviceAllocator = 0, OrtArenaAllocator = 1 };
enum OrtMemType : int { OrtMemTypeDefault = 0 };

using S = OrtStatus *;  // every OrtStatus-returning function: NULL = success

struct OrtApi {
    OrtStatus *(*CreateStatus)(OrtErrorCode, const char *) noexcept;                    //   0
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
    S (*SetSessionLogSeverityLevel)(OrtSessionOptions *, int) noexcept;                  //  22
    S (*SetSessionGraphOptimizationLevel)(OrtSessionOptions *, GraphOptimizationLevel) noexcept;  // 23
    S (*SetIntraOpNumThreads)(OrtSessionOptions *, int) noexcept;                        //  24
    S (*SetInterOpNumThreads)(OrtSessionOptions *, int) noexcept;                        //  25
    S (*CreateCustomOpDomain)(const char *, OrtCustomOpDomain **) noexcept;              //  26
    S (*CustomOpDomain_Add)(OrtCustomOpDomain *, const OrtCustomOp *) noexcept;          //  27
    S (*AddCustomOpDomain)(OrtSessionOptions *, OrtCustomOpDomain *) noexcept;           //  28
    void *RegisterCustomOpsLibrary;                                                      //  29
    S (*SessionGetInputCount)(const OrtSession *, size_t *) noexcept;                    //  30
    S (*SessionGetOutputCount)(const OrtSession *, size_t *) noexcept;                   //  31
    S (*SessionGetOverridableInitializerCount)(const OrtSession *, size_t *) noexcept;   //  32
    S (*SessionGetInputTypeInfo)(const OrtSession *, size_t, OrtTypeInfo **) noexcept;   //  33
    S (*SessionGetOutputTypeInfo)(const OrtSession *, size_t, OrtTypeInfo **) noexcept;  //  34
    S (*SessionGetOverridableInitializerTypeInfo)(const OrtSession *, size_t, OrtTypeInfo **) noexcept;  // 35
    S (*SessionGetInputName)(const OrtSession *, size_t, OrtAllocator *, char **) noexcept;   // 36
    S (*SessionGetOutputName)(const OrtSession *, size_t, OrtAllocator *, char **) noexcept;  // 37
    S (*SessionGetOverridableInitializerName)(const OrtSession *, size_t, OrtAllocator *, char **) noexcept;  // 38
    void *CreateRunOptions;                                                              //  39
    void *RunOptionsSetRunLogVerbosityLevel;                                             //  40
    void *RunOptionsSetRunLogSeverityLevel;                                              //  41
    void *RunOptionsSetRunTag;                                                           //  42
    void *RunOptionsGetRunLogVerbosityLevel;                                             //  43
    void *RunOptionsGetRunLogSeverityLevel;                                              //  44
    void *RunOptionsGetRunTag;                                                           //  45
    void *RunOptionsSetTerminate;                                                        //  46
    void *RunOptionsUnsetTerminate;                                                      //  47
    S (*CreateTensorAsOrtValue)(OrtAllocator *, const int64_t *, size_t, ONNXTensorElementDataType,
                                OrtValue **) noexcept;                                   //  48
    S (*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *, void *, size_t, const int64_t *, size_t,
                                        ONNXTensorElementDataType, OrtValue **) noexcept;  // 49
    void *IsTensor;                                                                      //  50
    S (*GetTensorMutableData)(OrtValue *, void **) noexcept;                             //  51
    S (*FillStringTensor)(OrtValue *, const char *const *, size_t) noexcept;             //  52
    S (*GetStringTensorDataLength)(const OrtValue *, size_t *) noexcept;                 //  53
    S (*GetStringTensorContent)(const OrtValue *, void *, size_t, size_t *, size_t) noexcept;  // 54
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
    S (*CreateValue)(const OrtValue *const *, size_t, ONNXType, OrtValue **) noexcept;   //  82
    void *CreateOpaqueValue;                                                             //  83
    void *GetOpaqueValue;                                                                //  84
    void *KernelInfoGetAttribute_float;                                                  //  85
    S (*KernelInfoGetAttribute_int64)(const OrtKernelInfo *, const char *, int64_t *) noexcept;  // 86
    void *KernelInfoGetAttribute_string;                                                 //  87
    S (*KernelContext_GetInputCount)(const OrtKernelContext *, size_t *) noexcept;       //  88
    S (*KernelContext_GetOutputCount)(const OrtKernelContext *, size_t *) noexcept;      //  89
    S (*KernelContext_GetInput)(const OrtKernelContext *, size_t, const OrtValue **) noexcept;  // 90
    S (*KernelContext_GetOutput)(OrtKernelContext *, size_t, const int64_t *, size_t, OrtValue **) noexcept;  // 91
    void *ReleaseEnv;                                                                    //  92
    void (*ReleaseStatus)(OrtStatus *) noexcept;                                         //  93
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *) noexcept;                                 //  94
    void (*ReleaseSession)(OrtSession *) noexcept;                                       //  95
    void (*ReleaseValue)(OrtValue *) noexcept;                                           //  96
    void *ReleaseRunOptions;                                                             //  97
    void (*ReleaseTypeInfo)(OrtTypeInfo *) noexcept;                                     //  98
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *) noexcept;         //  99
    void (*ReleaseSessionOptions)(OrtSessionOptions *) noexcept;                         // 100
    void (*ReleaseCustomOpDomain)(OrtCustomOpDomain *) noexcept;                         // 101
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
    S (*CreateEnvWithGlobalThreadPools)(OrtLoggingLevel, const char *, const OrtThreadingOptions *,
                                        OrtEnv **) noexcept;                             // 119
    S (*DisablePerSessionThreads)(OrtSessionOptions *) noexcept;                         // 120
    S (*CreateThreadingOptions)(OrtThreadingOptions **) noexcept;                        // 121
    void (*ReleaseThreadingOptions)(OrtThreadingOptions *) noexcept;                     // 122
    void *ModelMetadataGetCustomMetadataMapKeys;                                         // 123
    void *AddFreeDimensionOverrideByName;                                                // 124
    void *GetAvailableProviders;                                                         // 125
    void *ReleaseAvailableProviders;                                                     // 126
    void *GetStringTensorElementLength;                                                  // 127
    void *GetStringTensorElement;                                                        // 128
    void *FillStringTensorElement;                                                       // 129
    S (*AddSessionConfigEntry)(OrtSessionOptions *, const char *, const char *) noexcept;  // 130
    void *CreateAllocator;                                                               // 131
    void *ReleaseAllocator;                                                              // 132
    void *RunWithBinding;                                                                // 133
    void *CreateIoBinding;                                                               // 134
    void *ReleaseIoBinding;                                                              // 135
    void *BindInput;                                                                     // 136
    void *BindOutput;                                                                    // 137
    void *BindOutputToDevice;                                                            // 138
    void *GetBoundOutputNames;                                                           // 139
    void *GetBoundOutputValues;                                                          // 140
    void *ClearBoundInputs;                                                              // 141
    void *ClearBoundOutputs;                                                             // 142
    void *TensorAt;                                                                      // 143
    S (*CreateAndRegisterAllocator)(OrtEnv *, const OrtMemoryInfo *, const OrtArenaCfg *) noexcept;  // 144
    void *SetLanguageProjection;                                                         // 145
    void *SessionGetProfilingStartTimeNs;                                                // 146
    S (*SetGlobalIntraOpNumThreads)(OrtThreadingOptions *, int) noexcept;                // 147
    S (*SetGlobalInterOpNumThreads)(OrtThreadingOptions *, int) noexcept;                // 148
    S (*SetGlobalSpinControl)(OrtThreadingOptions *, int) noexcept;                      // 149
    void *AddInitializer;                                                                // 150
    S (*CreateEnvWithCustomLoggerAndGlobalThreadPools)(OrtLoggingFunction, void *, OrtLoggingLevel, const char *,
                                                       const OrtThreadingOptions *, OrtEnv **) noexcept;  // 151
    void *SessionOptionsAppendExecutionProvider_CUDA;                                    // 152
    void *SessionOptionsAppendExecutionProvider_ROCM;                                    // 153
    void *SessionOptionsAppendExecutionProvider_OpenVINO;                                // 154
    void *SetGlobalDenormalAsZero;                                                       // 155
    S (*CreateArenaCfg)(size_t, int, int, int, OrtArenaCfg **) noexcept;                 // 156
    void (*ReleaseArenaCfg)(OrtArenaCfg *) noexcept;                                     // 157
};

struct OrtApiBase {
    const OrtApi *(*GetApi)(uint32_t version) noexcept;
    const char *(*GetVersionString)() noexcept;
};

#define OV_ORT_SLOT(member, index) \
    static_assert(offsetof(OrtApi, member) == (index) * sizeof(void *), "OrtApi::" #member " is not member " #index)
OV_ORT_SLOT(CreateStatus, 0);
OV_ORT_SLOT(GetErrorCode, 1);
OV_ORT_SLOT(CreateCustomOpDomain, 26);
OV_ORT_SLOT(CustomOpDomain_Add, 27);
OV_ORT_SLOT(AddCustomOpDomain, 28);
OV_ORT_SLOT(KernelInfoGetAttribute_int64, 86);
OV_ORT_SLOT(KernelContext_GetInputCount, 88);
OV_ORT_SLOT(KernelContext_GetOutputCount, 89);
OV_ORT_SLOT(KernelContext_GetInput, 90);
OV_ORT_SLOT(KernelContext_GetOutput, 91);
OV_ORT_SLOT(ReleaseCustomOpDomain, 101);
OV_ORT_SLOT(GetErrorMessage, 2);
OV_ORT_SLOT(CreateEnv, 3);
OV_ORT_SLOT(CreateSession, 7);
OV_ORT_SLOT(Run, 9);
OV_ORT_SLOT(CreateSessionOptions, 10);
OV_ORT_SLOT(SetSessionLogSeverityLevel, 22);
OV_ORT_SLOT(SetSessionGraphOptimizationLevel, 23);
OV_ORT_SLOT(SetIntraOpNumThreads, 24);
OV_ORT_SLOT(SetInterOpNumThreads, 25);
OV_ORT_SLOT(SessionGetInputCount, 30);
OV_ORT_SLOT(SessionGetOutputCount, 31);
OV_ORT_SLOT(SessionGetInputTypeInfo, 33);
OV_ORT_SLOT(SessionGetOutputTypeInfo, 34);
OV_ORT_SLOT(SessionGetInputName, 36);
OV_ORT_SLOT(SessionGetOutputName, 37);
OV_ORT_SLOT(CreateTensorAsOrtValue, 48);
OV_ORT_SLOT(CreateTensorWithDataAsOrtValue, 49);
OV_ORT_SLOT(GetTensorMutableData, 51);
OV_ORT_SLOT(FillStringTensor, 52);
OV_ORT_SLOT(GetStringTensorDataLength, 53);
OV_ORT_SLOT(GetStringTensorContent, 54);
OV_ORT_SLOT(CastTypeInfoToTensorInfo, 55);
OV_ORT_SLOT(GetOnnxTypeFromTypeInfo, 56);
OV_ORT_SLOT(GetTensorElementType, 60);
OV_ORT_SLOT(GetDimensionsCount, 61);
OV_ORT_SLOT(GetDimensions, 62);
OV_ORT_SLOT(GetTensorShapeElementCount, 64);
OV_ORT_SLOT(GetTensorTypeAndShape, 65);
OV_ORT_SLOT(GetValueType, 67);
OV_ORT_SLOT(CreateCpuMemoryInfo, 69);
OV_ORT_SLOT(CreateValue, 82);
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
OV_ORT_SLOT(CreateEnvWithGlobalThreadPools, 119);
OV_ORT_SLOT(DisablePerSessionThreads, 120);
OV_ORT_SLOT(CreateThreadingOptions, 121);
OV_ORT_SLOT(ReleaseThreadingOptions, 122);
OV_ORT_SLOT(AddSessionConfigEntry, 130);
OV_ORT_SLOT(SessionGetProfilingStartTimeNs, 146);
OV_ORT_SLOT(SetGlobalIntraOpNumThreads, 147);
OV_ORT_SLOT(SetGlobalInterOpNumThreads, 148);
OV_ORT_SLOT(CreateEnvWithCustomLoggerAndGlobalThreadPools, 151);
OV_ORT_SLOT(SetGlobalSpinControl, 149);
OV_ORT_SLOT(CreateAndRegisterAllocator, 144);
OV_ORT_SLOT(CreateArenaCfg, 156);
OV_ORT_SLOT(ReleaseArenaCfg, 157);
static_assert(sizeof(OrtApi) == 158 * sizeof(void *), "OrtApi prefix must have 158 members");
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

extern Runtime runtime;                         // guarded by the loader's mutex until `api` is published
extern std::atomic<const OrtApi *> loadedApi;
extern const char *const kFix;                  // the fix named in load errors

inline const OrtApi &api() { return *loadedApi.load(std::memory_order_acquire); }

/// Loads the library with the default path (ov_ort_load(NULL)) unless it is loaded.
ov_status ensureLoaded();

/// ONNX Runtime's log severity for the environment and every session: errors only (3) by default, so
/// old-style models (initializers listed as graph inputs) don't print a warning a weight on every
/// load; OPENVISION_ORT_LOG_LEVEL=verbose|info|warning|error|fatal (or 0...4) changes it (the CLI's
/// --verbose sets warning). Read when first needed.
int logSeverity();

/// Takes ownership of `status`: NULL means success (returns true); otherwise fills message/code,
/// releases it and returns false.
bool succeeded(OrtStatus *status, std::string *message = nullptr, OrtErrorCode *code = nullptr);

/// True when ORT's `message` says an allocation failed (its arena refused one past the model memory
/// limit, or the system had no memory).
bool isAllocationFailure(const std::string &message);

/// "the model needs more memory than the N MiB model memory limit (OPENVISION_MODEL_MEMORY_LIMIT)".
std::string memoryLimitMessage();

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

// ------------------------------------------------------------------ element types (ov_ort_dtype.cpp)

/// Bytes per element of ORT type `type`; 0 for strings and unknown types.
size_t elementSize(int type);
/// "float", "int64", ... ("undefined" if unknown).
const char *typeName(int type);
/// Converts float32 input data to the model's element type into `buffer`; false if unsupported.
bool convertInput(const float *src, size_t n, int type, std::vector<unsigned char> &buffer);
/// Converts n elements of ORT type `type` to float32; false if unsupported.
bool convertOutput(const void *src, size_t n, int type, float *dst);

// ------------------------------------------------------------------ custom layers (ov_ort_custom.cpp)

/// The custom-op domain of a session whose graph has Core ML custom layers: one `CustomLayer` operator whose kernel
/// calls the app's code through `ov_ort_custom_layer_fn`. Must outlive the session.
struct CustomLayerDomain;
struct DeleteCustomLayerDomain { void operator()(CustomLayerDomain *d) const noexcept; };
using CustomLayerDomainPtr = std::unique_ptr<CustomLayerDomain, DeleteCustomLayerDomain>;

/// Registers the custom-layer domain on `options`, calling `fn(context, …)` for each run of a layer.
ov_status addCustomLayers(OrtSessionOptions *options, ov_ort_custom_layer_fn fn, void *context,
                          CustomLayerDomainPtr &out);

}  // namespace ov::ort
