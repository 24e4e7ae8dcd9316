// The OpenVINO backend (ov_openvino.h): OpenVINO's C API, dlopen()ed from the PyPI wheel's
// libopenvino_c.so, declared here by hand (the wheel ships no headers).
//
// Decisions
//   - Only the C API functions we call are declared, from src/bindings/c/include/openvino/c/*.h
//     (openvinotoolkit/openvino, Apache-2.0) and checked against the 2026.4.0 library; the element type
//     numbering (ov_element_type_e) changed across versions, so the loader accepts 2025.0...2026.x and then
//     probes the numbering with tensors of known byte sizes (numberingHolds) before using the library.
//   - One ov_core for the process (created at load, never freed: compiled models share its plugins).
//   - Every model compiles for "CPU" with INFERENCE_PRECISION_HINT f32: OpenVINO's default on CPUs
//     with bf16/f16 units moved MediaPipe's landmarks by up to 1e-2 relative.
//   - An infer request runs one inference at a time; a model keeps a pool of idle requests and makes
//     another when every one is busy, so concurrent runs never wait for each other.
//   - Every C API call's status is checked; OpenVINO's message (ov_get_last_err_msg, else
//     ov_get_error_info) goes into our error. Nothing from OpenVINO is thrown across the C API.
#include "ov_openvino.h"

#include "ov_internal.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ov::vino {

// ---- The C API subset (openvino/c/ov_common.h, ov_shape.h, ov_partial_shape.h, ov_core.h, ov_model.h,
// ov_compiled_model.h, ov_infer_request.h, ov_tensor.h, ov_node.h).
struct ov_core_t;
struct ov_model_t;
struct ov_compiled_model_t;
struct ov_infer_request_t;
struct ov_tensor_t;
struct ov_output_const_port_t;

using ov_status_e = int;  // 0 = OK, negative = an error code
constexpr ov_status_e kOK = 0;
constexpr ov_status_e kNotImplemented = -2;
constexpr ov_status_e kNotFound = -5;
constexpr ov_status_e kNetworkNotRead = -12;

// ov_element_type_e as the 2026 libraries number it: DYNAMIC (0, once UNDEFINED), BOOLEAN, BF16, F16, F32, F64, I4,
// I8, I16, I32, I64, U1, U2, U3, U4, U6, U8, U16, U32, U64, NF4, F8E4M3, F8E5M2, STRING, F4E2M1, F8E8M0. Older
// headers had UNDEFINED = 0 and DYNAMIC = 1 before BOOLEAN, so every later number was one higher: the loader probes
// the numbering (`numberingHolds`) rather than trusting the version.
enum Element : int {
    BOOLEAN = 1, BF16 = 2, F16 = 3, F32 = 4, F64 = 5, I8 = 7, I16 = 8, I32 = 9, I64 = 10,
    U8 = 16, U16 = 17, U32 = 18, U64 = 19, STRING = 23
};

struct ov_version_t {
    const char *buildNumber;
    const char *description;
};
struct ov_shape_t {
    int64_t rank;
    int64_t *dims;
};
struct ov_dimension_t {
    int64_t min;
    int64_t max;
};
struct ov_partial_shape_t {
    ov_dimension_t rank;
    ov_dimension_t *dims;
};

