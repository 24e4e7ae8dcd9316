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
/// Beyond ByteTrack, from the trackers that followed it (each an option of `Configuration`): a lost track found
/// again is re-filtered along a straight path from its last observation (OC-SORT's observation-centric
/// re-update, Cao et al., CVPR 2023), so it does not keep the velocity it drifted with; in the first association
/// a lost track's weight decays with the frames it went unobserved and a low-score detection that fits a track
/// is lifted into it (BoostTrack's tracklet confidence and DLO boost, Stanojević and Todorović, MVA 2024);
/// OC-SORT's observation-centric momentum and recovery are there on request.
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
    ///
    /// `cameraMotion`, for a moving camera, maps a point of the previous frame to the same scene point in this
    /// one, in the detections' unit (BoT-SORT's camera-motion compensation): every track's predicted state and
    /// last observations are moved with it before matching. From `TrackHomographicImageRegistrationRequest`
    /// (this frame onto the previous one) it is that warp's `inverse`, in the coordinates the detections use.
    /// A matrix with a non-finite element is ignored, as is its effect on a track it maps to infinity.
    public mutating func update(_ detections: [Detection], cameraMotion: Matrix3x3? = nil) -> Update {
        frame += 1
        let options = configuration
        // All the tracks by index: the tracked ones, then the lost ones, then those started on this frame.
        // List orders follow the reference (they decide between equal costs).
        var all = tracked + lost
        let trackedCount = tracked.count
        let unconfirmed = (0..<trackedCount).filter { !all[$0].isActivated }
        let pool = (0..<trackedCount).filter { all[$0].isActivated } + Array(trackedCount..<all.count)
        for i in pool { all[i].filter.predict(freezeHeight: !all[i].isTracked) }
        if let motion = cameraMotion, motion.rowMajor.allSatisfy(\.isFinite), motion != .identity {
            for i in all.indices { all[i].warp(by: motion) }
        }

        // Association scores: the detector's, raised to `detectionBoost` × the best IoU with a track's box
        // (BoostTrack's DLO boost), which lifts a detection that fits a track into the first association.
        var scores = detections.map { Double($0.confidence) }
        var high: [Int] = []
        var low: [Int] = []
        for (index, detection) in detections.enumerated() where detection.isUsable {
            if options.detectionBoost > 0 && scores[index] <= options.highThreshold && !all.isEmpty {
                let r = detection.boundingBox
                let b = (Double(r.minX), Double(r.minY), Double(r.width), Double(r.height))
                let best = all.reduce(0.0) { max($0, Self.iou($1.filter.box, b)) }
                scores[index] = max(scores[index], options.detectionBoost * best)
            }
            let score = scores[index]
            if score > options.highThreshold {
                high.append(index)
            } else if score > options.lowThreshold {
                low.append(index)
            }
        }

        var removed = Set<Int>()
        func apply(_ detectionIndex: Int, to i: Int) {
            let detection = detections[detectionIndex]
            let r = detection.boundingBox
            let box = Box(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
            if options.reupdatesLostTracks, let last = all[i].observations.last, frame - last.frame > 1 {
                // ORU: from the state at the last observation, along a straight path to this one.
                var filter = all[i].observedFilter
                let gap = frame - last.frame
                for step in 1...gap {
                    filter.predict()
                    let t = Double(step) / Double(gap)
                    filter.update(measurement: last.box.interpolated(to: box, t).measurement)
                }
                all[i].filter = filter
            } else {
                all[i].filter.update(measurement: box.measurement)
            }
            if let previous = all[i].previousObservation(before: frame, window: options.velocityWindow) {
                all[i].direction = previous.direction(to: box)
            }
            all[i].observations.append((frame, box))
            if all[i].observations.count > options.velocityWindow + 1 { all[i].observations.removeFirst() }
            all[i].observedFilter = all[i].filter
            all[i].isTracked = true
            all[i].isActivated = true
            all[i].lastFrame = frame
            all[i].confidence = detection.confidence
            all[i].label = detection.label
            all[i].detectionIndex = detectionIndex
        }

        // 1. High detections against tracked and lost tracks (with OCM and the lost tracks' decay).
        let first = LinearAssignment.match(
            firstCost(all, pool, detections, scores, high), columns: high.count,
            threshold: options.matchThreshold + options.momentumWeight / 2)
        for match in first.matches { apply(high[match.column], to: pool[match.row]) }
        // 2. Low detections against the tracked tracks left over.
        let remaining = first.unmatchedRows.map { pool[$0] }.filter { all[$0].isTracked }
        let second = LinearAssignment.match(
            cost(all, remaining, detections, scores, low, fuse: false), columns: low.count,
            threshold: options.secondMatchThreshold)
        for match in second.matches { apply(low[match.column], to: remaining[match.row]) }
        var matchedNow = Set(first.matches.map { pool[$0.row] })
        matchedNow.formUnion(second.matches.map { remaining[$0.row] })
        // 3. Tentative tracks (seen on one frame, not predicted) against the high detections left over.
        var leftHigh = first.unmatchedColumns.map { high[$0] }
        let third = LinearAssignment.match(
            cost(all, unconfirmed, detections, scores, leftHigh, fuse: options.fuseScore), columns: leftHigh.count,
            threshold: options.tentativeMatchThreshold)
        for match in third.matches {
            apply(leftHigh[match.column], to: unconfirmed[match.row])
            matchedNow.insert(unconfirmed[match.row])
        }
        for row in third.unmatchedRows { removed.insert(unconfirmed[row]) }
        leftHigh = third.unmatchedColumns.map { leftHigh[$0] }
        // 3b. OCR: the tracks still unmatched, by their last observed box, against the high detections left over.
        if let threshold = options.recoveryMatchThreshold {
            let unmatched = pool.filter { !matchedNow.contains($0) }
            let recovery = LinearAssignment.match(
                recoveryCost(all, unmatched, detections, leftHigh), columns: leftHigh.count,
                threshold: threshold)
            for match in recovery.matches {
                apply(leftHigh[match.column], to: unmatched[match.row])
                matchedNow.insert(unmatched[match.row])
            }
            leftHigh = recovery.unmatchedColumns.map { leftHigh[$0] }
        }
        // Tracked tracks still unmatched are lost.
        var newlyLost: [Int] = []
        for i in pool where i < trackedCount && all[i].isTracked && !matchedNow.contains(i) {
            all[i].isTracked = false
            newlyLost.append(i)
        }
        // 4. New tentative tracks (confirmed at once on the first frame).
        var started: [Int] = []
        for index in leftHigh {
            let detection = detections[index]
            guard Double(detection.confidence) >= options.newTrackThreshold else { continue }
            let r = detection.boundingBox
            let box = Box(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
            all.append(
                TrackRecord(
                    key: nextKey, filter: KalmanBoxFilter(measurement: box.measurement), observation: box,
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
        var nextLost = (trackedCount..<(trackedCount + lost.count)).filter {
            !all[$0].isTracked && !removed.contains($0)
        }
        nextLost += newlyLost

        // Overlapping tracked and lost tracks (1 − IoU < 0.15): the younger one goes.
        var dropTracked = Set<Int>()
        var dropLost = Set<Int>()
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
            return Track(
                id: id, boundingBox: CGRect(x: box.x, y: box.y, width: box.width, height: box.height),
                confidence: record.confidence, label: record.label, detectionIndex: record.detectionIndex,
                firstFrame: record.firstFrame)
        }.sorted { $0.id < $1.id }
        return Update(
            frame: frame, tracks: tracks, started: startedIDs.sorted(), lost: lostIDs.sorted(), ended: ended.sorted())
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
    private func cost(
        _ all: [TrackRecord], _ rows: [Int], _ detections: [Detection], _ scores: [Double], _ columns: [Int], fuse: Bool
    ) -> [[Double]] {
        rows.map { row in
            let track = all[row]
            let box = track.filter.box
            return columns.map { column in
                let detection = detections[column]
                if configuration.classAware && detection.label != track.label { return 2 }
                let r = detection.boundingBox
                let iou = Self.iou(box, (Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)))
                return 1 - (fuse ? iou * scores[column] : iou)
            }
        }
    }

    /// The first association's cost: 1 − IoU × score (`fuseScore`) × the lost track's decay, minus OCM's
    /// direction term; a pair whose plain 1 − IoU (× score) exceeds `matchThreshold` is never matched (2).
    private func firstCost(
        _ all: [TrackRecord], _ rows: [Int], _ detections: [Detection], _ scores: [Double], _ columns: [Int]
    ) -> [[Double]] {
        let options = configuration
        return rows.map { row in
            let track = all[row]
            let box = track.filter.box
            let framesLost = frame - track.lastFrame - 1
            let weight =
                framesLost > 0 && options.lostTrackDecay < 1 ? pow(options.lostTrackDecay, Double(framesLost)) : 1
            let momentum =
                options.momentumWeight > 0 && track.direction != nil
                ? track.previousObservation(before: frame, window: options.velocityWindow) : nil
            return columns.map { column in
                let detection = detections[column]
                if options.classAware && detection.label != track.label { return 2 }
                let r = detection.boundingBox
                let score = scores[column]
                let b = Box(x: Double(r.minX), y: Double(r.minY), width: Double(r.width), height: Double(r.height))
                let similarity = Self.iou(box, (b.x, b.y, b.width, b.height)) * (options.fuseScore ? score : 1)
                guard 1 - similarity <= options.matchThreshold else { return 2 }
                var cost = 1 - similarity * weight
                if let momentum, let direction = track.direction, let toDetection = momentum.direction(to: b) {
                    // OC-SORT's angle term: (π/2 − |θ|) / π between the two directions, in −0.5...0.5.
                    let cosine = max(-1, min(1, direction.dx * toDetection.dx + direction.dy * toDetection.dy))
                    cost -= options.momentumWeight * (Double.pi / 2 - acos(cosine)) / Double.pi * score
                }
                // The decay and OCM rank pairs; neither takes a pair within `matchThreshold` out of the matching.
                return min(cost, options.matchThreshold + options.momentumWeight / 2 - 1e-9)
            }
        }
    }

    /// OCR's cost: 1 − IoU between each track's last observed box and each detection.
    private func recoveryCost(_ all: [TrackRecord], _ rows: [Int], _ detections: [Detection], _ columns: [Int])
        -> [[Double]]
    {
        rows.map { row in
            let track = all[row]
            let box = track.observations[track.observations.count - 1].box
            return columns.map { column in
                let detection = detections[column]
                if configuration.classAware && detection.label != track.label { return 2 }
                let r = detection.boundingBox
                return 1
                    - Self.iou(
                        (box.x, box.y, box.width, box.height),
                        (Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)))
            }
        }
    }

    private static func iou(
        _ a: (x: Double, y: Double, width: Double, height: Double),
        _ b: (x: Double, y: Double, width: Double, height: Double)
    ) -> Double {
        intersectionOverUnion((a.x, a.y, a.x + a.width, a.y + a.height), (b.x, b.y, b.x + b.width, b.y + b.height))
    }
}

/// One track's state inside `ObjectTracker`.
struct TrackRecord: Sendable {
    var key: Int
    var filter: KalmanBoxFilter
    /// The filter as it was right after the last observation (ORU restarts from it).
    var observedFilter: KalmanBoxFilter
    /// The last observations (frame, detected box), oldest first, at most `velocityWindow` + 1.
    var observations: [(frame: Int, box: Box)]
    /// The direction of motion between observations (OCM), in box widths and heights; nil before a second one.
    var direction: (dx: Double, dy: Double)?
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

    init(
        key: Int, filter: KalmanBoxFilter, observation: Box, isActivated: Bool, confidence: Float, label: String?,
        lastFrame: Int, firstFrame: Int, detectionIndex: Int
    ) {
        self.key = key
        self.filter = filter
        self.observedFilter = filter
        self.observations = [(firstFrame, observation)]
        self.isActivated = isActivated
        self.confidence = confidence
        self.label = label
        self.lastFrame = lastFrame
        self.firstFrame = firstFrame
        self.detectionIndex = detectionIndex
    }
}

extension TrackRecord {
    /// Moves the filter (predicted and as last observed) and the observed boxes with the camera.
    mutating func warp(by motion: Matrix3x3) {
        func map(_ x: Double, _ y: Double) -> (Double, Double)? {
            motion.apply(to: CGPoint(x: x, y: y)).map { (Double($0.x), Double($0.y)) }
        }
        _ = filter.warp(map)
        _ = observedFilter.warp(map)
        for k in observations.indices {
            let b = observations[k].box
            let corners = [(b.x, b.y), (b.x + b.width, b.y), (b.x, b.y + b.height), (b.x + b.width, b.y + b.height)]
                .compactMap { map($0.0, $0.1) }
            guard corners.count == 4, corners.allSatisfy({ $0.0.isFinite && $0.1.isFinite }) else { continue }
            let xs = corners.map(\.0)
            let ys = corners.map(\.1)
            let mapped = Box(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            if mapped.width > 0 && mapped.height > 0 { observations[k].box = mapped }
        }
    }

    /// OC-SORT's `k_previous_obs`: the oldest observation within `window` frames before `frame`, else the last one.
    func previousObservation(before frame: Int, window: Int) -> Box? {
        observations.first { $0.frame >= frame - window && $0.frame < frame }?.box ?? observations.last?.box
    }
}

/// A box (corner and size) in the detections' unit.
struct Box: Sendable {
    var x: Double, y: Double, width: Double, height: Double

    var measurement: [Double] { KalmanBoxFilter.measurement(x: x, y: y, width: width, height: height) }

    func interpolated(to other: Box, _ t: Double) -> Box {
        Box(
            x: x + (other.x - x) * t, y: y + (other.y - y) * t, width: width + (other.width - width) * t,
            height: height + (other.height - height) * t)
    }

    /// The unit direction from this box's centre to `other`'s, measured in this box's widths and heights (so it
    /// does not depend on the unit of either axis); nil when the centres coincide.
    func direction(to other: Box) -> (dx: Double, dy: Double)? {
        let dx = (other.x + other.width / 2 - x - width / 2) / width
        let dy = (other.y + other.height / 2 - y - height / 2) / height
        let norm = (dx * dx + dy * dy).squareRoot()
        guard norm > 1e-9, norm.isFinite else { return nil }
        return (dx / norm, dy / norm)
    }
}
