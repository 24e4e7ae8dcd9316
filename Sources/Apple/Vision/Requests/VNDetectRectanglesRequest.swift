import Foundation
import OpenVision

/// Vision's rectangle detector (OpenVision's `DetectRectanglesRequest`): Vision's options and defaults.
open class VNDetectRectanglesRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNRectangleObservation]? { storedResults as? [VNRectangleObservation] }
    /// Apple's revision 1 (`VNDetectRectanglesRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectRectanglesRequestRevision1 }
    /// Vision's current revision, `VNDetectRectanglesRequestRevision1`.
    override open class var currentRevision: Int { VNDetectRectanglesRequestRevision1 }

    /// Smallest accepted aspect ratio (shorter side / longer side), 0...1. Default 0.5, as Vision.
    public var minimumAspectRatio: VNAspectRatio = 0.5
    /// Largest accepted aspect ratio (shorter side / longer side), 0...1. Default 1.0, as Vision.
    public var maximumAspectRatio: VNAspectRatio = 1.0
    /// How far, in degrees, each corner may deviate from 90°, 0...45. Default 30, as Vision.
    public var quadratureTolerance: VNDegrees = 30
    /// Smallest accepted size: the shorter side as a fraction of the image's shorter side, 0...1. Default 0.2.
    public var minimumSize: Float = 0.2
    /// Observations less confident than this are dropped, 0...1. Default 0.
    public var minimumConfidence: VNConfidence = 0
    /// 0: no limit. Default 1, as Vision.
    public var maximumObservations: Int = 1

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectRectanglesRequest()
        request.minimumAspectRatio = minimumAspectRatio
        request.maximumAspectRatio = maximumAspectRatio
        request.quadratureTolerance = quadratureTolerance
        request.minimumSize = minimumSize
        request.minimumConfidence = minimumConfidence
        request.maximumObservations = maximumObservations
        return try perform(request, in: context).map(VNRectangleObservation.init)
    }
}
