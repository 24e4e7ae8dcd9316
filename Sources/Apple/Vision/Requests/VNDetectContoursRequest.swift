import Foundation
import OpenVision

/// Vision's contours (OpenVision's `DetectContoursRequest`).
open class VNDetectContoursRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNContoursObservation]? { storedResults as? [VNContoursObservation] }
    /// Apple's revision 1 (`VNDetectContoursRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNDetectContoursRequestRevision1 }
    /// Vision's current revision, `VNDetectContoursRequestRevision1`.
    override open class var currentRevision: Int { VNDetectContoursRequestRevision1 }

    /// How much to stretch contrast about `contrastPivot` before binarising, 0...3. Default 2, as Vision.
    public var contrastAdjustment: Float = 2
    /// The intensity (0...1) contrast is stretched about; nil picks it from the image. Default 0.5, as Vision.
    public var contrastPivot: Float? = 0.5
    /// True: dark shapes on a light background are the shapes; false: light on dark. Default true.
    public var detectsDarkOnLight = true
    /// The longer side, in pixels, the image is shrunk to before detection. Default 512, as Vision.
    public var maximumImageDimension = 512

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = DetectContoursRequest()
        request.contrastAdjustment = contrastAdjustment
        request.contrastPivot = contrastPivot
        request.detectsDarkOnLight = detectsDarkOnLight
        request.maximumImageDimension = maximumImageDimension
        return [VNContoursObservation(try perform(request, in: context))]
    }
}
