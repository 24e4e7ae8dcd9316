import Foundation
import OpenVision

/// How text is read (Vision's `VNRequestTextRecognitionLevel`).
public enum VNRequestTextRecognitionLevel: Int, Sendable {
    /// The slower, more accurate recogniser (where OpenVision has it; see `RecognizeTextRequest`).
    case accurate = 0
    /// The fast recogniser: Tesseract.
    case fast = 1
}

/// Vision's text recogniser (OpenVision's `RecognizeTextRequest`: Tesseract for `.fast`; `.accurate` where
/// OpenVision has it).
open class VNRecognizeTextRequest: VNImageBasedRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNRecognizedTextObservation]? { storedResults as? [VNRecognizedTextObservation] }
    /// Apple's revisions 1, 2, 3 (`VNRecognizeTextRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2, 3]) }
    /// Apple's default: revision 3.
    override open class var defaultRevision: Int { VNRecognizeTextRequestRevision3 }
    /// Vision's current revision, `VNRecognizeTextRequestRevision3`.
    override open class var currentRevision: Int { VNRecognizeTextRequestRevision3 }

    /// Default `.accurate`, as Vision.
    public var recognitionLevel: VNRequestTextRecognitionLevel = .accurate
    /// Languages to read, in priority order (BCP 47, e.g. "en-US"); one the level cannot read fails the
    /// request with `VNError` `.invalidArgument`. Default `["en-US"]`.
    public var recognitionLanguages: [String] = ["en-US"]
    /// Accepted for compatibility; see OpenVision's `RecognizeTextRequest` for what each level does with it.
    public var usesLanguageCorrection = true
    /// Accepted for compatibility and not used: neither recogniser here takes a custom word list.
    public var customWords: [String] = []
    /// Lines shorter than this fraction of the image height are dropped. Default 0 (keep all).
    public var minimumTextHeight: Float = 0

    /// The languages the request reads at its `recognitionLevel` (Vision's `supportedRecognitionLanguages()`):
    /// `.accurate` ["en-US", "zh-Hans"] (PP-OCRv4), `.fast` the installed Tesseract languages (e.g. "eng").
    public func supportedRecognitionLanguages() throws -> [String] {
        RecognizeTextRequest.supportedRecognitionLanguages(for: recognitionLevel == .accurate ? .accurate : .fast)
    }

    /// The languages `recognitionLevel` reads at `requestRevision` (Vision's deprecated class method; every revision
    /// runs the same recognizers here). `VNError.unsupportedRevision` for a revision outside `supportedRevisions`.
    open class func supportedRecognitionLanguages(
        for recognitionLevel: VNRequestTextRecognitionLevel,
        revision requestRevision: Int
    ) throws -> [String] {
        guard supportedRevisions.contains(requestRevision) else {
            throw VNError(
                .unsupportedRevision,
                "VNRecognizeTextRequest revision \(requestRevision) is not supported "
                    + "(supported: \(supportedRevisions.map(String.init).joined(separator: ", ")))")
        }
        return RecognizeTextRequest.supportedRecognitionLanguages(
            for: recognitionLevel == .accurate ? .accurate : .fast)
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        var request = RecognizeTextRequest()
        let level = recognitionLevel == .accurate ? "accurate" : "fast"
        request.recognitionLevel = RecognizeTextRequest.RecognitionLevel(rawValue: level) ?? .fast
        request.recognitionLanguages = recognitionLanguages
        request.minimumTextHeight = minimumTextHeight
        return try perform(request, in: context).map(VNRecognizedTextObservation.init)
    }
}
