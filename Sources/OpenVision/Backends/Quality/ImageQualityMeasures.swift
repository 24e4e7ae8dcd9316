internal import CNative
import Foundation

/// The measurable quality factors of an image region (`ov_quality.cpp` says how each is taken): what face capture
/// quality and aesthetics scores are composed from.
struct ImageQualityMeasures: Sendable, Hashable {
    /// Mean luminance, 0…255.
    var mean: Double
    /// Standard deviation of the luminance.
    var contrast: Double
    /// Shares of pixels at 16 or below, and at 239 or above.
    var dark: Double
    var bright: Double
    /// Mean square of the 4-neighbour Laplacian, over the region and at its sharpest tile of a 4 × 4 grid.
    var laplacian: Double
    var peakLaplacian: Double
    /// The 10th percentile of the Laplacian's mean square over 8 × 8 blocks: what noise alone gives.
    var laplacianFloor: Double
    /// The noise sigma at the region's own resolution (gray levels): Liu, Tanaka and Okutomi's weak-texture patch
    /// estimate, which texture does not pass for (Immerkær's on the flattest 8 × 8 blocks for regions too small).
    var noise: Double
    /// JPEG's 8 × 8 grid: the mean step across grid lines over the mean step elsewhere, minus 1 (0: none).
    var blockiness: Double
    /// Hasler and Süsstrunk's colourfulness M (0 for a gray image).
    var colorfulness: Double
    /// The share of pixels within 16 gray levels of the most common level.
    var flat: Double
    /// The working size the measures were taken at.
    var width: Int
    var height: Int

    /// The Laplacian's mean square less its floor in the flattest blocks (noise's share), at least a twentieth of it:
    /// sharpness that noise does not fake.
    var sharpness: Double { max(laplacian - laplacianFloor, laplacian / 20) }
    /// The same for the sharpest tile.
    var peakSharpness: Double { max(peakLaplacian - laplacianFloor, peakLaplacian / 20) }
    /// Noise σ₀ at which the noise factor is ½ (gray levels); both scores weigh noise alike.
    static let noiseHalf = 6.0
    /// Exposure scale m₀ (mean luminance, 0…1); both scores weigh exposure alike.
    static let exposureScale = 0.3
    /// The noise factor `1 / (1 + (σ / σ₀)²)`, σ₀ = `noiseHalf`.
    var noiseFactor: Double { 1 / (1 + pow(noise / Self.noiseHalf, 2)) }
    /// The exposure factor `(1 − exp(−(m / m₀)²)) · (1 − b)²`: m the mean luminance (0…1), b the clipped-highlight share,
    /// m₀ = `exposureScale`.
    var exposureFactor: Double { (1 - exp(-pow(mean / 255 / Self.exposureScale, 2))) * pow(1 - bright, 2) }

    /// The measures of `region` (pixels, top-left origin) of `image`, resampled to `workWidth` pixels wide, or with
    /// `workWidth` nil shrunk to a longer side of at most `maxSide`. `invalidArgument` for a region under 8 × 8 pixels.
    init(
        _ image: VisionImage, x: Int, y: Int, width: Int, height: Int, workWidth: Int?, maxSide: Int = 512
    ) throws(VisionError) {
        var m = ov_quality_measures()
        try NativeError.check(
            ov_measure_quality(
                image.handle, Int32(clamping: x), Int32(clamping: y), Int32(clamping: width),
                Int32(clamping: height), Int32(workWidth ?? 0), Int32(maxSide), &m), "quality measures")
        mean = m.mean
        contrast = m.contrast
        dark = m.dark
        bright = m.bright
        laplacian = m.laplacian
        peakLaplacian = m.peak_laplacian
        laplacianFloor = m.laplacian_floor
        noise = m.noise
        blockiness = m.blockiness
        colorfulness = m.colorfulness
        flat = m.flat
        self.width = Int(m.width)
        self.height = Int(m.height)
    }
}
