import Foundation

/// Optical-flow fields (2 channels: dx, dy in pixels, y down): statistics and the Middlebury colour rendering.
extension PixelBufferObservation {
    /// Mean displacement and largest displacement length of a 2-channel flow field (zeros otherwise).
    public var flowStatistics: (meanDx: Double, meanDy: Double, maximumMagnitude: Double) {
        guard channels == 2, !values.isEmpty else { return (0, 0, 0) }
        // Lanes (dx, dy, dx, dy) summed in Double, two vectors a step: independent additions that pipeline,
        // where one running sum per component waits on each previous addition.
        var sums = (SIMD4<Double>(repeating: 0), SIMD4<Double>(repeating: 0))
        var maxSquared = SIMD4<Float>(repeating: 0)
        values.withUnsafeBufferPointer { v in
            let end = v.count & ~1  // whole vectors
            var i = 0
            while i + 8 <= end {
                let a = SIMD4<Float>(v[i], v[i + 1], v[i + 2], v[i + 3])
                let b = SIMD4<Float>(v[i + 4], v[i + 5], v[i + 6], v[i + 7])
                sums.0 += SIMD4<Double>(a)
                sums.1 += SIMD4<Double>(b)
                let qa = a * a
                let qb = b * b
                maxSquared = pointwiseMax(maxSquared, SIMD4(qa[0] + qa[1], qa[2] + qa[3], qb[0] + qb[1], qb[2] + qb[3]))
                i += 8
            }
            while i < end {
                let dx = v[i]
                let dy = v[i + 1]
                sums.0[0] += Double(dx)
                sums.0[1] += Double(dy)
                maxSquared[0] = max(maxSquared[0], dx * dx + dy * dy)
                i += 2
            }
        }
        let total = sums.0 + sums.1
        let n = Double(width * height)
        return ((total[0] + total[2]) / n, (total[1] + total[3]) / n, Double(maxSquared.max().squareRoot()))
    }

    /// The flow field drawn with the Middlebury colour wheel (Baker et al., "A Database and Evaluation
    /// Methodology for Optical Flow", 2011): hue is the direction, saturation the length relative to
    /// `maximumMagnitude` (default: the field's largest finite displacement), white for no motion.
    /// Throws `unsupported` for a buffer without 2 channels.
    public func flowColorImage(maximumMagnitude: Double? = nil) throws(VisionError) -> VisionImage {
        guard channels == 2 else { throw VisionError(.unsupported, "a flow image needs 2 channels, not \(channels)") }
        let wheel = Self.colorWheel
        let scale = Float(maximumMagnitude ?? flowStatistics.maximumMagnitude)
        var bytes = [UInt8](repeating: 255, count: width * height * 3)
        values.withUnsafeBufferPointer { v in
            for p in 0..<(width * height) {
                var u = v[2 * p]
                var w = v[2 * p + 1]
                guard u.isFinite, w.isFinite else {
                    bytes[3 * p] = 0
                    bytes[3 * p + 1] = 0
                    bytes[3 * p + 2] = 0
                    continue
                }
                if scale > 0 {
                    u /= scale
                    w /= scale
                } else {
                    u = 0
                    w = 0
                }
                let radius = (u * u + w * w).squareRoot()
                let angle = atan2(-w, -u) / Float.pi
                let fk = (angle + 1) / 2 * Float(wheel.count - 1)
                let k0 = Int(fk) % wheel.count
                let k1 = (k0 + 1) % wheel.count
                let f = fk - Float(Int(fk))
                for c in 0..<3 {
                    let col0 = Float(wheel[k0][c]) / 255
                    let col1 = Float(wheel[k1][c]) / 255
                    var col = (1 - f) * col0 + f * col1
                    col = radius <= 1 ? 1 - radius * (1 - col) : col * 0.75
                    bytes[3 * p + c] = UInt8(max(0, min(255, (255 * col).rounded())))
                }
            }
        }
        return try VisionImage(pixels: PixelBuffer(data: Data(bytes), width: width, height: height, format: .rgb8))
    }

    /// The Middlebury wheel's 55 RGB colours: red → yellow → green → cyan → blue → magenta → red.
    private static let colorWheel: [[UInt8]] = {
        let ry = 15
        let yg = 6
        let gc = 4
        let cb = 11
        let bm = 13
        let mr = 6
        var wheel: [[UInt8]] = []
        func ramp(_ i: Int, _ n: Int) -> UInt8 { UInt8(255 * i / n) }
        for i in 0..<ry { wheel.append([255, ramp(i, ry), 0]) }
        for i in 0..<yg { wheel.append([255 - ramp(i, yg), 255, 0]) }
        for i in 0..<gc { wheel.append([0, 255, ramp(i, gc)]) }
        for i in 0..<cb { wheel.append([0, 255 - ramp(i, cb), 255]) }
        for i in 0..<bm { wheel.append([ramp(i, bm), 0, 255]) }
        for i in 0..<mr { wheel.append([255, 0, 255 - ramp(i, mr)]) }
        return wheel
    }()
}
