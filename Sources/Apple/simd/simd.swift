// Apple's simd on Linux: the C-style names (`simd_float3`, `simd_length`, `matrix_identity_float4x4`, …) and the
// Swift overlay's (`length`, `normalize`, `float4x4`, …) on Swift's own SIMD types, as Apple's simd_float3 is
// SIMD3<Float>. Matrices are `simd_float2x2`, `simd_float3x3`, `simd_float4x4`; quaternions `simd_quatf`.

/// Two Floats.
public typealias simd_float2 = SIMD2<Float>
/// Three Floats (16 bytes in memory, as Apple's).
public typealias simd_float3 = SIMD3<Float>
/// Four Floats.
public typealias simd_float4 = SIMD4<Float>
/// Two Doubles.
public typealias simd_double2 = SIMD2<Double>
/// Three Doubles.
public typealias simd_double3 = SIMD3<Double>
/// Four Doubles.
public typealias simd_double4 = SIMD4<Double>
/// Two 32-bit integers.
public typealias simd_int2 = SIMD2<Int32>
/// Three 32-bit integers.
public typealias simd_int3 = SIMD3<Int32>
/// Four 32-bit integers.
public typealias simd_int4 = SIMD4<Int32>
/// Two unsigned 32-bit integers.
public typealias simd_uint2 = SIMD2<UInt32>
/// Three unsigned 32-bit integers.
public typealias simd_uint3 = SIMD3<UInt32>
/// Four unsigned 32-bit integers.
public typealias simd_uint4 = SIMD4<UInt32>
/// Two Floats (simd's `vector_` name).
public typealias vector_float2 = SIMD2<Float>
/// Three Floats (simd's `vector_` name).
public typealias vector_float3 = SIMD3<Float>
/// Four Floats (simd's `vector_` name).
public typealias vector_float4 = SIMD4<Float>
/// Two Floats (the Swift overlay's older name).
public typealias float2 = SIMD2<Float>
/// Three Floats (the Swift overlay's older name).
public typealias float3 = SIMD3<Float>
/// Four Floats (the Swift overlay's older name).
public typealias float4 = SIMD4<Float>

// MARK: Making vectors

/// (x, y).
public func simd_make_float2(_ x: Float, _ y: Float) -> simd_float2 { simd_float2(x, y) }
/// The first two elements of `v`.
public func simd_make_float2(_ v: simd_float3) -> simd_float2 { simd_float2(v.x, v.y) }
/// The first two elements of `v`.
public func simd_make_float2(_ v: simd_float4) -> simd_float2 { simd_float2(v.x, v.y) }
/// (x, y, z).
public func simd_make_float3(_ x: Float, _ y: Float, _ z: Float) -> simd_float3 { simd_float3(x, y, z) }
/// (xy, z).
public func simd_make_float3(_ xy: simd_float2, _ z: Float) -> simd_float3 { simd_float3(xy.x, xy.y, z) }
/// (x, yz).
public func simd_make_float3(_ x: Float, _ yz: simd_float2) -> simd_float3 { simd_float3(x, yz.x, yz.y) }
/// The first three elements of `v`.
public func simd_make_float3(_ v: simd_float4) -> simd_float3 { simd_float3(v.x, v.y, v.z) }
/// (x, y, z, w).
public func simd_make_float4(_ x: Float, _ y: Float, _ z: Float, _ w: Float) -> simd_float4 { simd_float4(x, y, z, w) }
/// (xyz, w).
public func simd_make_float4(_ xyz: simd_float3, _ w: Float) -> simd_float4 { simd_float4(xyz.x, xyz.y, xyz.z, w) }
/// (x, yzw).
public func simd_make_float4(_ x: Float, _ yzw: simd_float3) -> simd_float4 { simd_float4(x, yzw.x, yzw.y, yzw.z) }
/// (xy, zw).
public func simd_make_float4(_ xy: simd_float2, _ zw: simd_float2) -> simd_float4 {
    simd_float4(xy.x, xy.y, zw.x, zw.y)
}
/// (x, y).
public func simd_make_double2(_ x: Double, _ y: Double) -> simd_double2 { simd_double2(x, y) }
/// (x, y, z).
public func simd_make_double3(_ x: Double, _ y: Double, _ z: Double) -> simd_double3 { simd_double3(x, y, z) }
/// (x, y, z, w).
public func simd_make_double4(_ x: Double, _ y: Double, _ z: Double, _ w: Double) -> simd_double4 {
    simd_double4(x, y, z, w)
}

