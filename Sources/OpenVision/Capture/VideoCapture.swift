internal import CNative
import Foundation

/// An open source: a native capture handle (OpenCV videoio) for cameras, files and streams, or an
/// `ImageSequence` for `.images` sources. Used by one reader thread at a time. Package-wide: AVFoundation's asset
/// reader (Sources/Apple/AVFoundation) reads video files with it.
package final class VideoCapture: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var sequence: ImageSequence?
    /// The next frame of `sequence` to decode.
    private var fileIndex = 1
    /// The sequence's first frame, decoded at open and returned by the first read.
    private var pending: VisionImage?
    private let openedInfo: CaptureInfo

    /// What the source delivers, as granted at open; `endedEarly` is current.
    package var info: CaptureInfo {
        var info = openedInfo
        if let handle {
            var i = ov_capture_info()
            if ov_capture_get_info(handle, &i) == OV_OK { info.endedEarly = i.ended_early != 0 }
        }
        return info
    }

    package init(_ source: FrameSource, options: CaptureOptions) throws(VisionError) {
        var request = ov_capture_request()
        request.width = Int32(options.width)
        request.height = Int32(options.height)
        request.fps = options.fps
        withUnsafeMutableBytes(of: &request.fourcc) { raw in
            for (i, byte) in options.fourcc.utf8.prefix(4).enumerated() { raw[i] = byte }
        }
        // Milliseconds, within what the native side takes (a negative or absurd timeout would trap here).
        let timeout = Int32(max(0, min(options.readTimeout.milliseconds, Double(Int32.max))))
        request.open_timeout_ms = timeout
        request.read_timeout_ms = timeout
        var url: String?
        var device: Int32 = -1
        var api = OV_CAPTURE_AUTO
        switch source {
        case .camera, .device:
            // A device node that does not exist is a wrong name, not a transient failure.
            guard FileManager.default.fileExists(atPath: source.description) else {
                throw VisionError(.fileNotFound, "no such camera: \(source.description)")
            }
            if case .camera(let index) = source { device = Int32(index) } else { url = source.description }
            api = OV_CAPTURE_V4L2
        case .file(let file):
            guard FileManager.default.fileExists(atPath: file.path) else {
                throw VisionError(.fileNotFound, "no such video file: \(file.path)")
            }
            url = file.path
            api = OV_CAPTURE_FFMPEG
        case .stream(let stream):
            url = stream.absoluteString
            api = OV_CAPTURE_FFMPEG
        case .images(let source):
            // Decoded by OpenVision itself; the first frame now, for the size (and to fail early).
            let sequence = try ImageSequence(resolving: source)
            let first = try sequence.image(at: 0)
            self.sequence = sequence
            pending = first
            openedInfo = CaptureInfo(
                width: first.width, height: first.height, fps: options.imageSequenceFPS,
                frameCount: sequence.files.count, fourcc: "", backend: "images", endedEarly: false)
            return
        }
        var h: OpaquePointer?
        let status = ov_capture_open(url, device, api, &request, &h)
        guard status == OV_OK, let h else {
            throw NativeError.error(
                for: status, context: "cannot open \(source)",
                codes: [OV_ERR_IO: source.isLive ? .ioError : .fileNotFound])
        }
        handle = h
        var i = ov_capture_info()
        _ = ov_capture_get_info(h, &i)
        openedInfo = CaptureInfo(
            width: Int(i.width), height: Int(i.height), fps: i.fps, frameCount: Int(i.frame_count),
            fourcc: stringFromCCharArray(i.fourcc), backend: stringFromCCharArray(i.backend),
            endedEarly: false)
    }

    deinit { ov_capture_free(handle) }

    /// The next frame (not yet oriented) and its source timestamp, nil at the end; throws `ioError` when the source fails,
    /// and for an image sequence the decoding error of a file (`ImageSequence.image(at:)`).
    package func read() throws(VisionError) -> (VisionImage, Double?)? {
        guard let handle else {
            if let first = pending {
                pending = nil
                return (first, nil)
            }
            // A file that fails to decode ends the sequence with its error: a non-live source's read error is not skipped.
            guard let sequence, fileIndex < sequence.files.count else { return nil }
            defer { fileIndex += 1 }
            return (try sequence.image(at: fileIndex), nil)
        }
        var image: OpaquePointer?
        var timestamp = -1.0
        let status = ov_capture_read(handle, &image, &timestamp)
        // Whatever failed, reading a source that was open is an I/O error.
        if status != OV_OK {
            throw NativeError.error(for: status, context: "reading frames", codes: [status: .ioError])
        }
        guard let image else { return nil }
        return (VisionImage(owning: image), timestamp >= 0 ? timestamp / 1000 : nil)
    }
}

/// What a source delivers, as granted (camera modes are negotiated).
public struct CaptureInfo: Sendable, Hashable {
    /// Frame width in pixels, upright.
    public var width: Int
    /// Frame height in pixels, upright.
    public var height: Int
    /// Frames per second; 0 when unknown.
    public var fps: Double
    /// Frames in a file; -1 for live sources.
    public var frameCount: Int
    /// Codec or pixel format ("MJPG", "h264"), "" if unknown.
    public var fourcc: String
    /// "FFMPEG", "V4L2" (OpenCV videoio), or "images" for an image sequence (read by `ImageSequence`).
    public var backend: String
    /// Files: true once the file ended before the end its container promises (fewer frames than
    /// `frameCount`, or a packet cut short): it is truncated or damaged, and the frames delivered
    /// are all it had that decodes. False until the end, and for other sources. The sequence of a
    /// `LiveAnalyzer` still ends normally; check `LiveStats.captureInfo?.endedEarly` after it.
    public var endedEarly: Bool
}