struct Api {
    ov_status_e (*get_openvino_version)(ov_version_t *);
    void (*version_free)(ov_version_t *);
    const char *(*get_error_info)(ov_status_e);
    const char *(*get_last_err_msg)();  // optional (2023.2+)
    void (*free_string)(const char *);
    ov_status_e (*core_create)(ov_core_t **);
    ov_status_e (*core_read_model)(const ov_core_t *, const char *, const char *, ov_model_t **);
    ov_status_e (*core_compile_model)(const ov_core_t *, const ov_model_t *, const char *, size_t,
                                      ov_compiled_model_t **, ...);
    void (*model_free)(ov_model_t *);
    ov_status_e (*compiled_model_inputs_size)(const ov_compiled_model_t *, size_t *);
    ov_status_e (*compiled_model_input_by_index)(const ov_compiled_model_t *, size_t, ov_output_const_port_t **);
    ov_status_e (*compiled_model_outputs_size)(const ov_compiled_model_t *, size_t *);
    ov_status_e (*compiled_model_output_by_index)(const ov_compiled_model_t *, size_t, ov_output_const_port_t **);
    ov_status_e (*compiled_model_create_infer_request)(const ov_compiled_model_t *, ov_infer_request_t **);
    void (*compiled_model_free)(ov_compiled_model_t *);
    ov_status_e (*port_get_any_name)(const ov_output_const_port_t *, char **);
    ov_status_e (*port_get_partial_shape)(const ov_output_const_port_t *, ov_partial_shape_t *);
    ov_status_e (*port_get_element_type)(const ov_output_const_port_t *, int *);
    void (*output_const_port_free)(ov_output_const_port_t *);
    void (*partial_shape_free)(ov_partial_shape_t *);
    ov_status_e (*shape_create)(int64_t, const int64_t *, ov_shape_t *);
    ov_status_e (*shape_free)(ov_shape_t *);
    ov_status_e (*tensor_create)(int, ov_shape_t, ov_tensor_t **);
    ov_status_e (*tensor_create_from_host_ptr)(int, ov_shape_t, void *, ov_tensor_t **);
    ov_status_e (*tensor_get_byte_size)(const ov_tensor_t *, size_t *);
    ov_status_e (*tensor_get_shape)(const ov_tensor_t *, ov_shape_t *);
    ov_status_e (*tensor_get_element_type)(const ov_tensor_t *, int *);
    ov_status_e (*tensor_get_size)(const ov_tensor_t *, size_t *);
    ov_status_e (*tensor_data)(const ov_tensor_t *, void **);
    void (*tensor_free)(ov_tensor_t *);
    ov_status_e (*infer_request_set_input_tensor_by_index)(ov_infer_request_t *, size_t, const ov_tensor_t *);
    ov_status_e (*infer_request_infer)(ov_infer_request_t *);
    ov_status_e (*infer_request_get_output_tensor_by_index)(const ov_infer_request_t *, size_t, ov_tensor_t **);
    void (*infer_request_free)(ov_infer_request_t *);
};

namespace {

const char *const kFix = "run scripts/setup or set OPENVISION_OPENVINO_LIBRARY to the path of libopenvino_c.so";

Api api;
ov_core_t *core = nullptr;
std::string loadedPath;
std::atomic<const char *> loadedVersion{""};
std::atomic<bool> loaded{false};
std::mutex loadMutex;

std::string resolvedPath(const char *path) {
    char *resolved = ::realpath(path, nullptr);
    if (!resolved) return path;
    std::string result(resolved);
    std::free(resolved);
    return result;
}

/// OpenVINO's message without the source locations it stacks up ("Exception from src/...", "Check '...' failed
/// at ..."), its lines joined with "; ".
std::string cleaned(const std::string &text) {
    std::string result;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        start = end + 1;
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
        if (line.empty() || line.rfind("Exception from ", 0) == 0 || line.rfind("Check '", 0) == 0) continue;
        result += (result.empty() ? "" : "; ") + line;
    }
    return result.empty() ? text : result;
}

/// OpenVINO's message for a failed call.
std::string message(ov_status_e status) {
    const char *last = api.get_last_err_msg ? api.get_last_err_msg() : nullptr;
    if (last && *last) return cleaned(last);
    const char *info = api.get_error_info ? api.get_error_info(status) : nullptr;
    return info && *info ? info : "OpenVINO error " + std::to_string(status);
}

/// Throws an ov::Failure with `code` and OpenVINO's message when `status` is not OK.
void check(ov_status_e status, const char *what, ov_status code = OV_ERR_INTERNAL) {
    if (status != kOK) throw ov::Failure(code, std::string(what) + ": " + message(status));
}

template <typename T>
bool bind(void *handle, const char *name, T &slot) {
    slot = reinterpret_cast<T>(::dlsym(handle, name));
    return slot != nullptr;
}

