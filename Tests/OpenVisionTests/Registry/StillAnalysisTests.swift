import Foundation
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVision

/// `StillAnalysis` (what `analyze`, `serve` and the worker run) decodes off Swift's cooperative threads: a
/// decode (or a model load) blocks its thread, and in `openvision serve` the cooperative pool also runs the
/// request timers and every other connection.
@Suite struct StillAnalysisTests {
    /// A context whose decode records whether it ran inside a Swift task (a cooperative thread) or on a
    /// plain Dispatch worker.
    final class Recorder: Sendable {
        let ranInTask = Mutex<[Bool]>([])
    }

    static func recordingContext(_ recorder: Recorder) throws -> ImageAnalysisContext {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        return ImageAnalysisContext(
            source: .init(
                geometry: { () throws(VisionError) in nil },
                decode: { _, _ throws(VisionError) in
                    let inTask = withUnsafeCurrentTask { $0 != nil }
                    recorder.ranInTask.withLock { $0.append(inTask) }
                    return image
                }))
    }

    @Test(arguments: [false, true]) func decodesOffTheCooperativePool(decodeColor: Bool) async throws {
        let recorder = Recorder()
        let handler = ImageRequestHandler(context: try Self.recordingContext(recorder))
        let run = try await StillAnalysis(kinds: RequestKind.kinds(from: ["faces,contours"])).run(
            on: handler, image: "recorded", decodeColor: decodeColor)
        #expect(run.report.width == 210 && run.report.faces?.count == 1)
        let decodes = recorder.ranInTask.withLock { $0 }
        #expect(!decodes.isEmpty)
        #expect(decodes.allSatisfy { !$0 }, "decoded on a cooperative thread: \(decodes)")
    }
}
