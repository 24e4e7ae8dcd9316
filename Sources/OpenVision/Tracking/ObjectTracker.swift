import Foundation

/// Multi-object tracking by detection with ByteTrack's association (Zhang et al., "ByteTrack: Multi-Object
/// Tracking by Associating Every Detection Box", ECCV 2022; its reference `BYTETracker`): feed each frame's
/// detections, from any detector, in order; get back the tracks with stable integer IDs.
///
/// Per frame: every kept track is predicted by a constant-velocity Kalman filter on (cx, cy, w/h, h); high-score
/// detections are matched to tracked and lost tracks by IoU (× score), optimally (Hungarian); the low-score
/// detections then to the tracked ones left over, which recovers occluded objects whose score dropped; a
/// detection matching nothing starts a tentative track, confirmed when matched again on the next frame;
/// an unmatched track is lost and kept `Configuration.maximumFramesLost` frames. Deterministic: the same
/// detections always give the same tracks.
///
/// Differences from the reference, none of which changes a result on ordinary input: IoU of continuous
/// boxes (the reference adds one pixel to widths and heights); IDs are given when a track is confirmed, so
/// they are consecutive (the reference numbers tentative tracks too); a score equal to `highThreshold` is a
/// low detection (the reference drops it); a track removed after the buffer cannot be matched on the frame
/// after its removal. A value type: copying a tracker copies its state.
public struct ObjectTracker: Sendable {
    /// The options this tracker runs with.
    public let configuration: Configuration
    private var tracked: [TrackRecord] = []
    private var lost: [TrackRecord] = []
    private var frame = 0
    private var nextKey = 0
    private var nextID = 1

