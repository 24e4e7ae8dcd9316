import Foundation
import OpenVision
import Testing

/// The refinements over ByteTrack's association (OC-SORT's observation-centric re-update and recovery,
/// BoostTrack's lost-track decay and detection boost), each on a small scene where ByteTrack alone goes wrong.
@Suite struct ObjectTrackerRefinementTests {
    static func box(_ x: Double, _ y: Double, _ w: Double = 60, _ h: Double = 120, score: Float = 0.9)
        -> ObjectTracker.Detection
    {
        ObjectTracker.Detection(boundingBox: CGRect(x: x, y: y, width: w, height: h), confidence: score)
    }

    /// ByteTrack alone (every refinement off): the tracker as it was before them.
    static var byteTrackOnly: ObjectTracker.Configuration {
        var options = ObjectTracker.Configuration()
        options.reupdatesLostTracks = false
        options.lostTrackDecay = 1
        options.detectionBoost = 0
        return options
    }

    /// ByteTrack's own handling of a lost track: predicted with its velocity (height velocity zeroed) every frame.
    static func filter(_ observed: [CGRect], thenLost frames: Int) -> KalmanBoxFilter {
        func z(_ r: CGRect) -> [Double] {
            KalmanBoxFilter.measurement(x: r.minX, y: r.minY, width: r.width, height: r.height)
        }
        var filter = KalmanBoxFilter(measurement: z(observed[0]))
        for r in observed.dropFirst() {
            filter.predict()
            filter.update(measurement: z(r))
        }
        for _ in 0..<frames { filter.predict(freezeHeight: true) }
        return filter
    }

    /// TUD-Campus, frame 36, reduced: person A walks left 5 px a frame on frames 1-5 and is then hidden for good;
    /// its lost track keeps moving with its velocity. Person B, standing since frame 1 just left of where A's
    /// prediction arrives on frame 20 (12 px: never close enough for ByteTrack's duplicate removal), steps 12 px
    /// right on that frame, and its box narrows. B's detection now overlaps A's drifted prediction (IoU 0.83) more
    /// than B's own track (0.77): ByteTrack gives it to A's lost track and loses B's; with the lost track's decay
    /// (0.9^14 after 15 frames unobserved) B's track keeps it.
    @Test func aLostTrackDriftingOntoATrackedOneDoesNotTakeItsDetection() throws {
        let a = (1...5).map { CGRect(x: 400 - 5 * Double($0), y: 100, width: 60, height: 120) }
        let predicted = Self.filter(a, thenLost: 15).box  // A's prediction on frame 20
        let standing = (x: predicted.x - 12, y: predicted.y)
        func frame(_ f: Int) -> [ObjectTracker.Detection] {
            var detections = [Self.box(standing.x, standing.y)]
            if f == 20 { detections = [Self.box(predicted.x, predicted.y, 50, predicted.height)] }
            if f <= 5 { detections.append(Self.box(a[f - 1].minX, a[f - 1].minY)) }
            return detections
        }
        // Check the scene: the IoUs the comment states.
        let step = CGRect(x: predicted.x, y: predicted.y, width: 50, height: predicted.height)
        let own = CGRect(x: standing.x, y: standing.y, width: 60, height: 120)
        let drifted = CGRect(x: predicted.x, y: predicted.y, width: predicted.width, height: predicted.height)
        #expect(
            abs(Self.iou(step, own) - 0.77) < 0.02 && abs(Self.iou(step, drifted) - 0.83) < 0.02,
            "\(Self.iou(step, own)) \(Self.iou(step, drifted))")

        func run(_ options: ObjectTracker.Configuration) throws -> (b: Int, onFrame20: ObjectTracker.Update) {
            var tracker = try ObjectTracker(configuration: options)
            var b = 0
            var last: ObjectTracker.Update?
            for f in 1...20 {
                let update = tracker.update(frame(f))
                if f == 1 { b = try #require(update.tracks.first { $0.detectionIndex == 0 }?.id) }
                last = update
            }
            return (b, try #require(last))
        }
        let old = try run(Self.byteTrackOnly)
        #expect(
            old.onFrame20.tracks.map(\.id) != [old.b] && old.onFrame20.lost == [old.b],
            "ByteTrack alone: \(old.onFrame20)")
        let new = try run(ObjectTracker.Configuration())
        #expect(new.onFrame20.tracks.map(\.id) == [new.b] && new.onFrame20.lost.isEmpty, "\(new.onFrame20)")
    }

