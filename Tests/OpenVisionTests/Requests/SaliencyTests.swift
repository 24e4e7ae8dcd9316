import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct SaliencyTests {
    /// 640 × 480 mid-gray with faint stripes, and one dark disc (r 50) at (460, 150) pixels.
    static func scene() throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: 640, height: 480, gray: 150)
        for x in stride(from: 0.0, to: 640, by: 16) {
            try Fixtures.fill([(x, 0), (x + 8, 0), (x + 8, 480), (x, 480)], on: &canvas, gray: 140)
        }
        try canvas.dot(at: CGPoint(x: 460, y: 150), radius: 50, color: Fixtures.grayColor(20))
        return canvas.makeImage()
    }

    static let disc = NormalizedPoint(x: 460.0 / 640, y: 1 - 150.0 / 480)

    @Test func attentionFindsTheOddOneOut() async throws {
        let result = try await ImageRequestHandler(image: try Self.scene()).perform(
            GenerateAttentionBasedSaliencyImageRequest())
        #expect(result.heatMap.width == 68 && result.heatMap.height == 68 && result.heatMap.channels == 1)
        #expect(result.heatMap.values.allSatisfy { (0...1).contains($0) })
        // Hottest cell near the disc (within its radius: 50 px = 0.1 of the width).
        let (index, _) = result.heatMap.values.enumerated().max { $0.element < $1.element }!
        let hot = NormalizedPoint(x: (Double(index % 68) + 0.5) / 68, y: 1 - (Double(index / 68) + 0.5) / 68)
        #expect(hypot(hot.x - Self.disc.x, hot.y - Self.disc.y) < 0.12, "hottest at \(hot)")
        let first = try #require(result.salientObjects.first)
        #expect(first.boundingBox.insetBy(-0.03).contains(Self.disc), "\(result.salientObjects.map(\.boundingBox))")
    }

    @Test func objectnessBoxesTheDisc() async throws {
        let result = try await ImageRequestHandler(image: try Self.scene()).perform(
            GenerateObjectnessBasedSaliencyImageRequest())
        #expect(
            result.heatMap.width == 68 && result.heatMap.featureName == SaliencyImageObservation.objectnessFeatureName)
        #expect(result.heatMap.value(at: Self.disc) > result.heatMap.value(at: NormalizedPoint(x: 0.15, y: 0.2)))
        #expect(
            result.salientObjects.contains { $0.boundingBox.insetBy(-0.03).contains(Self.disc) },
            "\(result.salientObjects.map(\.boundingBox))")
    }

    @Test func flatImageGivesAnEmptyMap() async throws {
        let flat = try Fixtures.canvas(width: 320, height: 240, gray: 77).makeImage()
        for result in [
            try await ImageRequestHandler(image: flat).perform(GenerateAttentionBasedSaliencyImageRequest()),
            try await ImageRequestHandler(image: flat).perform(GenerateObjectnessBasedSaliencyImageRequest()),
        ] {
            #expect(result.heatMap.values.count == 68 * 68 && result.heatMap.values.allSatisfy { $0 == 0 })
            #expect(result.salientObjects.isEmpty)
        }
    }

    @Test func heatMapBlendsOnlyWhereItIsHot() throws {
        // 4 × 4 map, hot in its top-left cell only, over a 200 × 100 gray image.
        var values = [Float](repeating: 0, count: 16)
        values[0] = 1
        let map = try PixelBufferObservation(width: 4, height: 4, values: values)
        let gray = try Fixtures.canvas(width: 200, height: 100, gray: 128).makeImage()
        let blended = try gray.blended(with: map, opacity: 1)
        let before = [UInt8](gray.rgbData())
        let after = [UInt8](blended.rgbData())
        func pixel(_ b: [UInt8], _ x: Int, _ y: Int) -> [UInt8] { Array(b[(y * 200 + x) * 3..<(y * 200 + x) * 3 + 3]) }
        #expect(pixel(after, 5, 5) != pixel(before, 5, 5))  // under the hot cell: coloured (JET red)
        #expect(pixel(after, 5, 5)[0] > 100 && pixel(after, 5, 5)[2] < 60)
        #expect(pixel(after, 190, 90) == pixel(before, 190, 90))  // cold: unchanged
        #expect(throws: VisionError.self) { try gray.blended(with: map, opacity: 2) }
    }

    /// The overlay: the heat map first (over the analysed region, half opacity), then the boxes;
    /// `annotated(with:)` blends it under them exactly as `blended(with:opacity: 0.5)` would.
    @Test func overlayItemsBlendTheHeatMapUnderTheBoxes() async throws {
        let scene = try Self.scene()
        let result = try await ImageRequestHandler(image: scene).perform(GenerateAttentionBasedSaliencyImageRequest())
        let items = OverlayItem.items(for: result)
        #expect(items.count == 1 + result.salientObjects.count)
        guard case .heatMap(let map, let region, let opacity) = items.first?.shape else {
            Issue.record("the first item is not the heat map: \(String(describing: items.first?.shape))")
            return
        }
        #expect(map == result.heatMap && region == .fullImage && opacity == 0.5)
        // Heat maps go under lines whatever their place in the list.
        let expected = try scene.blended(with: result.heatMap, opacity: 0.5).annotated(with: Array(items.dropFirst()))
        #expect(try scene.annotated(with: items).rgbData() == expected.rgbData())
        #expect(try scene.annotated(with: Array(items.dropFirst()) + [items[0]]).rgbData() == expected.rgbData())
        #expect(try scene.annotated(with: items).rgbData() != scene.annotated(with: Array(items.dropFirst())).rgbData())
        // In a region of interest the map covers that region.
        let roi = NormalizedRect(x: 0.5, y: 0.25, width: 0.5, height: 0.5)
        guard case .heatMap(_, let moved, _) = items[0].toFullImage(fromRegionOfInterest: roi).shape else {
            Issue.record("moved item is not a heat map")
            return
        }
        #expect(moved == roi)
    }

    /// The viewer's form of a heat map: a 68 × 68 RGBA PNG of a few KB, JET colours, alpha = value.
    @Test func heatMapPNGIsSmallRGBA() async throws {
        let result = try await ImageRequestHandler(image: try Self.scene()).perform(
            GenerateAttentionBasedSaliencyImageRequest())
        let png = try result.heatMap.heatMapPNGData()
        #expect(png.count > 100 && png.count < 16_000, "\(png.count) bytes")
        let ihdr = [UInt8](png.prefix(26))
        #expect(ihdr[16..<24] == [0, 0, 0, 68, 0, 0, 0, 68] && ihdr[24] == 8 && ihdr[25] == 6, "8-bit RGBA: \(ihdr)")
        // Colours (alpha dropped on decoding): red where the map is 1, dark blue where it is 0.
        let rgb = [UInt8](try VisionImage(data: png).rgbData())
        let hot = result.heatMap.values.firstIndex(of: 1)!
        let cold = result.heatMap.values.firstIndex(of: 0) ?? 0
        #expect(rgb[hot * 3] > 100 && rgb[hot * 3 + 2] < 10, "\(rgb[hot * 3...hot * 3 + 2])")
        #expect(rgb[cold * 3] == 0 && rgb[cold * 3 + 2] > 100, "\(rgb[cold * 3...cold * 3 + 2])")
        let flow = try PixelBufferObservation(width: 2, height: 2, channels: 2, values: [Float](repeating: 0, count: 8))
        #expect(throws: VisionError.self) { try flow.heatMapPNGData() }
    }

    /// OpenCV 4.10 from Python on horses.jpg (773 × 512), the same calls on the same input: the request lets
    /// the JPEG decode at 1/4 scale for the attention map (both sides stay >= 68 px) and 1/2 for objectness:
    /// g=cv2.imread('horses.jpg',cv2.IMREAD_REDUCED_GRAYSCALE_4); s=cv2.saliency.StaticSaliencySpectralResidual_create()
    /// s.setImageWidth(68); s.setImageHeight(68); ok,m=s.computeSaliency(cv2.resize(g,(68,68),interpolation=cv2.INTER_AREA)); m/=m.max()
    /// m.mean(), m[20,20], m[50,10], np.unravel_index(m.argmax(),m.shape) → 0.047778, 0.006096, 0.021815, (33, 0)
    /// g=cv2.imread('horses.jpg',cv2.IMREAD_REDUCED_GRAYSCALE_2); fg=cv2.saliency.StaticSaliencyFineGrained_create()
    /// ok,f=fg.computeSaliency(cv2.resize(g,(272,180),interpolation=cv2.INTER_AREA))
    /// f=cv2.resize(f.astype(np.float32),(68,68),interpolation=cv2.INTER_AREA); (f/f.max()).mean() → 0.196066
    @Test func matchesOpenCVFromPythonOnAPhoto() async throws {
        let url = Fixtures.sharedImage("horses.jpg")
        let attention = try await GenerateAttentionBasedSaliencyImageRequest().perform(on: url).heatMap
        let mean = attention.values.reduce(0, +) / Float(attention.values.count)
        #expect(abs(mean - 0.047778) < 0.002)
        #expect(abs(attention[20, 20] - 0.006096) < 0.003 && abs(attention[10, 50] - 0.021815) < 0.003)
        let (index, _) = attention.values.enumerated().max { $0.element < $1.element }!
        #expect(index / 68 == 33 && index % 68 == 0)
        let objectness = try await GenerateObjectnessBasedSaliencyImageRequest().perform(on: url).heatMap
        #expect(abs(objectness.values.reduce(0, +) / Float(objectness.values.count) - 0.196066) < 0.003)
    }
}

extension NormalizedRect {
    /// Grown by `-d` on every side when `d` is negative (shrunk when positive).
    func insetBy(_ d: Double) -> NormalizedRect {
        NormalizedRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    func contains(_ p: NormalizedPoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
}
