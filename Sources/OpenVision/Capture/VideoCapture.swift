import Foundation
internal import CNative

/// An open source: a native capture handle (OpenCV videoio) or a sorted image folder.
/// Used by one reader thread at a time.
final class VideoCapture: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var files: [URL] = []
    private var fileIndex = 0
    private let openedInfo: CaptureInfo

    /// What the source delivers, as granted at open; `endedEarly` is current.
    var info: CaptureInfo {
        var info = openedInfo
        if let handle {
            var i = ov_capture_info()
            if ov_capture_get_info(handle, &i) == OV_OK { info.endedEarly = i.ended_early != 0 }
        }
        return info
    }

    init(_ source: FrameSource, options: CaptureOptions) throws(VisionError) {
        var request = ov_capture_request()
        request.width = Int32(options.width)
        request.height = Int32(options.height)
        request.fps = options.fps
        withUnsafeMutableBytes(of: &request.fourcc) { raw in
            for (i, byte) in options.fourcc.utf8.prefix(4).enumerated() { raw[i] = byte }
        }
        let timeout = Int32(options.readTimeout.components.seconds * 1000
                            + options.readTimeout.components.attoseconds / 1_000_000_000_000_000)
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
            url = file.path; api = OV_CAPTURE_FFMPEG
        case .stream(let stream): url = stream.absoluteString; api = OV_CAPTURE_FFMPEG
        case .images(let pattern):
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: pattern, isDirectory: &isDirectory), isDirectory.boolValue {
                // A folder: its image files in name order, decoded by OpenVision itself.
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: pattern)) ?? []).sorted()
                files = names.filter { ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff"].contains(($0 as NSString).pathExtension.lowercased()) }
                    .map { URL(fileURLWithPath: pattern).appendingPathComponent($0) }
                guard !files.isEmpty else { throw VisionError(.fileNotFound, "no images in \(pattern)") }
                let first = try VisionImage(contentsOf: files[0])
                openedInfo = CaptureInfo(width: first.width, height: first.height, fps: options.imageSequenceFPS,
                                         frameCount: files.count, fourcc: "", backend: "images", endedEarly: false)
                return
            }
            url = pattern; api = OV_CAPTURE_IMAGES
        }
        var h: OpaquePointer?
        let status = ov_capture_open(url, device, api, &request, &h)
        guard status == OV_OK, let h else {
            throw NativeError.error(for: status, context: "cannot open \(source)",
                                    codes: [OV_ERR_IO: source.isLive ? .ioError : .fileNotFound])
        }
        handle = h
        var i = ov_capture_info()
        _ = ov_capture_get_info(h, &i)
        openedInfo = CaptureInfo(width: Int(i.width), height: Int(i.height), fps: i.fps, frameCount: Int(i.frame_count),
                                 fourcc: stringFromCCharArray(i.fourcc), backend: stringFromCCharArray(i.backend),
                                 endedEarly: false)
    }

    deinit { ov_capture_free(handle) }

    /// The next frame (not yet oriented) and its source timestamp, nil at the end; throws `ioError` when the source fails.
    func read() throws(VisionError) -> (VisionImage, Double?)? {
        guard let handle else {
            guard fileIndex < files.count else { return nil }
            defer { fileIndex += 1 }
            return (try VisionImage(contentsOf: files[fileIndex]), nil)
        }
        var image: OpaquePointer?
        var timestamp = -1.0
        let status = ov_capture_read(handle, &image, &timestamp)
        // Whatever failed, reading a source that was open is an I/O error.
        if status != OV_OK { throw NativeError.error(for: status, context: "reading frames", codes: [status: .ioError]) }
        guard let image else { return nil }
        return (VisionImage(owning: image), timestamp >= 0 ? timestamp / 1000 : nil)
    }
}

/// What a source delivers, as granted (camera modes are negotiated).
public struct CaptureInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Frames per second; 0 when unknown.
    public var fps: Double
    /// Frames in a file; -1 for live sources.
    public var frameCount: Int
    /// Codec or pixel format ("MJPG", "h264"), "" if unknown.
    public var fourcc: String
    /// "FFMPEG", "V4L2", "CV_IMAGES", "images".
    public var backend: String
    /// Files: true once the file ended before the end its container promises (fewer frames than
    /// `frameCount`, or a packet cut short): it is truncated or damaged, and the frames delivered
    /// are all it had that decodes. False until the end, and for other sources. The sequence of a
    /// `LiveAnalyzer` still ends normally; check `LiveStats.captureInfo?.endedEarly` after it.
    public var endedEarly: Bool
}