    /// OC-SORT's re-update: an object walking right 6 px a frame (frames 1-30) is hidden on frames 31-33 while it
    /// slows down, and found on frame 34 only 8 px further, standing from then on. With the re-update, the track
    /// is filtered from its state on frame 30 along the straight path to frame 34's box (replayed below with the
    /// filter, itself checked against ByteTrack's in ObjectTrackerTests), not corrected once from the prediction
    /// that drifted 16 px ahead while it was lost. With ByteTrack's noise weights the two differ little (the path
    /// leaves the velocity 4.612 px/frame, the single correction 4.637: `python3 Benchmarks/python/kalman_reference.py`, a transcription of
    /// yolox/tracker/kalman_filter.py); what is checked is that the tracker's boxes are the path's.
    @Test func aLostTrackFoundAgainIsReFilteredAlongItsVirtualPath() throws {
        let seen = (1...30).map { CGRect(x: 100 + 6 * Double($0), y: 200, width: 60, height: 120) }
        let found = CGRect(x: seen[29].minX + 8, y: 200, width: 60, height: 120)
        func frame(_ f: Int) -> [ObjectTracker.Detection] {
            if f <= 30 { return [Self.box(seen[f - 1].minX, 200)] }
            return f >= 34 ? [Self.box(found.minX, 200)] : []
        }
        func z(_ r: CGRect) -> [Double] {
            KalmanBoxFilter.measurement(x: r.minX, y: r.minY, width: r.width, height: r.height)
        }
        // The replays: OC-SORT's virtual path from frame 30, and ByteTrack's correction of the drifted prediction.
        var virtual = Self.filter(seen, thenLost: 0)
        for step in 1...4 {
            virtual.predict()
            let t = Double(step) / 4
            virtual.update(measurement: z(CGRect(x: seen[29].minX + 8 * t, y: 200, width: 60, height: 120)))
        }
        var drifted = Self.filter(seen, thenLost: 4)
        #expect(abs(drifted.box.x - found.minX - 15.868) < 0.01, "\(drifted.box)")
        drifted.update(measurement: z(found))
        #expect(
            abs(virtual.mean[4] - 4.612) < 0.001 && abs(drifted.mean[4] - 4.637) < 0.001,
            "\(virtual.mean[4]) \(drifted.mean[4])")
        let onFrame34 = (virtual: virtual.box.x, drifted: drifted.box.x)
        virtual.predict()
        virtual.update(measurement: z(found))
        drifted.predict()
        drifted.update(measurement: z(found))
        #expect(abs(virtual.box.x - drifted.box.x) > 0.01)

