import Foundation

/// simd's quaternion of Floats: `vector` is (ix, iy, iz, r), imaginary part first, as Apple's. Unit quaternions
/// are rotations (`act(_:)`, `simd_float3x3(_:)`).
public struct simd_quatf: Hashable, Codable, Sendable, CustomDebugStringConvertible {
    /// (ix, iy, iz, r).
    public var vector: simd_float4

    /// The zero quaternion.
    public init() { vector = simd_float4(repeating: 0) }

    /// The quaternion with these elements.
    public init(vector: simd_float4) { self.vector = vector }

    /// The quaternion `ix·i + iy·j + iz·k + r`.
    public init(ix: Float, iy: Float, iz: Float, r: Float) { vector = simd_float4(ix, iy, iz, r) }

    /// The quaternion with this real and imaginary part.
    public init(real: Float, imag: simd_float3) { vector = simd_float4(imag.x, imag.y, imag.z, real) }

    /// The rotation by `angle` radians about `axis` (a unit vector): `(sin(angle/2)·axis, cos(angle/2))`.
    public init(angle: Float, axis: simd_float3) {
        self.init(real: cos(angle / 2), imag: sin(angle / 2) * axis)
    }

    /// The shortest rotation that turns unit vector `from` into unit vector `to`.
    public init(from: simd_float3, to: simd_float3) {
        let d = simd_dot(from, to)
        if d >= 1 - 1e-7 {
            self.init(real: 1, imag: .zero)
        } else if d <= -1 + 1e-7 {
            // Opposite: half a turn about any axis perpendicular to `from`.
            var axis = simd_cross(from, simd_float3(1, 0, 0))
            if simd_length_squared(axis) < 1e-12 { axis = simd_cross(from, simd_float3(0, 1, 0)) }
            self.init(real: 0, imag: simd_normalize(axis))
        } else {
            let half = simd_normalize(from + to)
            self.init(real: simd_dot(from, half), imag: simd_cross(from, half))
        }
    }