/// Whether the library numbers element types as `Element` does: the byte size of an 8-element tensor of each
/// type we use (bool 8, bf16/f16 16, f32 32, f64 64, i8 8, i16 16, i32 32, i64 64, u8 8, u16 16, u32 32, u64 64).
/// Under the older numbering these sizes sit one number later (and 1 is DYNAMIC, which has no tensors).
bool numberingHolds(const Api &a) {
    const std::pair<int, size_t> expected[] = {{BOOLEAN, 8}, {BF16, 16}, {F16, 16}, {F32, 32}, {F64, 64}, {I8, 8},
                                               {I16, 16},    {I32, 32},  {I64, 64}, {U8, 8},   {U16, 16}, {U32, 32},
                                               {U64, 64}};
    const int64_t eight = 8;
    for (const auto &[type, bytes] : expected) {
        ov_shape_t shape{};
        if (a.shape_create(1, &eight, &shape) != kOK) return false;
        ov_tensor_t *tensor = nullptr;
        const ov_status_e created = a.tensor_create(type, shape, &tensor);
        a.shape_free(&shape);
        if (created != kOK || !tensor) return false;
        size_t size = 0;
        const ov_status_e sized = a.tensor_get_byte_size(tensor, &size);
        a.tensor_free(tensor);
        if (sized != kOK || size != bytes) return false;
    }
    return true;
}

