import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Requests share one decoded image and may run at once: none may write into it. `.fast` text inverted the gray
/// plane of a mostly dark page in place, so that contours running beside it (or after it, on the same handler) read
/// an inverted image: 6943 contours instead of 7332 on giraffe.jpg, from run to run.
@Suite struct SharedImageTests {
    static func grayHash(_ image: VisionImage) throws -> Int {
        try image.withGrayPixels { base, stride in
            var hasher = Hasher()
            for y in 0..<image.height {
                hasher.combine(bytes: UnsafeRawBufferPointer(start: base + y * stride, count: image.width))
            }
            return hasher.finalize()
        }
    }

    @Test func requestsLeaveTheSharedImageUnchanged() async throws {
        let handler = ImageRequestHandler(Fixtures.sharedImage("giraffe.jpg"))
        let image = try handler.image()
        let before = try Self.grayHash(image)
        let contours = try DetectContoursRequest().perform(in: handler.context).contourCount
        let still = RequestKind.allCases.filter { !$0.isSequence && $0.defaultModel != .required }
        let outcomes = await handler.performAll(try still.map { try $0.makeRequest(StillAnalysis.stillDefaults) })
        #expect(outcomes.allSatisfy { $0.error == nil })
        #expect(try Self.grayHash(image) == before)
        #expect(try DetectContoursRequest().perform(in: handler.context).contourCount == contours)
    }
}
