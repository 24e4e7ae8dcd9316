import Foundation
import OpenVision

/// AVFoundation's error domain.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"

/// Reads an asset's frames in order (AVFoundation's `AVAssetReader`): add an `AVAssetReaderTrackOutput` for its video
/// track, `startReading()`, then `copyNextSampleBuffer()` on the output until it gives nil (`status` is then
/// `.completed`, or `.failed` with `error`). One pass over the file: to read again, make a new reader.
open class AVAssetReader: NSObject, @unchecked Sendable {
    /// Where a reader is.
    public enum Status: Int, Sendable {
        /// Not started.
        case unknown = 0
        /// Started: outputs give frames.
        case reading = 1
        /// Every frame has been read.
        case completed = 2
        /// Reading failed: see `error`.
        case failed = 3
        /// `cancelReading()` was called.
        case cancelled = 4
    }

    /// The asset read.
    public let asset: AVAsset
    private let lock = NSLock()
    private var currentStatus = Status.unknown
    private var currentError: Error?
    private var added: [AVAssetReaderOutput] = []
    /// The open decoder while reading.
    private var capture: VideoCapture?
    /// The presentation time of the last frame given, in seconds.
    private var lastTime: Double?

    /// A reader of `asset`; throws an `NSError` in `AVFoundationErrorDomain` (`AVError.Code.fileFormatNotRecognized`,
    /// -11828) when the asset has no track this reader can read (a missing file, or not a video).
    public init(asset: AVAsset) throws {
        guard !asset.tracks.isEmpty else {
            throw NSError(
                domain: AVFoundationErrorDomain, code: -11828,
                userInfo: [NSLocalizedDescriptionKey: "cannot open \(asset.location.path) as a video"])
        }
        self.asset = asset
        super.init()
    }

    /// Where the reader is.
    public var status: Status { lock.withLock { currentStatus } }

    /// Why reading failed (`status == .failed`): an `NSError` in `AVFoundationErrorDomain` whose
    /// `NSUnderlyingErrorKey` is OpenVision's `VisionError`; nil otherwise.
    public var error: Error? { lock.withLock { currentError } }

    /// The outputs added.
    public var outputs: [AVAssetReaderOutput] { lock.withLock { added } }

    /// Whether `output` can be added: a track output of one of this asset's tracks, before reading starts and not
    /// added already.
    public func canAdd(_ output: AVAssetReaderOutput) -> Bool {
        lock.withLock { canAddLocked(output) }
    }

    /// Adds `output`; a call `canAdd(_:)` refuses changes nothing.
    public func add(_ output: AVAssetReaderOutput) {
        lock.withLock {
            guard canAddLocked(output) else { return }
            added.append(output)
            output.reader = self
        }
    }

    private func canAddLocked(_ output: AVAssetReaderOutput) -> Bool {
        guard currentStatus == .unknown, output.reader == nil, !added.contains(where: { $0 === output }),
            let trackOutput = output as? AVAssetReaderTrackOutput
        else { return false }
        return trackOutput.track.asset === asset
    }

    /// Opens the file and starts reading; true when frames can be read. False, with `status` `.failed` and `error`,
    /// when the file cannot be opened now or no output was added; false too when reading had already started.
    public func startReading() -> Bool {
        lock.withLock {
            guard currentStatus == .unknown else { return false }
            guard !added.isEmpty else {
                fail(
                    NSError(
                        domain: AVFoundationErrorDomain, code: -11800,
                        userInfo: [NSLocalizedDescriptionKey: "startReading() needs an output (add(_:))"]))
                return false
            }
            do {
                capture = try VideoCapture(.file(asset.location), options: CaptureOptions())
                currentStatus = .reading
                return true
            } catch {
                fail(error)
                return false
            }
        }
    }

    /// Stops reading: outputs give nil from now on and `status` is `.cancelled`.
    public func cancelReading() {
        lock.withLock {
            if currentStatus == .unknown || currentStatus == .reading { currentStatus = .cancelled }
            capture = nil
        }
    }

    /// The next frame of the video track as a sample buffer, nil at the end, on failure or when not reading.
    func nextFrame() -> CMSampleBuffer? {
        lock.withLock {
            guard currentStatus == .reading, let capture else { return nil }
            do {
                guard let (image, timestamp) = try capture.read() else {
                    currentStatus = .completed
                    self.capture = nil
                    return nil
                }
                let fps = Double(asset.tracks.first?.nominalFrameRate ?? 0)
                let frameDuration = (1...1000).contains(fps) ? 1 / fps : nil
                // A frame the decoder gives without a time (the last ones of some files, drained from the
                // decoder) is one frame after the one before.
                let time = timestamp ?? lastTime.map { $0 + (frameDuration ?? 0) } ?? 0
                lastTime = time
                let buffer = CVPixelBuffer(visionImage: image)
                let format = try CMFormatDescription(imageBuffer: buffer)
                let timing = CMSampleTimingInfo(
                    duration: frameDuration != nil
                        ? CMTime(value: 1_000_000, timescale: CMTimeScale((fps * 1e6).rounded())) : .invalid,
                    presentationTimeStamp: CMTime(seconds: time, preferredTimescale: 600),
                    decodeTimeStamp: .invalid)
                return try CMSampleBuffer(imageBuffer: buffer, formatDescription: format, sampleTiming: timing)
            } catch {
                fail(error)
                return nil
            }
        }
    }

    /// Marks the reader failed with `underlying` (under `lock`).
    private func fail(_ underlying: Error) {
        currentStatus = .failed
        capture = nil
        if (underlying as NSError).domain == AVFoundationErrorDomain {
            currentError = underlying
        } else {
            currentError = NSError(
                domain: AVFoundationErrorDomain, code: -11800,
                userInfo: [NSLocalizedDescriptionKey: "\(underlying)", NSUnderlyingErrorKey: underlying])
        }
    }
}
