import Foundation
import OpenVision

/// Core Image's colour: red, green, blue and alpha components (straight, not premultiplied; 0...1) in the image's
/// own encoding, as filters take them. Immutable, a reference type, as Apple's.
public final class CIColor: CustomStringConvertible, @unchecked Sendable {
    /// Red, 0...1.
    public let red: CGFloat
    /// Green, 0...1.
    public let green: CGFloat
    /// Blue, 0...1.
    public let blue: CGFloat
    /// Opacity, 0 (transparent) ... 1 (opaque).
    public let alpha: CGFloat

    /// The colour with these components.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// An opaque colour.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: 1)
    }

    /// A Core Graphics colour: gray (gray, alpha) or RGB (red, green, blue, alpha) components.
    public convenience init(cgColor color: CGColor) {
        let c = color.components ?? [0, 1]
        switch c.count {
        case 2: self.init(red: c[0], green: c[0], blue: c[0], alpha: c[1])
        case 4: self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3])
        case 3: self.init(red: c[0], green: c[1], blue: c[2], alpha: 1)
        default: self.init(red: 0, green: 0, blue: 0, alpha: c.last ?? 1)
        }
    }

    /// A colour from its string form, "r g b a" or "r g b" (nil when it is not one).
    public convenience init?(string representation: String) {
        let parts = representation.trimmingCharacters(in: CharacterSet(charactersIn: "[] \n\t"))
            .split(separator: " ").compactMap { Double($0) }
        guard parts.count == 3 || parts.count == 4 else { return nil }
        self.init(
            red: CGFloat(parts[0]), green: CGFloat(parts[1]), blue: CGFloat(parts[2]),
            alpha: CGFloat(parts.count == 4 ? parts[3] : 1))
    }

    /// 4: red, green, blue and alpha.
    public var numberOfComponents: Int { 4 }
    /// "r g b a".
    public var stringRepresentation: String { "\(Double(red)) \(Double(green)) \(Double(blue)) \(Double(alpha))" }
    /// The string representation.
    public var description: String { stringRepresentation }

    /// OpenVision's colour of the same components (Linux only).
    public var rgbaColor: RGBAColor {
        RGBAColor(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }

    /// Opaque black.
    public static let black = CIColor(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    /// Opaque mid gray (0.5).
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    /// Opaque red.
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    /// Opaque green.
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    /// Opaque blue.
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    /// Opaque cyan.
    public static let cyan = CIColor(red: 0, green: 1, blue: 1)
    /// Opaque magenta.
    public static let magenta = CIColor(red: 1, green: 0, blue: 1)
    /// Opaque yellow.
    public static let yellow = CIColor(red: 1, green: 1, blue: 0)
    /// Transparent black.
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)
}
