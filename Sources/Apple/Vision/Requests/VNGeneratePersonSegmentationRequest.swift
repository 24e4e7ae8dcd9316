import CoreML
import Foundation
import OpenVision

/// Vision's person segmentation (OpenVision's `GeneratePersonSegmentationRequest`: MediaPipe's selfie segmentation,
/// refined at `.accurate`): one `VNPixelBufferObservation` holding the mask (1 person, 0 background).
open class VNGeneratePersonSegmentationRequest: VNStatefulRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNPixelBufferObservation]? { storedResults as? [VNPixelBufferObservation] }
    /// Apple's revision 1 (`VNGeneratePersonSegmentationRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNGeneratePersonSegmentationRequestRevision1 }
    /// Vision's current revision, `VNGeneratePersonSegmentationRequestRevision1`.
    override open class var currentRevision: Int { VNGeneratePersonSegmentationRequestRevision1 }

    /// How much work to spend, as Vision's `QualityLevel`.
    public enum QualityLevel: UInt, Sendable {
        /// MediaPipe's square selfie model, its mask refined at full resolution with a guided filter.
        case accurate = 0
        /// MediaPipe's square selfie model (256 × 256), its mask as it is.
        case balanced = 1
        /// MediaPipe's landscape selfie model (256 × 144), its mask as it is.
        case fast = 2

        var native: GeneratePersonSegmentationRequest.QualityLevel {
            switch self {
            case .accurate: .accurate
            case .balanced: .balanced
            case .fast: .fast
            }
        }
    }

    /// Default `.accurate`, as Vision.
    public var qualityLevel: QualityLevel = .accurate
    /// The mask's pixel format: `kCVPixelFormatType_OneComponent8` (Vision's default, values in steps of 1/255),
    /// `kCVPixelFormatType_OneComponent16Half` (values rounded to Float16) or `kCVPixelFormatType_OneComponent32Float`.
    /// Another format is `VNError.invalidArgument` when performed.
    public var outputPixelFormat: OSType = kCVPixelFormatType_OneComponent8

    /// The formats `outputPixelFormat` takes.
    public static let supportedOutputPixelFormats = [
        kCVPixelFormatType_OneComponent8, kCVPixelFormatType_OneComponent16Half,
        kCVPixelFormatType_OneComponent32Float,
    ]

    /// Stateless here: planned like any still request.
    override var isPlannable: Bool { true }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = GeneratePersonSegmentationRequest()
        request.qualityLevel = qualityLevel.native
        switch outputPixelFormat {
        case kCVPixelFormatType_OneComponent8: request.outputPixelFormat = .oneComponent8
        case kCVPixelFormatType_OneComponent16Half, kCVPixelFormatType_OneComponent32Float:
            request.outputPixelFormat = .oneComponent32Float
        default:
            throw VisionError(
                .invalidArgument,
                String(
                    format: "outputPixelFormat 0x%08X is not one of OneComponent8, OneComponent16Half, "
                        + "OneComponent32Float", outputPixelFormat))
        }
        var mask = try perform(request, in: context)
        if outputPixelFormat == kCVPixelFormatType_OneComponent16Half {
            mask = try PixelBufferObservation(
                width: mask.width, height: mask.height, channels: mask.channels,
                values: mask.values.map { Float(Float16($0)) }, featureName: mask.featureName, uuid: mask.uuid)
        }
        return [try VNPixelBufferObservation(mask)]
    }
}
