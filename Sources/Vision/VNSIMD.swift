import OpenVision

/// Apple's `simd_float4x4` (Linux has no simd module): OpenVision's `Matrix4x4`, column-major, with `columns`
/// (`columns.3` holds a transform's translation) as simd's.
public typealias simd_float4x4 = Matrix4x4

/// simd's identity 4 × 4 matrix.
public let matrix_identity_float4x4 = Matrix4x4.identity
