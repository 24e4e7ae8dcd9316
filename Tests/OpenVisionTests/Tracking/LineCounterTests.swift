import Foundation
import OpenVision
import Testing

/// `LineCounter` on tracks whose paths are known, so every count is exact.
@Suite struct LineCounterTests {
    /// A 0.125 × 0.125 track box centred at (x, y), normalised (lower-left origin); binary fractions keep
    /// centres exact, so a centre can sit exactly on the line.
    static func track(_ id: Int, _ x: Double, _ y: Double, _ label: String? = "car") -> ObjectTracker.Track {
        ObjectTracker.Track(
            id: id, boundingBox: CGRect(x: x - 0.0625, y: y - 0.0625, width: 0.125, height: 0.125), confidence: 0.9,
            label: label, detectionIndex: 0, firstFrame: 1)
    }

    /// A horizontal line drawn left to right at y = 0.5, from x = 0.2 to 0.8: a track moving down crosses `in`,
    /// one moving up `out`; one passing beside the segment (x = 0.9) is not counted; one crossing and coming
    /// back counts once each way; one touching the line and turning back is not counted.
    @Test func countsEachCrossingPerClassAndDirection() throws {
        var counter = try LineCounter(from: CGPoint(x: 0.2, y: 0.5), to: CGPoint(x: 0.8, y: 0.5))
        // Per frame, the centres' y: 0.875 down to −0.125 in steps of 0.125 (exactly 0.5 on frame 3), 9 frames.
        let ys = (0..<9).map { 0.875 - 0.125 * Double($0) }
        var crossings: [[LineCounter.Crossing]] = []
        for f in 0..<9 {
            let back = f <= 3 ? ys[f] : ys[max(0, 6 - f)]  // down to the line, then up again: never crosses
            let bounce = f <= 5 ? ys[f] : ys[10 - f]  // down to 0.25, up through the line (on it on frame 7) to 0.625
            crossings.append(
                counter.update(tracks: [
                    Self.track(1, 0.3, ys[f]),  // car moving down: in
                    Self.track(2, 0.5, 1 - ys[f], "person"),  // person moving up: out
                    Self.track(3, 0.9, ys[f]),  // beside the segment: nothing
                    Self.track(4, 0.6, back, "person"),  // touches and turns back: nothing
                    Self.track(5, 0.7, bounce, "bus"),  // crosses down, then back up
                ]))
        }
        // Frame 3 puts tracks 1, 2, 4 and 5 exactly on the line: not crossed yet. 1, 2 and 5 count on frame 4.
        #expect(crossings[3].isEmpty)
        #expect(crossings[4].map(\.trackID) == [1, 2, 5])
        #expect(crossings[4].map(\.direction) == [.in, .out, .in])
        #expect(crossings[4][0].label == "car" && crossings[4][0].point.y == 0.375)
        // Track 5 turns at 0.25 (frame 5), is on the line on frame 7 and above it on frame 8.
        #expect(crossings[7].isEmpty)
        #expect(crossings[8].map(\.trackID) == [5] && crossings[8][0].direction == .out)
        #expect(crossings.flatMap { $0 }.count == 4)
        let counts = counter.counts
        #expect(counts.totalIn == 2 && counts.totalOut == 2)
        #expect(counts.inByLabel == ["car": 1, "bus": 1])
        #expect(counts.outByLabel == ["person": 1, "bus": 1])
    }

    /// Direction follows the segment's orientation: the same motion counts `out` on the reversed line, and a
    /// vertical line drawn bottom to top counts rightward motion `in` (Ultralytics' convention).
    @Test func directionFollowsTheLinesOrientation() throws {
        var reversed = try LineCounter(from: CGPoint(x: 0.8, y: 0.5), to: CGPoint(x: 0.2, y: 0.5))
        _ = reversed.update(tracks: [Self.track(1, 0.5, 0.6)])
        #expect(reversed.update(tracks: [Self.track(1, 0.5, 0.4)]).map(\.direction) == [.out])
        var vertical = try LineCounter(from: CGPoint(x: 0.5, y: 0), to: CGPoint(x: 0.5, y: 1))
        _ = vertical.update(tracks: [Self.track(7, 0.4, 0.5, nil), Self.track(8, 0.6, 0.2, nil)])
        let crossed = vertical.update(tracks: [Self.track(7, 0.55, 0.5, nil), Self.track(8, 0.45, 0.25, nil)])
        #expect(crossed.map(\.direction) == [.in, .out])
        #expect(vertical.counts.inByLabel == ["": 1] && vertical.counts.outByLabel == ["": 1])
    }

    /// A track that was not matched for a few frames (lost, then found on the other side) is counted once;
    /// an ended track is forgotten, so its ID's next position starts afresh.
    @Test func lostTracksCountOnceAndEndedTracksAreForgotten() throws {
        var counter = try LineCounter(from: CGPoint(x: 0, y: 0.5), to: CGPoint(x: 1, y: 0.5))
        _ = counter.update(tracks: [Self.track(1, 0.5, 0.7)])
        _ = counter.update(tracks: [])  // not matched
        #expect(counter.update(tracks: [Self.track(1, 0.5, 0.3)]).count == 1)
        _ = counter.update(tracks: [], ended: [1])
        #expect(counter.update(tracks: [Self.track(1, 0.5, 0.7)]).isEmpty, "an ended track has no previous side")
        #expect(counter.counts.totalIn == 1 && counter.counts.totalOut == 0)
    }

    /// The counter fed by `ObjectTracker`: two objects crossing a vertical line in opposite directions, one of
    /// them missed by the detector for three frames right at the line: one count each, no more.
    @Test func countsTracksFromTheTracker() throws {
        var tracker = try ObjectTracker()
        var counter = try LineCounter(from: CGPoint(x: 0.5, y: 0), to: CGPoint(x: 0.5, y: 1))
        var all: [LineCounter.Crossing] = []
        for f in 0..<40 {
            var detections = [
                ObjectTracker.Detection(
                    boundingBox: CGRect(x: 0.1 + 0.02 * Double(f), y: 0.2, width: 0.08, height: 0.15),
                    confidence: 0.9, label: "car")
            ]
            if !(18...20).contains(f) {
                detections.append(
                    ObjectTracker.Detection(
                        boundingBox: CGRect(x: 0.85 - 0.02 * Double(f), y: 0.6, width: 0.05, height: 0.2),
                        confidence: 0.8, label: "person"))
            }
            let update = tracker.update(detections)
            all += counter.update(tracks: update.tracks, ended: update.ended)
        }
        #expect(all.count == 2, "\(all)")
        #expect(counter.counts.inByLabel == ["car": 1] && counter.counts.outByLabel == ["person": 1])
        // The car's centre (x = 0.14 + 0.02 f) passes 0.5 between frames 17 and 18.
        #expect(all.first { $0.label == "car" }.map { abs($0.point.x - 0.5) < 0.03 } == true)
    }

    @Test func rejectsADegenerateLine() {
        #expect(throws: VisionError.self) {
            try LineCounter(from: CGPoint(x: 0.3, y: 0.3), to: CGPoint(x: 0.3, y: 0.3))
        }
        #expect(throws: VisionError.self) {
            try LineCounter(from: CGPoint(x: .nan, y: 0.3), to: CGPoint(x: 0.5, y: 0.3))
        }
        do {
            _ = try LineCounter(from: CGPoint(x: 0.1, y: 0.2), to: CGPoint(x: 0.1, y: 0.2))
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("zero length"))
        }
    }
}
