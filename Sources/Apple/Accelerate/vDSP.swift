/// The Swift overlay's vDSP: the same operations as the `vDSP_…` functions, on arrays and other
/// `AccelerateBuffer`s. Functions taking two vectors use the first one's count (the second must be as long).
public enum vDSP {
    /// The largest element (−infinity for none).
    public static func maximum<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_maxv($0, 1, &result, $1) }
        return result
    }

    /// The smallest element (+infinity for none).
    public static func minimum<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_minv($0, 1, &result, $1) }
        return result
    }

    /// The first index of the largest element, and the element.
    public static func indexOfMaximum<U: AccelerateBuffer>(_ vector: U) -> (UInt, Float) where U.Element == Float {
        var value: Float = 0
        var index: vDSP_Length = 0
        vector.withFloats { vDSP_maxvi($0, 1, &value, &index, $1) }
        return (index, value)
    }

    /// The first index of the smallest element, and the element.
    public static func indexOfMinimum<U: AccelerateBuffer>(_ vector: U) -> (UInt, Float) where U.Element == Float {
        var value: Float = 0
        var index: vDSP_Length = 0
        vector.withFloats { vDSP_minvi($0, 1, &value, &index, $1) }
        return (index, value)
    }

    /// The largest magnitude.
    public static func maximumMagnitude<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_maxmgv($0, 1, &result, $1) }
        return result
    }

    /// The sum of the elements.
    public static func sum<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_sve($0, 1, &result, $1) }
        return result
    }

    /// The mean of the elements.
    public static func mean<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_meanv($0, 1, &result, $1) }
        return result
    }

    /// The sum of the squares.
    public static func sumOfSquares<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_svesq($0, 1, &result, $1) }
        return result
    }

    /// The mean of the squares.
    public static func meanSquare<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_measqv($0, 1, &result, $1) }
        return result
    }

    /// The root of the mean of the squares.
    public static func rootMeanSquare<U: AccelerateBuffer>(_ vector: U) -> Float where U.Element == Float {
        var result: Float = 0
        vector.withFloats { vDSP_rmsqv($0, 1, &result, $1) }
        return result
    }

    /// The dot product.
    public static func dot<U: AccelerateBuffer>(_ vectorA: U, _ vectorB: U) -> Float where U.Element == Float {
        precondition(vectorA.count == vectorB.count, "vDSP.dot needs vectors of one length")
        var result: Float = 0
        vectorA.withFloats { a, n in vectorB.withFloats { b, _ in vDSP_dotpr(a, 1, b, 1, &result, n) } }
        return result
    }

    /// `scalar + vector`, element by element.
    public static func add<U: AccelerateBuffer>(_ scalar: Float, _ vector: U) -> [Float] where U.Element == Float {
        var s = scalar
        return vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vsadd(a, 1, &s, $0, 1, n) } }
    }

    /// `vectorA + vectorB`, element by element.
    public static func add<T: AccelerateBuffer, U: AccelerateBuffer>(_ vectorA: T, _ vectorB: U) -> [Float]
    where T.Element == Float, U.Element == Float {
        binary(vectorA, vectorB) { vDSP_vadd($0, 1, $1, 1, $2, 1, $3) }
    }

    /// `vectorA − vectorB`, element by element.
    public static func subtract<T: AccelerateBuffer, U: AccelerateBuffer>(_ vectorA: T, _ vectorB: U) -> [Float]
    where T.Element == Float, U.Element == Float {
        binary(vectorA, vectorB) { vDSP_vsub($1, 1, $0, 1, $2, 1, $3) }
    }

    /// `scalar · vector`, element by element.
    public static func multiply<U: AccelerateBuffer>(_ scalar: Float, _ vector: U) -> [Float] where U.Element == Float {
        var s = scalar
        return vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vsmul(a, 1, &s, $0, 1, n) } }
    }

    /// `vectorA · vectorB`, element by element.
    public static func multiply<T: AccelerateBuffer, U: AccelerateBuffer>(_ vectorA: T, _ vectorB: U) -> [Float]
    where T.Element == Float, U.Element == Float {
        binary(vectorA, vectorB) { vDSP_vmul($0, 1, $1, 1, $2, 1, $3) }
    }

    /// `vector / scalar`, element by element.
    public static func divide<U: AccelerateBuffer>(_ vector: U, _ scalar: Float) -> [Float] where U.Element == Float {
        var s = scalar
        return vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vsdiv(a, 1, &s, $0, 1, n) } }
    }

    /// `scalar / vector`, element by element.
    public static func divide<U: AccelerateBuffer>(_ scalar: Float, _ vector: U) -> [Float] where U.Element == Float {
        var s = scalar
        return vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_svdiv(&s, a, 1, $0, 1, n) } }
    }

    /// `vectorA / vectorB`, element by element.
    public static func divide<T: AccelerateBuffer, U: AccelerateBuffer>(_ vectorA: T, _ vectorB: U) -> [Float]
    where T.Element == Float, U.Element == Float {
        binary(vectorA, vectorB) { vDSP_vdiv($1, 1, $0, 1, $2, 1, $3) }
    }

    /// Each element clipped to `bounds`.
    public static func clip<U: AccelerateBuffer>(_ vector: U, to bounds: ClosedRange<Float>) -> [Float]
    where U.Element == Float {
        var low = bounds.lowerBound
        var high = bounds.upperBound
        return vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vclip(a, 1, &low, &high, $0, 1, n) } }
    }

    /// The absolute values.
    public static func absolute<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vabs(a, 1, $0, 1, n) } }
    }

    /// The negated values.
    public static func negative<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vneg(a, 1, $0, 1, n) } }
    }

    /// The squares.
    public static func square<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_vsq(a, 1, $0, 1, n) } }
    }

    /// The element-wise maximum of two vectors.
    public static func maximum<U: AccelerateBuffer>(_ vectorA: U, _ vectorB: U) -> [Float] where U.Element == Float {
        binary(vectorA, vectorB) { vDSP_vmax($0, 1, $1, 1, $2, 1, $3) }
    }

    /// The element-wise minimum of two vectors.
    public static func minimum<U: AccelerateBuffer>(_ vectorA: U, _ vectorB: U) -> [Float] where U.Element == Float {
        binary(vectorA, vectorB) { vDSP_vmin($0, 1, $1, 1, $2, 1, $3) }
    }

    /// Every element of `vector` set to `value`.
    public static func fill<V: AccelerateMutableBuffer>(_ vector: inout V, with value: Float) where V.Element == Float {
        var v = value
        vector.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { vDSP_vfill(&v, base, 1, vDSP_Length(buffer.count)) }
        }
    }

    /// `count` values from `range.lowerBound` to `range.upperBound`, evenly spaced (both ends included).
    public static func ramp(in range: ClosedRange<Float>, count: Int) -> [Float] {
        var start = range.lowerBound
        var step = count > 1 ? (range.upperBound - range.lowerBound) / Float(count - 1) : 0
        return makeFloats(count) { vDSP_vramp(&start, &step, $0, 1, vDSP_Length(count)) }
    }

    /// `count` values from `initialValue` in steps of `increment`.
    public static func ramp(withInitialValue initialValue: Float, increment: Float, count: Int) -> [Float] {
        var start = initialValue
        var step = increment
        return makeFloats(count) { vDSP_vramp(&start, &step, $0, 1, vDSP_Length(count)) }
    }

    /// The mean and population standard deviation of `vector`, and its elements standardised by them.
    public static func normalize<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        var mean: Float = 0
        var deviation: Float = 0
        return vector.withFloats { a, n in makeFloats(Int(n)) { vDSP_normalize(a, 1, $0, 1, &mean, &deviation, n) } }
    }

    /// 8-bit values as Floats.
    public static func integerToFloatingPoint<U: AccelerateBuffer>(_ vector: U, floatingPointType: Float.Type)
        -> [Float]
    where U.Element == UInt8 {
        vector.withUnsafeBufferPointer { buffer in
            makeFloats(buffer.count) { vDSP_vfltu8(buffer.baseAddress!, 1, $0, 1, vDSP_Length(buffer.count)) }
        }
    }

    private static func binary<T: AccelerateBuffer, U: AccelerateBuffer>(
        _ vectorA: T, _ vectorB: U,
        _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafeMutablePointer<Float>, vDSP_Length) -> Void
    ) -> [Float] where T.Element == Float, U.Element == Float {
        precondition(vectorA.count == vectorB.count, "vDSP needs vectors of one length")
        return vectorA.withFloats { a, n in vectorB.withFloats { b, _ in makeFloats(Int(n)) { body(a, b, $0, n) } } }
    }
}