    /// A tracker with no tracks. Throws `invalidArgument` for an option out of range (`Configuration.validate`).
    public init(configuration: Configuration = Configuration()) throws(VisionError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// How many frames `update` has seen.
    public var frameCount: Int { frame }

    /// Advances one frame with its detections (in any order; an empty array is a frame where nothing was
    /// detected) and returns the confirmed tracks matched on it, with the IDs that started, were lost and ended.
    public mutating func update(_ detections: [Detection]) -> Update {
        frame += 1
        let options = configuration
        var high: [Int] = [], low: [Int] = []
        for (index, detection) in detections.enumerated() where detection.isUsable {
            let score = Double(detection.confidence)
            if score > options.highThreshold { high.append(index) } else if score > options.lowThreshold { low.append(index) }
        }

        // All the tracks by index: the tracked ones, then the lost ones, then those started on this frame.
        // List orders follow the reference (they decide between equal costs).
        var all = tracked + lost
        let trackedCount = tracked.count
        let unconfirmed = (0..<trackedCount).filter { !all[$0].isActivated }
        let pool = (0..<trackedCount).filter { all[$0].isActivated } + Array(trackedCount..<all.count)
        for i in pool { all[i].filter.predict(freezeHeight: !all[i].isTracked) }

        var newlyLost: [Int] = [], removed = Set<Int>()
        func apply(_ detectionIndex: Int, to i: Int) {
            let detection = detections[detectionIndex], box = detection.boundingBox
            all[i].filter.update(measurement: KalmanBoxFilter.measurement(
                x: Double(box.minX), y: Double(box.minY), width: Double(box.width), height: Double(box.height)))
            all[i].isTracked = true
            all[i].isActivated = true
            all[i].lastFrame = frame
            all[i].confidence = detection.confidence
            all[i].label = detection.label
            all[i].detectionIndex = detectionIndex
        }

        // 1. High detections against tracked and lost tracks.
        let first = LinearAssignment.match(cost(all, pool, detections, high, fuse: options.fuseScore), columns: high.count,
                                           threshold: options.matchThreshold)
        for match in first.matches { apply(high[match.column], to: pool[match.row]) }
        // 2. Low detections against the tracked tracks left over; tracks still unmatched are lost.
        let remaining = first.unmatchedRows.map { pool[$0] }.filter { all[$0].isTracked }
        let second = LinearAssignment.match(cost(all, remaining, detections, low, fuse: false), columns: low.count,
                                            threshold: options.secondMatchThreshold)
        for match in second.matches { apply(low[match.column], to: remaining[match.row]) }
        for row in second.unmatchedRows {
            all[remaining[row]].isTracked = false
            newlyLost.append(remaining[row])
        }
        // 3. Tentative tracks (seen on one frame, not predicted) against the high detections left over.
        let leftHigh = first.unmatchedColumns.map { high[$0] }
        let third = LinearAssignment.match(cost(all, unconfirmed, detections, leftHigh, fuse: options.fuseScore), columns: leftHigh.count,
                                           threshold: options.tentativeMatchThreshold)
        for match in third.matches { apply(leftHigh[match.column], to: unconfirmed[match.row]) }
        for row in third.unmatchedRows { removed.insert(unconfirmed[row]) }
        // 4. New tentative tracks (confirmed at once on the first frame).
        var started: [Int] = []
        for column in third.unmatchedColumns {
            let index = leftHigh[column], detection = detections[index]
            guard Double(detection.confidence) >= options.newTrackThreshold else { continue }
            let box = detection.boundingBox
            all.append(TrackRecord(
                key: nextKey, filter: KalmanBoxFilter(measurement: KalmanBoxFilter.measurement(
                    x: Double(box.minX), y: Double(box.minY), width: Double(box.width), height: Double(box.height))),
                isActivated: frame == 1, confidence: detection.confidence, label: detection.label,
                lastFrame: frame, firstFrame: frame, detectionIndex: index))
            nextKey += 1
            started.append(all.count - 1)
        }
        // 5. Lost tracks past the buffer end.
        for i in trackedCount..<(trackedCount + lost.count) where frame - all[i].lastFrame > options.maximumFramesLost {
            removed.insert(i)
        }

        var nextTracked = (0..<trackedCount).filter { all[$0].isTracked && !removed.contains($0) }
        nextTracked += started
        nextTracked += (trackedCount..<(trackedCount + lost.count)).filter { all[$0].isTracked }
        var nextLost = (trackedCount..<(trackedCount + lost.count)).filter { !all[$0].isTracked && !removed.contains($0) }
        nextLost += newlyLost

        // Overlapping tracked and lost tracks (1 − IoU < 0.15): the younger one goes.
        var dropTracked = Set<Int>(), dropLost = Set<Int>()
        for p in nextTracked {
            for q in nextLost where 1 - Self.iou(all[p].filter.box, all[q].filter.box) < 0.15 {
                if all[p].lastFrame - all[p].firstFrame > all[q].lastFrame - all[q].firstFrame {
                    dropLost.insert(q)
                } else {
                    dropTracked.insert(p)
                }
            }
        }
        nextTracked.removeAll { dropTracked.contains($0) }
        nextLost.removeAll { dropLost.contains($0) }

        // IDs for tracks confirmed on this frame, in list order.
        var startedIDs: [Int] = []
        for i in nextTracked where all[i].isActivated && all[i].id == nil {
            all[i].id = nextID
            startedIDs.append(nextID)
            nextID += 1
        }
        let ended = (removed.union(dropTracked).union(dropLost)).sorted().compactMap { all[$0].id }
        let keptLost = Set(nextLost)
        let lostIDs = newlyLost.filter { keptLost.contains($0) }.compactMap { all[$0].id }

        tracked = nextTracked.map { all[$0] }
        lost = nextLost.map { all[$0] }
        let tracks = tracked.compactMap { record -> Track? in
            guard record.isActivated, let id = record.id else { return nil }
            let box = record.filter.box
            return Track(id: id, boundingBox: CGRect(x: box.x, y: box.y, width: box.width, height: box.height),
                         confidence: record.confidence, label: record.label, detectionIndex: record.detectionIndex,
                         firstFrame: record.firstFrame)
        }.sorted { $0.id < $1.id }
        return Update(frame: frame, tracks: tracks, started: startedIDs.sorted(), lost: lostIDs.sorted(), ended: ended.sorted())
    }

    /// Ends every confirmed track still kept, tracked or lost (the source ended), and returns their IDs in
    /// ascending order. The tracker is then empty; frames and IDs keep counting if it is updated again.
    public mutating func finish() -> [Int] {
        let ids = (tracked + lost).compactMap(\.id).sorted()
        tracked = []
        lost = []
        return ids
    }

    /// 1 − IoU (with `fuse`, 1 − IoU × score) between tracks and detections; 2 (never matched) across labels
    /// when the tracker is class-aware.
    private func cost(_ all: [TrackRecord], _ rows: [Int], _ detections: [Detection], _ columns: [Int], fuse: Bool) -> [[Double]] {
        rows.map { row in
            let track = all[row], box = track.filter.box
            return columns.map { column in
                let detection = detections[column]
                if configuration.classAware && detection.label != track.label { return 2 }
                let r = detection.boundingBox
                let iou = Self.iou(box, (Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)))
                return 1 - (fuse ? iou * Double(detection.confidence) : iou)
            }
        }
    }

    private static func iou(_ a: (x: Double, y: Double, width: Double, height: Double),
                            _ b: (x: Double, y: Double, width: Double, height: Double)) -> Double {
        intersectionOverUnion((a.x, a.y, a.x + a.width, a.y + a.height), (b.x, b.y, b.x + b.width, b.y + b.height))
    }
}

/// One track's state inside `ObjectTracker`.
struct TrackRecord: Sendable {
    var key: Int
    var filter: KalmanBoxFilter
    /// Tracked (matched on the last frame) or lost.
    var isTracked = true
    /// Confirmed; only confirmed tracks are reported and have an ID.
    var isActivated: Bool
    var id: Int?
    var confidence: Float
    var label: String?
    var lastFrame: Int
    var firstFrame: Int
    var detectionIndex: Int

    init(key: Int, filter: KalmanBoxFilter, isActivated: Bool, confidence: Float, label: String?,
         lastFrame: Int, firstFrame: Int, detectionIndex: Int) {
        self.key = key
        self.filter = filter
        self.isActivated = isActivated
        self.confidence = confidence
        self.label = label
        self.lastFrame = lastFrame
        self.firstFrame = firstFrame
        self.detectionIndex = detectionIndex
    }
}
