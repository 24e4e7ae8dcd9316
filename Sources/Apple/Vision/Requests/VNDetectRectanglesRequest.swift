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

    public var minimumAspectRatio: VNAspectRatio = 0.5
    public var maximumAspectRatio: VNAspectRatio = 1.0
    public var quadratureTolerance: VNDegrees = 30
    public var minimumSize: Float = 0.2
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
