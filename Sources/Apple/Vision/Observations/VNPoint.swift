import Foundation
import OpenVision

/// A point in normalised image coordinates (lower-left origin), as Vision's `VNPoint`.
open class VNPoint {
    public let location: CGPoint
    public var x: Double { location.x }
    public var y: Double { location.y }

    public init(location: CGPoint) { self.location = location }
    public convenience init(x: Double, y: Double) { self.init(location: CGPoint(x: x, y: y)) }

    /// The origin.
    public static let zero = VNPoint(x: 0, y: 0)
}

/// A point with a confidence, as Vision's `VNDetectedPoint`.
open class VNDetectedPoint: VNPoint {
    public let confidence: VNConfidence

    init(location: CGPoint, confidence: VNConfidence) {
        self.confidence = confidence
        super.init(location: location)
    }
}

/// Names of recognised points (Vision's `VNRecognizedPointKey`).
public typealias VNRecognizedPointKey = String
/// Names of groups of recognised points (Vision's `VNRecognizedPointGroupKey`).
public typealias VNRecognizedPointGroupKey = String

/// A named point with a confidence (a body or hand joint), as Vision's `VNRecognizedPoint`.
open class VNRecognizedPoint: VNDetectedPoint {
    public let identifier: VNRecognizedPointKey

    init(_ p: RecognizedPoint) {
        identifier = p.identifier
        super.init(location: CGPoint(x: p.location.x, y: p.location.y), confidence: p.confidence)
    }
}