/// The Swift overlay's vForce: element-wise functions on arrays and other `AccelerateBuffer`s.
public enum vForce {
    private static func unary<U: AccelerateBuffer>(
        _ vector: U, _ body: (UnsafeMutablePointer<Float>, UnsafePointer<Float>, UnsafePointer<Int32>) -> Void
    ) -> [Float] where U.Element == Float {
        vector.withFloats { x, n in
            var count = Int32(n)
            return makeFloats(Int(n)) { body($0, x, &count) }
        }
    }

    /// e^x of each element.
    public static func exp<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvexpf)
    }
    /// 2^x of each element.
    public static func exp2<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvexp2f)
    }
    /// The natural logarithm of each element.
    public static func log<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvlogf)
    }
    /// The base-2 logarithm of each element.
    public static func log2<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvlog2f)
    }
    /// The base-10 logarithm of each element.
    public static func log10<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvlog10f)
    }
    /// The hyperbolic tangent of each element.
    public static func tanh<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvtanhf)
    }
    /// The sine of each element.
    public static func sin<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvsinf)
    }
    /// The cosine of each element.
    public static func cos<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvcosf)
    }
    /// The arctangent of each element.
    public static func atan<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvatanf)
    }
    /// The square root of each element.
    public static func sqrt<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvsqrtf)
    }
    /// 1 / the square root of each element.
    public static func rsqrt<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvrsqrtf)
    }
    /// 1 / each element.
    public static func reciprocal<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvrecf)
    }
    /// Each element rounded down.
    public static func floor<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvfloorf)
    }
    /// Each element rounded up.
    public static func ceil<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvceilf)
    }
    /// Each element rounded to the nearest integer.
    public static func nearestInteger<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvnintf)
    }
    /// Each element rounded toward zero.
    public static func trunc<U: AccelerateBuffer>(_ vector: U) -> [Float] where U.Element == Float {
        unary(vector, vvintf)
    }

    /// `bases[i]^exponents[i]`.
    public static func pow<T: AccelerateBuffer, U: AccelerateBuffer>(bases: T, exponents: U) -> [Float]
    where T.Element == Float, U.Element == Float {
        precondition(bases.count == exponents.count, "vForce.pow needs vectors of one length")
        return bases.withFloats { x, n in
            exponents.withFloats { y, _ in
                var count = Int32(n)
                return makeFloats(Int(n)) { vvpowf($0, y, x, &count) }
            }
        }
    }

    /// e^x of each element of `vector` into `result`.
    public static func exp<U: AccelerateBuffer, V: AccelerateMutableBuffer>(_ vector: U, result: inout V)
    where U.Element == Float, V.Element == Float {
        precondition(vector.count == result.count, "vForce.exp needs a result as long as its input")
        vector.withFloats { x, n in
            var count = Int32(n)
            result.withUnsafeMutableBufferPointer { if let y = $0.baseAddress { vvexpf(y, x, &count) } }
        }
    }
}
