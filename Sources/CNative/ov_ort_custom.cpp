// Core ML custom layers (MLCustomLayer) on ONNX Runtime: a custom-op domain "org.openvision.coreml" with one operator,
// `CustomLayer` (variadic float32 inputs and outputs, int attribute `index`), whose kernel calls back into the app
// (ov_ort_custom_layer_fn) twice per run: for the output shapes, then to compute the outputs in place.
//
// Decisions
//   - OrtCustomOp is declared here (onnxruntime_c_api.h, microsoft/onnxruntime), up to the members of custom op
//     version 16, the first with CreateKernelV2/KernelComputeV2 (they return an OrtStatus, so a layer's error fails
//     the run with its message instead of crossing ORT as an exception). Members after KernelComputeV2 are only read
//     by ORT for versions >= 17 and stay null.
//   - No C++ exception leaves a callback ORT calls: each catches everything and answers with a status.
#include "ov_ort_api.hpp"

#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace ov::ort {

enum OrtCustomOpInputOutputCharacteristic : int { INPUT_OUTPUT_REQUIRED = 0, INPUT_OUTPUT_OPTIONAL, INPUT_OUTPUT_VARIADIC };

struct OrtCustomOp {
    uint32_t version;
    void *(*CreateKernel)(const OrtCustomOp *, const OrtApi *, const OrtKernelInfo *) noexcept;
    const char *(*GetName)(const OrtCustomOp *) noexcept;
    const char *(*GetExecutionProviderType)(const OrtCustomOp *) noexcept;
    ONNXTensorElementDataType (*GetInputType)(const OrtCustomOp *, size_t) noexcept;
    size_t (*GetInputTypeCount)(const OrtCustomOp *) noexcept;
    ONNXTensorElementDataType (*GetOutputType)(const OrtCustomOp *, size_t) noexcept;
    size_t (*GetOutputTypeCount)(const OrtCustomOp *) noexcept;
    void (*KernelCompute)(void *, OrtKernelContext *) noexcept;
    void (*KernelDestroy)(void *) noexcept;
    OrtCustomOpInputOutputCharacteristic (*GetInputCharacteristic)(const OrtCustomOp *, size_t) noexcept;
    OrtCustomOpInputOutputCharacteristic (*GetOutputCharacteristic)(const OrtCustomOp *, size_t) noexcept;
    OrtMemType (*GetInputMemoryType)(const OrtCustomOp *, size_t) noexcept;
    int (*GetVariadicInputMinArity)(const OrtCustomOp *) noexcept;
    int (*GetVariadicInputHomogeneity)(const OrtCustomOp *) noexcept;
    int (*GetVariadicOutputMinArity)(const OrtCustomOp *) noexcept;
    int (*GetVariadicOutputHomogeneity)(const OrtCustomOp *) noexcept;
    OrtStatus *(*CreateKernelV2)(const OrtCustomOp *, const OrtApi *, const OrtKernelInfo *, void **) noexcept;
    OrtStatus *(*KernelComputeV2)(void *, OrtKernelContext *) noexcept;
    void *InferOutputShapeFn;  // version >= 17: unused
    void *GetStartVersion;
    void *GetEndVersion;
    void *GetMayInplace;
    void *ReleaseMayInplace;
    void *GetAliasMap;
    void *ReleaseAliasMap;
};