// MARK: Geometry (C names)

/// The sum of the elements' products.
public func simd_dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { (x * y).sum() }
/// The Euclidean length.
public func simd_length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, x).squareRoot() }
/// The squared length.
public func simd_length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, x) }
/// The distance between two points.
public func simd_distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x - y) }
/// The squared distance between two points.
public func simd_distance_squared<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint {
    simd_length_squared(x - y)
}
/// The vector scaled to length 1 (NaNs for the zero vector, as simd's).
public func simd_normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { x / simd_length(x) }
/// The cross product.
public func simd_cross<S: SIMDScalar & FloatingPoint>(_ x: SIMD3<S>, _ y: SIMD3<S>) -> SIMD3<S> {
    SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
}
/// The cross product of two 2-vectors: (0, 0, x.x·y.y − x.y·y.x).
public func simd_cross<S: SIMDScalar & FloatingPoint>(_ x: SIMD2<S>, _ y: SIMD2<S>) -> SIMD3<S> {
    SIMD3(0, 0, x.x * y.y - x.y * y.x)
}
/// `x + t·(y − x)`, element by element.
public func simd_mix<V: SIMD>(_ x: V, _ y: V, _ t: V) -> V where V.Scalar: FloatingPoint { x + t * (y - x) }
/// Each element clamped to `min...max`.
public func simd_clamp<V: SIMD>(_ x: V, _ min: V, _ max: V) -> V where V.Scalar: Comparable {
    x.clamped(lowerBound: min, upperBound: max)
}
/// The element-wise minimum.
public func simd_min<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: Comparable { pointwiseMin(x, y) }
/// The element-wise maximum.
public func simd_max<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: Comparable { pointwiseMax(x, y) }
/// The element-wise absolute value.
public func simd_abs<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { V((0..<x.scalarCount).map { abs(x[$0]) }) }
/// The sum of the elements.
public func simd_reduce_add<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { x.sum() }
/// The smallest element.
public func simd_reduce_min<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { x.min() }
/// The largest element.
public func simd_reduce_max<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: Comparable { x.max() }
/// `x` reflected about the plane with unit normal `n`: `x − 2·dot(x, n)·n`.
public func simd_reflect<V: SIMD>(_ x: V, _ n: V) -> V where V.Scalar: FloatingPoint { x - 2 * simd_dot(x, n) * n }
/// The projection of `x` on `y`.
public func simd_project<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint {
    simd_dot(x, y) / simd_dot(y, y) * y
}

// MARK: Geometry (the Swift overlay's names)

/// The sum of the elements' products (`simd_dot`).
public func dot<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(x, y) }
/// The Euclidean length (`simd_length`).
public func length<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(x) }
/// The squared length (`simd_length_squared`).
public func length_squared<V: SIMD>(_ x: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(x) }
/// The distance between two points (`simd_distance`).
public func distance<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance(x, y) }
/// The squared distance (`simd_distance_squared`).
public func distance_squared<V: SIMD>(_ x: V, _ y: V) -> V.Scalar where V.Scalar: FloatingPoint {
    simd_distance_squared(x, y)
}
/// The vector scaled to length 1 (`simd_normalize`).
public func normalize<V: SIMD>(_ x: V) -> V where V.Scalar: FloatingPoint { simd_normalize(x) }
/// The cross product (`simd_cross`).
public func cross<S: SIMDScalar & FloatingPoint>(_ x: SIMD3<S>, _ y: SIMD3<S>) -> SIMD3<S> { simd_cross(x, y) }
/// `x + t·(y − x)` (`simd_mix`).
public func mix<V: SIMD>(_ x: V, _ y: V, t: V.Scalar) -> V where V.Scalar: FloatingPoint { x + t * (y - x) }
/// `x` reflected about the plane with unit normal `n` (`simd_reflect`).
public func reflect<V: SIMD>(_ x: V, n: V) -> V where V.Scalar: FloatingPoint { simd_reflect(x, n) }
/// The projection of `x` on `y` (`simd_project`).
public func project<V: SIMD>(_ x: V, _ y: V) -> V where V.Scalar: FloatingPoint { simd_project(x, y) }
