import CoreMedia
import Foundation
import OpenVision

extension VisionObservation {
    /// The time range of the video frame the observation was made on (Vision's `timeRange`, set by
    /// `VideoProcessor`): the frame's presentation time and its duration, at a timescale of 600; nil for a still image.
    public var timeRange: CMTimeRange? {
        frameTimeRange.map { range in
            let start = CMTime(seconds: Self.seconds(range.lowerBound), preferredTimescale: 600)
            let end = CMTime(seconds: Self.seconds(range.upperBound), preferredTimescale: 600)
            return CMTimeRange(start: start, end: end)
        }
    }

    /// A duration in seconds.
    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
