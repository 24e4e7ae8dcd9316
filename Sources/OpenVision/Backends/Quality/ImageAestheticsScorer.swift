import Foundation

/// Aesthetics scores composed from measured factors (docs/requests.md, "Aesthetics"). The overall score is
///
///     overallScore = 2 · sharpness · noise · exposure · compression · colour − 1
///
/// with factors in 0…1 measured on the image shrunk to a longer side of at most `maxSide` (blockiness at full size):
/// - sharpness `P / (P + P₀)`: P the noise-compensated Laplacian variance of the sharpest tile of a 4 × 4 grid (a
///   sharp subject on a soft background counts as sharp);
/// - noise `1 / (1 + (σ / σ₀)²)`: σ the weak-texture patch noise estimate (`ImageQualityMeasures.noise`);
/// - exposure `(1 − exp(−(m / m₀)²)) · (1 − exp(−((1 − m) / m₁)²)) · (1 − b)² · (1 − d)`: mean luminance m (0…1),
///   too dark below m₀ and too bright above 1 − m₁, clipped highlights b and crushed shadows d;
/// - compression `1 / (1 + k / k₀)`: k JPEG's 8 × 8 blockiness;
/// - colour `0.6 + 0.4 · C / (C + C₀)`: Hasler and Süsstrunk's colourfulness C.
/// `isUtility`: a background at least `utilityFlatShare` flat (pixels within 16 gray levels of the image's most common
/// level: paper, a screen), with at least `utilityInkShare` of the image off it, and at least `utilityLines` text lines
/// (`DetectTextRectanglesRequest`, upright or turned 90°; else PP-OCR's detector, at any angle).
/// The constants were calibrated on the shared photos and the OCR test pages (`scripts/bench aesthetics`).
package enum ImageAestheticsScorer {
    /// The working size's longer side.
    static let maxSide = 512
    /// Half-way peak sharpness P₀ (gray levels², at the working size).
    static let sharpnessHalf = 150.0
    /// m₁: the exposure factor's bright side (`1 − exp(−((1 − m) / m₁)²)`; 0.88 at mean luminance 0.63, person.jpg's).
    static let brightScale = 0.25
    /// Blockiness k₀ at which the compression factor is ½.
    static let blockinessHalf = 0.5
    /// Colourfulness C₀ at which the colour factor is 0.8.
    static let colorfulnessHalf = 20.0
    /// Utility images: a background this flat (pages measured 0.92 and up, photos 0.50 and under)…
    static let utilityFlatShare = 0.75
    /// …with at least this share of the image off it (a blank image is no document)…
    static let utilityInkShare = 0.002
    /// …and at least this many text lines.
    static let utilityLines = 1

    /// The factors, each 0…1, and the overall score.
    package struct Factors: Sendable, Hashable {
        package var sharpness, noise, exposure, compression, colour: Double
        package var overallScore: Double { 2 * sharpness * noise * exposure * compression * colour - 1 }
    }

    static func factors(_ m: ImageQualityMeasures) -> Factors {
        let p = m.peakSharpness
        return Factors(
            sharpness: p / (p + sharpnessHalf),
            noise: m.noiseFactor,
            exposure: m.exposureFactor * (1 - exp(-pow((1 - m.mean / 255) / brightScale, 2))) * (1 - m.dark),
            compression: 1 / (1 + m.blockiness / blockinessHalf),
            colour: 0.6 + 0.4 * m.colorfulness / (m.colorfulness + colorfulnessHalf))
    }
}
