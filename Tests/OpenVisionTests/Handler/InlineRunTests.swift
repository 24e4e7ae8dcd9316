import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVision

/// A request run alone on a small image runs on the caller's task when it says its work is short there
/// (`VisionRequest.maximumInlinePixelCount`); everything else, and anything the handler cannot size
/// cheaply, goes to Dispatch's pool. Either way the outcome is the same.
@Suite struct InlineRunTests {
    static let attention = GenerateAttentionBasedSaliencyImageRequest()

    static func png(width: Int, height: Int) throws -> Data {
        var canvas = try Fixtures.canvas(width: width, height: height, gray: 200)
        try Fixtures.fill([(10, 10), (60, 10), (60, 50), (10, 50)], on: &canvas, gray: 20)
        return try canvas.makeImage().encoded(as: .png)
    }

    @Test func decidesFromTheRequestAndTheImageSize() throws {
        // astronaut.png: 210 × 210, 12 KB; dog.jpg: 164 KB, more than the handler reads to size an image.
        let small = ImageRequestHandler(Fixtures.sharedImage("astronaut.png"))
        #expect(small.runsInline(Self.attention))
        #expect(small.runsInline(DetectContoursRequest()) && small.runsInline(DetectDocumentSegmentationRequest()))
        #expect(!small.runsInline(DetectBarcodesRequest()), "no inline limit: always on the pool")
        #expect(!ImageRequestHandler(Fixtures.sharedImage("dog.jpg")).runsInline(Self.attention))
        // The limit is 256 × 256 pixels, read from the bytes' header.
        let limit = try Self.png(width: 256, height: 256)
        let above = try Self.png(width: 257, height: 256)
        #expect(
            limit.count <= ImageRequestHandler.inlineReadLimit && above.count <= ImageRequestHandler.inlineReadLimit)
        #expect(ImageRequestHandler(data: limit).runsInline(Self.attention))
        #expect(!ImageRequestHandler(data: above).runsInline(Self.attention))
        // Sizes known without reading.
        #expect(ImageRequestHandler(image: try VisionImage(data: limit)).runsInline(Self.attention))
        let pixels = PixelBuffer(data: Data(repeating: 128, count: 300 * 300), width: 300, height: 300, format: .gray8)
        #expect(!ImageRequestHandler(pixels: pixels).runsInline(Self.attention))
        // What cannot be sized goes to the pool, which reports the error.
        #expect(!ImageRequestHandler(URL(fileURLWithPath: "/nonexistent/small.png")).runsInline(Self.attention))
        #expect(!ImageRequestHandler(data: Data("not an image".utf8)).runsInline(Self.attention))
    }

    @Test func inlineAndPooledRunsGiveTheSameOutcome() async throws {
        // The same small JPEG's bytes run inline, and on the pool behind a wrapper with no inline limit:
        // identical maps and boxes; the completion handler (the inline request's) runs once.
        let data = try Data(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let calls = Mutex(0)
        var request = Self.attention
        request.completionHandler = { result in if case .success = result { calls.withLock { $0 += 1 } } }
        let handler = ImageRequestHandler(data: data)
        #expect(handler.runsInline(request))
        let inline = try #require(
            await handler.performAll([request])[0].results(as: GenerateAttentionBasedSaliencyImageRequest.self))
        let pooled = try #require(
            await ImageRequestHandler(data: data).performAll([PooledRequest(base: request)])[0]
                .results(as: PooledRequest.self))
        #expect(inline.heatMap.values == pooled.heatMap.values)
        #expect(inline.salientObjects.map(\.boundingBox) == pooled.salientObjects.map(\.boundingBox))
        #expect(!inline.salientObjects.isEmpty)
        #expect(calls.withLock { $0 } == 1, "the pooled wrapper has no completion handler of its own")
        // A missing file still fails with its error (through the pool).
        let missing = await ImageRequestHandler(URL(fileURLWithPath: "/nonexistent/small.png")).performAll([request])[0]
        #expect(missing.error?.code == .fileNotFound)
    }
}

/// Attention saliency without an inline limit (the default): always run on the pool.
private struct PooledRequest: VisionRequest {
    var base: GenerateAttentionBasedSaliencyImageRequest
    var regionOfInterest: NormalizedRect {
        get { base.regionOfInterest }
        set { base.regionOfInterest = newValue }
    }
    var requiresColor: Bool { base.requiresColor }
    func minimumImageScale(width: Double, height: Double) -> Double {
        base.minimumImageScale(width: width, height: height)
    }
    func perform(in context: ImageAnalysisContext) throws(VisionError) -> SaliencyImageObservation {
        try base.perform(in: context)  // handlers call completion handlers, not `perform`: base's is not called
    }
}