namespace {

/// The operator of one session: ORT's table, then the app's callback.
struct LayerOp : OrtCustomOp {
    ov_ort_custom_layer_fn fn = nullptr;
    void *context = nullptr;
};

struct Kernel {
    const LayerOp *op;
    int64_t index;
};

OrtStatus *failure(const std::string &message) noexcept { return api().CreateStatus(ORT_RUNTIME_EXCEPTION, message.c_str()); }

/// Fails the kernel with ORT's message when `status` is an error.
#define OV_KERNEL_TRY(call, where)                                                      \
    do {                                                                                \
        std::string kernelMessage_;                                                     \
        if (!succeeded((call), &kernelMessage_)) return failure(std::string(where) + ": " + kernelMessage_); \
    } while (0)

OrtStatus *createKernel(const OrtCustomOp *op, const OrtApi *, const OrtKernelInfo *info, void **kernel) noexcept {
    try {
        int64_t index = -1;
        OV_KERNEL_TRY(api().KernelInfoGetAttribute_int64(info, "index", &index), "custom layer: attribute 'index'");
        if (index < 0) return failure("custom layer: negative attribute 'index'");
        *kernel = new Kernel{static_cast<const LayerOp *>(op), index};
        return nullptr;
    } catch (...) {
        return failure("custom layer: cannot create its kernel (out of memory)");
    }
}

/// Shape and data of one float32 tensor.
OrtStatus *describe(const OrtValue *value, const char *what, size_t i, ov_custom_tensor &out) noexcept {
    const OrtApi &a = api();
    OrtTensorTypeAndShapeInfo *raw = nullptr;
    OV_KERNEL_TRY(a.GetTensorTypeAndShape(value, &raw), "custom layer: tensor shape");
    std::unique_ptr<OrtTensorTypeAndShapeInfo, ReleaseShape> info(raw);
    ONNXTensorElementDataType type = T_UNDEFINED;
    size_t rank = 0;
    OV_KERNEL_TRY(a.GetTensorElementType(raw, &type), "custom layer: element type");
    OV_KERNEL_TRY(a.GetDimensionsCount(raw, &rank), "custom layer: rank");
    if (type != T_FLOAT)
        return failure(std::string("custom layer: ") + what + " " + std::to_string(i) + " is " + typeName(type) +
                       ", not float");
    if (rank > OV_TENSOR_MAX_RANK)
        return failure(std::string("custom layer: ") + what + " " + std::to_string(i) + " has rank " +
                       std::to_string(rank) + " (at most 8)");
    OV_KERNEL_TRY(a.GetDimensions(raw, out.shape, rank), "custom layer: dimensions");
    out.rank = static_cast<int>(rank);
    void *data = nullptr;
    OV_KERNEL_TRY(a.GetTensorMutableData(const_cast<OrtValue *>(value), &data), "custom layer: tensor data");
    out.data = static_cast<float *>(data);
    return nullptr;
}

OrtStatus *compute(void *kernelPointer, OrtKernelContext *context) noexcept {
    try {
        const Kernel &kernel = *static_cast<Kernel *>(kernelPointer);
        const OrtApi &a = api();
        size_t inputCount = 0, outputCount = 0;
        OV_KERNEL_TRY(a.KernelContext_GetInputCount(context, &inputCount), "custom layer: input count");
        OV_KERNEL_TRY(a.KernelContext_GetOutputCount(context, &outputCount), "custom layer: output count");
        std::vector<ov_custom_tensor> inputs(inputCount), outputs(outputCount);
        for (size_t i = 0; i < inputCount; ++i) {
            const OrtValue *value = nullptr;
            OV_KERNEL_TRY(a.KernelContext_GetInput(context, i, &value), "custom layer: input");
            if (!value) return failure("custom layer: input " + std::to_string(i) + " is missing");
            if (OrtStatus *s = describe(value, "input", i, inputs[i])) return s;
        }
        std::vector<char> message(1024, '\0');
        if (kernel.op->fn(kernel.op->context, kernel.index, 0, inputs.data(), inputCount, outputs.data(), outputCount,
                          message.data(), message.size()) != 0) {
            message.back() = '\0';
            return failure(message.data());
        }
        for (size_t j = 0; j < outputCount; ++j) {
            ov_custom_tensor &t = outputs[j];
            if (t.rank < 0 || t.rank > OV_TENSOR_MAX_RANK)
                return failure("custom layer: output " + std::to_string(j) + " has rank " + std::to_string(t.rank));
            for (int d = 0; d < t.rank; ++d)
                if (t.shape[d] < 0) return failure("custom layer: output " + std::to_string(j) + " has a negative dimension");
            OrtValue *value = nullptr;
            std::string why;
            if (!succeeded(a.KernelContext_GetOutput(context, j, t.shape, static_cast<size_t>(t.rank), &value), &why)) {
                if (isAllocationFailure(why)) return failure("custom layer: " + memoryLimitMessage() + " (" + why + ")");
                return failure("custom layer: output " + std::to_string(j) + ": " + why);
            }
            if (!value) return failure("custom layer: output " + std::to_string(j) + " was not allocated");
            void *data = nullptr;
            OV_KERNEL_TRY(a.GetTensorMutableData(value, &data), "custom layer: output data");
            t.data = static_cast<float *>(data);
        }
        if (kernel.op->fn(kernel.op->context, kernel.index, 1, inputs.data(), inputCount, outputs.data(), outputCount,
                          message.data(), message.size()) != 0) {
            message.back() = '\0';
            return failure(message.data());
        }
        return nullptr;
    } catch (const std::exception &e) {
        return failure(std::string("custom layer: ") + e.what());
    } catch (...) {
        return failure("custom layer: unknown error");
    }
}

void destroyKernel(void *kernel) noexcept { delete static_cast<Kernel *>(kernel); }
const char *opName(const OrtCustomOp *) noexcept { return "CustomLayer"; }
const char *provider(const OrtCustomOp *) noexcept { return nullptr; }  // CPU
ONNXTensorElementDataType floatType(const OrtCustomOp *, size_t) noexcept { return T_FLOAT; }
size_t one(const OrtCustomOp *) noexcept { return 1; }
OrtCustomOpInputOutputCharacteristic variadic(const OrtCustomOp *, size_t) noexcept { return INPUT_OUTPUT_VARIADIC; }
OrtMemType cpuMemory(const OrtCustomOp *, size_t) noexcept { return OrtMemTypeDefault; }
int arityOne(const OrtCustomOp *) noexcept { return 1; }
int homogeneous(const OrtCustomOp *) noexcept { return 1; }

}  // namespace

