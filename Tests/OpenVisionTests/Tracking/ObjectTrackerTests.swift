import Foundation
import OpenVision
import Testing

/// ByteTrack association on synthetic scenes with known truth.
@Suite struct ObjectTrackerTests {
    @Test func objectsMovingLinearlyKeepOneIDEach() throws {
        let objects = (0..<5).map { (i: Int) -> SyntheticScene.Object in
            let x = 100 + 300 * Double(i)
            let y = 100 + 40 * Double(i)
            return SyntheticScene.Object(
                start: (x, y), velocity: (2 + Double(i % 3), 1.5 - Double(i % 2) * 3), frames: 1...120)
        }
        let scene = SyntheticScene(objects: objects, frameCount: 120)
        var tracker = try ObjectTracker()
        let (ids, updates) = scene.run(&tracker)
        var seen = Set<Int>()
        for objectIDs in ids {
            let s = SyntheticScene.summary(objectIDs)
            #expect(s.distinct.count == 1 && s.switches == 0, "\(s)")
            #expect(objectIDs.allSatisfy { $0 != nil }, "every frame reported")
            seen.formUnion(s.distinct)
        }
        #expect(seen == [1, 2, 3, 4, 5])
        #expect(updates[0].started == [1, 2, 3, 4, 5])
        #expect(updates.dropFirst().allSatisfy { $0.started.isEmpty && $0.lost.isEmpty && $0.ended.isEmpty })
    }

    /// Two people crossing, one in front of the other (their boxes overlap by up to IoU 0.6), detected on every frame.
    @Test func twoCrossingObjectsDoNotSwapIDs() throws {
        let scene = SyntheticScene(
            objects: [
                .init(start: (100, 200), velocity: (6, 0), frames: 1...100),
                .init(start: (700, 240), velocity: (-6, 0), frames: 1...100),
            ], frameCount: 100)
        var tracker = try ObjectTracker()
        let (ids, _) = scene.run(&tracker)
        let a = SyntheticScene.summary(ids[0])
        let b = SyntheticScene.summary(ids[1])
        #expect(a.distinct == [1] || a.distinct == [2], "\(a)")
        #expect(b.distinct.count == 1 && b.distinct != a.distinct && a.switches + b.switches == 0, "\(a) \(b)")
    }

    /// Crossing diagonally (an X; at the crossing, frame 67, one is 60 px below the other: IoU 0.33), with the
    /// front object's detection score dropping to 0.3 while they overlap.
    @Test func diagonalCrossingWithLowScoresKeepsIDs() throws {
        let scene = SyntheticScene(
            objects: [
                .init(start: (100, 100), velocity: (5, 3), frames: 1...120),
                .init(start: (760, 556), velocity: (-5, -3), frames: 1...120, lowScore: Set(55...65)),
            ], frameCount: 120)
        var tracker = try ObjectTracker()
        let (ids, _) = scene.run(&tracker)
        let a = SyntheticScene.summary(ids[0])
        let b = SyntheticScene.summary(ids[1])
        #expect(a.distinct.count == 1 && b.distinct.count == 1 && a.distinct != b.distinct, "\(a) \(b)")
        // The low-score detections (0.3) are matched by the second association: reported on every frame.
        #expect(ids[1][54...64].allSatisfy { $0 == b.distinct.first }, "\(ids[1][54...64])")
    }

    /// An object not detected for 5 frames (occluded) comes back with its ID, reported lost then found.
    @Test func idKeptThroughAFiveFrameOcclusion() throws {
        let scene = SyntheticScene(
            objects: [
                .init(start: (100, 300), velocity: (8, 0), frames: 1...80, hidden: Set(40...44)),
                .init(start: (900, 100), velocity: (-3, 2), frames: 1...80),
            ], frameCount: 80)
        var tracker = try ObjectTracker()
        let (ids, updates) = scene.run(&tracker)
        let a = SyntheticScene.summary(ids[0])
        #expect(a.distinct.count == 1 && a.switches == 0, "\(a)")
        #expect(ids[0][39...43].allSatisfy { $0 == nil })
        #expect(ids[0][44] == a.distinct.first, "reported again on the first frame it is detected")
        #expect(updates[39].lost == a.distinct)
        #expect(updates.allSatisfy { $0.ended.isEmpty })
        #expect(SyntheticScene.summary(ids[1]).distinct.count == 1)
    }

