extension ObjectTracker {
    /// The tracker's options. Defaults are ByteTrack's (the reference implementation's `track_thresh`,
    /// `track_buffer`, `match_thresh`, `mot20 = False` and its fixed stage thresholds).
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

        /// The default (ByteTrack's) configuration.
        public init() {}

        /// Lost tracks are removed once this many frames have passed since their last match.
        public var maximumFramesLost: Int { Int(frameRate / 30 * Double(trackBuffer)) }

        /// Throws `invalidArgument` naming the first option out of range (thresholds finite and in 0...1,
        /// `trackBuffer` ≥ 0, `frameRate` > 0).
        public func validate() throws(VisionError) {
            let thresholds: [(String, Double)] = [
                ("highThreshold", highThreshold), ("lowThreshold", lowThreshold), ("newTrackThreshold", newTrackThreshold),
                ("matchThreshold", matchThreshold), ("secondMatchThreshold", secondMatchThreshold),
                ("tentativeMatchThreshold", tentativeMatchThreshold),
            ]
            for (name, value) in thresholds where !(value.isFinite && value >= 0 && value <= 1) {
                throw VisionError(.invalidArgument, "tracker \(name) must be in 0...1 (got \(value))")
            }
            guard trackBuffer >= 0 else {
                throw VisionError(.invalidArgument, "tracker trackBuffer must be at least 0 (got \(trackBuffer))")
            }
            guard frameRate.isFinite && frameRate > 0 && frameRate <= 10_000 else {
                throw VisionError(.invalidArgument, "tracker frameRate must be positive (got \(frameRate))")
            }
        }
    }
}