struct CustomLayerDomain {
    LayerOp op{};
    OrtCustomOpDomain *domain = nullptr;
    ~CustomLayerDomain() { if (domain) api().ReleaseCustomOpDomain(domain); }
};

void DeleteCustomLayerDomain::operator()(CustomLayerDomain *d) const noexcept { delete d; }

ov_status addCustomLayers(OrtSessionOptions *options, ov_ort_custom_layer_fn fn, void *context,
                          CustomLayerDomainPtr &out) {
    if (!fn) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no custom layer callback");
    const OrtApi &a = api();
    CustomLayerDomainPtr holder(new CustomLayerDomain());
    LayerOp &op = holder->op;
    op.version = 16;
    op.CreateKernel = nullptr;
    op.GetName = opName;
    op.GetExecutionProviderType = provider;
    op.GetInputType = floatType;
    op.GetInputTypeCount = one;
    op.GetOutputType = floatType;
    op.GetOutputTypeCount = one;
    op.KernelDestroy = destroyKernel;
    op.GetInputCharacteristic = variadic;
    op.GetOutputCharacteristic = variadic;
    op.GetInputMemoryType = cpuMemory;
    op.GetVariadicInputMinArity = arityOne;
    op.GetVariadicInputHomogeneity = homogeneous;
    op.GetVariadicOutputMinArity = arityOne;
    op.GetVariadicOutputHomogeneity = homogeneous;
    op.CreateKernelV2 = createKernel;
    op.KernelComputeV2 = compute;
    op.fn = fn;
    op.context = context;
    OV_ORT_TRY(a.CreateCustomOpDomain("org.openvision.coreml", &holder->domain), OV_ERR_INTERNAL,
               "ONNX Runtime: custom layer domain");
    OV_ORT_TRY(a.CustomOpDomain_Add(holder->domain, &op), OV_ERR_INTERNAL, "ONNX Runtime: custom layer operator");
    OV_ORT_TRY(a.AddCustomOpDomain(options, holder->domain), OV_ERR_INTERNAL, "ONNX Runtime: custom layer domain");
    out = std::move(holder);
    return ov::ok();
}

}  // namespace ov::ort
