import Foundation

/// The colour model of a colour space (Apple's raw values).
public enum CGColorSpaceModel: Int32, Sendable {
    /// Unknown.
    case unknown = -1
    /// Gray.
    case monochrome = 0
    /// Red, green, blue.
    case rgb = 1
    /// Cyan, magenta, yellow, black.
    case cmyk = 2
    /// CIE L*a*b*.
    case lab = 3
    /// DeviceN.
    case deviceN = 4
    /// Indexed (a palette).
    case indexed = 5
    /// A pattern.
    case pattern = 6
    /// XYZ.
    case XYZ = 7
}

/// A colour space: sRGB (device RGB is sRGB here) or gray (gamma 2.2). Pixels are never converted between colour
/// spaces on Linux, so only these two are made; `CGColorSpace(name:)` is nil for the others (Display P3, linear,
/// extended-range, CMYK, Lab), which are listed in docs/porting.md.
public final class CGColorSpace: Hashable, @unchecked Sendable {
    /// The space's name (`CGColorSpace.sRGB`, `CGColorSpace.genericGrayGamma2_2`), or nil for a device space.
    public let name: CFString?
    /// The colour model: `.rgb` or `.monochrome`.
    public let model: CGColorSpaceModel

    private init(name: CFString?, model: CGColorSpaceModel) {
        self.name = name
        self.model = model
    }

    /// The named space: `CGColorSpace.sRGB` or `CGColorSpace.genericGrayGamma2_2`; nil for another name.
    public convenience init?(name: CFString) {
        if name.isEqual(to: CGColorSpace.sRGB as String) {
            self.init(name: name, model: .rgb)
        } else if name.isEqual(to: CGColorSpace.genericGrayGamma2_2 as String) {
            self.init(name: name, model: .monochrome)
        } else {
            return nil
        }
    }

    /// The number of colour components (3 for RGB, 1 for gray), alpha not counted.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    /// The standard RGB space.
    public static let sRGB: CFString = "kCGColorSpaceSRGB"
    /// The gray space with a gamma of 2.2.
    public static let genericGrayGamma2_2: CFString = "kCGColorSpaceGenericGrayGamma2_2"

    /// Device RGB (sRGB here).
    static let deviceRGB = CGColorSpace(name: nil, model: .rgb)
    /// Device gray (gamma 2.2 here).
    static let deviceGray = CGColorSpace(name: nil, model: .monochrome)

    /// Two spaces are equal when they have the same model (device RGB is sRGB here, device gray is gray 2.2).
    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.model == rhs.model }

    /// Hashes the model.
    public func hash(into hasher: inout Hasher) { hasher.combine(model) }
}

/// The device-dependent RGB space (sRGB here), as Apple's `CGColorSpaceCreateDeviceRGB()`.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace.deviceRGB }

/// The device-dependent gray space, as Apple's `CGColorSpaceCreateDeviceGray()`.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace.deviceGray }
