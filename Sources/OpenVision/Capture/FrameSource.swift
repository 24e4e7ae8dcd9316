import Foundation

/// Where frames come from: a V4L2 camera, a video file, a network stream or a folder of images.
public enum FrameSource: Sendable, Hashable, CustomStringConvertible {
    /// `/dev/video<index>`.
    case camera(Int)
    /// A V4L2 device path such as `/dev/video2`.
    case device(String)
    /// A video file (mp4, avi, mkv, webm, … through FFmpeg).
    case file(URL)
    /// A network stream: rtsp://, http(s):// MJPEG, HLS .m3u8.
    case stream(URL)
    /// Image files as a frame sequence: a directory (its .jpg, .jpeg, .png, .webp, .bmp, .tif, .tiff
    /// files in natural name order, so `f2` before `f10`) or a printf pattern `dir/img_%04d.jpg`
    /// (`%d`, `%Nd`, `%0Nd`: every matching file of the directory, ordered by its number; gaps are
    /// skipped). `CaptureInfo`: `frameCount` the number of files, `fps` `CaptureOptions.imageSequenceFPS`,
    /// `backend` "images". Opening fails with `fileNotFound` (missing directory, no image files, a
    /// pattern matching nothing), `ioError` (a directory that cannot be read) or `invalidArgument`
    /// (a file, an unsupported pattern). A file that fails to decode ends the sequence with its
    /// error (`invalidImage`, …) naming the frame and file: like any read error of a non-live
    /// source, it is not skipped.
    case images(String)

    /// Parses a command-line source: `0` (camera), `/dev/video0`, `rtsp://…`/`http://…`, a directory
    /// or pattern with `%`, or a video file path.
    public init(parsing text: String) {
        if let index = Int(text) {
            self = .camera(index)
        } else if text.hasPrefix("/dev/video") {
            self = .device(text)
        } else if let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["rtsp", "rtsps", "rtmp", "http", "https", "udp", "tcp", "srt"].contains(scheme)
        {
            self = .stream(url)
        } else {
            var isDirectory: ObjCBool = false
            if text.contains("%")
                || (FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory) && isDirectory.boolValue)
            {
                self = .images(text)
            } else {
                self = .file(URL(fileURLWithPath: text))
            }
        }
    }

    /// True for sources that run in real time (cameras and streams), false for files and images.
    public var isLive: Bool {
        switch self {
        case .camera, .device, .stream: true
        case .file, .images: false
        }
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        switch self {
        case .camera(let i): "/dev/video\(i)"
        case .device(let path): path
        case .file(let url): url.path
        case .stream(let url): url.absoluteString
        case .images(let pattern): pattern
        }
    }
}

/// How to open a source. Every default is documented on its property.
public struct CaptureOptions: Sendable, Hashable {
    /// Pace of file and image sources: `.native` delivers frames at the file's frame rate (like a
    /// camera), `.fastest` as fast as they are analysed (every frame; nothing to drop). Default `.native`.
    public enum Pace: String, Sendable, Hashable {
        /// At the file's frame rate, like a camera: frames analysis cannot keep up with are dropped.
        case native
        /// As fast as frames are analysed: every frame, none dropped.
        case fastest
    }

    /// Requested camera mode (V4L2 picks the nearest mode at least this large). Default: the
    /// camera's largest mode.
    public var width: Int = 0
    /// Requested camera height (see `width`). Default 0: the camera's largest mode.
    public var height: Int = 0
    /// Requested camera frame rate. Default: the highest the mode offers.
    public var fps: Double = 0
    /// Requested camera pixel format, e.g. "MJPG" or "YUYV". Default: the driver's choice.
    public var fourcc: String = ""
    /// How file and image-folder frames are paced (see `Pace`). Default `.native`.
    public var pace: Pace = .native
    /// How the source is mounted; frames are turned upright. Default `.up`.
    public var orientation: ImageOrientation = .up
    /// Network streams: how long one read may block before it counts as a drop. Default 5 s.
    public var readTimeout: Duration = .seconds(5)
    /// Network streams: reconnect after a drop, waiting 0.25 s, doubling up to 4 s, for at most
    /// this long in all before failing. Default 30 s; zero fails on the first drop.
    public var reconnectFor: Duration = .seconds(30)
    /// Image folders: frames per second when pacing natively. Default 30.
    public var imageSequenceFPS: Double = 30

    /// The default options: every property at its documented default.
    public init() {}
}
