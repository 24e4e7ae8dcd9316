import Dispatch
import Foundation

/// AVFoundation's sample-buffer delegate: `captureOutput(_:didOutput:from:)` receives each frame (a `CMSampleBuffer`
/// whose image buffer is the frame's pixels and whose presentation time is its time), on the output's callback queue,
/// one at a time; `captureOutput(_:didDrop:from:)` is told of frames dropped because the delegate was still busy
/// (`alwaysDiscardsLateVideoFrames`). Both have empty default implementations, as Apple's optional methods.
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: AnyObject {
    /// A new frame.
    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
        from connection: AVCaptureConnection)
    /// A frame dropped while the delegate was busy with the one before (its image is not kept).
    func captureOutput(
        _ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
        from connection: AVCaptureConnection)
}

extension AVCaptureVideoDataOutputSampleBufferDelegate {
    /// Does nothing (Apple's method is optional).
    public func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer,
        from connection: AVCaptureConnection
    ) {}
    /// Does nothing (Apple's method is optional).
    public func captureOutput(
        _ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer,
        from connection: AVCaptureConnection
    ) {}
}

/// AVFoundation's video data output: the delegate and queue frames go to. `CaptureDelegateBridge` delivers a source's
/// frames to it, as an `AVCaptureSession` delivers a camera's.
open class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let lock = NSLock()
    private weak var delegate: AVCaptureVideoDataOutputSampleBufferDelegate?
    private var queue: DispatchQueue?
    private var discardsLate = true
    private var settings: [String: Any]? = nil

    /// An output without a delegate.
    public override init() {
        super.init()
    }

    /// Sets the delegate (held weakly, as Apple's) and the serial queue its methods are called on; a nil delegate
    /// stops delivery. A nil queue with a delegate is refused by Apple (an exception): here frames then go nowhere.
    public func setSampleBufferDelegate(
        _ sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate?,
        queue sampleBufferCallbackQueue: DispatchQueue?
    ) {
        lock.withLock {
            delegate = sampleBufferDelegate
            queue = sampleBufferCallbackQueue
        }
    }

    /// The delegate, if any.
    public var sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate? { lock.withLock { delegate } }
    /// The queue the delegate is called on.
    public var sampleBufferCallbackQueue: DispatchQueue? { lock.withLock { queue } }

    /// True (default, as Apple's): a frame that arrives while the delegate is still busy is dropped
    /// (`captureOutput(_:didDrop:from:)`). False: the source waits until the delegate has taken the frame before it
    /// reads the next (every frame of a file is delivered, in order).
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { lock.withLock { discardsLate } }
        set { lock.withLock { discardsLate = newValue } }
    }

    /// Apple's pixel-format settings (`kCVPixelBufferPixelFormatTypeKey` …): kept as given; frames arrive as 32BGRA
    /// buffers over the decoded image whatever they say.
    public var videoSettings: [String: Any]! {
        get { lock.withLock { settings } }
        set { lock.withLock { settings = newValue } }
    }

    /// The delegate and queue to use now, or nil when delivery is off.
    var target: (AVCaptureVideoDataOutputSampleBufferDelegate, DispatchQueue)? {
        lock.withLock {
            guard let delegate, let queue else { return nil }
            return (delegate, queue)
        }
    }
}
