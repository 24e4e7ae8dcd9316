import AVFoundation
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// `CaptureDelegateBridge` drives an `AVCaptureVideoDataOutputSampleBufferDelegate` as a capture session does: on a
/// video file made with ffmpeg (`testsrc`, 320 × 240, 10 fps), every frame reaches `captureOutput(_:didOutput:from:)`
/// on the delegate's queue, in order and one at a time when late frames are not discarded; with
/// `alwaysDiscardsLateVideoFrames` a slow delegate makes drops, counted and told through `didDrop`.
@Suite(.serialized) struct CaptureDelegateBridgeTests {
    final class Delegate: AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        let queue = DispatchQueue(label: "delegate")
        let lock = NSLock()
        var sizes: [(Int, Int)] = []
        var dropped = 0
        var concurrent = 0, maximumConcurrent = 0
        var onQueue = true
        let delay: TimeInterval

        init(delay: TimeInterval = 0) { self.delay = delay }

        func captureOutput(
            _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
            from connection: AVCaptureConnection
        ) {
            dispatchPrecondition(condition: .onQueue(queue))
            lock.withLock {
                concurrent += 1
                maximumConcurrent = max(maximumConcurrent, concurrent)
            }
            let image = CMSampleBufferGetImageBuffer(sampleBuffer)
            let size = image.map { (CVPixelBufferGetWidth($0), CVPixelBufferGetHeight($0)) } ?? (0, 0)
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            lock.withLock {
                sizes.append(size)
                concurrent -= 1
            }
        }

        func captureOutput(
            _ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
            from connection: AVCaptureConnection
        ) {
            lock.withLock { dropped += 1 }
        }
    }

    static func video(frames: Int) throws -> URL {
        let url = try CLIProcess.tempDir().appendingPathComponent("testsrc.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10",
            "-frames:v", "\(frames)", "-pix_fmt", "yuv420p", url.path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0)
        return url
    }

    @Test(.timeLimit(.minutes(2))) func everyFrameInOrderWhenLateFramesWait() async throws {
        let url = try Self.video(frames: 12)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let delegate = Delegate(delay: 0.02)
        let output = AVCaptureVideoDataOutput()
        output.alwaysDiscardsLateVideoFrames = false
        output.setSampleBufferDelegate(delegate, queue: delegate.queue)
        var options = CaptureOptions()
        options.pace = .fastest
        let bridge = CaptureDelegateBridge(source: .file(url), options: options, output: output)
        try await bridge.run()
        #expect(bridge.deliveredFrames == 12 && bridge.droppedFrames == 0)
        #expect(delegate.sizes.count == 12 && delegate.sizes.allSatisfy { $0 == (320, 240) })
        #expect(delegate.maximumConcurrent == 1 && delegate.dropped == 0)
    }

    @Test(.timeLimit(.minutes(2))) func lateFramesAreDroppedAndTold() async throws {
        let url = try Self.video(frames: 30)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        // 0.25 s per frame against 10 fps at the file's own pace: most frames arrive while the delegate is busy.
        let delegate = Delegate(delay: 0.25)
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(delegate, queue: delegate.queue)
        #expect(output.alwaysDiscardsLateVideoFrames)
        let bridge = CaptureDelegateBridge(source: .file(url), output: output)
        try await bridge.run()
        #expect(bridge.deliveredFrames + bridge.droppedFrames == 30)
        #expect(bridge.droppedFrames > 0 && bridge.deliveredFrames == delegate.sizes.count)
        #expect(delegate.dropped >= 1 && delegate.dropped <= bridge.droppedFrames)
        #expect(delegate.maximumConcurrent == 1)
    }

    @Test func noDelegateOrADisabledConnectionGetsNothing() async throws {
        let url = try Self.video(frames: 3)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let output = AVCaptureVideoDataOutput()
        var bridge = CaptureDelegateBridge(source: .file(url), output: output)
        try await bridge.run()
        #expect(bridge.deliveredFrames == 0)
        let delegate = Delegate()
        output.setSampleBufferDelegate(delegate, queue: delegate.queue)
        output.connection(with: .video)?.isEnabled = false
        bridge = CaptureDelegateBridge(source: .file(url), output: output)
        try await bridge.run()
        #expect(bridge.deliveredFrames == 0 && delegate.sizes.isEmpty)
        // A file that is not there is the source's error.
        let missing = CaptureDelegateBridge(
            source: .file(URL(fileURLWithPath: "/nonexistent/clip.mp4")), output: output)
        await #expect(throws: (any Error).self) { try await missing.run() }
    }
}
