import Foundation
import OpenVision
import Testing

@Suite struct BitmapCanvasTests {
    static let rgba = BitmapCanvas.Layout(channels: 4, alphaIndex: 3, premultiplied: true)

    /// A rectangle fills exactly the pixels it covers, edge pixels by their covered share (the rectangle (0, 0)–(2, 1.5)
    /// covers pixels (0…1, 0) and half of (0…1, 1)); a half-opaque fill blends source-over into premultiplied pixels.
    @Test func rectangleCoverageAndBlend() throws {
        var memory = [UInt8](repeating: 0, count: 4 * 4 * 4)
        try memory.withUnsafeMutableBytes { raw in
            let canvas = try BitmapCanvas(pixels: raw, width: 4, height: 4, bytesPerRow: 16, layout: Self.rgba)
            try canvas.fill(rect: CGRect(x: 0, y: 0, width: 2, height: 1.5), components: [200, 100, 0, 0])
            try canvas.fill(rect: CGRect(x: 0, y: 0, width: 1, height: 1), components: [0, 0, 0, 0], alpha: 0.5)
        }
        #expect(Array(memory[0..<4]) == [100, 50, 0, 255] && Array(memory[4..<8]) == [200, 100, 0, 255])
        #expect(Array(memory[16..<20]) == [100, 50, 0, 128] && Array(memory[8..<12]) == [0, 0, 0, 0])
        #expect(Array(memory[32..<36]) == [0, 0, 0, 0])
    }

    /// A polygon through OpenCV's rasteriser: the inside filled, its rounded edges at most one pixel beyond the exact
    /// area (the square (−0.5, −0.5)–(1.5, 1.5) in pixel-centre coordinates is pixels 0 and 1).
    @Test func polygonFill() throws {
        var memory = [UInt8](repeating: 0, count: 6 * 6)
        try memory.withUnsafeMutableBytes { raw in
            let canvas = try BitmapCanvas(
                pixels: raw, width: 6, height: 6, bytesPerRow: 6,
                layout: BitmapCanvas.Layout(channels: 1, alphaIndex: nil, premultiplied: false))
            let square = [
                CGPoint(x: 0.5, y: 0.5), CGPoint(x: 2.5, y: 0.5), CGPoint(x: 2.5, y: 2.5), CGPoint(x: 0.5, y: 2.5),
            ]
            try canvas.fill(polygons: [square], antialias: false, components: [255])
        }
        #expect(memory[1 * 6 + 1] == 255 && memory[2 * 6 + 2] == 255)
        #expect(memory[0] == 0 && memory[4 * 6 + 4] == 0 && memory[5 * 6 + 5] == 0)
    }

    /// Two nested squares wound the same way: non-zero winding fills the inner one, even-odd leaves it empty.
    @Test(arguments: [false, true])
    func fillRules(_ evenOdd: Bool) throws {
        func square(_ a: Double, _ b: Double) -> [CGPoint] {
            [CGPoint(x: a, y: a), CGPoint(x: b, y: a), CGPoint(x: b, y: b), CGPoint(x: a, y: b)]
        }
        var memory = [UInt8](repeating: 0, count: 10 * 10)
        try memory.withUnsafeMutableBytes { raw in
            let canvas = try BitmapCanvas(
                pixels: raw, width: 10, height: 10, bytesPerRow: 10,
                layout: BitmapCanvas.Layout(channels: 1, alphaIndex: nil, premultiplied: false))
            try canvas.fill(polygons: [square(-0.5, 9.5), square(2.5, 6.5)], evenOdd: evenOdd, components: [255])
        }
        #expect(memory[0] == 255 && memory[5 * 10 + 5] == (evenOdd ? 0 : 255))
    }

    /// An image drawn through a 2× scale, nearest-pixel: each source pixel becomes a 2 × 2 block, channels mapped.
    @Test func drawScaled() throws {
        let source: [UInt8] = [1, 2, 3, 4, 5, 6]  // 2 × 1 RGB
        var memory = [UInt8](repeating: 0, count: 4 * 2 * 4)
        try memory.withUnsafeMutableBytes { raw in
            let canvas = try BitmapCanvas(pixels: raw, width: 4, height: 2, bytesPerRow: 16, layout: Self.rgba)
            try source.withUnsafeBytes { src in
                // (u, v) → (2u + 0.5, 2v + 0.5): source pixel centres to the middle of 2 × 2 blocks.
                try canvas.draw(
                    src, sourceWidth: 2, sourceHeight: 1, sourceBytesPerRow: 6,
                    sourceLayout: BitmapCanvas.Layout(channels: 3, alphaIndex: nil, premultiplied: false),
                    transform: [2, 0, 0.5, 0, 2, 0.5], channelMap: [2, 1, 0, nil], interpolate: false)
            }
        }
        #expect(Array(memory[0..<4]) == [3, 2, 1, 255] && Array(memory[4..<8]) == [3, 2, 1, 255])
        #expect(Array(memory[8..<12]) == [6, 5, 4, 255] && Array(memory[28..<32]) == [6, 5, 4, 255])
    }

    @Test func refusals() {
        var memory = [UInt8](repeating: 0, count: 8)
        memory.withUnsafeMutableBytes { raw in
            #expect(throws: VisionError.self) {
                _ = try BitmapCanvas(pixels: raw, width: 4, height: 4, bytesPerRow: 16, layout: Self.rgba)
            }
            #expect(throws: VisionError.self) {
                _ = try BitmapCanvas(
                    pixels: raw, width: 2, height: 1, bytesPerRow: 8,
                    layout: BitmapCanvas.Layout(channels: 2, alphaIndex: nil, premultiplied: false))
            }
        }
    }
}
