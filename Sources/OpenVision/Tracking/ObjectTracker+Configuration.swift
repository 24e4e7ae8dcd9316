extension ObjectTracker {
    /// The tracker's options. Thresholds default to ByteTrack's (the reference implementation's `track_thresh`,
    /// `track_buffer`, `match_thresh`, `mot20 = False` and its fixed stage thresholds); the refinements after it
    /// (OC-SORT's, BoostTrack's) to their papers' values where on, and each can be turned off.
    public struct Configuration: Sendable, Hashable {
        /// Detections scoring above this are "high" and take part in the first association (ByteTrack's
        /// `track_thresh`). Default 0.5.
        public var highThreshold: Double = 0.5
        /// Detections scoring above this and at most `highThreshold` are "low": the second association
        /// matches them to tracks the first one left over; lower ones are ignored. Default 0.1.
        public var lowThreshold: Double = 0.1
        /// An unmatched high detection starts a new (tentative) track only when it scores at least this
        /// (ByteTrack's `det_thresh = track_thresh + 0.1`). Default 0.6.
        public var newTrackThreshold: Double = 0.6
        /// The first association's largest accepted cost, 1 − IoU (× score with `fuseScore`) (ByteTrack's
        /// `match_thresh`). Default 0.8.
        public var matchThreshold: Double = 0.8
        /// The second (low-score) association's largest accepted 1 − IoU. Default 0.5.
        public var secondMatchThreshold: Double = 0.5
        /// The largest accepted cost between a tentative track (seen on one frame) and a high detection.
        /// Default 0.7.
        public var tentativeMatchThreshold: Double = 0.7
        /// How many frames (at 30 fps; scaled by `frameRate / 30`) a lost track is kept for re-identification
        /// after its last match (ByteTrack's `track_buffer`). Default 30.
        public var trackBuffer: Int = 30
        /// The sequence's frame rate, which scales `trackBuffer`. Default 30.
        public var frameRate: Double = 30
        /// Multiply IoU by the detection's score in the first and tentative associations (ByteTrack's
        /// `fuse_score`, on unless `mot20`). Default true.
        public var fuseScore: Bool = true
        /// Match detections only to tracks of the same label (boxmot's `per_class`); ByteTrack itself is
        /// class-agnostic. Default false.
        public var classAware: Bool = false
        /// Observation-centric momentum (OC-SORT's OCM; its `inertia` is 0.2): in the first association, a track
        /// whose direction of motion between its observed boxes (not the filter's state) agrees with the direction
        /// from its observation `velocityWindow` frames back to a detection has up to half this (× the detection's
        /// score) taken off the pair's cost, and one pointing away as much added; it ranks pairs and never takes
        /// one within `matchThreshold` out. 0 turns it off. Default 0 (off: on the synthetic crowd scene of
        /// `scripts/bench track` it lowered IDF1, on the TUD sequences it changed nothing).
        public var momentumWeight: Double = 0
        /// How many frames back the observed direction of motion is measured over (OC-SORT's `delta_t`). Default 3.
        public var velocityWindow: Int = 3
        /// Observation-centric re-update (OC-SORT's ORU): a lost track matched again is filtered along a straight
        /// virtual path from its last observed box to the new one, frame by frame from its state at that last
        /// observation, instead of being corrected once from the prediction that drifted while it was lost.
        /// Default true.
        public var reupdatesLostTracks: Bool = true
        /// Observation-centric recovery (OC-SORT's OCR): when set, the tracks left unmatched after the other
        /// associations are matched by their last observed box (not their prediction) to the high detections left
        /// over, up to this largest 1 − IoU (OC-SORT's IoU threshold 0.3 is 0.7 here). Default nil (off: on the
        /// synthetic crossing scene it lowered IDF1; on TUD-Stadtmitte it saved two ID switches).
        public var recoveryMatchThreshold: Double? = nil
        /// A lost track's weight in the first association: its IoU × score is multiplied by this for each frame
        /// it has gone unmatched beyond the first (BoostTrack's tracklet confidence, `0.9^(time_since_update − 1)`),
        /// so a track being followed wins a detection over one predicted for many frames without observation. It
        /// ranks pairs and never takes one within `matchThreshold` out. 1 turns it off. Default 0.9.
        public var lostTrackDecay: Double = 0.9
        /// A detection's association score is raised to this × its best IoU with a track's box (BoostTrack's
        /// DLO confidence boost, its MOT17 coefficient 0.65): a low-score detection that fits a track well takes
        /// part in the first association (or confirms a tentative track). Tracks still report the detector's
        /// score, and only the detector's score starts a track. 0 turns it off. Default 0.65.
        public var detectionBoost: Double = 0.65

        /// The default (ByteTrack's) configuration.
        public init() {}

        /// Lost tracks are removed once this many frames have passed since their last match.
        public var maximumFramesLost: Int { Int(frameRate / 30 * Double(trackBuffer)) }

        /// Throws `invalidArgument` naming the first option out of range (thresholds finite and in 0...1,
        /// `trackBuffer` ≥ 0, `velocityWindow` in 1...1000, `frameRate` > 0).
        public func validate() throws(VisionError) {
            let thresholds: [(String, Double)] = [
                ("highThreshold", highThreshold), ("lowThreshold", lowThreshold),
                ("newTrackThreshold", newTrackThreshold),
                ("matchThreshold", matchThreshold), ("secondMatchThreshold", secondMatchThreshold),
                ("tentativeMatchThreshold", tentativeMatchThreshold), ("momentumWeight", momentumWeight),
                ("recoveryMatchThreshold", recoveryMatchThreshold ?? 0), ("lostTrackDecay", lostTrackDecay),
                ("detectionBoost", detectionBoost),
            ]
            for (name, value) in thresholds where !(value.isFinite && value >= 0 && value <= 1) {
                throw VisionError(.invalidArgument, "tracker \(name) must be in 0...1 (got \(value))")
            }
            guard trackBuffer >= 0 else {
                throw VisionError(.invalidArgument, "tracker trackBuffer must be at least 0 (got \(trackBuffer))")
            }
            guard velocityWindow >= 1 && velocityWindow <= 1000 else {
                throw VisionError(
                    .invalidArgument, "tracker velocityWindow must be in 1...1000 (got \(velocityWindow))")
            }
            guard frameRate.isFinite && frameRate > 0 && frameRate <= 10_000 else {
                throw VisionError(.invalidArgument, "tracker frameRate must be positive (got \(frameRate))")
            }
        }
    }
}
