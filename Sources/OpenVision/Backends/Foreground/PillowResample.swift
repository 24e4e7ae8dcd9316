import Foundation

/// Pillow's `Image.resize(size, Image.LANCZOS)` on 8-bit images (`libImaging/Resample.c`), operation for operation, so
/// that a model fed as a Python pipeline feeds it (rembg) gets the same bytes: Lanczos-3 weights widened by the scale
/// when shrinking, normalised, then fixed to 22 fractional bits; a horizontal pass over the rows the vertical pass
/// reads, rounded and clipped to 8 bits, then the vertical pass.
enum PillowResample {
    /// Pillow's `PRECISION_BITS` for 8-bit images.
    private static let precisionBits = 32 - 8 - 2

    /// One axis' taps: for each output index its first input index, tap count and fixed-point weights.
    private struct Taps {
        var first: [Int]
        var count: [Int]
        var weights: [Int32]
        var size: Int
    }

    /// Pillow's `lanczos_filter`: sinc(x) · sinc(x / 3) on [−3, 3).
    private static func lanczos(_ x: Double) -> Double {
        func sinc(_ x: Double) -> Double {
            if x == 0 { return 1 }
            let y = x * Double.pi
            return sin(y) / y
        }
        return -3 <= x && x < 3 ? sinc(x) * sinc(x / 3) : 0
    }

    /// Pillow's `precompute_coeffs` then `normalize_coeffs_8bpc` for `inSize` → `outSize` over the whole axis.
    private static func taps(inSize: Int, outSize: Int) -> Taps {
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        let size = Int(support.rounded(.up)) * 2 + 1
        var taps = Taps(
            first: [Int](repeating: 0, count: outSize), count: [Int](repeating: 0, count: outSize),
            weights: [Int32](repeating: 0, count: outSize * size), size: size)
        var k = [Double](repeating: 0, count: size)
        let one = Double(1 << precisionBits)
        for xx in 0..<outSize {
            let center = (Double(xx) + 0.5) * scale
            let ss = 1 / filterScale
            // C's (int) truncates toward zero.
            let xmin = max(Int(center - support + 0.5), 0)
            let xmax = min(Int(center + support + 0.5), inSize) - xmin
            var sum = 0.0
            for x in 0..<size { k[x] = 0 }
            for x in 0..<max(xmax, 0) {
                let w = lanczos((Double(x + xmin) - center + 0.5) * ss)
                k[x] = w
                sum += w
            }
            for x in 0..<max(xmax, 0) where sum != 0 { k[x] /= sum }
            taps.first[xx] = xmin
            taps.count[xx] = max(xmax, 0)
            for x in 0..<size {
                let v = k[x] * one
                taps.weights[xx * size + x] = Int32(v < 0 ? -0.5 + v : 0.5 + v)
            }
        }
        return taps
    }

    /// Pillow's `clip8`.
    @inline(__always) private static func clip8(_ v: Int) -> UInt8 {
        if v >= (1 << precisionBits) << 8 { return 255 }
        if v <= 0 { return 0 }
        return UInt8(truncatingIfNeeded: v >> precisionBits)
    }

    /// `pixels` (`width` × `height`, `channels` interleaved 8-bit values per pixel, rows top first) resized to
    /// `toWidth` × `toHeight` as Pillow's LANCZOS resize does it.
    static func resize(
        _ pixels: [UInt8], width: Int, height: Int, channels: Int, toWidth: Int, toHeight: Int
    ) -> [UInt8] {
        precondition(pixels.count == width * height * channels && toWidth > 0 && toHeight > 0)
        let needHorizontal = toWidth != width
        let needVertical = toHeight != height
        let horizontal = taps(inSize: width, outSize: toWidth)
        let vertical = taps(inSize: height, outSize: toHeight)
        // The rows the vertical pass reads.
        var firstRow = 0
        var rows = height
        var rowStart = vertical.first
        if needHorizontal {
            firstRow = vertical.first[0]
            rows = vertical.first[toHeight - 1] + vertical.count[toHeight - 1] - firstRow
            if needVertical {
                rowStart = rowStart.map { $0 - firstRow }
            } else {
                firstRow = 0
                rows = height
            }
        }
        let half = 1 << (precisionBits - 1)
        var temp = pixels
        var tempWidth = width
        if needHorizontal {
            temp = [UInt8](repeating: 0, count: toWidth * rows * channels)
            tempWidth = toWidth
            pixels.withUnsafeBufferPointer { src in
                temp.withUnsafeMutableBufferPointer { dst in
                    horizontal.weights.withUnsafeBufferPointer { w in
                        for y in 0..<rows {
                            let inRow = (y + firstRow) * width * channels
                            let outRow = y * toWidth * channels
                            for xx in 0..<toWidth {
                                let x0 = horizontal.first[xx]
                                let n = horizontal.count[xx]
                                let k = xx * horizontal.size
                                for c in 0..<channels {
                                    var s = half
                                    var p = inRow + x0 * channels + c
                                    for x in 0..<n {
                                        s += Int(src[p]) * Int(w[k + x])
                                        p += channels
                                    }
                                    dst[outRow + xx * channels + c] = clip8(s)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard needVertical else { return temp }
        var out = [UInt8](repeating: 0, count: toWidth * toHeight * channels)
        let stride = tempWidth * channels
        temp.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                vertical.weights.withUnsafeBufferPointer { w in
                    var sums = [Int](repeating: 0, count: stride)
                    for yy in 0..<toHeight {
                        let y0 = rowStart[yy]
                        let n = vertical.count[yy]
                        let k = yy * vertical.size
                        for i in 0..<stride { sums[i] = half }
                        for y in 0..<n {
                            let wy = Int(w[k + y])
                            let row = (y0 + y) * stride
                            for i in 0..<stride { sums[i] += Int(src[row + i]) * wy }
                        }
                        let outRow = yy * stride
                        for i in 0..<stride { dst[outRow + i] = clip8(sums[i]) }
                    }
                }
            }
        }
        return out
    }
}
