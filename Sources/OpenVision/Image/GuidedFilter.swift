import Foundation

/// The guided filter of He, Sun and Tang (ECCV 2010) with a one-channel guide: smooths `input` while
/// keeping the guide's edges (`q = mean(a)·I + mean(b)`, `a = cov(I, p) / (var(I) + ε)` over
/// `(2r + 1)²` windows). Box means with running sums, so the cost does not depend on the radius.
enum GuidedFilter {
    /// `input` and `guide` are `width × height` values, row-major, guide in 0...1.
    static func filter(_ input: [Float], guide: [Float], width: Int, height: Int, radius: Int, epsilon: Float)
        -> [Float]
    {
        guard input.count == width * height, guide.count == input.count, width > 0, height > 0 else { return input }
        let meanI = boxMean(guide, width, height, radius)
        let meanP = boxMean(input, width, height, radius)
        let meanII = boxMean(zip(guide, guide).map { $0 * $1 }, width, height, radius)
        let meanIP = boxMean(zip(guide, input).map { $0 * $1 }, width, height, radius)
        var a = [Float](repeating: 0, count: input.count)
        var b = a
        for i in input.indices {
            let variance = meanII[i] - meanI[i] * meanI[i]
            a[i] = (meanIP[i] - meanI[i] * meanP[i]) / (variance + epsilon)
            b[i] = meanP[i] - a[i] * meanI[i]
        }
        let meanA = boxMean(a, width, height, radius)
        let meanB = boxMean(b, width, height, radius)
        return input.indices.map { meanA[$0] * guide[$0] + meanB[$0] }
    }

    /// The mean over the window of radius `r` around each pixel, clipped to the image (as `cv::boxFilter`
    /// with normalisation over the pixels inside).
    static func boxMean(_ v: [Float], _ width: Int, _ height: Int, _ r: Int) -> [Float] {
        // Integral image in Double: exact enough for megapixel sums.
        let w1 = width + 1
        var integral = [Double](repeating: 0, count: w1 * (height + 1))
        for y in 0..<height {
            var rowSum = 0.0
            for x in 0..<width {
                rowSum += Double(v[y * width + x])
                integral[(y + 1) * w1 + x + 1] = integral[y * w1 + x + 1] + rowSum
            }
        }
        var out = [Float](repeating: 0, count: v.count)
        for y in 0..<height {
            let y0 = max(0, y - r)
            let y1 = min(height, y + r + 1)
            for x in 0..<width {
                let x0 = max(0, x - r)
                let x1 = min(width, x + r + 1)
                let sum =
                    integral[y1 * w1 + x1] - integral[y0 * w1 + x1] - integral[y1 * w1 + x0] + integral[y0 * w1 + x0]
                out[y * width + x] = Float(sum / Double((y1 - y0) * (x1 - x0)))
            }
        }
        return out
    }
}

extension VisionImage {
    /// The gray plane as values 0...1, row-major (`width × height`).
    func lumaValues() throws(VisionError) -> [Float] {
        var out = [Float](repeating: 0, count: width * height)
        let (w, h) = (width, height)
        try withGrayPixels { base, stride in
            for y in 0..<h {
                for x in 0..<w { out[y * w + x] = Float(base[y * stride + x]) / 255 }
            }
        }
        return out
    }
}
