import Foundation

/// Offline completion of `ObjectTracker`'s tracks, for a sequence known to its end (`openvision track` on a
/// detections file): an online tracker writes a track only on the frames it is confirmed and matched, so a
/// track's first frame (seen once before confirmation) and the frames where its detection was missed are lost
/// for evaluation. Fed every frame's update and detections in order, `records()` gives each track's boxes with
///
/// - the frames before its confirmation: the detections it was started from (on each earlier frame back to its
///   first, the detection overlapping the following box best, IoU ≥ `minimumBackFillIoU`), with their scores;
/// - its gaps of at most `maximumGap` frames, between two matched frames, filled by linear interpolation of the
///   boxes on either side (ByteTrack's offline linear interpolation, tools/interpolation.py, interval 20), with
///   the score of the box before the gap.
///
/// `maximumGap` 0 and no back-fill give the tracker's online output unchanged.
public struct TrackCompletion: Sendable {
    /// The longest run of missing frames filled (0: none).
    public var maximumGap: Int
    /// Whether a track's frames before its confirmation are written (from its detections).
    public var backFillsStart: Bool
    /// Lowest IoU between a detection and the track's next box for the detection to be taken as the track's.
    public var minimumBackFillIoU: Double = 0.3

    private var boxes: [Int: [MOTRecord]] = [:]
    private var recentDetections: [(frame: Int, detections: [ObjectTracker.Detection])] = []

    /// A completion filling gaps of at most `maximumGap` frames (ByteTrack's 20 by default), and back-filling
    /// tracks' starts when `backFillsStart`.
    public init(maximumGap: Int = 20, backFillsStart: Bool = true) {
        self.maximumGap = max(0, maximumGap)
        self.backFillsStart = backFillsStart
    }

    /// Takes one frame's update and the detections that produced it (the same array given to `update`).
    public mutating func record(_ update: ObjectTracker.Update, detections: [ObjectTracker.Detection]) {
        let started = Set(update.started)
        for track in update.tracks {
            let box = track.boundingBox
            if backFillsStart && started.contains(track.id) && track.firstFrame < update.frame {
                backFill(id: track.id, from: track.firstFrame, before: update.frame, startingAt: box)
            }
            boxes[track.id, default: []].append(
                MOTRecord(
                    frame: update.frame, id: track.id, x: box.minX, y: box.minY,
                    width: box.width, height: box.height, score: Double(track.confidence)))
        }
        // A tentative track is confirmed on the frame after its first (the tracker's only wait): a few frames of
        // detections are enough to keep.
        recentDetections.append((update.frame, detections))
        if recentDetections.count > 4 { recentDetections.removeFirst() }
    }

    /// Every track's boxes, the recorded ones with the back-filled and interpolated ones, by frame then ID.
    public func records() -> [MOTRecord] {
        var all: [MOTRecord] = []
        for (_, track) in boxes {
            let sorted = track.sorted { $0.frame < $1.frame }
            var previous: MOTRecord?
            for record in sorted {
                if let p = previous, record.frame - p.frame > 1, record.frame - p.frame - 1 <= maximumGap {
                    let span = Double(record.frame - p.frame)
                    for frame in (p.frame + 1)..<record.frame {
                        let t = Double(frame - p.frame) / span
                        func mix(_ u: Double, _ v: Double) -> Double { u + (v - u) * t }
                        all.append(
                            MOTRecord(
                                frame: frame, id: p.id, x: mix(p.x, record.x), y: mix(p.y, record.y),
                                width: mix(p.width, record.width), height: mix(p.height, record.height), score: p.score)
                        )
                    }
                }
                all.append(record)
                previous = record
            }
        }
        return all.sorted { ($0.frame, $0.id) < ($1.frame, $1.id) }
    }

    /// The detections of frames `first..<frame` that the track started from, walking back from its box on `frame`.
    private mutating func backFill(id: Int, from first: Int, before frame: Int, startingAt box: CGRect) {
        var next = box
        var found: [MOTRecord] = []
        for f in stride(from: frame - 1, through: first, by: -1) {
            guard let detections = recentDetections.first(where: { $0.frame == f })?.detections else { break }
            let best = detections.filter(\.isUsable).max {
                Self.iou($0.boundingBox, next) < Self.iou($1.boundingBox, next)
            }
            guard let best, Self.iou(best.boundingBox, next) >= minimumBackFillIoU else { break }
            let b = best.boundingBox
            found.append(
                MOTRecord(
                    frame: f, id: id, x: b.minX, y: b.minY, width: b.width, height: b.height,
                    score: Double(best.confidence)))
            next = b
        }
        boxes[id, default: []].append(contentsOf: found.reversed())
    }

    private static func iou(_ a: CGRect, _ b: CGRect) -> Double {
        intersectionOverUnion(
            (Double(a.minX), Double(a.minY), Double(a.maxX), Double(a.maxY)),
            (Double(b.minX), Double(b.minY), Double(b.maxX), Double(b.maxY)))
    }
}
