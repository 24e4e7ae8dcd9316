// ONNX Runtime sessions (ov_ort_session_*, ov_ort_input/output_*, ov_ort_metadata, ov_ort_run): a CPU
// session per model file, its inputs and outputs read once at creation, and runs that take and return
// float32.
//
// Decisions
//   - Input shapes are checked against the model's rank and fixed dimensions before ORT runs, so a
//     wrong shape is OV_ERR_INVALID_ARGUMENT with both shapes in the message, not an ORT error.
//   - float32 inputs are wrapped without copying; other declared types are converted (ov_ort_dtype.cpp).
//     float32 outputs are not copied either: the ov_tensors keeps ORT's OrtValue alive.
//   - Metadata: the custom map first, then the standard fields (an empty field counts as absent).
//   - Concurrent runs on one session are allowed (ORT's Run is thread-safe); the session's I/O lists are
//     read-only after creation.
//   - Tensors come from the process's capped arena (ov_ort_loader.cpp; "session.use_env_allocators"),
//     weights from the plain CPU allocator ("session.use_device_allocator_for_initializers"), so the
//     cap bounds working memory, not the model's file-sized weights. An allocation the arena refuses,
//     at load (constant folding) or in a run, is OV_ERR_OUT_OF_MEMORY naming the limit.
#include "ov_ort_api.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

using namespace ov::ort;
using ov::elementCount;