    /// The rotation a rotation matrix holds.
    public init(_ rotationMatrix: simd_float3x3) {
        let m = rotationMatrix
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(ix: (m[1, 2] - m[2, 1]) / s, iy: (m[2, 0] - m[0, 2]) / s, iz: (m[0, 1] - m[1, 0]) / s, r: s / 4)
        } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            self.init(ix: s / 4, iy: (m[1, 0] + m[0, 1]) / s, iz: (m[2, 0] + m[0, 2]) / s, r: (m[1, 2] - m[2, 1]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            self.init(ix: (m[1, 0] + m[0, 1]) / s, iy: s / 4, iz: (m[2, 1] + m[1, 2]) / s, r: (m[2, 0] - m[0, 2]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            self.init(ix: (m[2, 0] + m[0, 2]) / s, iy: (m[2, 1] + m[1, 2]) / s, iz: s / 4, r: (m[0, 1] - m[1, 0]) / s)
        }
    }

    /// The rotation the upper-left 3 × 3 part of a transform holds.
    public init(_ rotationMatrix: simd_float4x4) {
        let m = rotationMatrix
        self.init(
            simd_float3x3(
                simd_make_float3(m.columns.0), simd_make_float3(m.columns.1),
                simd_make_float3(m.columns.2)))
    }

    /// The real part.
    public var real: Float {
        get { vector.w }
        set { vector.w = newValue }
    }

    /// The imaginary part.
    public var imag: simd_float3 {
        get { simd_make_float3(vector) }
        set { vector = simd_make_float4(newValue, vector.w) }
    }

    /// The rotation angle in radians (0...2π).
    public var angle: Float { 2 * atan2(simd_length(imag), real) }

    /// The rotation axis (unit length; (1, 0, 0) for no rotation).
    public var axis: simd_float3 {
        let l = simd_length(imag)
        return l > 0 ? imag / l : simd_float3(1, 0, 0)
    }

    /// The conjugate: the imaginary part negated.
    public var conjugate: simd_quatf { simd_quatf(real: real, imag: -imag) }

    /// The length.
    public var length: Float { simd_length(vector) }

    /// The quaternion scaled to length 1.
    public var normalized: simd_quatf { simd_quatf(vector: simd_normalize(vector)) }

    /// The inverse: the conjugate over the squared length.
    public var inverse: simd_quatf { simd_quatf(vector: conjugate.vector / simd_length_squared(vector)) }

    /// `v` rotated by this quaternion: the imaginary part of `q · v · q⁻¹`.
    public func act(_ v: simd_float3) -> simd_float3 {
        (self * simd_quatf(real: 0, imag: v) * inverse).imag
    }

    /// The Hamilton product: `rhs`'s rotation first, then `lhs`'s.
    public static func * (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf {
        let (a, b) = (lhs, rhs)
        return simd_quatf(
            real: a.real * b.real - simd_dot(a.imag, b.imag),
            imag: a.real * b.imag + b.real * a.imag + simd_cross(a.imag, b.imag))
    }

    /// The sum.
    public static func + (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf {
        simd_quatf(vector: lhs.vector + rhs.vector)
    }
    /// The difference.
    public static func - (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf {
        simd_quatf(vector: lhs.vector - rhs.vector)
    }
    /// The negation.
    public static prefix func - (rhs: simd_quatf) -> simd_quatf { simd_quatf(vector: -rhs.vector) }
    /// The quaternion times a scalar.
    public static func * (lhs: simd_quatf, rhs: Float) -> simd_quatf { simd_quatf(vector: lhs.vector * rhs) }
    /// The quaternion times a scalar.
    public static func * (lhs: Float, rhs: simd_quatf) -> simd_quatf { simd_quatf(vector: lhs * rhs.vector) }
    /// The quaternion over a scalar.
    public static func / (lhs: simd_quatf, rhs: Float) -> simd_quatf { simd_quatf(vector: lhs.vector / rhs) }
    /// `lhs · rhs⁻¹`.
    public static func / (lhs: simd_quatf, rhs: simd_quatf) -> simd_quatf { lhs * rhs.inverse }
    /// Multiplies in place.
    public static func *= (lhs: inout simd_quatf, rhs: simd_quatf) { lhs = lhs * rhs }

    /// `simd_quatf(real: …, imag: …)`.
    public var debugDescription: String { "simd_quatf(real: \(real), imag: \(imag))" }
}

/// simd's Swift name for `simd_quatf`.
public typealias quaternion_float = simd_quatf

extension simd_float3x3 {
    /// The rotation matrix of a unit quaternion.
    public init(_ quaternion: simd_quatf) {
        let v = quaternion.vector
        let (x, y, z, r) = (v.x, v.y, v.z, v.w)
        self.init(
            simd_float3(1 - 2 * (y * y + z * z), 2 * (x * y + z * r), 2 * (x * z - y * r)),
            simd_float3(2 * (x * y - z * r), 1 - 2 * (x * x + z * z), 2 * (y * z + x * r)),
            simd_float3(2 * (x * z + y * r), 2 * (y * z - x * r), 1 - 2 * (x * x + y * y)))
    }
}

extension simd_float4x4 {
    /// The rotation transform of a unit quaternion (no translation).
    public init(_ quaternion: simd_quatf) {
        let m = simd_float3x3(quaternion)
        self.init(
            simd_make_float4(m.columns.0, 0), simd_make_float4(m.columns.1, 0), simd_make_float4(m.columns.2, 0),
            simd_float4(0, 0, 0, 1))
    }
}

/// The quaternion `ix·i + iy·j + iz·k + r`.
public func simd_quaternion(_ ix: Float, _ iy: Float, _ iz: Float, _ r: Float) -> simd_quatf {
    simd_quatf(ix: ix, iy: iy, iz: iz, r: r)
}
/// The quaternion with these elements (ix, iy, iz, r).
public func simd_quaternion(_ xyzr: simd_float4) -> simd_quatf { simd_quatf(vector: xyzr) }
/// The rotation by `angle` radians about unit `axis`.
public func simd_quaternion(_ angle: Float, _ axis: simd_float3) -> simd_quatf { simd_quatf(angle: angle, axis: axis) }
/// The shortest rotation from unit vector `from` to unit vector `to`.
public func simd_quaternion(_ from: simd_float3, _ to: simd_float3) -> simd_quatf { simd_quatf(from: from, to: to) }
/// The rotation a 3 × 3 rotation matrix holds.
public func simd_quaternion(_ matrix: simd_float3x3) -> simd_quatf { simd_quatf(matrix) }
/// The rotation a transform's upper-left 3 × 3 part holds.
public func simd_quaternion(_ matrix: simd_float4x4) -> simd_quatf { simd_quatf(matrix) }
/// The rotation matrix of a unit quaternion.
public func simd_matrix3x3(_ q: simd_quatf) -> simd_float3x3 { simd_float3x3(q) }
/// The rotation transform of a unit quaternion.
public func simd_matrix4x4(_ q: simd_quatf) -> simd_float4x4 { simd_float4x4(q) }
/// `v` rotated by `q`.
public func simd_act(_ q: simd_quatf, _ v: simd_float3) -> simd_float3 { q.act(v) }
/// The Hamilton product.
public func simd_mul(_ p: simd_quatf, _ q: simd_quatf) -> simd_quatf { p * q }
/// The sum.
public func simd_add(_ p: simd_quatf, _ q: simd_quatf) -> simd_quatf { p + q }
/// The difference.
public func simd_sub(_ p: simd_quatf, _ q: simd_quatf) -> simd_quatf { p - q }
/// The inverse.
public func simd_inverse(_ q: simd_quatf) -> simd_quatf { q.inverse }
/// The conjugate.
public func simd_conjugate(_ q: simd_quatf) -> simd_quatf { q.conjugate }
/// The quaternion scaled to length 1.
public func simd_normalize(_ q: simd_quatf) -> simd_quatf { q.normalized }
/// The length.
public func simd_length(_ q: simd_quatf) -> Float { q.length }
/// The dot product of the elements.
public func simd_dot(_ p: simd_quatf, _ q: simd_quatf) -> Float { simd_dot(p.vector, q.vector) }
/// The real part.
public func simd_real(_ q: simd_quatf) -> Float { q.real }
/// The imaginary part.
public func simd_imag(_ q: simd_quatf) -> simd_float3 { q.imag }
/// The rotation angle in radians.
public func simd_angle(_ q: simd_quatf) -> Float { q.angle }
/// The unit rotation axis.
public func simd_axis(_ q: simd_quatf) -> simd_float3 { q.axis }

/// Spherical linear interpolation from unit `q0` (t = 0) to unit `q1` (t = 1) along the shorter arc.
public func simd_slerp(_ q0: simd_quatf, _ q1: simd_quatf, _ t: Float) -> simd_quatf {
    var end = q1
    var cosine = simd_dot(q0.vector, q1.vector)
    if cosine < 0 {
        end = -q1
        cosine = -cosine
    }
    if cosine > 1 - 1e-6 {
        return simd_quatf(vector: q0.vector + t * (end.vector - q0.vector)).normalized
    }
    let theta = acos(min(cosine, 1))
    let s = sin(theta)
    return simd_quatf(vector: (sin((1 - t) * theta) / s) * q0.vector + (sin(t * theta) / s) * end.vector)
}
