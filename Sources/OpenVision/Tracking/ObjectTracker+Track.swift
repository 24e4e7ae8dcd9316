import Foundation

extension ObjectTracker {
    /// A confirmed track matched on the current frame.
    public struct Track: Sendable, Hashable, Identifiable {
        /// The track's identity: 1, 2, 3… in the order tracks are confirmed; never reused.
        public var id: Int
        /// The Kalman filter's box after this frame's correction (as ByteTrack reports), in the detections' unit.
        public var boundingBox: CGRect
        /// The score of the detection matched on this frame.
        public var confidence: Float
        /// The label of the detection matched on this frame.
        public var label: String?
        /// The index, in this frame's `update` input, of the detection matched to the track.
        public var detectionIndex: Int
        /// The frame (1-based, counted by the tracker) on which the track was first detected.
        public var firstFrame: Int

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(
            id: Int, boundingBox: CGRect, confidence: Float, label: String?, detectionIndex: Int, firstFrame: Int
        ) {
            self.id = id
            self.boundingBox = boundingBox
            self.confidence = confidence
            self.label = label
            self.detectionIndex = detectionIndex
            self.firstFrame = firstFrame
        }
    }

    /// What one `update` produced.
    public struct Update: Sendable, Hashable {
        /// The frame number, 1 for the first `update`.
        public var frame: Int
        /// Confirmed tracks matched on this frame, by ascending ID.
        public var tracks: [Track]
        /// IDs confirmed on this frame (each also in `tracks`): a track starts when a detection is matched on
        /// two consecutive frames (on the tracker's first frame, at once).
        public var started: [Int]
        /// IDs that were matched on the previous frame and not on this one; they are kept, predicted by their
        /// motion, for `Configuration.maximumFramesLost` frames and come back with the same ID when matched.
        public var lost: [Int]
        /// IDs that ended on this frame: lost for longer than the track buffer, or merged into an older
        /// overlapping track (and, from the live pipeline, every track still alive on a file's last frame:
        /// `ObjectTracker.finish()`). An ended ID never comes back.
        public var ended: [Int]

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(frame: Int, tracks: [Track], started: [Int], lost: [Int], ended: [Int]) {
            self.frame = frame
            self.tracks = tracks
            self.started = started
            self.lost = lost
            self.ended = ended
        }
    }
}
