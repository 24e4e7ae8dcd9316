import Dispatch
import Foundation
import OpenVision

/// Drives capture code written for Apple's `AVCaptureSession`: the frames of a camera, a video file or a network
/// stream (OpenVision's `LiveAnalyzer`, upright and at full resolution) go to an `AVCaptureVideoDataOutput`'s
/// delegate, whose `captureOutput(_:didOutput:from:)` runs unchanged on the output's callback queue with each frame as
/// a `CMSampleBuffer` (`CMSampleBuffer(frame:)`: the pixels as a 32BGRA `CVPixelBuffer`, the source's time as the
/// presentation time). One frame is with the delegate at a time; with `alwaysDiscardsLateVideoFrames` (the default)
/// frames that arrive meanwhile are dropped and the delegate hears of the last one dropped through
/// `captureOutput(_:didDrop:from:)`, otherwise the source waits, so every frame of a file is delivered in order.
///
/// ```swift
/// let output = AVCaptureVideoDataOutput()
/// output.setSampleBufferDelegate(cameraViewController, queue: videoDataOutputQueue)   // the sample's own lines
/// try await CaptureDelegateBridge(source: .file(URL(fileURLWithPath: "hands.mp4")), output: output).run()
/// ```
public final class CaptureDelegateBridge: @unchecked Sendable {
    /// Where the frames come from.
    public let source: FrameSource
    /// How the source is opened (size, frame rate, pace, orientation, …).
    public let options: CaptureOptions
    /// The output whose delegate receives the frames.
    public let output: AVCaptureVideoDataOutput

    private let state = NSLock()
    private var busy = false
    private var delivered = 0
    private var dropped = 0
    /// The last frame dropped while the delegate was busy, told to it before the next frame.
    private var lastDropped: CMSampleBuffer?

    /// A bridge from `source` (opened with `options`) to `output`'s delegate.
    public init(source: FrameSource, options: CaptureOptions = CaptureOptions(), output: AVCaptureVideoDataOutput) {
        self.source = source
        self.options = options
        self.output = output
    }

    /// Frames handed to `captureOutput(_:didOutput:from:)` so far.
    public var deliveredFrames: Int { state.withLock { delivered } }
    /// Frames dropped so far because the delegate was busy (always 0 without `alwaysDiscardsLateVideoFrames`).
    public var droppedFrames: Int { state.withLock { dropped } }

    /// Reads the source until it ends (the end of a file), the task is cancelled, or the source fails (its
    /// `VisionError` is thrown, e.g. a file that cannot be opened); returns once the delegate's last call has
    /// returned. Frames that arrive while the output has no delegate, or its video connection is disabled, are
    /// skipped.
    public func run() async throws {
        var configuration = LiveAnalyzer.Configuration()
        configuration.preview = { [self] frame in deliver(frame) }
        let analyzer = LiveAnalyzer(source: source, options: options, requests: [], configuration: configuration)
        for try await _ in analyzer {}
        // The last frame may still be with the delegate: wait until its queue has run it.
        if let (_, queue) = output.target {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
        }
    }

    /// On the capture thread: hands `frame` to the delegate's queue, or drops it.
    private func deliver(_ frame: Frame) {
        guard let connection = output.connection(with: .video), connection.isEnabled,
            let (delegate, queue) = output.target
        else { return }
        let buffer = CMSampleBuffer(frame: frame)
        let output = self.output
        if output.alwaysDiscardsLateVideoFrames {
            let accepted = state.withLock { () -> Bool in
                if busy {
                    dropped += 1
                    lastDropped = buffer
                    return false
                }
                busy = true
                delivered += 1
                return true
            }
            guard accepted else { return }
            queue.async { [self] in
                let drop = state.withLock { () -> CMSampleBuffer? in
                    defer { lastDropped = nil }
                    return lastDropped
                }
                if let drop {
                    delegate.captureOutput(output, didDrop: drop, from: connection)
                }
                delegate.captureOutput(output, didOutput: buffer, from: connection)
                state.withLock { busy = false }
            }
        } else {
            state.withLock { delivered += 1 }
            let taken = DispatchSemaphore(value: 0)
            queue.async {
                delegate.captureOutput(output, didOutput: buffer, from: connection)
                taken.signal()
            }
            taken.wait()
        }
    }
}