    /// A genuinely new object gets a new ID, confirmed on its second frame; one that leaves ends after the buffer.
    @Test func newObjectGetsANewIDAndAGoneOneEnds() throws {
        let scene = SyntheticScene(
            objects: [
                .init(start: (100, 100), velocity: (4, 0), frames: 1...60),
                .init(start: (200, 500), velocity: (3, -1), frames: 1...19),
                // Appears where the second one would have been, long after it left.
                .init(start: (320, 430), velocity: (3, -1), frames: 70...90),
            ], frameCount: 90)
        var tracker = try ObjectTracker()
        let (ids, updates) = scene.run(&tracker)
        #expect(SyntheticScene.summary(ids[0]).distinct == [1] || SyntheticScene.summary(ids[0]).distinct == [2])
        let gone = try #require(SyntheticScene.summary(ids[1]).distinct.first)
        let new = SyntheticScene.summary(ids[2])
        #expect(new.distinct == [3] && new.switches == 0, "\(new)")
        #expect(ids[2][69] == nil && ids[2][70] == 3, "tentative on its first frame, confirmed on its second")
        #expect(updates[70].started == [3])
        #expect(updates[19].lost == [gone])
        // Last matched on frame 19; removed once more than 30 frames have passed, on frame 50.
        #expect(updates[49].ended == [gone])
        #expect(updates.enumerated().allSatisfy { $0.offset == 49 || $0.element.ended.isEmpty })
        // The first object leaves after frame 60 and ends on frame 91 - beyond the scene.
        #expect(updates[60].lost.count == 1)
    }

    @Test func aTrackBufferOfZeroEndsATrackOnTheFrameAfterItIsLost() throws {
        var options = ObjectTracker.Configuration()
        options.trackBuffer = 0
        let scene = SyntheticScene(
            objects: [.init(start: (100, 300), velocity: (8, 0), frames: 1...30, hidden: Set(10...12))], frameCount: 30)
        var tracker = try ObjectTracker(configuration: options)
        let (ids, updates) = scene.run(&tracker)
        #expect(updates[9].lost == [1] && updates[10].ended == [1])
        #expect(SyntheticScene.summary(ids[0]).distinct == [1, 2], "a new ID after the occlusion")
    }

