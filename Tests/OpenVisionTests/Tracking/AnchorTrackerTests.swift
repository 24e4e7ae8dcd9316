import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct AnchorTrackerTests {
    /// 2% of the image width, in normalised x units; errors are measured in pixels / width on both axes.
    static let tolerance = 0.02

    static func error(_ a: CGPoint, _ b: CGPoint) -> Double {
        // Normalised y is relative to the height: convert both axes to pixels, then to fractions of the width.
        let dx = (a.x - b.x) * Double(CameraMoveScene.width)
        let dy = (a.y - b.y) * Double(CameraMoveScene.height)
        return hypot(dx, dy) / Double(CameraMoveScene.width)
    }

    static func inside(_ p: CGPoint, margin: Double) -> Bool {
        let x = p.x * Double(CameraMoveScene.width)
        let y = p.y * Double(CameraMoveScene.height)
        return x >= margin && y >= margin && x <= Double(CameraMoveScene.width) - margin
            && y <= Double(CameraMoveScene.height) - margin
    }

    /// 300 frames of pan, zoom and roll: while its spot is in view an anchor is tracked within 2% of the width of
    /// its true point; while the spot is outside the frame it is lost; once the spot is back in view it is
    /// re-acquired (normal, within 2%) within a few frames and stays tracked to the end.
    @Test func followsCameraMoveAndRecoversAfterLeavingTheFrame() throws {
        let scene = try CameraMoveScene()
        let tracker = AnchorTracker()
        let first = try scene.frame(0)
        // "leaves": at frame 0 x = 0.65 (416 px); the pan takes its spot to about −64 px and back. "stays": in view
        // throughout. "corner": leaves by the left edge near the bottom.
        let pins: [(label: String, at: CGPoint)] = [
            ("leaves", CGPoint(x: 0.65, y: 0.4)), ("stays", CGPoint(x: 0.85, y: 0.65)),
            ("corner", CGPoint(x: 0.7, y: 0.2)),
        ]
        var spots: [Int: CGPoint] = [:]
        for pin in pins {
            let anchor = try tracker.add(label: pin.label, at: pin.at, in: first)
            #expect(anchor.label == pin.label && anchor.state != .lost)
            #expect(Self.error(anchor.point, pin.at) < 0.002)
            spots[anchor.id] = scene.photoPoint(atFrame0: pin.at)
        }
        #expect(tracker.anchors.map(\.id) == [1, 2, 3])

        struct Record {
            var outsideFrames = 0, trackedOutside = 0, lostInView = 0, worst = 0.0, worstFrame = 0
            var lastOutside: Int?, backInView: Int?, recovered: Int?
        }
        var records = [Int: Record]()
        for k in 1..<CameraMoveScene.frameCount {
            let anchors = try tracker.update(with: try scene.frame(k))
            #expect(anchors.count == 3)
            for anchor in anchors {
                var r = records[anchor.id] ?? Record()
                defer { records[anchor.id] = r }
                let truth = scene.truth(spots[anchor.id]!, frame: k)
                let error = Self.error(anchor.point, truth)
                if !Self.inside(truth, margin: 0) {
                    r.outsideFrames += 1
                    r.lastOutside = k
                    r.backInView = nil
                    r.recovered = nil
                    if anchor.state != .lost { r.trackedOutside += 1 }
                    continue
                }
                if anchor.state != .lost, error > r.worst { (r.worst, r.worstFrame) = (error, k) }
                guard Self.inside(truth, margin: 20) else { continue }
                if r.lastOutside != nil {
                    if r.backInView == nil { r.backInView = k }
                    if r.recovered == nil, anchor.state == .normal, error < Self.tolerance { r.recovered = k }
                    // Re-acquiring may take a few frames; after that the anchor must stay tracked.
                    if r.recovered != nil, anchor.state == .lost { r.lostInView += 1 }
                } else if anchor.state == .lost {
                    r.lostInView += 1
                }
            }
        }
        #expect((records[1]?.outsideFrames ?? 0) > 20, "the scene takes anchor 1 out of the frame")
        #expect((records[2]?.outsideFrames ?? 1) == 0, "the scene keeps anchor 2 in view")
        for (id, r) in records.sorted(by: { $0.key < $1.key }) {
            let summary = "anchor \(id): \(r)"
            #expect(
                r.worst < Self.tolerance,
                "worst error \(r.worst * 100)% of the width at frame \(r.worstFrame); \(summary)")
            #expect(r.trackedOutside == 0, "not lost while its spot is outside; \(summary)")
            #expect(r.lostInView == 0, "lost while in view; \(summary)")
            if r.lastOutside != nil {
                let back = try #require(r.backInView, "the scene brings anchor \(id) back; \(summary)")
                let recovered = try #require(r.recovered, "re-acquired; \(summary)")
                #expect(recovered <= back + 10, "re-acquired soon after coming back; \(summary)")
            }
        }
    }

    @Test func removesAnchorsAndReportsUnknownIDs() throws {
        let scene = try CameraMoveScene()
        let tracker = AnchorTracker()
        let frame = try scene.frame(0)
        let a = try tracker.add(label: "a", at: CGPoint(x: 0.5, y: 0.5), in: frame)
        let b = try tracker.add(label: "b", at: CGPoint(x: 0.3, y: 0.6), in: frame)
        #expect(a.id == 1 && b.id == 2)
        #expect(tracker.remove(id: a.id))
        #expect(!tracker.remove(id: a.id))
        #expect(!tracker.remove(id: 99))
        let next = try tracker.update(with: try scene.frame(1))
        #expect(next.map(\.id) == [2])
        // IDs keep increasing after a removal.
        #expect(try tracker.add(label: "c", at: CGPoint(x: 0.6, y: 0.4), in: try scene.frame(1)).id == 3)
    }

    @Test(arguments: [
        CGPoint(x: Double.nan, y: 0.5), CGPoint(x: 0.5, y: -0.01), CGPoint(x: 1.2, y: 0.5),
        CGPoint(x: 0.5, y: Double.infinity),
    ])
    func rejectsPointsOutsideTheUnitSquare(_ point: CGPoint) throws {
        let tracker = AnchorTracker()
        let frame = try CameraMoveScene().frame(0)
        #expect(throws: VisionError.self) { _ = try tracker.add(label: "x", at: point, in: frame) }
        do {
            _ = try tracker.add(label: "x", at: point, in: frame)
        } catch {
            #expect(error.code == .invalidArgument)
        }
        #expect(tracker.anchors.isEmpty)
    }

    @Test func rejectsFrameSizeChange() throws {
        let scene = try CameraMoveScene()
        let tracker = AnchorTracker()
        let anchor = try tracker.add(label: "a", at: CGPoint(x: 0.5, y: 0.5), in: try scene.frame(0))
        let small = try scene.frame(1).resized(width: 320, height: 240)
        do {
            _ = try tracker.update(with: small)
            Issue.record("a frame of another size was accepted")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("640×480") && error.message.contains("320×240"))
        }
        do {
            _ = try tracker.add(label: "b", at: CGPoint(x: 0.5, y: 0.5), in: small)
            Issue.record("pinning on a frame of another size was accepted")
        } catch {
            #expect(error.code == .invalidArgument)
        }
        // The tracker goes on at the first size.
        let next = try tracker.update(with: try scene.frame(1))
        #expect(next.map(\.id) == [anchor.id] && next[0].state != .lost)
    }
}
