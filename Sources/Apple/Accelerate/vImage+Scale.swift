import Foundation

// vImageScale_ARGB8888: separable Lanczos resampling in Float, four channels at a time (SIMD4).

/// Scales a four-channel, 8-bit image (any channel order: each channel is resampled alike) to `dest`'s size with a
/// Lanczos-3 kernel (Lanczos-5 with `kvImageHighQualityResampling`), widened by the scale factor when shrinking so
/// that it averages every source pixel, as vImage does. Pixel centres map to pixel centres; taps that fall outside
/// the source are dropped and the rest renormalised, as Pillow's `resize(…, LANCZOS)` does for Lanczos-3 (which also
/// rounds and clips between its two passes; this keeps Floats); results are rounded and clamped to 0…255. `tempBuffer` may be nil (no scratch memory is needed; one given is not
/// used). Flags: `kvImageHighQualityResampling`, `kvImageDoNotTile`, `kvImageGetTempBufferSize` (answers 0).
public func vImageScale_ARGB8888(
    _ src: UnsafePointer<vImage_Buffer>, _ dest: UnsafePointer<vImage_Buffer>, _ tempBuffer: UnsafeMutableRawPointer?,
    _ flags: vImage_Flags
) -> vImage_Error {
    guard flagsAccepted(flags, kvImageHighQualityResampling, kvImageDoNotTile, kvImageGetTempBufferSize) else {
        return kvImageUnknownFlagsBit
    }
    if flags & vImage_Flags(kvImageGetTempBufferSize) != 0 { return 0 }
    let s = src.pointee
    let d = dest.pointee
    if let error = s.problem(bytesPerPixel: 4) ?? d.problem(bytesPerPixel: 4) { return error }
    let sw = Int(s.width)
    let sh = Int(s.height)
    let dw = Int(d.width)
    let dh = Int(d.height)
    guard dw > 0 && dh > 0 else { return kvImageNoError }
    guard sw > 0 && sh > 0 else { return kvImageInvalidParameter }
    let lobes = flags & vImage_Flags(kvImageHighQualityResampling) != 0 ? 5.0 : 3.0
    let columns = LanczosTaps(from: sw, to: dw, lobes: lobes)
    let rows = LanczosTaps(from: sh, to: dh, lobes: lobes)
    let source = UnsafeRawPointer(s.data!)
    let target = d.data!
    // Horizontal pass over every source row the vertical pass reads, into Floats (no rounding in between).
    let firstRow = rows.first[0]
    let lastRow = rows.first[dh - 1] + rows.count[dh - 1]
    var middle = [SIMD4<Float>](repeating: .zero, count: dw * (lastRow - firstRow))
    middle.withUnsafeMutableBufferPointer { middle in
        for y in firstRow..<lastRow {
            let line = source + y * s.rowBytes
            let out = (y - firstRow) * dw
            for x in 0..<dw {
                var sum = SIMD4<Float>.zero
                let first = columns.first[x]
                let k = x * columns.stride
                for t in 0..<columns.count[x] {
                    let bytes = line.loadUnaligned(fromByteOffset: (first + t) * 4, as: SIMD4<UInt8>.self)
                    sum += SIMD4<Float>(bytes) * columns.weights[k + t]
                }
                middle[out + x] = sum
            }
        }
        // Vertical pass, one output row at a time.
        var sums = [SIMD4<Float>](repeating: .zero, count: dw)
        for y in 0..<dh {
            for x in 0..<dw { sums[x] = .zero }
            let k = y * rows.stride
            for t in 0..<rows.count[y] {
                let weight = rows.weights[k + t]
                let base = (rows.first[y] + t - firstRow) * dw
                for x in 0..<dw { sums[x] += middle[base + x] * weight }
            }
            let line = target + y * d.rowBytes
            for x in 0..<dw {
                let clamped = sums[x].rounded(.toNearestOrAwayFromZero)
                    .clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255))
                line.storeBytes(of: SIMD4<UInt8>(clamped), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
            }
        }
    }
    return kvImageNoError
}

/// One axis' Lanczos taps: for each output index its first source index, its tap count and its normalised weights
/// (`stride` per output index).
struct LanczosTaps {
    var first: [Int]
    var count: [Int]
    var weights: [Float]
    var stride: Int

    init(from inSize: Int, to outSize: Int, lobes: Double) {
        let scale = Double(inSize) / Double(outSize)
        let widen = max(scale, 1)
        let support = lobes * widen
        stride = Int(support.rounded(.up)) * 2 + 1
        first = [Int](repeating: 0, count: outSize)
        count = [Int](repeating: 0, count: outSize)
        weights = [Float](repeating: 0, count: outSize * stride)
        var kernel = [Double](repeating: 0, count: stride)
        for o in 0..<outSize {
            // The output pixel's centre in source coordinates; taps at the source pixels' centres within the support.
            let centre = (Double(o) + 0.5) * scale
            let low = max(Int((centre - support).rounded(.down)), 0)
            let high = min(Int((centre + support).rounded(.up)), inSize)
            var sum = 0.0
            var n = 0
            for i in low..<max(high, low) where n < stride {
                let w = Self.lanczos((Double(i) + 0.5 - centre) / widen, lobes)
                kernel[n] = w
                sum += w
                n += 1
            }
            first[o] = low
            count[o] = n
            for t in 0..<n { weights[o * stride + t] = Float(sum != 0 ? kernel[t] / sum : 0) }
        }
    }

    /// sinc(x) · sinc(x / a) on (−a, a), 0 outside.
    static func lanczos(_ x: Double, _ a: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < a else { return 0 }
        let p = Double.pi * x
        return a * sin(p) * sin(p / a) / (p * p)
    }
}
