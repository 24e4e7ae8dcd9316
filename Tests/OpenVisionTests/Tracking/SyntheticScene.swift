import Foundation
import OpenVision
import OpenVisionTestSupport

/// A synthetic detection scene with known truth: boxes moving linearly (pixels, top-left origin), with
/// deterministic jitter, frames where an object is not detected, and frames where its score drops.
struct SyntheticScene {
    struct Object {
        var start: (x: Double, y: Double)
        var velocity: (x: Double, y: Double)
        var size: (width: Double, height: Double) = (60, 120)
        /// Frames (1-based) on which the object exists.
        var frames: ClosedRange<Int>
        /// Frames on which it exists but is not detected (occluded).
        var hidden: Set<Int> = []
        /// Frames on which it is detected with a low score (0.3, partly occluded).
        var lowScore: Set<Int> = []
        var label: String? = nil
    }

    var objects: [Object]
    var frameCount: Int
    var jitter = 1.0
    var seed: UInt64 = 7

    /// Per frame: the detections and, for each, the index of the object it comes from.
    func frames() -> [(detections: [ObjectTracker.Detection], truth: [Int])] {
        var random = SplitMix(seed: seed)
        return (1...frameCount).map { frame in
            var detections: [ObjectTracker.Detection] = []
            var truth: [Int] = []
            for (index, object) in objects.enumerated() where object.frames.contains(frame) {
                let t = Double(frame - object.frames.lowerBound)
                let noise = (0..<4).map { _ in (random.next() * 2 - 1) * jitter }
                guard !object.hidden.contains(frame) else { continue }
                let box = CGRect(
                    x: object.start.x + object.velocity.x * t + noise[0],
                    y: object.start.y + object.velocity.y * t + noise[1],
                    width: object.size.width + noise[2], height: object.size.height + noise[3])
                let score: Float = object.lowScore.contains(frame) ? 0.3 : Float(0.8 + 0.15 * random.next())
                detections.append(ObjectTracker.Detection(boundingBox: box, confidence: score, label: object.label))
                truth.append(index)
            }
            // Present detections in a scrambled (but fixed) order: the tracker must not depend on it.
            let order = detections.indices.sorted { (($0 * 7919 + frame) % 13) < (($1 * 7919 + frame) % 13) }
            return (order.map { detections[$0] }, order.map { truth[$0] })
        }
    }

    /// Runs `tracker` over the scene; returns each object's track ID per frame where it was reported, and the updates.
    func run(_ tracker: inout ObjectTracker) -> (ids: [[Int?]], updates: [ObjectTracker.Update]) {
        var ids = Array(repeating: [Int?](repeating: nil, count: frameCount), count: objects.count)
        var updates: [ObjectTracker.Update] = []
        for (f, frame) in frames().enumerated() {
            let update = tracker.update(frame.detections)
            for track in update.tracks { ids[frame.truth[track.detectionIndex]][f] = track.id }
            updates.append(update)
        }
        return (ids, updates)
    }

    /// The distinct IDs an object was reported with, in order of appearance, and how often its ID changed.
    static func summary(_ ids: [Int?]) -> (distinct: [Int], switches: Int) {
        var distinct: [Int] = []
        var switches = 0
        var previous: Int?
        for case let id? in ids {
            if !distinct.contains(id) { distinct.append(id) }
            if let previous, previous != id { switches += 1 }
            previous = id
        }
        return (distinct, switches)
    }
}
