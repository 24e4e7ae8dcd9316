import Foundation
import OpenVision
import Synchronization
import Testing

/// Video files, image folders and the live pipeline, on generated media whose content is known.
@Suite(.serialized) struct LiveCaptureTests {
    static let moduleSize = 5
    static let code = try! BarcodeGenerator.image(for: "moving code", symbology: .qr, moduleSize: moduleSize)

    /// Where the QR code's pasted image sits in frame `i` (top-left, pixels): it moves right 6 px a frame.
    static func codeOrigin(_ i: Int) -> CGPoint { CGPoint(x: 40 + 6 * i, y: 120 + 2 * i) }

    /// Frame `i` of the test video: a gray scene with the moving code.
    static func frame(_ i: Int) throws -> VisionImage {
        var canvas = try ImageCanvas(width: 640, height: 480, color: OverlayColor(red: 200, green: 200, blue: 200))
        try canvas.draw(code, at: codeOrigin(i))
        return canvas.makeImage()
    }

    static func makeVideo(_ name: String, frames: Int = 60, fps: Double = 30) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-\(name)")
        let writer = try VideoFileWriter(url: url, fps: fps, width: 640, height: 480)
        for i in 0..<frames { try writer.write(try frame(i)) }
        writer.finish()
        return url
    }

    static func everyFrame(_ requests: [any VisionRequest]) -> (CaptureOptions, LiveAnalyzer.Configuration) {
        var options = CaptureOptions()
        options.pace = .fastest
        var configuration = LiveAnalyzer.Configuration()
        configuration.dropsFrames = false
        return (options, configuration)
    }

    @Test(arguments: ["moving.avi", "moving.mp4"])
    func observationsFollowTheMovingCodeFrameByFrame(_ name: String) async throws {
        let url = try Self.makeVideo(name)
        defer { try? FileManager.default.removeItem(at: url) }
        let (options, configuration) = Self.everyFrame([])
        let analyzer = LiveAnalyzer(
            source: .file(url), options: options, requests: [DetectBarcodesRequest(symbologies: [.qr])],
            configuration: configuration)
        var seen = 0
        for try await result in analyzer {
            #expect(result.frameIndex == seen)
            seen += 1
            let code = try #require(
                result.results(for: DetectBarcodesRequest.self)?.first, "frame \(result.frameIndex)")
            #expect(code.payloadString == "moving code")
            // The symbol starts one quiet zone (4 modules) inside the pasted image.
            let quiet = Double(4 * Self.moduleSize)
            let expected = Self.codeOrigin(result.frameIndex)
            let topLeft = code.topLeft.toImageCoordinates(result.imageSize, origin: .upperLeft)
            #expect(
                abs(topLeft.x - (expected.x + quiet)) < 3 && abs(topLeft.y - (expected.y + quiet)) < 3,
                "frame \(result.frameIndex): \(topLeft) vs \(expected)")
        }
        #expect(seen == 60)
        let stats = analyzer.stats()
        #expect(stats.framesCaptured == 60 && stats.framesAnalysed == 60 && stats.framesDropped == 0)
        #expect(stats.state == .ended && stats.captureInfo?.frameCount == 60 && stats.captureInfo?.width == 640)
        #expect(stats.captureInfo?.endedEarly == false)
        // getBackendName() is looked up in the lazily loaded videoio module (ov_videoio.hpp): a wrong call would show here.
        #expect(stats.captureInfo?.backend == "FFMPEG")
    }

    /// A request that takes 60 ms, so a 30 fps source must drop frames.
    struct SlowRequest: VisionRequest {
        var regionOfInterest = NormalizedRect.fullImage
        var requiresColor: Bool { false }
        func perform(in context: ImageAnalysisContext) throws(VisionError) -> Int {
            Thread.sleep(forTimeInterval: 0.06)
            return try context.lumaImage().width
        }
        func reportable(_ results: Int) -> any ReportableResult { UnreportedResult() }
    }

    @Test func slowRequestsDropFramesNeverQueueThem() async throws {
        let url = try Self.makeVideo("slow.avi", frames: 45)
        defer { try? FileManager.default.removeItem(at: url) }
        let analyzer = LiveAnalyzer(source: .file(url), requests: [SlowRequest()])  // native pace: 1.5 s
        var indices: [Int] = []
        for try await result in analyzer { indices.append(result.frameIndex) }
        let stats = analyzer.stats()
        #expect(stats.framesCaptured == 45)
        #expect(stats.framesDropped > 10, "\(stats)")
        #expect(stats.framesAnalysed + stats.framesDropped == stats.framesCaptured)
        #expect(stats.maxInFlight == 1)
        #expect(indices == indices.sorted() && indices.last == 44, "the newest frame is analysed last: \(indices)")
        // Paced at the file's own 30 fps (a loaded machine may lag it a little).
        #expect(stats.captureFPS > 22 && stats.captureFPS < 35, "the file plays at its own 30 fps: \(stats.captureFPS)")
        #expect(stats.analysedFPS < 20)
    }

    /// A file read as fast as it decodes has no clock to fall behind: even in the default (dropping)
    /// configuration capture waits for each analysis, so nothing is read ahead only to be dropped.
    @Test func unpacedFilesAreNotReadAheadToBeDropped() async throws {
        let url = try Self.makeVideo("unpaced.avi", frames: 12)
        defer { try? FileManager.default.removeItem(at: url) }
        var options = CaptureOptions()
        options.pace = .fastest
        let analyzer = LiveAnalyzer(source: .file(url), options: options, requests: [SlowRequest()])
        var indices: [Int] = []
        for try await result in analyzer { indices.append(result.frameIndex) }
        let stats = analyzer.stats()
        #expect(indices == Array(0..<12))
        #expect(stats.framesCaptured == 12 && stats.framesDropped == 0 && stats.resultsDropped == 0, "\(stats)")
        #expect(stats.maxInFlight == 1)
        // Capture is held to the 60 ms analyses, not run ahead at decoding speed.
        #expect(stats.captureFPS < 20, "\(stats.captureFPS)")
    }

    @Test func imageFolderAsAFrameSequence() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-frames-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<5 { try Self.frame(i * 10).write(to: dir.appendingPathComponent(String(format: "f%03d.png", i))) }
        let (options, configuration) = Self.everyFrame([])
        let analyzer = LiveAnalyzer(
            source: FrameSource(parsing: dir.path), options: options,
            requests: [DetectBarcodesRequest()], configuration: configuration)
        var xs: [Double] = []
        for try await result in analyzer {
            let code = try #require(result.results(for: DetectBarcodesRequest.self)?.first)
            xs.append(code.boundingBox.minX)
        }
        #expect(xs.count == 5 && xs == xs.sorted())
    }

    @Test func missingNonVideoAndTruncatedFiles() async throws {
        func firstError(_ source: FrameSource) async -> VisionError? {
            do {
                // A 1-hour reconnect window: retrying a device that does not exist would take that long.
                var options = CaptureOptions()
                options.reconnectFor = .seconds(3600)
                for try await _ in LiveAnalyzer(source: source, options: options, requests: [DetectBarcodesRequest()]) {
                }
                return nil
            } catch {
                return error as? VisionError
            }
        }
        #expect(await firstError(.file(URL(fileURLWithPath: "/nonexistent/clip.mp4")))?.code == .fileNotFound)
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-not-video.mp4")
        try Data("this is not a video\n".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        #expect(await firstError(.file(text))?.code == .invalidImage)

        // A cut-off AVI stops cleanly at its last good frame.
        let url = try Self.makeVideo("whole.avi")
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Data(contentsOf: url)
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-cut.avi")
        try data.prefix(data.count / 2).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        let (options, configuration) = Self.everyFrame([])
        let analyzer = LiveAnalyzer(
            source: .file(cut), options: options, requests: [DetectBarcodesRequest()], configuration: configuration)
        var frames = 0
        for try await result in analyzer {
            frames += 1
            #expect(result.results(for: DetectBarcodesRequest.self)?.first?.payloadString == "moving code")
        }
        #expect(frames > 20 && frames < 60, "\(frames) frames before the cut")
        // The sequence ends normally; the stats say the file ended before its 60 frames.
        let stats = analyzer.stats()
        #expect(stats.state == .ended && stats.captureInfo?.endedEarly == true && stats.captureInfo?.frameCount == 60)
    }

    @Test func previewSeesEveryFrameAndCancellationStops() async throws {
        let url = try Self.makeVideo("preview.avi", frames: 90)
        defer { try? FileManager.default.removeItem(at: url) }
        let previews = Mutex<Int>(0)
        var configuration = LiveAnalyzer.Configuration()
        configuration.preview = { _ in previews.withLock { $0 += 1 } }
        let analyzer = LiveAnalyzer(source: .file(url), requests: [SlowRequest()], configuration: configuration)
        var results = 0
        for try await _ in analyzer {
            results += 1
            if results == 5 { break }  // ends the iteration: the pipeline stops
        }
        // Both threads return (the frame in analysis finishes first); nothing runs after that.
        #expect(await analyzer.waitUntilStopped(timeout: .seconds(120)))
        let stats = analyzer.stats()
        #expect(stats.state == .cancelled)
        #expect(previews.withLock { $0 } == stats.framesCaptured)
        // Not iterated: nothing to wait for.
        #expect(await LiveAnalyzer(source: .file(url), requests: []).waitUntilStopped(timeout: .zero))
        #expect(stats.framesCaptured < 60, "capture stopped early: \(stats.framesCaptured)")
    }

    @Test func sequenceHandlerKeepsStateAcrossFrames() async throws {
        let handler = SequenceRequestHandler()
        for i in 0..<3 {
            let codes = try await handler.perform(DetectBarcodesRequest(), on: try Self.frame(i * 20))
            #expect(codes.first?.payloadString == "moving code")
        }
        #expect(handler.frameCount == 3)
        #expect(handler.latestResults(of: DetectBarcodesRequest.self)?.count == 1)
    }

    @Test func sourceOrientationTurnsFramesUpright() async throws {
        // A camera mounted sideways: the stored frames are rotated; .right turns them upright.
        let url = try Self.makeVideo("sideways.avi", frames: 10)
        defer { try? FileManager.default.removeItem(at: url) }
        var (options, configuration) = Self.everyFrame([])
        options.orientation = .right
        configuration.analysisMaxDimension = 2000
        let analyzer = LiveAnalyzer(
            source: .file(url), options: options, requests: [DetectBarcodesRequest()], configuration: configuration)
        for try await result in analyzer {
            #expect(result.imageSize == CGSize(width: 480, height: 640))
            #expect(result.results(for: DetectBarcodesRequest.self)?.first?.payloadString == "moving code")
        }
        #expect(analyzer.stats().framesAnalysed == 10)
    }

    @Test(
        .enabled(
            if: (try? CameraDevice.list().isEmpty) == false, "needs a V4L2 camera (/dev/video*); none on this machine"))
    func cameraDelivers() async throws {
        let camera = try #require(try CameraDevice.list().first)
        #expect(!(try camera.modes()).isEmpty)
        let analyzer = LiveAnalyzer(source: .device(camera.path), requests: [DetectBarcodesRequest()])
        var frames = 0
        for try await _ in analyzer {
            frames += 1
            if frames == 10 { break }
        }
        #expect(frames == 10)
    }

    @Test func cameraListingWithoutDevicesIsEmptyNotAnError() async throws {
        let devices = try CameraDevice.list()
        let present = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains {
            $0.hasPrefix("video")
        }
        if !present { #expect(devices.isEmpty) }
        // A device that does not exist fails at once (no reconnect window: it is not a transient failure).
        let clock = ContinuousClock()
        for source in [FrameSource.device("/dev/video97"), .camera(97)] {
            let start = clock.now
            do {
                // A 1-hour reconnect window: retrying a device that does not exist would take that long.
                var options = CaptureOptions()
                options.reconnectFor = .seconds(3600)
                for try await _ in LiveAnalyzer(source: source, options: options, requests: [DetectBarcodesRequest()]) {
                }
                Issue.record("a missing camera must be an error")
            } catch let error as VisionError {
                #expect(error.code == .fileNotFound && error.message.contains("/dev/video97"), "\(error)")
            }
            #expect(clock.now - start < .seconds(600), "\(source) failed after \(clock.now - start)")
        }
    }

    @Test func everyFrameModeWaitsForASlowConsumer() async throws {
        let url = try Self.makeVideo("consumer.avi", frames: 30)
        defer { try? FileManager.default.removeItem(at: url) }
        var (options, configuration) = Self.everyFrame([])
        configuration.resultBufferSize = 2
        let analyzer = LiveAnalyzer(
            source: .file(url), options: options, requests: [DetectBarcodesRequest()], configuration: configuration)
        var indices: [Int] = []
        for try await result in analyzer {
            indices.append(result.frameIndex)
            try await Task.sleep(for: .milliseconds(40))  // slower than analysis
        }
        #expect(indices == Array(0..<30))
        #expect(analyzer.stats().resultsDropped == 0 && analyzer.stats().framesDropped == 0)
    }
}
