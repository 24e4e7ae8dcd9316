import Accelerate
import Foundation
import Testing

/// vImage's scale, 90° rotation and planar-float conversion against Pillow, numpy and plain loops, and their refusals.
@Suite struct VImageTests {
    /// An 11 × 7 four-channel test image: value (37x + 91y + 53c + 29·(xy mod 7)) mod 256, rows packed.
    static let width = 11, height = 7
    static let pixels: [UInt8] = {
        var pixels = [UInt8]()
        for y in 0..<7 {
            for x in 0..<11 {
                for c in 0..<4 {
                    let value: Int = (x * 37 + y * 91 + c * 53 + (x * y) % 7 * 29) % 256
                    pixels.append(UInt8(value))
                }
            }
        }
        return pixels
    }()

    /// Scales `pixels` (width × height × 4) to `toWidth` × `toHeight` and returns the packed result and the error.
    static func scale(
        _ pixels: [UInt8], _ width: Int, _ height: Int, to toWidth: Int, _ toHeight: Int, flags: Int = kvImageNoFlags
    ) -> ([UInt8], vImage_Error) {
        var source = pixels
        var out = [UInt8](repeating: 0, count: toWidth * toHeight * 4)
        let error = source.withUnsafeMutableBytes { s in
            out.withUnsafeMutableBytes { d in
                var src = vImage_Buffer(
                    data: s.baseAddress, height: vImagePixelCount(height), width: vImagePixelCount(width),
                    rowBytes: width * 4)
                var dst = vImage_Buffer(
                    data: d.baseAddress, height: vImagePixelCount(toHeight), width: vImagePixelCount(toWidth),
                    rowBytes: toWidth * 4)
                return vImageScale_ARGB8888(&src, &dst, nil, vImage_Flags(flags))
            }
        }
        return (out, error)
    }

    /// Shrinking averages with a widened Lanczos-3 kernel, each channel on its own: Pillow's LANCZOS per channel.
    @Test func scaleShrinksAsPillow() {
        // Pillow 11 (~/.cache/openvision/venv): src as above; np.stack([np.array(Image.fromarray(
        // np.ascontiguousarray(src[:,:,c])).resize((4,3), Image.LANCZOS)) for c in range(4)], axis=-1).reshape(-1)
        let pillow: [Int] = [
            93, 113, 117, 163, 138, 148, 150, 69, 136, 129, 89, 145, 106, 106, 136, 146, 90, 131, 143, 97, 141, 111,
            117, 114, 121, 137, 126, 101, 116, 125, 136, 98, 142, 124, 147, 102, 80, 71, 134, 164, 138, 101, 105, 128,
            93, 114, 160, 117,
        ]
        let (out, error) = Self.scale(Self.pixels, Self.width, Self.height, to: 4, 3)
        #expect(error == kvImageNoError)
        // Pillow rounds to 8 bits between its two passes; here the passes are in Float: within one level.
        #expect(zip(out, pillow).allSatisfy { abs(Int($0) - $1) <= 1 })
    }

    /// Growing interpolates with Lanczos-3: Pillow's LANCZOS on channel 0, widened only (one pass: Pillow rounds and
    /// clips between its two passes, this does not, so two-axis growth is checked against the direct sum below).
    @Test func scaleGrowsAsPillow() {
        // As above: np.array(Image.fromarray(np.ascontiguousarray(src[:,:,0])).resize((15,7), Image.LANCZOS))
        let pillow: [Int] = [
            0, 18, 51, 76, 104, 131, 155, 185, 240, 122, 0, 34, 66, 96, 116, 88, 116, 204, 215, 62, 41, 121, 165, 236,
            168, 86, 150, 242, 149, 20, 196, 83, 17, 128, 214, 145, 122, 198, 60, 103, 173, 31, 60, 175, 219, 5, 106,
            102, 13, 168, 113, 83, 231, 154, 27, 43, 144, 38, 71, 205, 121, 25, 61, 216, 144, 46, 94, 211, 185, 144,
            81, 3, 158, 194, 98, 204, 159, 108, 104, 99, 14, 57, 244, 244, 212, 190, 132, 111, 98, 85, 18, 146, 255,
            239, 44, 0, 23, 21, 33, 5, 83, 248, 93, 0, 15,
        ]
        let (out, error) = Self.scale(Self.pixels, Self.width, Self.height, to: 15, 7)
        #expect(error == kvImageNoError)
        #expect((0..<105).allSatisfy { abs(Int(out[$0 * 4]) - pillow[$0]) <= 1 })
    }

