import Foundation
import OpenVision
import Testing

/// `TrackCompletion`: the tracker's boxes plus each track's start (before its confirmation) and its short gaps.
@Suite struct TrackCompletionTests {
    /// One object walking right 10 px a frame from frame 3 (frames 1-2 empty), missed on frames 8-10 and 20-45.
    static func detections(_ frame: Int) -> [ObjectTracker.Detection] {
        guard frame >= 3, !(8...10).contains(frame), !(20...45).contains(frame) else { return [] }
        return [
            ObjectTracker.Detection(
                boundingBox: CGRect(x: 100 + 10 * Double(frame), y: 50, width: 40, height: 90), confidence: 0.9)
        ]
    }

    static func run(_ completion: TrackCompletion) throws -> [MOTRecord] {
        var tracker = try ObjectTracker()
        var completion = completion
        for frame in 1...50 {
            let detections = Self.detections(frame)
            completion.record(tracker.update(detections), detections: detections)
        }
        return completion.records()
    }

    @Test func startsAndShortGapsAreFilled() throws {
        let online = try Self.run(TrackCompletion(maximumGap: 0, backFillsStart: false))
        // Online: confirmed on frame 4, lost on 8-10, and after the 26-frame gap (kept lost: ByteTrack's buffer is 30).
        #expect(online.map(\.frame) == Array(4...7) + Array(11...19) + Array(46...50))
        let records = try Self.run(TrackCompletion())
        #expect(Set(records.map(\.id)) == [1])
        // Frame 3, where the track was first seen, from its detection (box and score); 8-10 interpolated; the
        // 26-frame gap (> 20) left empty.
        #expect(records.map(\.frame) == Array(3...19) + Array(46...50))
        let first = try #require(records.first)
        #expect(
            first.x == 130 && first.y == 50 && first.width == 40 && first.height == 90 && abs(first.score - 0.9) < 1e-6)
        for frame in 8...10 {
            let r = try #require(records.first { $0.frame == frame })
            let before = try #require(records.first { $0.frame == 7 })
            let after = try #require(records.first { $0.frame == 11 })
            let t = Double(frame - 7) / 4
            #expect(
                abs(r.x - (before.x + (after.x - before.x) * t)) < 1e-9
                    && abs(r.height - (before.height + (after.height - before.height) * t)) < 1e-9)
            #expect(abs(r.x - (100 + 10 * Double(frame))) < 3, "frame \(frame): \(r.x)")
        }
        // A gap of 26 filled when allowed.
        #expect(try Self.run(TrackCompletion(maximumGap: 30)).map(\.frame) == Array(3...50))
    }
}
