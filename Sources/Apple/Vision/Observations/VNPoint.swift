import Foundation
import OpenVision

/// A point in normalised image coordinates (lower-left origin), as Vision's `VNPoint`.
open class VNPoint {
    /// The point, normalised with a lower-left origin (or in the unit of the API that made it).
    public let location: CGPoint
    /// `location.x`.
    public var x: Double { location.x }
    /// `location.y`.
    public var y: Double { location.y }

    /// A point at `location`.
    public init(location: CGPoint) { self.location = location }
    /// A point at (`x`, `y`).
    public convenience init(x: Double, y: Double) { self.init(location: CGPoint(x: x, y: y)) }

    /// The origin.
    public static let zero = VNPoint(x: 0, y: 0)
}

extension VNPoint: Equatable, Hashable {
    /// Points are equal when their locations are (Vision's `isEqual:`).
    public static func == (a: VNPoint, b: VNPoint) -> Bool { a.location == b.location }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(location.x)
        hasher.combine(location.y)
    }
}

/// A point with a confidence, as Vision's `VNDetectedPoint`.
open class VNDetectedPoint: VNPoint {
    /// How confident the detector is in the point, 0...1.
    public let confidence: VNConfidence

    init(location: CGPoint, confidence: VNConfidence) {
        self.confidence = confidence
        super.init(location: location)
    }
}

/// The name of a recognised point (Vision's `VNRecognizedPointKey`, a string-backed struct as Apple's; string
/// literals make one too).
public struct VNRecognizedPointKey: Hashable, RawRepresentable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// Apple's string for it.
    public let rawValue: String
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A value from a string literal (the raw value).
    public init(stringLiteral value: String) { rawValue = value }
    /// The value as short text, for logs.
    public var description: String { rawValue }
}

/// The name of a group of recognised points (Vision's `VNRecognizedPointGroupKey`, a string-backed struct as
/// Apple's; string literals make one too).
public struct VNRecognizedPointGroupKey: Hashable, RawRepresentable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// Apple's string for it.
    public let rawValue: String
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// A value from a string literal (the raw value).
    public init(stringLiteral value: String) { rawValue = value }
    /// The value as short text, for logs.
    public var description: String { rawValue }
    /// Every point of the observation (Vision's `VNRecognizedPointGroupKeyAll`, raw value "VNIPOAll").
    public static let all = VNRecognizedPointGroupKey(rawValue: "VNIPOAll")
}

/// A named point with a confidence (a body or hand joint), as Vision's `VNRecognizedPoint`.
open class VNRecognizedPoint: VNDetectedPoint {
    /// The point's key (a joint name's raw value).
    public let identifier: VNRecognizedPointKey

    init(_ p: RecognizedPoint) {
        identifier = VNRecognizedPointKey(rawValue: p.identifier)
        super.init(location: CGPoint(x: p.location.x, y: p.location.y), confidence: p.confidence)
    }
}
