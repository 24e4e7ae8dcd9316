import Foundation
import OpenVision

/// AVFoundation's timed media (Linux only: a video file read with OpenVision's video decoding, FFmpeg through
/// OpenCV). `tracks(withMediaType: .video)` gives the file's video track; an `AVAssetReader` reads its frames.
/// The file is probed on first use of `tracks`; a file that cannot be opened as a video has no tracks, as on Apple
/// platforms.
open class AVAsset: NSObject, @unchecked Sendable {
    /// The file's location.
    let location: URL
    private let lock = NSLock()
    private var probed: [AVAssetTrack]?

    /// An asset for the video file at `url` (Apple's `AVAsset(url:)`, which makes an `AVURLAsset`).
    public convenience init(url: URL) {
        self.init(location: url)
    }

    init(location: URL) {
        self.location = location
        super.init()
    }

    /// All tracks: the video track, or none for a file that cannot be opened as a video.
    public var tracks: [AVAssetTrack] {
        lock.withLock {
            if let probed { return probed }
            let found = probe()
            probed = found
            return found
        }
    }

    /// The tracks of `mediaType` (`.video`: the one video track; other kinds: none).
    public func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The video track as the decoder opens it, or none.
    private func probe() -> [AVAssetTrack] {
        guard location.isFileURL,
            let capture = try? VideoCapture(.file(location), options: CaptureOptions())
        else { return [] }
        let info = capture.info
        guard info.width > 0, info.height > 0 else { return [] }
        return [
            AVAssetTrack(
                asset: self, trackID: 1, mediaType: .video,
                naturalSize: CGSize(width: info.width, height: info.height), nominalFrameRate: info.fps,
                frameCount: info.frameCount)
        ]
    }
}

/// AVFoundation's asset at a URL: `AVURLAsset(url:)` (see `AVAsset`).
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The asset's location.
    public var url: URL { location }

    /// An asset for the video file at `url`; `options` (Apple's `AVURLAssetPreferPreciseDurationAndTimingKey`, …)
    /// change nothing here: frames are always read in order, each with its own time.
    public init(url URL: URL, options: [String: Any]? = nil) {
        super.init(location: URL)
    }
}
