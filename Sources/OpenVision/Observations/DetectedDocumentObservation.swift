import Foundation

/// The document found by `DetectDocumentSegmentationRequest`, as Vision's `DetectedDocumentObservation`:
/// the page's four corners (normalised, lower-left origin, relative to the request's region of interest).
public struct DetectedDocumentObservation: VisionObservation, QuadrilateralProviding {
    public var uuid: UUID
    public var confidence: Float
    public var topLeft: NormalizedPoint
    public var topRight: NormalizedPoint
    public var bottomRight: NormalizedPoint
    public var bottomLeft: NormalizedPoint
    public var boundingBox: NormalizedRect

    public init(topLeft: NormalizedPoint, topRight: NormalizedPoint, bottomRight: NormalizedPoint,
                bottomLeft: NormalizedPoint, confidence: Float, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
        self.boundingBox = NormalizedRect(boundingPoints: [topLeft, topRight, bottomRight, bottomLeft])
    }
}
