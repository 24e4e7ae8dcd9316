import OpenVision

/// A region of text, with character boxes when asked for (`VNDetectTextRectanglesRequest`).
open class VNTextObservation: VNRectangleObservation {
    /// The characters' boxes when `reportCharacterBoxes` was set; nil otherwise.
    public let characterBoxes: [VNRectangleObservation]?

    init(_ o: TextObservation) {
        characterBoxes = o.characterBoxes?.map(VNRectangleObservation.init)
        super.init(o)
    }
}