namespace {

struct IOInfo {
    std::string name;
    int valueType = ONNX_TYPE_UNKNOWN;   // ONNXType
    int elementType = T_UNDEFINED;       // ONNXTensorElementDataType (tensors only)
    std::vector<int64_t> shape;          // -1 = dynamic
};

/// "[2, 3]"; a model's dynamic (negative) dimensions print as "?" when `model` is set.
std::string shapeText(const int64_t *dims, size_t rank, bool model = false) {
    std::string s = "[";
    for (size_t i = 0; i < rank; ++i) {
        if (i) s += ", ";
        s += model && dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
    }
    return s + "]";
}

enum class Kind { input, output, overridable };

ov_status readInfo(const OrtSession *session, Kind kind, size_t index, IOInfo &info) {
    const OrtApi &a = api();
    const char *where = kind == Kind::input ? "ONNX Runtime: reading model input"
                      : kind == Kind::output ? "ONNX Runtime: reading model output" : "ONNX Runtime: reading an overridable initializer";
    char *rawName = nullptr;
    OV_ORT_TRY((kind == Kind::input ? a.SessionGetInputName : kind == Kind::output ? a.SessionGetOutputName
                : a.SessionGetOverridableInitializerName)(session, index, runtime.allocator, &rawName),
               OV_ERR_MODEL, where);
    OrtString name(rawName);
    info.name = rawName ? rawName : "";

    OrtTypeInfo *rawType = nullptr;
    OV_ORT_TRY((kind == Kind::input ? a.SessionGetInputTypeInfo : kind == Kind::output ? a.SessionGetOutputTypeInfo
                : a.SessionGetOverridableInitializerTypeInfo)(session, index, &rawType), OV_ERR_MODEL, where);
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
    // Released after the session (members are destroyed after the destructor's body).
    CustomLayerDomainPtr customLayers;
    OrtSession *session = nullptr;
    std::vector<IOInfo> inputs, outputs, overridables;
    std::vector<const char *> inputNames, outputNames;  // point into inputs/outputs[i].name
    ~ov_ort_session() { if (session) api().ReleaseSession(session); }
};

extern "C" {

namespace {
ov_status createSession(const char *model_path, const ov_ort_options *options, ov_ort_custom_layer_fn layers,
                        void *layerContext, ov_ort_session **out) {
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
        OV_ORT_TRY(a.SetSessionLogSeverityLevel(rawOptions, logSeverity()), OV_ERR_INTERNAL, "ONNX Runtime: log severity");
        OV_ORT_TRY(a.AddSessionConfigEntry(rawOptions, "session.use_env_allocators", "1"), OV_ERR_INTERNAL,
                   "ONNX Runtime: shared arena");
        OV_ORT_TRY(a.AddSessionConfigEntry(rawOptions, "session.use_device_allocator_for_initializers", "1"), OV_ERR_INTERNAL,
                   "ONNX Runtime: weights allocator");
        if (opts.intra_op_threads == 0) {
            // The process-wide pool (ov_ort_loader.cpp): sessions of a pipeline do not compete for the cores.
            OV_ORT_TRY(a.DisablePerSessionThreads(rawOptions), OV_ERR_INTERNAL, "ONNX Runtime: shared thread pool");
        } else {
            OV_ORT_TRY(a.SetIntraOpNumThreads(rawOptions, opts.intra_op_threads), OV_ERR_INVALID_ARGUMENT, "ONNX Runtime: intra-op threads");
            OV_ORT_TRY(a.SetInterOpNumThreads(rawOptions, opts.inter_op_threads), OV_ERR_INVALID_ARGUMENT, "ONNX Runtime: inter-op threads");
        }

        auto session = std::make_unique<ov_ort_session>();
        if (layers)
            if (ov_status s = addCustomLayers(rawOptions, layers, layerContext, session->customLayers); s != OV_OK)
                return s;
        std::string message;
        OrtErrorCode code = ORT_OK;
        if (!succeeded(a.CreateSession(runtime.env, model_path, rawOptions, &session->session), &message, &code)) {
            session->session = nullptr;
            if (isAllocationFailure(message))
                return ov::fail(OV_ERR_OUT_OF_MEMORY, std::string("cannot load ONNX model ") + model_path + ": " +
                                                          memoryLimitMessage() + " (" + message + ")");
            return ov::fail(code == ORT_NOT_IMPLEMENTED ? OV_ERR_UNSUPPORTED : OV_ERR_MODEL,
                            std::string("cannot load ONNX model ") + model_path + ": " + message);
        }
        size_t inputCount = 0, outputCount = 0;
        OV_ORT_TRY(a.SessionGetInputCount(session->session, &inputCount), OV_ERR_MODEL, "ONNX Runtime: input count");
        OV_ORT_TRY(a.SessionGetOutputCount(session->session, &outputCount), OV_ERR_MODEL, "ONNX Runtime: output count");
        session->inputs.resize(inputCount);
        session->outputs.resize(outputCount);
        for (size_t i = 0; i < inputCount; ++i)
            if (ov_status s = readInfo(session->session, Kind::input, i, session->inputs[i]); s != OV_OK) return s;
        for (size_t i = 0; i < outputCount; ++i)
            if (ov_status s = readInfo(session->session, Kind::output, i, session->outputs[i]); s != OV_OK) return s;
        size_t overridableCount = 0;
        OV_ORT_TRY(a.SessionGetOverridableInitializerCount(session->session, &overridableCount), OV_ERR_MODEL,
                   "ONNX Runtime: overridable initializer count");
        session->overridables.resize(overridableCount);
        for (size_t i = 0; i < overridableCount; ++i)
            if (ov_status s = readInfo(session->session, Kind::overridable, i, session->overridables[i]); s != OV_OK) return s;
        for (const IOInfo &info : session->inputs) session->inputNames.push_back(info.name.c_str());
        for (const IOInfo &info : session->outputs) session->outputNames.push_back(info.name.c_str());
        *out = session.release();
        return ov::ok();
    });
}
}  // namespace

ov_status ov_ort_session_create(const char *model_path, const ov_ort_options *options, ov_ort_session **out) {
    return createSession(model_path, options, nullptr, nullptr, out);
}