    @Test func sameDetectionsGiveTheSameTracksInAnyUnit() throws {
        let objects = (0..<6).map { (i: Int) -> SyntheticScene.Object in
            let hidden: Set<Int> = i == 2 ? Set(30...33) : []
            let low: Set<Int> = i == 4 ? Set(20...24) : []
            let velocity = (Double(i) - 2.5, Double(i % 3) - 1)
            return SyntheticScene.Object(
                start: (50 + 150 * Double(i), 200), velocity: velocity, frames: (1 + 3 * i)...(90 - 2 * i),
                hidden: hidden, lowScore: low)
        }
        let scene = SyntheticScene(objects: objects, frameCount: 90)
        var first = try ObjectTracker()
        var second = try ObjectTracker()
        var normalised = try ObjectTracker()
        let a = scene.run(&first).updates
        let b = scene.run(&second).updates
        #expect(a == b)
        // The same scene in normalised coordinates of a 1920 × 1080 image, y up: the same IDs on the same detections.
        for (f, frame) in scene.frames().enumerated() {
            let flipped = frame.detections.map { d in
                ObjectTracker.Detection(
                    boundingBox: CGRect(
                        x: d.boundingBox.minX / 1920, y: 1 - d.boundingBox.maxY / 1080,
                        width: d.boundingBox.width / 1920, height: d.boundingBox.height / 1080),
                    confidence: d.confidence)
            }
            let update = normalised.update(flipped)
            #expect(
                update.tracks.map { [$0.id, $0.detectionIndex] } == a[f].tracks.map { [$0.id, $0.detectionIndex] },
                "frame \(f + 1)")
        }
    }

    @Test func classAwareTrackingKeepsLabelsApart() throws {
        // Two objects of different classes crossing exactly on top of each other.
        let scene = SyntheticScene(
            objects: [
                .init(start: (100, 200), velocity: (6, 0), frames: 1...100, label: "person"),
                .init(start: (700, 200), velocity: (-6, 0), frames: 1...100, label: "dog"),
            ], frameCount: 100)
        var options = ObjectTracker.Configuration()
        options.classAware = true
        var tracker = try ObjectTracker(configuration: options)
        let (ids, updates) = scene.run(&tracker)
        #expect(
            SyntheticScene.summary(ids[0]).distinct.count == 1 && SyntheticScene.summary(ids[1]).distinct.count == 1)
        #expect(
            updates.allSatisfy { update in
                update.tracks.allSatisfy { $0.label == (ids[0].contains($0.id) ? "person" : "dog") }
            })
    }

    @Test func detectionsFromObjectObservations() throws {
        let observations = [
            RecognizedObjectObservation(
                boundingBox: NormalizedRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4),
                labels: [ClassificationObservation(identifier: "dog", confidence: 0.9)])
        ]
        let detections = observations.map(ObjectTracker.Detection.init)
        #expect(
            detections == [
                ObjectTracker.Detection(
                    boundingBox: CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4), confidence: 0.9, label: "dog")
            ])
        var tracker = try ObjectTracker()
        let track = try #require(tracker.update(detections).tracks.first)
        #expect(
            track.id == 1 && track.label == "dog" && abs(track.boundingBox.minX - 0.1) < 1e-12
                && abs(track.boundingBox.height - 0.4) < 1e-12)
    }

    @Test func unusableDetectionsAreIgnored() throws {
        var tracker = try ObjectTracker()
        let update = tracker.update([
            .init(boundingBox: CGRect(x: 0, y: 0, width: 0, height: 10), confidence: 0.9),
            .init(boundingBox: CGRect(x: CGFloat.nan, y: 0, width: 5, height: 10), confidence: 0.9),
            .init(boundingBox: CGRect(x: 0, y: 0, width: 5, height: 10), confidence: Float.nan),
            .init(boundingBox: CGRect(x: 10, y: 10, width: 5, height: 10), confidence: 0.9),
        ])
        #expect(update.tracks.map { $0.detectionIndex } == [3])
    }

    @Test(arguments: ["highThreshold", "matchThreshold", "trackBuffer", "frameRate"])
    func invalidOptionsAreRejected(name: String) {
        var options = ObjectTracker.Configuration()
        switch name {
        case "highThreshold": options.highThreshold = 1.5
        case "matchThreshold": options.matchThreshold = .nan
        case "trackBuffer": options.trackBuffer = -1
        default: options.frameRate = 0
        }
        #expect {
            _ = try ObjectTracker(configuration: options)
        } throws: { error in
            (error as? VisionError)?.code == .invalidArgument && (error as? VisionError)?.message.contains(name) == true
        }
    }

    /// The filter against ByteTrack's 8 × 8 reference (yolox/tracker/kalman_filter.py, scipy Cholesky):
    /// /tmp/kf_ref.py — initiate on zs[0], then predict + update for zs[1...9], then one predict, with
    /// zs[t] = [100 + 4t + t % 3, 50 + 2t, 0.5 + 0.01 (t % 2), 80 + t].
    @Test func kalmanFilterMatchesTheReference() {
        let zs: [[Double]] = (0..<10).map { (t: Int) -> [Double] in
            [100 + 4 * Double(t) + Double(t % 3), 50 + 2 * Double(t), 0.5 + 0.01 * Double(t % 2), 80 + Double(t)]
        }
        var filter = KalmanBoxFilter(measurement: zs[0])
        for z in zs.dropFirst() {
            filter.predict()
            filter.update(measurement: z)
        }
        filter.predict()
        let expected: [Double] = [
            140.043774905, 69.753092677, 0.502067107, 89.876546339, 3.657815492, 1.849520697, 6e-09, 0.924760349,
        ]
        for (value, reference) in zip(filter.mean, expected) {
            #expect(abs(value - reference) < 1e-8, "\(filter.mean)")
        }
        let variances: [Double] = [
            39.816614116, 39.816614116, 0.000833032, 39.816614116, 3.59035092, 3.59035092, 1e-09, 3.59035092,
        ]
        let ours: [Double] = filter.p00 + filter.p11
        for (value, reference) in zip(ours, variances) { #expect(abs(value - reference) < 1e-8, "\(ours)") }
        #expect(abs(filter.p01[0] - 5.071631213) < 1e-8 && abs(filter.p01[3] - 5.071631213) < 1e-8)
    }
}
