import Foundation

extension ObjectTracker {
    /// One detection fed to the tracker: a box in any one unit (normalised or pixels, either y direction:
    /// the tracker is scale-invariant and returns boxes in the unit it was given), a score and an optional label.
    public struct Detection: Sendable, Hashable {
        /// The box; one with a non-positive or non-finite size, or a non-finite corner, is ignored.
        public var boundingBox: CGRect
        /// The detector's score, compared with the configuration's thresholds (0...1).
        public var confidence: Float
        /// The class label, carried to the track (and used for matching with `classAware`).
        public var label: String?

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(boundingBox: CGRect, confidence: Float, label: String? = nil) {
            self.boundingBox = boundingBox
            self.confidence = confidence
            self.label = label
        }

        /// A detected object's normalised (lower-left origin) box, confidence and top label.
        public init(_ observation: RecognizedObjectObservation) {
            let box = observation.boundingBox
            self.init(
                boundingBox: CGRect(x: box.x, y: box.y, width: box.width, height: box.height),
                confidence: observation.confidence, label: observation.labels.first?.identifier)
        }

        var isUsable: Bool {
            let r = boundingBox
            return r.origin.x.isFinite && r.origin.y.isFinite && r.width.isFinite && r.height.isFinite
                && r.width > 0 && r.height > 0 && confidence.isFinite
        }
    }
}