    /// Lanczos-3 (the default) and Lanczos-5 (`kvImageHighQualityResampling`), shrinking and growing, against the
    /// direct two-dimensional sum of the kernel's weights over the source (a plain loop in Double).
    @Test(arguments: [(3, 15, 9), (3, 5, 13), (5, 4, 3), (5, 17, 10)])
    func scaleIsLanczos(_ lobes: Int, _ toWidth: Int, _ toHeight: Int) {
        let a = Double(lobes)
        let (out, error) = Self.scale(
            Self.pixels, Self.width, Self.height, to: toWidth, toHeight,
            flags: lobes == 5 ? kvImageHighQualityResampling : kvImageNoFlags)
        #expect(error == kvImageNoError)
        func taps(_ o: Int, _ inSize: Int, _ outSize: Int) -> [(Int, Double)] {
            let scale = Double(inSize) / Double(outSize)
            let widen = max(scale, 1)
            let centre = (Double(o) + 0.5) * scale
            return (0..<inSize).compactMap { i in
                let x = (Double(i) + 0.5 - centre) / widen
                guard abs(x) < a else { return nil }
                let w = x == 0 ? 1 : a * sin(.pi * x) * sin(.pi * x / a) / (.pi * .pi * x * x)
                return (i, w)
            }
        }
        var worst = 0
        for y in 0..<toHeight {
            let ty = taps(y, Self.height, toHeight)
            for x in 0..<toWidth {
                let tx = taps(x, Self.width, toWidth)
                for c in 0..<4 {
                    var sum = 0.0
                    var weight = 0.0
                    for (j, wy) in ty {
                        for (i, wx) in tx {
                            sum += wx * wy * Double(Self.pixels[(j * Self.width + i) * 4 + c])
                            weight += wx * wy
                        }
                    }
                    let expected = Int(min(max(sum / weight, 0), 255).rounded())
                    worst = max(worst, abs(expected - Int(out[(y * toWidth + x) * 4 + c])))
                }
            }
        }
        #expect(worst <= 1)
    }

    /// A same-size scale is the image itself; an unknown flag and missing data are refused.
    @Test func scaleIdentityAndRefusals() {
        #expect(Self.scale(Self.pixels, Self.width, Self.height, to: Self.width, Self.height) == (Self.pixels, 0))
        #expect(Self.scale(Self.pixels, Self.width, Self.height, to: 4, 3, flags: 0x2).1 == kvImageUnknownFlagsBit)
        var src = vImage_Buffer()
        var out = [UInt8](repeating: 0, count: 16)
        let error = out.withUnsafeMutableBytes { d in
            var dst = vImage_Buffer(data: d.baseAddress, height: 2, width: 2, rowBytes: 8)
            return vImageScale_ARGB8888(&src, &dst, nil, 0)
        }
        #expect(error == kvImageNullPointerArgument)
    }

    /// Rotates a packed 4-byte-pixel image `turns` quarter turns counter-clockwise into a `toWidth` × `toHeight`
    /// destination (rows padded by 8 bytes, to check that `rowBytes` is followed) and returns its pixels.
    static func rotate(
        _ pixels: [UInt32], _ width: Int, _ height: Int, turns: UInt8, to toWidth: Int, _ toHeight: Int,
        background: [UInt8] = [9, 9, 9, 9]
    ) -> ([UInt32], vImage_Error) {
        var source = pixels
        let stride = toWidth + 2
        var out = [UInt32](repeating: 0, count: stride * toHeight)
        let error = source.withUnsafeMutableBytes { s in
            out.withUnsafeMutableBytes { d in
                var src = vImage_Buffer(
                    data: s.baseAddress, height: vImagePixelCount(height), width: vImagePixelCount(width),
                    rowBytes: width * 4)
                var dst = vImage_Buffer(
                    data: d.baseAddress, height: vImagePixelCount(toHeight), width: vImagePixelCount(toWidth),
                    rowBytes: stride * 4)
                return vImageRotate90_ARGB8888(&src, &dst, turns, background, 0)
            }
        }
        return ((0..<toHeight).flatMap { y in out[(y * stride)..<(y * stride + toWidth)] }, error)
    }

