import Foundation
import OpenVision

/// Vision's optical flow between two images (OpenVision's `GenerateOpticalFlowRequest`): a 2-channel field.
open class VNGenerateOpticalFlowRequest: VNTargetedImageRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNPixelBufferObservation]? { storedResults as? [VNPixelBufferObservation] }
    /// Apple's revisions 1, 2 (`VNGenerateOpticalFlowRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNGenerateOpticalFlowRequestRevision2 }
    /// Vision's current revision, `VNGenerateOpticalFlowRequestRevision2`.
    override open class var currentRevision: Int { VNGenerateOpticalFlowRequestRevision2 }

    /// How hard the flow is computed (Vision's `ComputationAccuracy`); see OpenVision's `GenerateOpticalFlowRequest`.
    public enum ComputationAccuracy: UInt, Sendable {
        /// The fastest: DIS's ultrafast preset (OpenVision's `.low`).
        case low = 0
        /// Vision's default: DIS's fast preset (`.medium`).
        case medium = 1
        /// DIS's medium preset, at half resolution (`.high`).
        case high = 2
        /// DIS at full resolution, the slowest (`.veryHigh`).
        case veryHigh = 3
        var native: GenerateOpticalFlowRequest.ComputationAccuracy {
            switch self {
            case .low: .low
            case .medium: .medium
            case .high: .high
            case .veryHigh: .veryHigh
            }
        }
    }

    /// Default `.medium`, as Vision.
    public var computationAccuracy: ComputationAccuracy = .medium

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = GenerateOpticalFlowRequest(targetImage: try targetedImage)
        request.computationAccuracy = computationAccuracy.native
        return [try VNPixelBufferObservation(try perform(request, in: context))]
    }
}