ov_status loadLocked(const char *requested) {
    if (loaded.load(std::memory_order_acquire)) {
        if (requested && resolvedPath(requested) == loadedPath) return ov::ok();
        return ov::fail(OV_ERR_UNSUPPORTED, "OpenVINO is already loaded from " + loadedPath +
                                                "; cannot load another library (" + (requested ? requested : "none") +
                                                ") in the same process");
    }
    if (!requested || !*requested)
        return ov::fail(OV_ERR_UNSUPPORTED, std::string("OpenVINO library not configured; ") + kFix);
    const std::string path = requested;
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return ov::fail(OV_ERR_UNSUPPORTED,
                        "OpenVINO is not installed (no library at " + path + ": " + std::strerror(errno) + "); " + kFix);
    if (!S_ISREG(info.st_mode))
        return ov::fail(OV_ERR_UNSUPPORTED, "OpenVINO library path " + path + " is not a regular file; " + kFix);
    ::dlerror();
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = ::dlerror();
        return ov::fail(OV_ERR_UNSUPPORTED,
                        "cannot load OpenVINO library " + path + " (" + (why ? why : "dlopen failed") + "); " + kFix);
    }
    Api a{};
    const bool bound =
        bind(handle, "ov_get_openvino_version", a.get_openvino_version) &&
        bind(handle, "ov_version_free", a.version_free) && bind(handle, "ov_get_error_info", a.get_error_info) &&
        bind(handle, "ov_free", a.free_string) && bind(handle, "ov_core_create", a.core_create) &&
        bind(handle, "ov_core_read_model", a.core_read_model) &&
        bind(handle, "ov_core_compile_model", a.core_compile_model) && bind(handle, "ov_model_free", a.model_free) &&
        bind(handle, "ov_compiled_model_inputs_size", a.compiled_model_inputs_size) &&
        bind(handle, "ov_compiled_model_input_by_index", a.compiled_model_input_by_index) &&
        bind(handle, "ov_compiled_model_outputs_size", a.compiled_model_outputs_size) &&
        bind(handle, "ov_compiled_model_output_by_index", a.compiled_model_output_by_index) &&
        bind(handle, "ov_compiled_model_create_infer_request", a.compiled_model_create_infer_request) &&
        bind(handle, "ov_compiled_model_free", a.compiled_model_free) &&
        bind(handle, "ov_port_get_any_name", a.port_get_any_name) &&
        bind(handle, "ov_port_get_partial_shape", a.port_get_partial_shape) &&
        bind(handle, "ov_port_get_element_type", a.port_get_element_type) &&
        bind(handle, "ov_output_const_port_free", a.output_const_port_free) &&
        bind(handle, "ov_partial_shape_free", a.partial_shape_free) && bind(handle, "ov_shape_create", a.shape_create) &&
        bind(handle, "ov_shape_free", a.shape_free) &&
        bind(handle, "ov_tensor_create", a.tensor_create) &&
        bind(handle, "ov_tensor_create_from_host_ptr", a.tensor_create_from_host_ptr) &&
        bind(handle, "ov_tensor_get_byte_size", a.tensor_get_byte_size) &&
        bind(handle, "ov_tensor_get_shape", a.tensor_get_shape) &&
        bind(handle, "ov_tensor_get_element_type", a.tensor_get_element_type) &&
        bind(handle, "ov_tensor_get_size", a.tensor_get_size) && bind(handle, "ov_tensor_data", a.tensor_data) &&
        bind(handle, "ov_tensor_free", a.tensor_free) &&
        bind(handle, "ov_infer_request_set_input_tensor_by_index", a.infer_request_set_input_tensor_by_index) &&
        bind(handle, "ov_infer_request_infer", a.infer_request_infer) &&
        bind(handle, "ov_infer_request_get_output_tensor_by_index", a.infer_request_get_output_tensor_by_index) &&
        bind(handle, "ov_infer_request_free", a.infer_request_free);
    if (!bound) {
        ::dlclose(handle);
        return ov::fail(OV_ERR_UNSUPPORTED, path + " is not OpenVINO's C API library (a function is missing); " + kFix);
    }
    bind(handle, "ov_get_last_err_msg", a.get_last_err_msg);
    ov_version_t version{};
    if (a.get_openvino_version(&version) != kOK || !version.buildNumber) {
        ::dlclose(handle);
        return ov::fail(OV_ERR_UNSUPPORTED, path + ": cannot read OpenVINO's version; " + kFix);
    }
    const std::string build = version.buildNumber;
    a.version_free(&version);
    const int year = std::atoi(build.c_str());
    if (year < 2025 || year > 2026) {
        ::dlclose(handle);
        return ov::fail(OV_ERR_UNSUPPORTED, "OpenVINO " + build + " at " + path +
                                                " is not a version OpenVision supports (2025.0 to 2026.x); " + kFix);
    }
    if (!numberingHolds(a)) {
        ::dlclose(handle);
        return ov::fail(OV_ERR_UNSUPPORTED, "OpenVINO " + build + " at " + path +
                                                " numbers its element types differently from 2026.4's C API; " + kFix);
    }
    api = a;
    ov_core_t *created = nullptr;
    if (a.core_create(&created) != kOK || !created)
        return ov::fail(OV_ERR_INTERNAL, "OpenVINO " + build + ": cannot create the core: " + message(-1));
    // The library stays loaded from here on (the core and its plugins live for the process).
    core = created;
    loadedPath = resolvedPath(path.c_str());
    loadedVersion.store(strdup(build.c_str()), std::memory_order_release);
    loaded.store(true, std::memory_order_release);
    return ov::ok();
}

/// An element type's ONNX TensorProto.DataType (0 when it has none we name).
int onnxType(int element) {
    switch (element) {
    case F32: return 1;
    case U8: return 2;
    case I8: return 3;
    case U16: return 4;
    case I16: return 5;
    case I32: return 6;
    case I64: return 7;
    case STRING: return 8;
    case BOOLEAN: return 9;
    case F16: return 10;
    case F64: return 11;
    case U32: return 12;
    case U64: return 13;
    case BF16: return 16;
    default: return 0;
    }
}

