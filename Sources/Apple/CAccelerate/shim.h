/*
 * What Accelerate (Sources/Apple/Accelerate) calls: the reference BLAS's C interface (Debian's libblas-dev, which
 * CNative links for dlib already) for vDSP_mmul, and glibc's vector math library (libmvec, part of libc6) for
 * vForce's exp, log, tanh, … four floats at a time. libmvec's functions follow the x86-64 vector function ABI:
 * the `b` (SSE) variants take and return four floats in one XMM register, which is how a 4-float
 * ext_vector_type is passed (Swift sees it as SIMD4<Float>). Available on x86-64 only.
 */
#ifndef OV_CACCELERATE_H
#define OV_CACCELERATE_H

#include <cblas.h>

#if defined(__x86_64__)
typedef float ov_float4 __attribute__((ext_vector_type(4)));

#define OV_MVEC_UNARY(name) ov_float4 _ZGVbN4v_##name(ov_float4 x);
OV_MVEC_UNARY(expf)
OV_MVEC_UNARY(exp2f)
OV_MVEC_UNARY(exp10f)
OV_MVEC_UNARY(expm1f)
OV_MVEC_UNARY(logf)
OV_MVEC_UNARY(log2f)
OV_MVEC_UNARY(log10f)
OV_MVEC_UNARY(log1pf)
OV_MVEC_UNARY(sinf)
OV_MVEC_UNARY(cosf)
OV_MVEC_UNARY(tanf)
OV_MVEC_UNARY(asinf)
OV_MVEC_UNARY(acosf)
OV_MVEC_UNARY(atanf)
OV_MVEC_UNARY(sinhf)
OV_MVEC_UNARY(coshf)
OV_MVEC_UNARY(tanhf)
OV_MVEC_UNARY(asinhf)
OV_MVEC_UNARY(acoshf)
OV_MVEC_UNARY(atanhf)
OV_MVEC_UNARY(cbrtf)
OV_MVEC_UNARY(erff)
OV_MVEC_UNARY(erfcf)
#undef OV_MVEC_UNARY
ov_float4 _ZGVbN4vv_powf(ov_float4 x, ov_float4 y);
ov_float4 _ZGVbN4vv_atan2f(ov_float4 y, ov_float4 x);
#endif

#endif
