// ONNX Runtime element types: sizes and names, and the conversions between the float32 the API speaks
// and what a model declares (inputs: float16, double, int64, int32, uint8, int8; outputs: every numeric
// type, bool, float16 and bfloat16).
//
// Decisions
//   - float16 and bfloat16 follow IEEE 754 with round-to-nearest-even (subnormals, infinities and NaN
//     kept); no dependency on a half-float library.
//   - Integer inputs are rounded to nearest and clamped to the type's range (NaN becomes 0).
#include "ov_ort_api.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace ov::ort {

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

namespace {

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

}  // namespace

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

}  // namespace ov::ort