uint16_t floatToHalf(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    const uint32_t sign = (bits >> 16) & 0x8000;
    const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
    uint32_t mantissa = bits & 0x7FFFFF;
    if (((bits >> 23) & 0xFF) == 0xFF) return static_cast<uint16_t>(sign | 0x7C00 | (mantissa ? 0x200 : 0));
    if (exponent >= 31) return static_cast<uint16_t>(sign | 0x7C00);
    if (exponent <= 0) {
        if (exponent < -10) return static_cast<uint16_t>(sign);
        mantissa |= 0x800000;
        const int shift = 14 - exponent;
        uint32_t half = mantissa >> shift;
        if ((mantissa >> (shift - 1)) & 1) ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = sign | static_cast<uint32_t>(exponent) << 10 | mantissa >> 13;
    if (mantissa & 0x1000) ++half;  // round half up (carries into the exponent as it should)
    return static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
    const uint32_t exponent = (h >> 10) & 0x1F;
    const uint32_t mantissa = h & 0x3FF;
    float result;
    if (exponent == 0) {
        result = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -result : result;
    }
    uint32_t bits = exponent == 31 ? (sign | 0x7F800000 | mantissa << 13) : (sign | (exponent + 112) << 23 | mantissa << 13);
    std::memcpy(&result, &bits, 4);
    return result;
}

template <typename T>
T clampRound(float value) {
    if (std::isnan(value)) return T(0);
    const double rounded = std::nearbyint(static_cast<double>(value));
    if (rounded <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
    if (rounded >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(rounded);
}

/// `count` floats as `element`'s bytes; throws for an element type it does not convert.
std::vector<unsigned char> convertInput(const float *data, size_t count, int element, const std::string &name) {
    auto fill = [&](auto convert, size_t size) {
        std::vector<unsigned char> bytes(count * size);
        for (size_t i = 0; i < count; ++i) {
            auto v = convert(data[i]);
            std::memcpy(bytes.data() + i * size, &v, size);
        }
        return bytes;
    };
    switch (element) {
    case F64: return fill([](float v) { return static_cast<double>(v); }, 8);
    case F16: return fill(floatToHalf, 2);
    case I64: return fill(clampRound<int64_t>, 8);
    case I32: return fill(clampRound<int32_t>, 4);
    case I16: return fill(clampRound<int16_t>, 2);
    case I8: return fill(clampRound<int8_t>, 1);
    case U8: return fill(clampRound<uint8_t>, 1);
    case BOOLEAN: return fill([](float v) { return static_cast<uint8_t>(v != 0 ? 1 : 0); }, 1);
    default:
        throw ov::Failure(OV_ERR_UNSUPPORTED,
                          "input '" + name + "' has OpenVINO element type " + std::to_string(element) +
                              ", which OpenVision does not feed");
    }
}

/// `count` elements of `element` at `data` as floats; throws for an element type it does not convert.
std::vector<float> convertOutput(const void *data, size_t count, int element, const std::string &name) {
    std::vector<float> out(count);
    auto read = [&](auto sample) {
        using T = decltype(sample);
        const T *p = static_cast<const T *>(data);
        for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(p[i]);
    };
    switch (element) {
    case F32: std::memcpy(out.data(), data, count * 4); break;
    case F64: read(double()); break;
    case I64: read(int64_t()); break;
    case I32: read(int32_t()); break;
    case I16: read(int16_t()); break;
    case I8: read(int8_t()); break;
    case U8: read(uint8_t()); break;
    case U16: read(uint16_t()); break;
    case U32: read(uint32_t()); break;
    case U64: read(uint64_t()); break;
    case BOOLEAN: {
        const uint8_t *p = static_cast<const uint8_t *>(data);
        for (size_t i = 0; i < count; ++i) out[i] = p[i] ? 1.0f : 0.0f;
        break;
    }
    case F16: {
        const uint16_t *p = static_cast<const uint16_t *>(data);
        for (size_t i = 0; i < count; ++i) out[i] = halfToFloat(p[i]);
        break;
    }
    case BF16: {
        const uint16_t *p = static_cast<const uint16_t *>(data);
        for (size_t i = 0; i < count; ++i) {
            const uint32_t bits = static_cast<uint32_t>(p[i]) << 16;
            std::memcpy(&out[i], &bits, 4);
        }
        break;
    }
    default:
        throw ov::Failure(OV_ERR_UNSUPPORTED,
                          "output '" + name + "' has OpenVINO element type " + std::to_string(element) +
                              ", which OpenVision does not read");
    }
    return out;
}

struct Port {
    std::string name;
    int element = 0;
    std::vector<int64_t> shape;  // -1 = dynamic
    bool rankKnown = true;
};

Port describe(ov_output_const_port_t *port) {
    Port result;
    char *name = nullptr;
    if (api.port_get_any_name(port, &name) == kOK && name) {
        result.name = name;
        api.free_string(name);
    }
    check(api.port_get_element_type(port, &result.element), "OpenVINO port element type");
    ov_partial_shape_t shape{};
    check(api.port_get_partial_shape(port, &shape), "OpenVINO port shape");
    if (shape.rank.min != shape.rank.max || shape.rank.min < 0) {
        result.rankKnown = false;
    } else {
        for (int64_t i = 0; i < shape.rank.min; ++i) {
            const ov_dimension_t d = shape.dims[i];
            result.shape.push_back(d.min == d.max && d.min >= 0 ? d.min : -1);
        }
    }
    api.partial_shape_free(&shape);
    return result;
}

}  // namespace
}  // namespace ov::vino

using namespace ov::vino;

struct ov_vino_model {
    ov_compiled_model_t *compiled = nullptr;
    std::vector<Port> inputs;
    std::vector<Port> outputs;
    std::mutex poolMutex;
    std::vector<ov_infer_request_t *> idle;

    ~ov_vino_model() {
        for (auto *request : idle) api.infer_request_free(request);
        if (compiled) api.compiled_model_free(compiled);
    }
};

namespace {

/// An idle infer request of `m` (a new one when every one is busy), given back by the destructor.
class Request {
public:
    explicit Request(ov_vino_model *m) : model(m) {
        {
            std::lock_guard<std::mutex> lock(m->poolMutex);
            if (!m->idle.empty()) {
                request = m->idle.back();
                m->idle.pop_back();
                return;
            }
        }
        check(api.compiled_model_create_infer_request(m->compiled, &request), "OpenVINO cannot create an infer request");
    }
    ~Request() {
        if (!request) return;
        try {
            std::lock_guard<std::mutex> lock(model->poolMutex);
            model->idle.push_back(request);
        } catch (...) {
            api.infer_request_free(request);
        }
    }
    Request(const Request &) = delete;
    Request &operator=(const Request &) = delete;
    ov_vino_model *model;
    ov_infer_request_t *request = nullptr;
};

/// Owns a C API tensor.
struct TensorHandle {
    ov_tensor_t *tensor = nullptr;
    ~TensorHandle() {
        if (tensor) api.tensor_free(tensor);
    }
};

void fillInfo(const Port &port, ov_tensor_info *out) {
    *out = ov_tensor_info{};
    std::snprintf(out->name, sizeof out->name, "%s", port.name.c_str());
    out->element_type = onnxType(port.element);
    out->rank = port.rankKnown ? static_cast<int>(port.shape.size()) : -1;
    for (size_t i = 0; i < port.shape.size() && i < OV_TENSOR_MAX_RANK; ++i) out->shape[i] = port.shape[i];
}

}  // namespace

extern "C" {

ov_status ov_vino_load(const char *library_path) {
    return ov::guarded("ov_vino_load", [&]() -> ov_status {
        std::lock_guard<std::mutex> lock(loadMutex);
        return loadLocked(library_path);
    });
}

const char *ov_vino_version(void) { return loadedVersion.load(std::memory_order_acquire); }

ov_status ov_vino_model_create(const char *model_path, int threads, ov_vino_model **out) {
    return ov::guarded("OpenVINO", [&]() -> ov_status {
        if (!model_path || !out || threads < 0)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "a model path, an out pointer and threads >= 0 are required");
        *out = nullptr;
        if (!loaded.load(std::memory_order_acquire))
            return ov::fail(OV_ERR_UNSUPPORTED, std::string("OpenVINO is not loaded; ") + kFix);
        ov_model_t *model = nullptr;
        const ov_status_e read = api.core_read_model(core, model_path, nullptr, &model);
        if (read != kOK || !model) {
            // The ONNX frontend reports an operator it lacks as a read failure naming it.
            const std::string why = message(read);
            const bool refused = read == kNotImplemented || why.find("OpConversionFailure") != std::string::npos ||
                                 why.find("No conversion rule") != std::string::npos ||
                                 why.find("not supported") != std::string::npos;
            return ov::fail(refused ? OV_ERR_UNSUPPORTED : OV_ERR_MODEL,
                            std::string("cannot read ") + model_path + ": " + why);
        }
        ov_compiled_model_t *compiled = nullptr;
        ov_status_e compiledStatus;
        if (threads == 1) {
            // One thread per run, but two streams, so that two runs at once (the face mesh and its mirror, the two
            // eyes) run in parallel: a compiled model with one stream runs its infer requests one at a time.
            compiledStatus = api.core_compile_model(core, model, "CPU", 6, &compiled, "INFERENCE_PRECISION_HINT",
                                                    "f32", "INFERENCE_NUM_THREADS", "2", "NUM_STREAMS", "2");
        } else if (threads > 0) {
            const std::string threadCount = std::to_string(threads);
            compiledStatus = api.core_compile_model(core, model, "CPU", 4, &compiled, "INFERENCE_PRECISION_HINT", "f32",
                                                    "INFERENCE_NUM_THREADS", threadCount.c_str());
        } else {
            compiledStatus = api.core_compile_model(core, model, "CPU", 2, &compiled, "INFERENCE_PRECISION_HINT", "f32");
        }
        api.model_free(model);
        if (compiledStatus != kOK || !compiled)
            return ov::fail(compiledStatus == kNetworkNotRead || compiledStatus == kNotFound ? OV_ERR_MODEL
                                                                                            : OV_ERR_UNSUPPORTED,
                            std::string("OpenVINO cannot compile ") + model_path + ": " + message(compiledStatus));
        auto result = std::make_unique<ov_vino_model>();
        result->compiled = compiled;
        size_t inputs = 0, outputs = 0;
        check(api.compiled_model_inputs_size(compiled, &inputs), "OpenVINO inputs");
        check(api.compiled_model_outputs_size(compiled, &outputs), "OpenVINO outputs");
        for (size_t i = 0; i < inputs + outputs; ++i) {
            ov_output_const_port_t *port = nullptr;
            if (i < inputs)
                check(api.compiled_model_input_by_index(compiled, i, &port), "OpenVINO input");
            else
                check(api.compiled_model_output_by_index(compiled, i - inputs, &port), "OpenVINO output");
            Port described;
            try {
                described = describe(port);
            } catch (...) {
                api.output_const_port_free(port);
                throw;
            }
            api.output_const_port_free(port);
            (i < inputs ? result->inputs : result->outputs).push_back(std::move(described));
        }
        *out = result.release();
        return ov::ok();
    });
}

void ov_vino_model_free(ov_vino_model *model) { delete model; }

int ov_vino_input_count(const ov_vino_model *m) { return m ? static_cast<int>(m->inputs.size()) : 0; }
int ov_vino_output_count(const ov_vino_model *m) { return m ? static_cast<int>(m->outputs.size()) : 0; }

ov_status ov_vino_input_info(const ov_vino_model *m, int index, ov_tensor_info *out) {
    if (!m || !out || index < 0 || index >= static_cast<int>(m->inputs.size()))
        return ov::fail(OV_ERR_INVALID_ARGUMENT, "input index out of range");
    fillInfo(m->inputs[static_cast<size_t>(index)], out);
    return ov::ok();
}

ov_status ov_vino_output_info(const ov_vino_model *m, int index, ov_tensor_info *out) {
    if (!m || !out || index < 0 || index >= static_cast<int>(m->outputs.size()))
        return ov::fail(OV_ERR_INVALID_ARGUMENT, "output index out of range");
    fillInfo(m->outputs[static_cast<size_t>(index)], out);
    return ov::ok();
}

ov_status ov_vino_run(ov_vino_model *m, int input_count, const float *const *inputs, const int64_t *const *shapes,
                      const int *ranks, ov_tensors **out) {
    return ov::guarded("OpenVINO run", [&]() -> ov_status {
        if (!m || !out || (input_count > 0 && (!inputs || !ranks)))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "NULL model, inputs or out pointer");
        *out = nullptr;
        if (input_count != static_cast<int>(m->inputs.size()))
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "the model takes " + std::to_string(m->inputs.size()) +
                                                         " inputs, not " + std::to_string(input_count));
        std::vector<std::vector<unsigned char>> converted(m->inputs.size());
        std::vector<TensorHandle> tensors(m->inputs.size());
        Request request(m);
        for (size_t i = 0; i < m->inputs.size(); ++i) {
            const Port &port = m->inputs[i];
            const int rank = ranks[i];
            if (rank < 0 || rank > OV_TENSOR_MAX_RANK || (rank > 0 && (!shapes || !shapes[i])))
                return ov::fail(OV_ERR_INVALID_ARGUMENT, "input '" + port.name + "': bad rank or shape");
            std::vector<int64_t> shape(shapes && shapes[i] ? shapes[i] : nullptr,
                                       shapes && shapes[i] ? shapes[i] + rank : nullptr);
            bool fits = !port.rankKnown || shape.size() == port.shape.size();
            for (size_t d = 0; fits && port.rankKnown && d < shape.size(); ++d)
                fits = shape[d] >= 0 && (port.shape[d] < 0 || port.shape[d] == shape[d]);
            if (!fits) {
                std::string expected;
                for (int64_t d : port.shape) expected += (expected.empty() ? "" : "x") + (d < 0 ? "?" : std::to_string(d));
                return ov::fail(OV_ERR_INVALID_ARGUMENT,
                                "input '" + port.name + "' has the wrong shape (the model takes " + expected + ")");
            }
            const size_t count = ov::elementCount(shape);
            void *data = const_cast<float *>(inputs[i]);
            if (port.element != F32) {
                converted[i] = convertInput(inputs[i], count, port.element, port.name);
                data = converted[i].data();
            }
            if (!data && count > 0) return ov::fail(OV_ERR_INVALID_ARGUMENT, "input '" + port.name + "' has no data");
            ov_shape_t ovShape{};
            check(api.shape_create(static_cast<int64_t>(shape.size()), shape.data(), &ovShape), "OpenVINO shape",
                  OV_ERR_INVALID_ARGUMENT);
            const ov_status_e created =
                api.tensor_create_from_host_ptr(port.element, ovShape, data, &tensors[i].tensor);
            api.shape_free(&ovShape);
            check(created, "OpenVINO input tensor", OV_ERR_INVALID_ARGUMENT);
            check(api.infer_request_set_input_tensor_by_index(request.request, i, tensors[i].tensor),
                  "OpenVINO input", OV_ERR_INVALID_ARGUMENT);
        }
        check(api.infer_request_infer(request.request), "OpenVINO inference");
        std::vector<ov::TensorOut> results;
        results.reserve(m->outputs.size());
        for (size_t i = 0; i < m->outputs.size(); ++i) {
            TensorHandle tensor;
            check(api.infer_request_get_output_tensor_by_index(request.request, i, &tensor.tensor), "OpenVINO output");
            ov_shape_t shape{};
            check(api.tensor_get_shape(tensor.tensor, &shape), "OpenVINO output shape");
            std::vector<int64_t> dims(shape.dims, shape.dims + shape.rank);
            api.shape_free(&shape);
            int element = 0;
            size_t count = 0;
            void *data = nullptr;
            check(api.tensor_get_element_type(tensor.tensor, &element), "OpenVINO output type");
            check(api.tensor_get_size(tensor.tensor, &count), "OpenVINO output size");
            if (count > 0) check(api.tensor_data(tensor.tensor, &data), "OpenVINO output data");
            results.push_back({m->outputs[i].name, std::move(dims),
                               count > 0 ? convertOutput(data, count, element, m->outputs[i].name) : std::vector<float>()});
        }
        *out = ov::make_tensors(std::move(results));
        return ov::ok();
    });
}

}  // extern "C"
