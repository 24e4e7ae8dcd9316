import Foundation

/// A named point found by a pose request, as Vision's `VNRecognizedPoint`: a normalised location
/// (lower-left origin, relative to the whole image) with the model's confidence in it, 0...1.
public struct RecognizedPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The joint's name, as Vision spells it (`"left_shoulder_1_joint"` style names are Vision's raw
    /// keys; ours are the Swift names, e.g. `"leftShoulder"`, `"thumbTip"`).
    public let identifier: String
    /// Where the point is, normalised, lower-left origin.
    public let location: NormalizedPoint
    /// How confident the model is that the point is where it says and visible, 0...1.
    public let confidence: Float

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(identifier: String, location: NormalizedPoint, confidence: Float) {
        self.identifier = identifier
        self.location = location
        self.confidence = confidence
    }

    /// The location in pixels of an image of the given size (top-left origin).
    public func pixelLocation(width: Int, height: Int) -> (x: Double, y: Double) {
        (location.x * Double(width), (1 - location.y) * Double(height))
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        "\(identifier) (\(String(format: "%.4f", location.x)), \(String(format: "%.4f", location.y))) \(String(format: "%.2f", confidence))"
    }
}

/// An observation made of named points, as Vision's `VNRecognizedPointsObservation`: pose
/// observations (body, hand) conform.
public protocol RecognizedPointsObservation: VisionObservation {
    /// Every point the observation has, keyed by its identifier.
    var allRecognizedPoints: [String: RecognizedPoint] { get }
    /// The identifiers this observation can report, in the model's order.
    var availableKeys: [String] { get }
}
