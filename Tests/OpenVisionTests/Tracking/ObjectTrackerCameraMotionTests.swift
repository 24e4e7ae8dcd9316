import Foundation
import OpenVision
import Testing

/// Camera-motion compensation (`ObjectTracker.update(_:cameraMotion:)`) on a synthetic moving-camera sequence:
/// three people walking in the scene, seen by a camera that jumps (a shake: 200 px right, 80 px up and a 1.25×
/// zoom about the image centre) between frames 30 and 31 and then pans 12 px a frame.
@Suite struct ObjectTrackerCameraMotionTests {
    /// The camera on frame f: scene point → image point.
    static func camera(_ f: Int) -> Matrix3x3 {
        guard f > 30 else { return .identity }
        let pan = Double(f - 31) * 12
        // Zoom 1.25 about (960, 540), then shift by (200 + pan, -80).
        return Matrix3x3(rowMajor: [1.25, 0, 960 - 1.25 * 960 + 200 + pan, 0, 1.25, 540 - 1.25 * 540 - 80, 0, 0, 1])
    }

    static func frame(_ f: Int) -> [ObjectTracker.Detection] {
        let people: [(x: Double, y: Double, vx: Double, vy: Double)] = [
            (300, 300, 4, 0), (800, 500, -3, 1), (1300, 400, 2, -1),
        ]
        return people.map { p in
            let x = p.x + p.vx * Double(f)
            let y = p.y + p.vy * Double(f)
            let c = camera(f)
            let a = c.apply(to: CGPoint(x: x, y: y))!
            let b = c.apply(to: CGPoint(x: x + 60, y: y + 120))!
            return ObjectTracker.Detection(
                boundingBox: CGRect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y), confidence: 0.9)
        }
    }

    /// Previous frame's image → this frame's: camera(f) · camera(f − 1)⁻¹.
    static func motion(_ f: Int) -> Matrix3x3 { f == 1 ? .identity : camera(f) * camera(f - 1).inverse! }

    static func run(compensated: Bool) throws -> [ObjectTracker.Update] {
        var tracker = try ObjectTracker()
        return (1...60).map { f in tracker.update(frame(f), cameraMotion: compensated ? motion(f) : nil) }
    }

    @Test func compensationKeepsIDsThroughAJumpAndAPan() throws {
        let updates = try Self.run(compensated: true)
        #expect(
            updates.allSatisfy { $0.tracks.map(\.id) == [1, 2, 3] && $0.lost.isEmpty }, "\(updates[30]) \(updates[31])")
        // Each ID stays on its person (detection index = person).
        #expect(updates.allSatisfy { $0.tracks.map(\.detectionIndex) == [0, 1, 2] })
        // The reported boxes follow the camera: on frame 31, within 2 px of the detections.
        for track in updates[30].tracks {
            let d = Self.frame(31)[track.detectionIndex].boundingBox
            #expect(
                abs(track.boundingBox.minX - d.minX) < 2 && abs(track.boundingBox.height - d.height) < 2,
                "\(track.boundingBox) \(d)")
        }
    }

    @Test func withoutCompensationTheJumpLosesEveryTrack() throws {
        let updates = try Self.run(compensated: false)
        #expect(updates[30].tracks.isEmpty && updates[30].lost == [1, 2, 3], "\(updates[30])")
        #expect(updates[31].started == [4, 5, 6])
    }

    /// The identity (a still camera) and a non-finite matrix change nothing.
    @Test func identityOrInvalidMotionChangesNothing() throws {
        var plain = try ObjectTracker()
        var still = try ObjectTracker()
        var invalid = try ObjectTracker()
        let nan = Matrix3x3(rowMajor: [1, 0, .nan, 0, 1, 0, 0, 0, 1])
        for f in 1...30 {
            let a = plain.update(Self.frame(f))
            let b = still.update(Self.frame(f), cameraMotion: .identity)
            let c = invalid.update(Self.frame(f), cameraMotion: nan)
            #expect(a == b && a == c, "frame \(f)")
        }
    }
}
