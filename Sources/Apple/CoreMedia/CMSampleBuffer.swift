import Foundation
import OpenVision

/// A sample count.
public typealias CMItemCount = Int

/// A required argument was missing or empty (a zero-size image buffer).
public let kCMSampleBufferError_RequiredParameterMissing: OSStatus = -12731
/// The format description does not describe the image buffer.
public let kCMSampleBufferError_InvalidMediaFormat: OSStatus = -12743

/// Core Media's sample buffer: one video frame — an image buffer with its format and time — and its attachments.
/// A reference type, as Apple's. Made from a pixel buffer and a time with
/// `CMSampleBuffer(imageBuffer:formatDescription:sampleTiming:)` or `CMSampleBufferCreateReadyWithImageBuffer`, and
/// on Linux from an OpenVision capture `Frame` (`CMSampleBuffer(frame:)`), so that code written as an
/// `AVCaptureVideoDataOutputSampleBufferDelegate` can be driven by a camera, a video file or a stream.
public final class CMSampleBuffer: @unchecked Sendable {
    /// The frame's pixels.
    public let imageBuffer: CVImageBuffer?
    /// The video format of `imageBuffer`.
    public let formatDescription: CMFormatDescription?
    /// The timing given when it was made.
    private let timing: CMSampleTimingInfo
    /// Values attached by `CMSetAttachment`.
    let attachments = Attachments()

    /// A sample buffer of `imageBuffer` at `sampleTiming`; throws an `NSError` of `NSOSStatusErrorDomain` with
    /// `kCMSampleBufferError_InvalidMediaFormat` when `formatDescription` does not describe the buffer, or
    /// `kCMSampleBufferError_RequiredParameterMissing` for a buffer without pixels.
    public convenience init(
        imageBuffer: CVImageBuffer, formatDescription: CMFormatDescription,
        sampleTiming: CMSampleTimingInfo
    ) throws {
        let status = CMSampleBuffer.check(imageBuffer: imageBuffer, formatDescription: formatDescription)
        guard status == 0 else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        self.init(checked: imageBuffer, formatDescription: formatDescription, timing: sampleTiming)
    }

    private init(
        checked imageBuffer: CVImageBuffer, formatDescription: CMFormatDescription,
        timing: CMSampleTimingInfo
    ) {
        self.imageBuffer = imageBuffer
        self.formatDescription = formatDescription
        self.timing = timing
    }

    /// An OpenVision capture frame as a sample buffer (Linux only), without copying its pixels: a 32BGRA image
    /// buffer over the frame's image (`CVPixelBuffer(visionImage:)`), presented at the source's timestamp (the
    /// position in a file, a camera's buffer time) or else at the capture time since the first frame this process
    /// converted, in nanoseconds.
    public convenience init(frame: Frame) {
        let buffer = CVPixelBuffer(visionImage: frame.image)
        let seconds = frame.sourceTimestamp ?? CMSampleBuffer.secondsSinceOrigin(frame.captureTime)
        // A 1×1-or-larger image always has a format description.
        let format = try! CMFormatDescription(imageBuffer: buffer)
        self.init(
            checked: buffer, formatDescription: format,
            timing: CMSampleTimingInfo(
                duration: .invalid,
                presentationTimeStamp: CMTime(
                    seconds: seconds,
                    preferredTimescale: 1_000_000_000),
                decodeTimeStamp: .invalid))
    }

    /// When the frame is shown.
    public var presentationTimeStamp: CMTime { timing.presentationTimeStamp }
    /// When it is decoded (invalid for a camera frame).
    public var decodeTimeStamp: CMTime { timing.decodeTimeStamp }
    /// How long it lasts (invalid when unknown).
    public var duration: CMTime { timing.duration }
    /// When it is shown after edits (no edits here: the presentation time).
    public var outputPresentationTimeStamp: CMTime { timing.presentationTimeStamp }
    /// The number of samples: 1.
    public var numSamples: CMItemCount { 1 }
    /// Whether the buffer is valid (always, here: buffers are never invalidated).
    public var isValid: Bool { true }

    /// 0, or why `imageBuffer` and `formatDescription` cannot make a sample buffer.
    static func check(imageBuffer: CVImageBuffer, formatDescription: CMFormatDescription) -> OSStatus {
        guard CVPixelBufferGetWidth(imageBuffer) > 0, CVPixelBufferGetHeight(imageBuffer) > 0 else {
            return kCMSampleBufferError_RequiredParameterMissing
        }
        guard CMVideoFormatDescriptionMatchesImageBuffer(formatDescription, imageBuffer: imageBuffer) else {
            return kCMSampleBufferError_InvalidMediaFormat
        }
        return 0
    }

    private static let origin = ContinuousClock.now

    /// `instant` in seconds since the first call's clock reading (the origin of capture times without a source
    /// timestamp).
    static func secondsSinceOrigin(_ instant: ContinuousClock.Instant) -> Double {
        let elapsed = origin.duration(to: instant).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
}

/// Makes a ready sample buffer of `imageBuffer` at `sampleTiming` into `sampleBufferOut`; returns 0, or
/// `kCMSampleBufferError_InvalidMediaFormat` / `kCMSampleBufferError_RequiredParameterMissing` as
/// `CMSampleBuffer(imageBuffer:formatDescription:sampleTiming:)` throws them.
public func CMSampleBufferCreateReadyWithImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer,
    formatDescription: CMVideoFormatDescription,
    sampleTiming: UnsafePointer<CMSampleTimingInfo>,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    do {
        sampleBufferOut.pointee = try CMSampleBuffer(
            imageBuffer: imageBuffer, formatDescription: formatDescription,
            sampleTiming: sampleTiming.pointee)
        return 0
    } catch {
        return OSStatus((error as NSError).code)
    }
}

/// The frame's pixels (`sbuf.imageBuffer`).
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? { sbuf.imageBuffer }

/// When the frame is shown (`sbuf.presentationTimeStamp`).
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTimeStamp }

/// When it is decoded (`sbuf.decodeTimeStamp`).
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.decodeTimeStamp }

/// How long it lasts (`sbuf.duration`).
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.duration }

/// When it is shown after edits (`sbuf.outputPresentationTimeStamp`).
public func CMSampleBufferGetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    sbuf.outputPresentationTimeStamp
}

/// The video format (`sbuf.formatDescription`).
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? {
    sbuf.formatDescription
}

/// The number of samples: 1.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> CMItemCount { sbuf.numSamples }

/// Whether the buffer is valid.
public func CMSampleBufferIsValid(_ sbuf: CMSampleBuffer) -> Bool { sbuf.isValid }
