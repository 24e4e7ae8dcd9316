import Foundation
import OpenVision

/// What an `AVAssetReader` reads into (AVFoundation's `AVAssetReaderOutput`): each `copyNextSampleBuffer()` gives the
/// next frame. Made as an `AVAssetReaderTrackOutput`.
open class AVAssetReaderOutput: NSObject, @unchecked Sendable {
    /// The kind of media it gives (`.video`).
    public let mediaType: AVMediaType
    private let lock = NSLock()
    private var copies = true
    private weak var owner: AVAssetReader?

    init(mediaType: AVMediaType) {
        self.mediaType = mediaType
        super.init()
    }

    /// Apple's choice between copied and shared sample data (default true). Each frame here is a buffer of its own
    /// either way, so both values give the same, safely writable, buffers.
    public var alwaysCopiesSampleData: Bool {
        get { lock.withLock { copies } }
        set { lock.withLock { copies = newValue } }
    }

    /// The reader it was added to.
    var reader: AVAssetReader? {
        get { lock.withLock { owner } }
        set { lock.withLock { owner = newValue } }
    }

    /// The next frame, in presentation order, as a sample buffer (a 32BGRA `CVPixelBuffer` over the decoded frame,
    /// its presentation time from the file, or one frame after the last for a frame the decoder gives without one);
    /// nil after the last frame (the reader's `status` is then `.completed`), on failure (`.failed`, with `error`),
    /// and when the reader is not reading.
    public func copyNextSampleBuffer() -> CMSampleBuffer? {
        reader?.nextFrame()
    }
}

/// Reads a track's frames (AVFoundation's `AVAssetReaderTrackOutput`).
open class AVAssetReaderTrackOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The track read.
    public let track: AVAssetTrack
    /// The settings given (`kCVPixelBufferPixelFormatTypeKey`, …): kept as given; frames are 32BGRA pixel buffers
    /// whatever they ask for, as `AVCaptureVideoDataOutput`'s (Vision reads any of them).
    public let outputSettings: [String: Any]?

    /// An output of `track`'s frames, with `outputSettings`.
    public init(track: AVAssetTrack, outputSettings: [String: Any]?) {
        self.track = track
        self.outputSettings = outputSettings
        super.init(mediaType: track.mediaType)
    }
}
