import Foundation

/// Scores an image's aesthetics, as Vision's `CalculateImageAestheticsScoresRequest`: one
/// `ImageAestheticsScoresObservation` with `overallScore` (−1…1, higher for sharp, clean, well-exposed, colourful
/// images) and `isUtility` (documents, screenshots, receipts, whiteboards). Apple's are learned from people's
/// judgements; no model with usable terms is reachable, so OpenVision's are composed from measured factors
/// (`ImageAestheticsScorer`; docs/requests.md, "Aesthetics"): sharpness, noise, exposure, JPEG blockiness and
/// colourfulness (OpenCV), and for `isUtility` a flat background (paper, a screen) with some ink on it and at least
/// one line of text (`DetectTextRectanglesRequest`, upright or turned 90°; else PP-OCR's detector, at any angle). An
/// image under 8 × 8 pixels is `invalidArgument`.
public struct CalculateImageAestheticsScoresRequest: CompletionHandlingRequest {
    /// The image's scores.
    public typealias Result = ImageAestheticsScoresObservation

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Colourfulness reads colour.
    public var requiresColor: Bool { true }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region is invalid or the image is under 8 × 8 pixels.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let (factors, utility) = try Self.measure(image)
        return ImageAestheticsScoresObservation(overallScore: Float(factors.overallScore), isUtility: utility.isUtility)
    }

    /// What `isUtility` is decided on: the share of the image text boxes cover, their count (upright, or with the
    /// image turned 90° when none reads upright, or PP-OCR's at any angle when neither finds one), the flat share.
    package struct UtilityMeasures: Sendable, Hashable {
        package var textCoverage: Double
        package var lines: Int
        package var flat: Double
        package var isUtility: Bool {
            flat >= ImageAestheticsScorer.utilityFlatShare && flat < 1 - ImageAestheticsScorer.utilityInkShare
                && lines >= ImageAestheticsScorer.utilityLines
        }
    }

    /// The factors and utility measures of `image` (also for benchmarks and calibration).
    package static func measure(_ image: VisionImage) throws(VisionError) -> (
        ImageAestheticsScorer.Factors, UtilityMeasures
    ) {
        guard image.width >= 8, image.height >= 8 else {
            throw VisionError(.invalidArgument, "aesthetics: the image is under 8 × 8 pixels")
        }
        let m = try ImageQualityMeasures(
            image, x: 0, y: 0, width: image.width, height: image.height, workWidth: nil,
            maxSide: ImageAestheticsScorer.maxSide)
        var boxes: [NormalizedRect] = []
        // Only a flat image can be a utility image: text is looked for on those.
        if m.flat >= ImageAestheticsScorer.utilityFlatShare {
            boxes = try DetectTextRectanglesRequest().perform(in: ImageAnalysisContext(image: image)).map(\.boundingBox)
            if boxes.isEmpty {
                let turned = try ImageRecipe(image: image).oriented(.right).renderedImage()
                boxes = try DetectTextRectanglesRequest().perform(in: ImageAnalysisContext(image: turned))
                    .map(\.boundingBox)
            }
            if boxes.isEmpty { boxes = try textLinesAtAnyAngle(in: image) }
        }
        let coverage = boxes.reduce(0) { $0 + $1.width * $1.height }
        return (
            ImageAestheticsScorer.factors(m),
            UtilityMeasures(textCoverage: min(coverage, 1), lines: boxes.count, flat: m.flat)
        )
    }

    /// The boxes of the lines PP-OCR's DB detector finds and reads at any angle (the line grouper of
    /// `DetectTextRectanglesRequest` takes only level lines, upright or turned 90°): asked only of flat images where
    /// that found none. None when PP-OCR's models are not installed (`missingModelData`): the image is then judged
    /// on the level lines alone.
    static func textLinesAtAnyAngle(in image: VisionImage) throws(VisionError) -> [NormalizedRect] {
        let engine: PPOCRRecognizer
        do {
            engine = try PPOCRRecognizer.shared()
        } catch  where error.code == .missingModelData {
            return []
        }
        return try engine.recognize(image, minimumTextHeightPixels: 0)
            .filter { !($0.candidates.first?.string.isEmpty ?? true) }.map(\.boundingBox)
    }
}
