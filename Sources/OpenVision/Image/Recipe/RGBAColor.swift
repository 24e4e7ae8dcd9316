/// A colour with straight (not premultiplied) red, green, blue and alpha components, nominally 0...1, in the
/// image's own encoding (sRGB values as stored, no linearisation).
public struct RGBAColor: Sendable, Hashable, Codable {
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Opacity, 0 (transparent) ... 1 (opaque).
    public var alpha: Double

    /// The colour with these components; alpha defaults to opaque.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Transparent black: what an image is outside its extent.
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)

    /// The components multiplied by alpha (red, green and blue), as images hold them.
    var premultiplied: [Float] {
        [Float(red * alpha), Float(green * alpha), Float(blue * alpha), Float(alpha)]
    }
}
