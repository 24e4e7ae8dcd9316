import OpenVision

/// A line of recognised text and its candidate strings, as Vision's.
open class VNRecognizedTextObservation: VNRectangleObservation {
    let native: RecognizedTextObservation

    init(_ o: RecognizedTextObservation) {
        native = o
        super.init(o)
    }

    /// Up to `maxCandidateCount` candidates, best first.
    public func topCandidates(_ maxCandidateCount: Int) -> [VNRecognizedText] {
        native.topCandidates(maxCandidateCount).map(VNRecognizedText.init)
    }
}