ov_status ov_ort_session_create_custom(const char *model_path, const ov_ort_options *options,
                                       ov_ort_custom_layer_fn fn, void *context, ov_ort_session **out) {
    if (!fn) {
        if (out) *out = nullptr;
        return ov::fail(OV_ERR_INVALID_ARGUMENT, "no custom layer callback");
    }
    return createSession(model_path, options, fn, context, out);
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

int ov_ort_overridable_count(const ov_ort_session *s) { return s ? static_cast<int>(s->overridables.size()) : 0; }

ov_status ov_ort_overridable_info(const ov_ort_session *s, int index, ov_tensor_info *out) {
    return ov::guarded("ov_ort_overridable_info", [&]() -> ov_status {
        if (!s || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no session or output");
        return fillInfo(s->overridables, index, "overridable initializer", out);
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
    return ov_ort_run_overriding(s, input_count, inputs, shapes, ranks, 0, nullptr, nullptr, out);
}

ov_status ov_ort_run_overriding(ov_ort_session *s, int input_count, const float *const *inputs, const int64_t *const *shapes,
                                const int *ranks, int override_count, const char *const *override_names,
                                const float *override_values, ov_tensors **out) {
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

        // Overridden initializers: one value each, in the initializer's element type and shape.
        if (override_count < 0 || (override_count > 0 && (!override_names || !override_values)))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "no override names or values");
        std::vector<const char *> names(s->inputNames);
        std::vector<std::vector<unsigned char>> overrideData(static_cast<size_t>(override_count));
        for (int k = 0; k < override_count; ++k) {
            const char *name = override_names[k] ? override_names[k] : "";
            auto found = std::find_if(s->overridables.begin(), s->overridables.end(),
                                      [&](const IOInfo &info) { return info.name == name; });
            if (found == s->overridables.end())
                return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string("'") + name + "' is not an overridable initializer of the model");
            size_t count = 1;
            for (int64_t d : found->shape) count *= static_cast<size_t>(d < 0 ? 1 : d);
            if (found->valueType != ONNX_TYPE_TENSOR || count != 1)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string("'") + name + "' does not hold a single value");
            void *data = const_cast<float *>(&override_values[k]);
            size_t bytes = sizeof(float);
            if (found->elementType != T_FLOAT) {
                convertInput(&override_values[k], 1, found->elementType, overrideData[static_cast<size_t>(k)]);
                data = overrideData[static_cast<size_t>(k)].data();
                bytes = overrideData[static_cast<size_t>(k)].size();
            }
            OrtValue *value = nullptr;
            OV_ORT_TRY(a.CreateTensorWithDataAsOrtValue(runtime.cpu, data, bytes, found->shape.data(), found->shape.size(),
                                                        static_cast<ONNXTensorElementDataType>(found->elementType), &value),
                       OV_ERR_INVALID_ARGUMENT, std::string("ONNX Runtime: override ") + name);
            values.emplace_back(value);
            raw.push_back(value);
            names.push_back(found->name.c_str());
        }

        const size_t m = s->outputs.size();
        std::vector<OrtValue *> rawOutputs(m, nullptr);
        std::string message;
        OrtErrorCode code = ORT_OK;
        OrtStatus *status = a.Run(s->session, nullptr, names.data(), raw.data(), raw.size(), s->outputNames.data(), m,
                                  rawOutputs.data());
        std::vector<ValuePtr> outputs(m);
        for (size_t j = 0; j < m; ++j) outputs[j].reset(rawOutputs[j]);
        if (!succeeded(status, &message, &code)) {
            if (isAllocationFailure(message))
                return ov::fail(OV_ERR_OUT_OF_MEMORY, "ONNX Runtime run failed: " + memoryLimitMessage() + " (" + message + ")");
            return ov::fail(code == ORT_INVALID_ARGUMENT ? OV_ERR_INVALID_ARGUMENT : OV_ERR_INTERNAL,
                            "ONNX Runtime run failed: " + message);
        }

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

}  // extern "C"

// ---------------------------------------------------------------------------------------------
// Typed runs (ov_ort_run_values): inputs by name in their own element types, ONNX-ML maps, string tensors;
// outputs in their own element types. Numeric inputs are wrapped without copying; numeric outputs keep ORT's
// buffer alive (no copy); strings are copied out.

struct ov_values {
    struct Value {
        std::string name;
        int elementType = 0;
        std::vector<int64_t> shape;
        size_t count = 0;
        const void *data = nullptr;
        std::vector<std::string> strings;
        std::vector<const char *> stringPointers;
        std::vector<size_t> lengths;
    };
    std::vector<Value> values;
    std::vector<ValuePtr> owners;  // the OrtValues numeric `data` points into
};

namespace {

/// A string tensor (or map keys) of `count` strings, made by ORT's allocator and filled (ORT copies them).
ov_status stringTensor(const char *const *strings, size_t count, const int64_t *dims, size_t rank, const std::string &label,
                       ValuePtr &out) {
    const OrtApi &a = api();
    for (size_t k = 0; k < count; ++k)
        if (!strings[k]) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": string " + std::to_string(k) + " is missing");
    OrtValue *value = nullptr;
    OV_ORT_TRY(a.CreateTensorAsOrtValue(runtime.allocator, dims, rank, T_STRING, &value), OV_ERR_INVALID_ARGUMENT, label);
    out.reset(value);
    if (count) OV_ORT_TRY(a.FillStringTensor(value, strings, count), OV_ERR_INVALID_ARGUMENT, label);
    return ov::ok();
}

}  // namespace

