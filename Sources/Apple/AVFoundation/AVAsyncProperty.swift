import Foundation
import OpenVision

/// A property of `Root` that can be loaded asynchronously, whatever its value's type (AVFoundation's
/// `AVPartialAsyncProperty`); the properties are its static members, e.g. `AVAsset`'s `.duration`.
public class AVPartialAsyncProperty<Root>: @unchecked Sendable {
    /// The property's key, as Apple's key-value loading names it (`"duration"`).
    let key: String

    init(key: String) {
        self.key = key
    }
}

/// A property of `Root` whose value is a `Value`, for `load(_:)` (AVFoundation's `AVAsyncProperty`):
/// `try await asset.load(.duration)`.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    /// Reads the value from a root.
    let read: (Root) throws -> Value

    init(key: String, read: @escaping (Root) throws -> Value) {
        self.read = read
        super.init(key: key)
    }
}

extension AVPartialAsyncProperty where Root == AVAsset {
    /// The asset's duration (`AVAsset.duration`).
    public static var duration: AVAsyncProperty<AVAsset, CMTime> {
        AVAsyncProperty(key: "duration") { $0.duration }
    }

    /// The asset's tracks (`AVAsset.tracks`).
    public static var tracks: AVAsyncProperty<AVAsset, [AVAssetTrack]> {
        AVAsyncProperty(key: "tracks") { $0.tracks }
    }
}

extension AVAsset {
    /// The value of `property`, loaded from the file (the video is probed on first use). Apple's
    /// `load(_:)` of `AVAsynchronousKeyValueLoading`.
    public func load<T>(_ property: AVAsyncProperty<AVAsset, T>) async throws -> T {
        try property.read(self)
    }

    /// The duration of the video: its frame count over its frame rate, as the file's stream declares them (a
    /// timescale of 600); `.zero` for a file that cannot be opened as a video, as on Apple platforms, and for one whose
    /// stream declares no frame count or rate.
    public var duration: CMTime {
        guard let track = tracks.first, track.frameCount > 0, track.frameRate > 0 else { return .zero }
        return CMTime(seconds: Double(track.frameCount) / track.frameRate, preferredTimescale: 600)
    }
}