        func run(_ options: ObjectTracker.Configuration) throws -> [ObjectTracker.Update] {
            var tracker = try ObjectTracker(configuration: options)
            return (1...35).map { tracker.update(frame($0)) }
        }
        var options = ObjectTracker.Configuration()
        let updates = try run(options)
        #expect(updates.map { $0.tracks.map(\.id) } == (1...35).map { (31...33).contains($0) ? [] : [1] })
        #expect(
            abs(updates[33].tracks[0].boundingBox.minX - onFrame34.virtual) < 1e-6,
            "\(updates[33].tracks[0].boundingBox)")
        #expect(
            abs(updates[34].tracks[0].boundingBox.minX - virtual.box.x) < 1e-6, "\(updates[34].tracks[0].boundingBox)")
        options.reupdatesLostTracks = false
        let without = try run(options)
        #expect(
            abs(without[33].tracks[0].boundingBox.minX - onFrame34.drifted) < 1e-6,
            "\(without[33].tracks[0].boundingBox)")
        #expect(
            abs(without[34].tracks[0].boundingBox.minX - drifted.box.x) < 1e-6, "\(without[34].tracks[0].boundingBox)")
    }

    /// OC-SORT's recovery: an object crossing right at 20 px a frame turns back on frame 21. Its prediction is
    /// ~20 px ahead of frame 20's box and the detection 20 px behind it (IoU × score 0.18: no match); its last
    /// observed box overlaps the detection (IoU 0.5). With recovery the track keeps its ID through the turn;
    /// without, it is lost on frame 21 and a new ID starts on frame 22.
    @Test func recoveryMatchesATrackByItsLastObservation() throws {
        func frame(_ f: Int) -> [ObjectTracker.Detection] {
            [Self.box(f <= 20 ? 100 + 20 * Double(f) : 500 - 20 * Double(f - 20), 300)]
        }
        func run(_ options: ObjectTracker.Configuration) throws -> [ObjectTracker.Update] {
            var tracker = try ObjectTracker(configuration: options)
            return (1...23).map { tracker.update(frame($0)) }
        }
        var options = ObjectTracker.Configuration()
        let off = try run(options)
        #expect(off[20].tracks.isEmpty && off[20].lost == [1] && off[21].started == [2], "\(off[20]) \(off[21])")
        options.recoveryMatchThreshold = 0.7
        let on = try run(options)
        #expect(on[20].tracks.map(\.id) == [1] && on[20].lost.isEmpty, "\(on[20])")
        #expect(on.allSatisfy { $0.tracks.map(\.id) == [1] })
    }

    /// BoostTrack's detection boost: a person whose detection scores 0.35 (low) on frame 10, next to a second one
    /// (seen since frame 9) detected with 0.9 and overlapping the first's track (IoU 0.43). ByteTrack's first
    /// association sees only the high detection and gives it to the first person's track; the second's tentative
    /// track dies. The boost (0.65 × IoU ~1 with the track's prediction > 0.5) puts the low detection in the first
    /// association, where it wins, and the second person's track is confirmed with the other.
    @Test func aLowScoreDetectionFittingATrackTakesPartInTheFirstAssociation() throws {
        // Person 1 walks right 4 px a frame; person 2 stands just behind, from frame 9 (it starts a tentative track).
        func frame(_ f: Int) -> [ObjectTracker.Detection] {
            var detections = [Self.box(100 + 4 * Double(f), 100, score: f == 10 ? 0.35 : 0.9)]
            if f >= 9 { detections.append(Self.box(100 + 4 * 9 - 20, 100)) }
            return detections
        }
        func run(_ options: ObjectTracker.Configuration) throws -> ObjectTracker.Update {
            var tracker = try ObjectTracker(configuration: options)
            return (1...10).map { tracker.update(frame($0)) }[9]
        }
        var options = ObjectTracker.Configuration()
        options.detectionBoost = 0
        let off = try run(options)
        #expect(off.tracks.map { [$0.id, $0.detectionIndex] } == [[1, 1]], "\(off)")
        let on = try run(ObjectTracker.Configuration())
        #expect(on.tracks.map { [$0.id, $0.detectionIndex] } == [[1, 0], [2, 1]], "\(on)")
        // The reported score is the detector's, not the boosted one.
        #expect(on.tracks.first?.confidence == 0.35)
    }

    @Test(arguments: ["momentumWeight", "recoveryMatchThreshold", "lostTrackDecay", "detectionBoost", "velocityWindow"])
    func invalidRefinementOptionsAreRejected(name: String) {
        var options = ObjectTracker.Configuration()
        switch name {
        case "momentumWeight": options.momentumWeight = -0.1
        case "recoveryMatchThreshold": options.recoveryMatchThreshold = .nan
        case "lostTrackDecay": options.lostTrackDecay = 1.5
        case "detectionBoost": options.detectionBoost = .infinity
        default: options.velocityWindow = 0
        }
        #expect {
            _ = try ObjectTracker(configuration: options)
        } throws: { error in
            (error as? VisionError)?.code == .invalidArgument && (error as? VisionError)?.message.contains(name) == true
        }
    }

    /// OC-SORT's momentum on: still one ID per object on the crossing and occlusion scenes of ObjectTrackerTests.
    @Test func momentumKeepsIDsOnCrossings() throws {
        var options = ObjectTracker.Configuration()
        options.momentumWeight = 0.2
        options.recoveryMatchThreshold = 0.7
        let scene = SyntheticScene(
            objects: [
                .init(start: (100, 100), velocity: (5, 3), frames: 1...120),
                .init(start: (760, 556), velocity: (-5, -3), frames: 1...120, lowScore: Set(55...65)),
                .init(start: (100, 300), velocity: (8, 0), frames: 1...80, hidden: Set(40...44)),
            ], frameCount: 120)
        var tracker = try ObjectTracker(configuration: options)
        let (ids, _) = scene.run(&tracker)
        let summaries = ids.map(SyntheticScene.summary)
        #expect(summaries.allSatisfy { $0.distinct.count == 1 && $0.switches == 0 }, "\(summaries)")
        #expect(Set(summaries.flatMap(\.distinct)).count == 3)
    }

    static func iou(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull else { return 0 }
        let inter = Double(i.width * i.height)
        return inter / (Double(a.width * a.height + b.width * b.height) - inter)
    }
}