extern "C" {

ov_status ov_ort_run_values(ov_ort_session *s, int input_count, const ov_ort_value *inputs, ov_values **out) {
    return ov::guarded("ov_ort_run_values", [&]() -> ov_status {
        if (out) *out = nullptr;
        if (!s || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no session or output");
        if (input_count < 0 || (input_count > 0 && !inputs)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no inputs");
        const OrtApi &a = api();
        const size_t n = s->inputs.size();
        // Match inputs to the model's by name: each exactly once; overridable initializers (a Core ML detector's
        // thresholds) may be given too.
        const size_t o = s->overridables.size();
        std::vector<const ov_ort_value *> given(n + o, nullptr);
        for (int k = 0; k < input_count; ++k) {
            const char *name = inputs[k].name ? inputs[k].name : "";
            size_t i = 0;
            while (i < n && s->inputs[i].name != name) ++i;
            if (i == n) {
                while (i < n + o && s->overridables[i - n].name != name) ++i;
            }
            if (i == n + o) {
                std::string names;
                for (const IOInfo &info : s->inputs) names += (names.empty() ? "" : ", ") + info.name;
                return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string("the model has no input '") + name + "' (it has " + names + ")");
            }
            if (given[i]) return ov::fail(OV_ERR_INVALID_ARGUMENT, std::string("input '") + name + "' is given twice");
            given[i] = &inputs[k];
        }
        for (size_t i = 0; i < n; ++i)
            if (!given[i]) return ov::fail(OV_ERR_INVALID_ARGUMENT, "input '" + s->inputs[i].name + "' is not given");

        std::vector<ValuePtr> owned;
        std::vector<const OrtValue *> raw;
        std::vector<const char *> names;
        static double emptyData = 0;  // some ORT versions reject a NULL buffer even for 0 elements
        for (size_t i = 0; i < n + o; ++i) {
            if (!given[i]) continue;
            const ov_ort_value &v = *given[i];
            const IOInfo &info = i < n ? s->inputs[i] : s->overridables[i - n];
            names.push_back(info.name.c_str());
            const std::string label = "input '" + info.name + "'";
            if (v.count > 0 && !v.data) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": no data");
            if (v.map_key_type != 0) {
                // An ONNX-ML map: a keys tensor and a values tensor of `count` entries.
                if (info.valueType != ONNX_TYPE_MAP) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + " is not a map");
                if (v.map_key_type != T_INT64 && v.map_key_type != T_STRING)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": map keys must be int64 or string");
                const size_t size = elementSize(v.element_type);
                if (size == 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": map values must be numbers");
                if (v.count > 0 && !v.keys) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": no keys");
                const int64_t dims[1] = {static_cast<int64_t>(v.count)};
                ValuePtr keys, values;
                if (v.map_key_type == T_STRING) {
                    if (ov_status st = stringTensor(static_cast<const char *const *>(v.keys), v.count, dims, 1, label, keys))
                        return st;
                } else {
                    OrtValue *k = nullptr;
                    void *data = v.count ? const_cast<void *>(v.keys) : static_cast<void *>(&emptyData);
                    OV_ORT_TRY(a.CreateTensorWithDataAsOrtValue(runtime.cpu, data, v.count * sizeof(int64_t), dims, 1, T_INT64, &k),
                               OV_ERR_INVALID_ARGUMENT, label);
                    keys.reset(k);
                }
                OrtValue *vals = nullptr;
                void *data = v.count ? const_cast<void *>(v.data) : static_cast<void *>(&emptyData);
                OV_ORT_TRY(a.CreateTensorWithDataAsOrtValue(runtime.cpu, data, v.count * size, dims, 1,
                                                            static_cast<ONNXTensorElementDataType>(v.element_type), &vals),
                           OV_ERR_INVALID_ARGUMENT, label);
                values.reset(vals);
                const OrtValue *parts[2] = {keys.get(), values.get()};
                OrtValue *map = nullptr;
                OV_ORT_TRY(a.CreateValue(parts, 2, ONNX_TYPE_MAP, &map), OV_ERR_INVALID_ARGUMENT, label);
                owned.push_back(std::move(keys));
                owned.push_back(std::move(values));
                owned.emplace_back(map);
                raw.push_back(map);
                continue;
            }
            if (info.valueType != ONNX_TYPE_TENSOR) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + " is not a tensor");
            if (v.rank < 0 || v.rank > OV_TENSOR_MAX_RANK)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": rank " + std::to_string(v.rank) + " is out of range 0...8");
            if (v.rank > 0 && !v.shape) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": no shape");
            std::vector<int64_t> dims(v.shape, v.shape + v.rank);
            for (int64_t d : dims)
                if (d < 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": negative dimension in shape " + shapeText(dims.data(), dims.size()));
            if (!info.shape.empty()) {
                bool match = info.shape.size() == dims.size();
                for (size_t d = 0; match && d < dims.size(); ++d)
                    if (info.shape[d] >= 0 && info.shape[d] != dims[d]) match = false;
                if (!match)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": shape " + shapeText(dims.data(), dims.size()) +
                                                             " does not match the model's " +
                                                             shapeText(info.shape.data(), info.shape.size(), true));
            }
            size_t count = 0;
            try {
                count = elementCount(dims);
            } catch (const std::invalid_argument &) {
                return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": shape " + shapeText(dims.data(), dims.size()) + " is too large");
            }
            if (count != v.count)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": " + std::to_string(v.count) + " values for shape " +
                                                         shapeText(dims.data(), dims.size()));
            if (v.element_type != info.elementType)
                return ov::fail(OV_ERR_INVALID_ARGUMENT, label + " takes " + typeName(info.elementType) + " values, not " +
                                                         typeName(v.element_type));
            ValuePtr value;
            if (v.element_type == T_STRING) {
                if (ov_status st = stringTensor(static_cast<const char *const *>(v.data), count, dims.data(), dims.size(), label, value))
                    return st;
            } else {
                const size_t size = elementSize(v.element_type);
                if (size == 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": unknown element type " + std::to_string(v.element_type));
                if (count > std::numeric_limits<size_t>::max() / size)
                    return ov::fail(OV_ERR_INVALID_ARGUMENT, label + ": too many values");
                OrtValue *t = nullptr;
                void *data = count ? const_cast<void *>(v.data) : static_cast<void *>(&emptyData);  // ORT never writes inputs
                OV_ORT_TRY(a.CreateTensorWithDataAsOrtValue(runtime.cpu, data, count * size, dims.data(), dims.size(),
                                                            static_cast<ONNXTensorElementDataType>(v.element_type), &t),
                           OV_ERR_INVALID_ARGUMENT, label);
                value.reset(t);
            }
            raw.push_back(value.get());
            owned.push_back(std::move(value));
        }

        const size_t m = s->outputs.size();
        std::vector<OrtValue *> rawOutputs(m, nullptr);
        std::string message;
        OrtErrorCode code = ORT_OK;
        OrtStatus *status = a.Run(s->session, nullptr, names.data(), raw.data(), raw.size(), s->outputNames.data(), m,
                                  rawOutputs.data());
        std::vector<ValuePtr> outputs(m);
        for (size_t j = 0; j < m; ++j) outputs[j].reset(rawOutputs[j]);
        if (!succeeded(status, &message, &code)) {
            if (isAllocationFailure(message))
                return ov::fail(OV_ERR_OUT_OF_MEMORY, "ONNX Runtime run failed: " + memoryLimitMessage() + " (" + message + ")");
            return ov::fail(code == ORT_INVALID_ARGUMENT ? OV_ERR_INVALID_ARGUMENT : OV_ERR_INTERNAL,
                            "ONNX Runtime run failed: " + message);
        }

        auto result = std::make_unique<ov_values>();
        result->values.resize(m);
        for (size_t j = 0; j < m; ++j) {
            ov_values::Value &t = result->values[j];
            t.name = s->outputs[j].name;
            const std::string label = "output '" + t.name + "'";
            if (!outputs[j]) return ov::fail(OV_ERR_INTERNAL, label + ": ONNX Runtime returned no value");
            ONNXType valueType = ONNX_TYPE_UNKNOWN;
            OV_ORT_TRY(a.GetValueType(outputs[j].get(), &valueType), OV_ERR_INTERNAL, label);
            if (valueType != ONNX_TYPE_TENSOR)
                return ov::fail(OV_ERR_UNSUPPORTED, label + " is not a tensor (sequence and map outputs are not supported)");
            OrtTensorTypeAndShapeInfo *rawShape = nullptr;
            OV_ORT_TRY(a.GetTensorTypeAndShape(outputs[j].get(), &rawShape), OV_ERR_INTERNAL, label);
            std::unique_ptr<OrtTensorTypeAndShapeInfo, ReleaseShape> shapeInfo(rawShape);
            ONNXTensorElementDataType type = T_UNDEFINED;
            size_t rank = 0;
            OV_ORT_TRY(a.GetTensorElementType(rawShape, &type), OV_ERR_INTERNAL, label);
            OV_ORT_TRY(a.GetDimensionsCount(rawShape, &rank), OV_ERR_INTERNAL, label);
            t.shape.assign(rank, 0);
            if (rank) OV_ORT_TRY(a.GetDimensions(rawShape, t.shape.data(), rank), OV_ERR_INTERNAL, label);
            OV_ORT_TRY(a.GetTensorShapeElementCount(rawShape, &t.count), OV_ERR_INTERNAL, label);
            t.elementType = type;
            if (t.count == 0) continue;
            if (type == T_STRING) {
                size_t total = 0;
                OV_ORT_TRY(a.GetStringTensorDataLength(outputs[j].get(), &total), OV_ERR_INTERNAL, label);
                std::string bytes(total, '\0');
                std::vector<size_t> offsets(t.count);
                OV_ORT_TRY(a.GetStringTensorContent(outputs[j].get(), bytes.data(), total, offsets.data(), t.count),
                           OV_ERR_INTERNAL, label);
                t.strings.resize(t.count);
                t.lengths.resize(t.count);
                for (size_t k = 0; k < t.count; ++k) {
                    const size_t end = k + 1 < t.count ? offsets[k + 1] : total;
                    if (offsets[k] > end || end > total) return ov::fail(OV_ERR_INTERNAL, label + ": malformed string offsets");
                    t.strings[k] = bytes.substr(offsets[k], end - offsets[k]);
                    t.lengths[k] = t.strings[k].size();
                }
                t.stringPointers.resize(t.count);
                for (size_t k = 0; k < t.count; ++k) t.stringPointers[k] = t.strings[k].c_str();
                t.data = t.stringPointers.data();
                continue;
            }
            if (elementSize(type) == 0) return ov::fail(OV_ERR_UNSUPPORTED, label + " has element type " + typeName(type));
            void *data = nullptr;
            OV_ORT_TRY(a.GetTensorMutableData(outputs[j].get(), &data), OV_ERR_INTERNAL, label);
            if (!data) return ov::fail(OV_ERR_INTERNAL, label + ": ONNX Runtime returned no data");
            t.data = data;
            result->owners.push_back(std::move(outputs[j]));
        }
        *out = result.release();
        return ov::ok();
    });
}

int ov_values_count(const ov_values *v) { return v ? static_cast<int>(v->values.size()) : 0; }

ov_status ov_values_get(const ov_values *v, int index, const char **name, int *element_type, int *rank,
                        const int64_t **shape, size_t *count, const void **data, const size_t **lengths) {
    if (!v || index < 0 || static_cast<size_t>(index) >= v->values.size())
        return ov::fail(OV_ERR_INVALID_ARGUMENT, "output index " + std::to_string(index) + " out of range");
    const ov_values::Value &t = v->values[static_cast<size_t>(index)];
    if (name) *name = t.name.c_str();
    if (element_type) *element_type = t.elementType;
    if (rank) *rank = static_cast<int>(t.shape.size());
    if (shape) *shape = t.shape.data();
    if (count) *count = t.count;
    if (data) *data = t.data;
    if (lengths) *lengths = t.lengths.empty() ? nullptr : t.lengths.data();
    return ov::ok();
}

void ov_values_free(ov_values *v) { delete v; }

}  // extern "C"