    /// Quarter turns counter-clockwise, as numpy's `rot90` turns an array.
    @Test func rotateAsNumpyRot90() {
        // np.rot90(np.arange(6).reshape(2, 3), k) for k = 1, 2, 3 (rows as below).
        let image: [UInt32] = [0, 1, 2, 3, 4, 5]
        #expect(Self.rotate(image, 3, 2, turns: 1, to: 2, 3) == ([2, 5, 1, 4, 0, 3], 0))
        #expect(Self.rotate(image, 3, 2, turns: 2, to: 3, 2) == ([5, 4, 3, 2, 1, 0], 0))
        #expect(Self.rotate(image, 3, 2, turns: 3, to: 2, 3) == ([3, 0, 4, 1, 5, 2], 0))
        #expect(Self.rotate(image, 3, 2, turns: UInt8(kRotate90DegreesClockwise), to: 2, 3).0 == [3, 0, 4, 1, 5, 2])
        #expect(Self.rotate(image, 3, 2, turns: 0, to: 3, 2) == (image, 0))
    }

    /// A larger destination is centred on the rotated image, the rest filled with the background colour.
    @Test func rotateCentresAndFills() {
        let fill = UInt32(0x0403_0201)
        let (out, error) = Self.rotate([7, 8, 9, 10], 2, 2, turns: 1, to: 4, 3, background: [1, 2, 3, 4])
        #expect(error == kvImageNoError)
        // Rotated: [8, 10, 7, 9] at offset (1, 0).
        #expect(out == [fill, 8, 10, fill, fill, 7, 9, fill, fill, fill, fill, fill])
        #expect(Self.rotate([1], 1, 1, turns: 4, to: 1, 1).1 == kvImageInvalidParameter)
    }

    /// Float planes to 8-bit BGRX with a constant alpha: numpy's clip-scale-round of each plane.
    @Test func planarFloatToBGRX() {
        // B over [0, 255]: np.floor(np.clip(v, 0, 255) + 0.5); G over [-1, 1]:
        // np.floor(np.clip((v + 1) * 127.5, 0, 255) + 0.5); R over [0, 255] as B, NaN as 0.
        var blue: [Float] = [-3.5, 0, 0.2, 1.0, 12.7, 100.1, 254.6, 300]
        var green: [Float] = [-1, -0.5, 0, 0.25, 0.5, 0.999, 1, 2]
        var red: [Float] = [.nan, 1.49, 1.5, 2.51, 64, 128.4, .infinity, -.infinity]
        let expectedBlue: [UInt8] = [0, 0, 0, 1, 13, 100, 255, 255]
        let expectedGreen: [UInt8] = [0, 64, 128, 159, 191, 255, 255, 255]
        let expectedRed: [UInt8] = [0, 1, 2, 3, 64, 128, 255, 0]
        var out = [UInt8](repeating: 0, count: 8 * 4)
        let maxima: [Float] = [255, 1, 255]
        let minima: [Float] = [0, -1, 0]
        // Two rows of four pixels.
        let error = blue.withUnsafeMutableBytes { b in
            green.withUnsafeMutableBytes { g in
                red.withUnsafeMutableBytes { r in
                    out.withUnsafeMutableBytes { d in
                        var bb = vImage_Buffer(data: b.baseAddress, height: 2, width: 4, rowBytes: 16)
                        var gb = vImage_Buffer(data: g.baseAddress, height: 2, width: 4, rowBytes: 16)
                        var rb = vImage_Buffer(data: r.baseAddress, height: 2, width: 4, rowBytes: 16)
                        var db = vImage_Buffer(data: d.baseAddress, height: 2, width: 4, rowBytes: 16)
                        return vImageConvert_PlanarFToBGRX8888(&bb, &gb, &rb, Pixel_8(200), &db, maxima, minima, 0)
                    }
                }
            }
        }
        #expect(error == kvImageNoError)
        #expect((0..<8).map { out[$0 * 4] } == expectedBlue)
        #expect((0..<8).map { out[$0 * 4 + 1] } == expectedGreen)
        #expect((0..<8).map { out[$0 * 4 + 2] } == expectedRed)
        #expect((0..<8).allSatisfy { out[$0 * 4 + 3] == 200 })
        // Planes of another size than the destination are refused.
        let mismatch = blue.withUnsafeMutableBytes { b in
            out.withUnsafeMutableBytes { d in
                var bb = vImage_Buffer(data: b.baseAddress, height: 1, width: 4, rowBytes: 16)
                var db = vImage_Buffer(data: d.baseAddress, height: 2, width: 4, rowBytes: 16)
                return vImageConvert_PlanarFToBGRX8888(&bb, &bb, &bb, 255, &db, maxima, minima, 0)
            }
        }
        #expect(mismatch == kvImageBufferSizeMismatch)
    }
}
