import Foundation
import OpenVision

/// One candidate string of a recognised line, as Vision's.
open class VNRecognizedText {
    /// The recognised text.
    public let string: String
    /// How confident the recogniser is in the text, 0...1.
    public let confidence: VNConfidence
    let native: RecognizedText

    init(_ t: RecognizedText) {
        native = t
        string = t.string
        confidence = t.confidence
    }

    /// The box of the characters in `range` (the union of their character boxes), or nil when the range is empty.
    public func boundingBox(for range: Range<String.Index>) throws -> VNRectangleObservation? {
        let lower = string.distance(from: string.startIndex, to: range.lowerBound)
        let upper = string.distance(from: string.startIndex, to: range.upperBound)
        let boxes = native.characterBoxes
        guard lower < upper, lower >= 0, upper <= boxes.count else { return nil }
        let union = boxes[lower..<upper].dropFirst().reduce(boxes[lower]) { $0.union($1) }
        return VNRectangleObservation(RectangleObservation(boundingBox: union, confidence: confidence))
    }
}
