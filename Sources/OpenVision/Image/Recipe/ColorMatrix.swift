/// An affine map of colours: each output component is a weighted sum of the input's red, green, blue and alpha plus
/// a bias (Core Image's `CIColorMatrix`: `r' = dot(rgba, red) + bias.r`, …). It acts on straight (unpremultiplied)
/// colour; the resulting alpha is clamped to 0...1, the colour is not clamped until an image is rendered.
public struct ColorMatrix: Sendable, Hashable, Codable {
    /// Weights of (red, green, blue, alpha) making the output's red.
    public var red: SIMD4<Double>
    /// Weights making the output's green.
    public var green: SIMD4<Double>
    /// Weights making the output's blue.
    public var blue: SIMD4<Double>
    /// Weights making the output's alpha.
    public var alpha: SIMD4<Double>
    /// Added to (red, green, blue, alpha) after the weights.
    public var bias: SIMD4<Double>

    /// The matrix from its four rows and bias; each row defaults to the identity's.
    public init(
        red: SIMD4<Double> = [1, 0, 0, 0], green: SIMD4<Double> = [0, 1, 0, 0],
        blue: SIMD4<Double> = [0, 0, 1, 0], alpha: SIMD4<Double> = [0, 0, 0, 1],
        bias: SIMD4<Double> = [0, 0, 0, 0]
    ) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.bias = bias
    }

    /// Leaves every colour as it is.
    public static let identity = ColorMatrix()

    /// Core Image's colour controls (`CIColorControls`), in the order its reference gives: saturation interpolates
    /// between the Rec. 709 luma gray (0) and the colour (1, extrapolating above); contrast is
    /// `(c - 0.5) · contrast + 0.5`; brightness is added. Alpha is kept.
    public static func colorControls(saturation: Double = 1, brightness: Double = 0, contrast: Double = 1)
        -> ColorMatrix
    {
        let luma = SIMD4<Double>(0.2126, 0.7152, 0.0722, 0)
        let s = saturation
        let k = contrast
        func row(_ unit: SIMD4<Double>) -> SIMD4<Double> { (luma * (1 - s) + unit * s) * k }
        let offset = 0.5 * (1 - k) + brightness
        return ColorMatrix(
            red: row([1, 0, 0, 0]), green: row([0, 1, 0, 0]), blue: row([0, 0, 1, 0]),
            bias: [offset, offset, offset, 0])
    }

    /// Core Image's colour invert (`CIColorInvert`): `1 - c` for red, green and blue; alpha kept.
    public static let invert = ColorMatrix(
        red: [-1, 0, 0, 0], green: [0, -1, 0, 0], blue: [0, 0, -1, 0],
        bias: [1, 1, 1, 0])

    /// `other` applied first, then `self`.
    public func concatenating(after other: ColorMatrix) -> ColorMatrix {
        let rows = [red, green, blue, alpha]
        let inner = [other.red, other.green, other.blue, other.alpha]
        func compose(_ row: SIMD4<Double>) -> SIMD4<Double> {
            inner.indices.reduce(SIMD4<Double>()) { $0 + inner[$1] * row[$1] }
        }
        let composed = rows.map(compose)
        let innerBias = other.bias
        let newBias = SIMD4<Double>(rows.map { ($0 * innerBias).sum() }) + bias
        return ColorMatrix(red: composed[0], green: composed[1], blue: composed[2], alpha: composed[3], bias: newBias)
    }

    /// True when the output alpha is the input alpha.
    var keepsAlpha: Bool { alpha == [0, 0, 0, 1] && bias.w == 0 }

    /// The 20 values row after row, each row's four weights then its bias (the native layer's layout).
    var rowMajor: [Float] {
        [red, green, blue, alpha].enumerated().flatMap { index, row in
            [Float(row.x), Float(row.y), Float(row.z), Float(row.w), Float(bias[index])]
        }
    }
}
