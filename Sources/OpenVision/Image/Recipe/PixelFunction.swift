import Foundation

/// A function that computes each output pixel from the input pixels at the same place of the plane (Core Image's
/// colour kernels): `ImageRecipe(pixelFunction:inputs:extent:)` runs it lazily, on blocks of pixels held as float
/// planes, so one call covers thousands of pixels. It must be pure (the same block gives the same result, whatever
/// the order or the thread blocks run on) and return planes of the block's length.
public struct PixelFunction: Sendable {
    /// Premultiplied RGBA values of a run of pixels, one array per channel, all of the same length.
    public struct Planes: Sendable {
        /// Red, premultiplied.
        public var red: [Float]
        /// Green, premultiplied.
        public var green: [Float]
        /// Blue, premultiplied.
        public var blue: [Float]
        /// Alpha.
        public var alpha: [Float]

        /// Planes of these channels (they must have the same length).
        public init(red: [Float], green: [Float], blue: [Float], alpha: [Float]) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }

        /// The number of pixels.
        public var count: Int { alpha.count }
    }

    /// One block of pixels the function is called on: each input's pixels there (transparent outside its extent)
    /// and the plane coordinates of the pixels' centres (lower-left origin, y up: a pixel's centre is at .5).
    public struct Block: Sendable {
        /// The inputs' pixels, in the order the recipe was given them.
        public let inputs: [Planes]
        /// Each pixel centre's x.
        public let x: [Float]
        /// Each pixel centre's y.
        public let y: [Float]
        /// The number of pixels.
        public var count: Int { x.count }
    }

    /// The colour encoding the function sees and makes.
    public enum WorkingSpace: Sendable, Hashable {
        /// The sources' own encoding, as the other recipe operations work.
        case asStored
        /// Linear light: sRGB-encoded inputs are linearised (unpremultiplied, decoded, premultiplied again) before
        /// the call and the results encoded back to sRGB, clamped as a Core Image render clamps them (alpha to 0...1,
        /// colour to 0...alpha) (Core Image's working space, linear sRGB).
        case linearSRGB
    }

    /// A name for render reports.
    public let name: String
    /// The encoding the function works in.
    public let workingSpace: WorkingSpace
    let evaluate: @Sendable (Block) -> Planes

    /// A function named `name` working in `workingSpace`, computing a block's output pixels with `evaluate`.
    public init(name: String, workingSpace: WorkingSpace, evaluate: @escaping @Sendable (Block) -> Planes) {
        self.name = name
        self.workingSpace = workingSpace
        self.evaluate = evaluate
    }

    /// Pixels per call: rows of a block share one call (at most this many pixels, at least one row).
    static let blockPixels = 8192

    /// Runs the function over `rect` (rows top first), reading each input's interleaved premultiplied RGBA floats
    /// over the same rect and writing the results interleaved into `output`. Blocks run concurrently.
    func run(inputs: [[Float]], rect: PixelRect, into output: inout [Float]) {
        let width = rect.width
        let rowsPerBlock = max(1, Self.blockPixels / max(1, width))
        let blocks = (rect.height + rowsPerBlock - 1) / rowsPerBlock
        let linear = workingSpace == .linearSRGB
        output.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let target = out
            DispatchQueue.concurrentPerform(iterations: blocks) { b in
                let row0 = b * rowsPerBlock
                let rows = min(rowsPerBlock, rect.height - row0)
                let start = row0 * width
                let count = rows * width
                let planes = inputs.map { Self.planes($0, start: start, count: count, linear: linear) }
                var xs = [Float](repeating: 0, count: count)
                var ys = [Float](repeating: 0, count: count)
                for r in 0..<rows {
                    // Row 0 of the rect is its top row.
                    let y = Float(rect.y + rect.height - 1 - (row0 + r)) + 0.5
                    for c in 0..<width {
                        xs[r * width + c] = Float(rect.x + c) + 0.5
                        ys[r * width + c] = y
                    }
                }
                let result = evaluate(Block(inputs: planes, x: xs, y: ys))
                Self.write(result, count: count, linear: linear, into: target, start: start)
            }
        }
    }

    /// Interleaved RGBA floats `start ..< start + count` as planes (linearised when `linear`).
    private static func planes(_ rgba: [Float], start: Int, count: Int, linear: Bool) -> Planes {
        var r = [Float](repeating: 0, count: count)
        var g = r
        var b = r
        var a = r
        rgba.withUnsafeBufferPointer { p in
            linearTable.withUnsafeBufferPointer { table in
                r.withUnsafeMutableBufferPointer { r in
                    g.withUnsafeMutableBufferPointer { g in
                        b.withUnsafeMutableBufferPointer { b in
                            a.withUnsafeMutableBufferPointer { a in
                                for i in 0..<count {
                                    let o = 4 * (start + i)
                                    let alpha = p[o + 3]
                                    a[i] = alpha
                                    guard linear, alpha > 0 else {
                                        (r[i], g[i], b[i]) = (p[o], p[o + 1], p[o + 2])
                                        continue
                                    }
                                    let inverse = 1 / alpha
                                    r[i] = linearised(p[o] * inverse, table) * alpha
                                    g[i] = linearised(p[o + 1] * inverse, table) * alpha
                                    b[i] = linearised(p[o + 2] * inverse, table) * alpha
                                }
                            }
                        }
                    }
                }
            }
        }
        return Planes(red: r, green: g, blue: b, alpha: a)
    }

    /// Writes planes interleaved at `start` (encoded back to sRGB and clamped when `linear`); a result of the wrong
    /// length leaves the pixels transparent.
    private static func write(
        _ p: Planes, count: Int, linear: Bool, into out: UnsafeMutableBufferPointer<Float>, start: Int
    ) {
        guard p.red.count == count, p.green.count == count, p.blue.count == count, p.alpha.count == count else {
            return
        }
        sRGBTable.withUnsafeBufferPointer { table in
            p.red.withUnsafeBufferPointer { r in
                p.green.withUnsafeBufferPointer { g in
                    p.blue.withUnsafeBufferPointer { b in
                        p.alpha.withUnsafeBufferPointer { alpha in
                            for i in 0..<count {
                                let o = 4 * (start + i)
                                guard linear else {
                                    (out[o], out[o + 1], out[o + 2], out[o + 3]) = (r[i], g[i], b[i], alpha[i])
                                    continue
                                }
                                // Clamped as Core Image clamps a render: alpha to 0...1, colour to 0...alpha (NaN 0).
                                let a = unit(alpha[i])
                                guard a > 0 else {
                                    (out[o], out[o + 1], out[o + 2], out[o + 3]) = (0, 0, 0, 0)
                                    continue
                                }
                                let inverse = 1 / alpha[i]
                                out[o] = lookup(unit(r[i] * inverse), table) * a
                                out[o + 1] = lookup(unit(g[i] * inverse), table) * a
                                out[o + 2] = lookup(unit(b[i] * inverse), table) * a
                                out[o + 3] = a
                            }
                        }
                    }
                }
            }
        }
    }

    /// `v` clamped to 0...1, NaN to 0.
    @inline(__always)
    private static func unit(_ v: Float) -> Float { v > 0 ? (v < 1 ? v : 1) : 0 }

    /// A table's curve at `v` in 0...1, interpolated.
    @inline(__always)
    private static func lookup(_ v: Float, _ table: UnsafeBufferPointer<Float>) -> Float {
        let x = v * 4096
        let i = min(Int(x), 4095)
        let f = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    /// An sRGB-encoded value in linear light (IEC 61966-2-1's curve, mirrored for negative values).
    public static func linear(_ v: Float) -> Float {
        let m = abs(v)
        let l = m <= 0.04045 ? m / 12.92 : powf((m + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }

    /// A linear-light value sRGB-encoded (IEC 61966-2-1's curve, mirrored for negative values).
    public static func sRGB(_ v: Float) -> Float {
        let m = abs(v)
        let e = m <= 0.003_130_8 ? m * 12.92 : 1.055 * powf(m, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }

    /// The two curves at 4,097 points of 0...1, read with linear interpolation (within 2e-5 of the exact curves).
    private static let linearTable: [Float] = (0...4096).map { linear(Float($0) / 4096) }
    private static let sRGBTable: [Float] = (0...4096).map { sRGB(Float($0) / 4096) }

    /// `linear(_:)` of `v` through `linearTable` inside 0...1, exactly outside.
    @inline(__always)
    private static func linearised(_ v: Float, _ table: UnsafeBufferPointer<Float>) -> Float {
        guard v >= 0, v <= 1 else { return linear(v) }
        return lookup(v, table)
    }
}
