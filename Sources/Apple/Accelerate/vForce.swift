import CAccelerate

// vForce: element-wise functions of `n.pointee` Floats, `y[i] = f(x[i])`, through glibc's vector math library four
// at a time (the `_ZGVbN4v_` functions; same accuracy as glibc's scalar ones, within 4 ulp).

enum VectorMath {
    /// `y[i] = block(x[i…i+3])` in blocks of four, the tail through a zero-padded block.
    @inline(__always)
    static func apply(
        _ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ count: Int,
        _ block: (SIMD4<Float>) -> SIMD4<Float>
    ) {
        var i = 0
        let source = UnsafeRawPointer(x)
        let target = UnsafeMutableRawPointer(y)
        while i + 4 <= count {
            target.storeBytes(
                of: block(source.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self)),
                toByteOffset: i * 4, as: SIMD4<Float>.self)
            i += 4
        }
        guard i < count else { return }
        var tail = SIMD4<Float>(repeating: 0)
        for k in 0..<(count - i) { tail[k] = x[i + k] }
        let result = block(tail)
        for k in 0..<(count - i) { y[i + k] = result[k] }
    }

    /// `z[i] = block(a[i…], b[i…])` in blocks of four.
    @inline(__always)
    static func apply(
        _ z: UnsafeMutablePointer<Float>, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
        _ count: Int, _ block: (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>
    ) {
        var i = 0
        while i < count {
            let k = min(4, count - i)
            var va = SIMD4<Float>(repeating: 1)
            var vb = SIMD4<Float>(repeating: 1)
            for j in 0..<k {
                va[j] = a[i + j]
                vb[j] = b[i + j]
            }
            let result = block(va, vb)
            for j in 0..<k { z[i + j] = result[j] }
            i += 4
        }
    }
}

/// `y = e^x` of each element of `x` (`n.pointee` elements).
public func vvexpf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_expf($0) }
}

/// `y = 2^x` of each element of `x` (`n.pointee` elements).
public func vvexp2f(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_exp2f($0) }
}

/// `y = the natural logarithm` of each element of `x` (`n.pointee` elements).
public func vvlogf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_logf($0) }
}

/// `y = the base-2 logarithm` of each element of `x` (`n.pointee` elements).
public func vvlog2f(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_log2f($0) }
}

/// `y = the base-10 logarithm` of each element of `x` (`n.pointee` elements).
public func vvlog10f(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_log10f($0) }
}

/// `y = log(1 + x)` of each element of `x` (`n.pointee` elements).
public func vvlog1pf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_log1pf($0) }
}

/// `y = e^x − 1` of each element of `x` (`n.pointee` elements).
public func vvexpm1f(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_expm1f($0) }
}

/// `y = the sine` of each element of `x` (`n.pointee` elements).
public func vvsinf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_sinf($0) }
}

/// `y = the cosine` of each element of `x` (`n.pointee` elements).
public func vvcosf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_cosf($0) }
}

/// `y = the tangent` of each element of `x` (`n.pointee` elements).
public func vvtanf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_tanf($0) }
}

/// `y = the arcsine` of each element of `x` (`n.pointee` elements).
public func vvasinf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_asinf($0) }
}

/// `y = the arccosine` of each element of `x` (`n.pointee` elements).
public func vvacosf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_acosf($0) }
}

/// `y = the arctangent` of each element of `x` (`n.pointee` elements).
public func vvatanf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_atanf($0) }
}

/// `y = the hyperbolic sine` of each element of `x` (`n.pointee` elements).
public func vvsinhf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_sinhf($0) }
}

/// `y = the hyperbolic cosine` of each element of `x` (`n.pointee` elements).
public func vvcoshf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_coshf($0) }
}

/// `y = the hyperbolic tangent` of each element of `x` (`n.pointee` elements).
public func vvtanhf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_tanhf($0) }
}

/// `y = the inverse hyperbolic sine` of each element of `x` (`n.pointee` elements).
public func vvasinhf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_asinhf($0) }
}

/// `y = the inverse hyperbolic cosine` of each element of `x` (`n.pointee` elements).
public func vvacoshf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_acoshf($0) }
}

/// `y = the inverse hyperbolic tangent` of each element of `x` (`n.pointee` elements).
public func vvatanhf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { _ZGVbN4v_atanhf($0) }
}

/// `z = x^y` element by element (note the order: exponents `y` come first, as Apple's).
public func vvpowf(
    _ z: UnsafeMutablePointer<Float>, _ y: UnsafePointer<Float>, _ x: UnsafePointer<Float>,
    _ n: UnsafePointer<Int32>
) {
    VectorMath.apply(z, x, y, Int(n.pointee)) { _ZGVbN4vv_powf($0, $1) }
}

/// `z = atan2(y, x)` element by element.
public func vvatan2f(
    _ z: UnsafeMutablePointer<Float>, _ y: UnsafePointer<Float>, _ x: UnsafePointer<Float>,
    _ n: UnsafePointer<Int32>
) {
    VectorMath.apply(z, y, x, Int(n.pointee)) { _ZGVbN4vv_atan2f($0, $1) }
}

/// `y = the square root` of each element of `x`.
public func vvsqrtf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { $0.squareRoot() }
}

/// `y = 1 / the square root` of each element of `x`.
public func vvrsqrtf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { 1 / $0.squareRoot() }
}

/// `y = the reciprocal` of each element of `x`.
public func vvrecf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { 1 / $0 }
}

/// `y = the absolute value` of each element of `x`.
public func vvfabsf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { $0.replacing(with: -$0, where: $0 .< 0) }
}

/// `y = x` rounded down, element by element.
public func vvfloorf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { $0.rounded(.down) }
}

/// `y = x` rounded up, element by element.
public func vvceilf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { $0.rounded(.up) }
}

/// `y = x` rounded to the nearest integer (ties to even), element by element.
public func vvnintf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { $0.rounded(.toNearestOrEven) }
}

/// `y = x` rounded toward zero, element by element.
public func vvintf(_ y: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, _ n: UnsafePointer<Int32>) {
    VectorMath.apply(y, x, Int(n.pointee)) { $0.rounded(.towardZero) }
}
