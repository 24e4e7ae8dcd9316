import Foundation

/// Scores an image's aesthetics, as Vision's `CalculateImageAestheticsScoresRequest`: one
/// `ImageAestheticsScoresObservation` with `overallScore` (−1…1, higher for sharp, clean, well-exposed, colourful
/// images) and `isUtility` (documents, screenshots, receipts, whiteboards). Apple's are learned from people's
/// judgements; no model with usable terms is reachable, so OpenVision's are composed from measured factors
/// (`ImageAestheticsScorer`; docs/requests.md, "Aesthetics"): sharpness, noise, exposure, JPEG blockiness and
/// colourfulness (OpenCV), and for `isUtility` a flat background (paper, a screen) with some ink on it and at least
/// one line of text (`DetectTextRectanglesRequest`, upright or turned 90°). An image under 8 × 8 pixels is
/// `invalidArgument`.
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
    /// image turned 90° when none reads upright), the flat share.
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
        var lines: [TextObservation] = []
        // Only a flat image can be a utility image: text is looked for on those.
        if m.flat >= ImageAestheticsScorer.utilityFlatShare {
            lines = try DetectTextRectanglesRequest().perform(in: ImageAnalysisContext(image: image))
            if lines.isEmpty {
                let turned = try ImageRecipe(image: image).oriented(.right).renderedImage()
                lines = try DetectTextRectanglesRequest().perform(in: ImageAnalysisContext(image: turned))
            }
        }
        let coverage = lines.reduce(0) { $0 + $1.boundingBox.width * $1.boundingBox.height }
        return (
            ImageAestheticsScorer.factors(m),
            UtilityMeasures(textCoverage: min(coverage, 1), lines: lines.count, flat: m.flat)
        )
    }
}
