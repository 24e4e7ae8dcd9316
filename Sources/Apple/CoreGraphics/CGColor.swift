import Foundation

/// A colour: components in a colour space (red, green, blue, alpha in sRGB, or gray, alpha), each 0...1.
/// Immutable, as Apple's.
public final class CGColor: Hashable, @unchecked Sendable {
    /// The space the components are in.
    public let colorSpace: CGColorSpace?
    /// The components, alpha last (4 for RGB, 2 for gray).
    public let components: [CGFloat]?

    /// A colour in `space` from `components`: the space's `numberOfComponents` values, then alpha.
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        colorSpace = space
        self.components = Array(UnsafeBufferPointer(start: components, count: space.numberOfComponents + 1))
    }

    private init(space: CGColorSpace, components: [CGFloat]) {
        colorSpace = space
        self.components = components
    }

    /// An sRGB colour.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace.deviceRGB, components: [red, green, blue, alpha])
    }

    /// An sRGB colour (Apple's `init(srgbRed:green:blue:alpha:)`).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A gray colour.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace.deviceGray, components: [gray, alpha])
    }

    /// A gray colour in the gamma-2.2 gray space.
    public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
        self.init(gray: gray, alpha: alpha)
    }

    /// The number of components, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// The alpha component.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// The same colour with another alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard var c = components, let space = colorSpace else { return nil }
        c[c.count - 1] = alpha
        return CGColor(space: space, components: c)
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Two colours are equal when their spaces and components are.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.colorSpace == rhs.colorSpace && lhs.components == rhs.components
    }

    /// Hashes the components.
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    /// The colour as red, green, blue, alpha (gray repeated in each colour channel), each 0...1.
    var rgba: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        let c = components ?? [0, 1]
        return c.count == 4 ? (c[0], c[1], c[2], c[3]) : (c[0], c[0], c[0], c.last ?? 1)
    }
}

/// Apple's `CGColorEqualToColor`: whether two colours are equal.
public func CGColorEqualToColor(_ color1: CGColor?, _ color2: CGColor?) -> Bool { color1 == color2 }
