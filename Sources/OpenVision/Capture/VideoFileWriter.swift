internal import CNative
import Foundation

/// Writes frames to a video file (the container follows the extension: .mp4, .avi, .mkv, .webm).
/// Frames of another size are resized. Call `finish()` to complete the file (or let it go away).
public final class VideoFileWriter: @unchecked Sendable {
    // Used from one thread at a time; the native writer serialises calls anyway.
    private var handle: OpaquePointer?
    /// The file being written.
    public let url: URL

    /// Opens `url` for writing at `fps` (30 when not positive), `width` × `height` pixels;
    /// throws a `VisionError` when the file or codec cannot be opened.
    public init(url: URL, fps: Double, width: Int, height: Int) throws(VisionError) {
        self.url = url
        var h: OpaquePointer?
        let status = ov_video_writer_open(url.path, nil, fps > 0 ? fps : 30, Int32(width), Int32(height), &h)
        guard status == OV_OK, let h else {
            throw NativeError.error(for: status, context: "cannot write video \(url.path)")
        }
        handle = h
    }

    deinit { ov_video_writer_free(handle) }

    /// Appends a frame.
    public func write(_ image: VisionImage) throws(VisionError) {
        guard let handle else { throw VisionError(.invalidArgument, "the video \(url.path) is already finished") }
        try NativeError.check(ov_video_writer_write(handle, image.handle), "writing \(url.path)")
    }

    /// Completes the file (writes its index); further writes fail.
    public func finish() {
        ov_video_writer_free(handle)
        handle = nil
    }
}
