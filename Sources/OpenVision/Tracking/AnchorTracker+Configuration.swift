extension AnchorTracker {
    /// The anchor tracker's tunables (pixels are the analysed frame's). Values out of range are clamped
    /// into range when the tracker is created (see each option).
    public struct Configuration: Sendable, Hashable {
        /// Features around an anchor are taken within this many pixels of it (at least 4). Default 40.
        public var windowRadius: Int = 40
        /// Shi–Tomasi corners tracked per anchor (at least 1). Default 12.
        public var maximumFeatures: Int = 12
        /// Inliers of an anchor's own similarity fit for `.normal` (at least `minimumInliers`). Default 7.
        public var normalInliers: Int = 7
        /// With fewer inliers the camera motion (a homography of the whole frame) moves the anchor, which is
        /// then `.limited` (at least 2). Default 4.
        public var minimumInliers: Int = 4
        /// An anchor closer than this many pixels to the frame's edge is `.limited` (at least 0). Default 16.
        public var edgeMargin: Double = 16
        /// Corners tracked over the whole frame for the camera motion (at least 8). Default 100.
        public var globalFeatures: Int = 100
        /// The normalised cross-correlation of the anchor's template that re-acquires a lost anchor whose
        /// predicted spot is back in view (in 0.05...1). Default 0.6.
        public var reacquireCorrelation: Double = 0.6

        /// The defaults.
        public init() {}

        /// This configuration with every option clamped into its range (non-finite values take the default).
        var clamped: Configuration {
            var c = self
            let d = Configuration()
            c.windowRadius = max(4, min(windowRadius, 1000))
            c.maximumFeatures = max(1, min(maximumFeatures, 1000))
            c.minimumInliers = max(2, min(minimumInliers, 1000))
            c.normalInliers = max(c.minimumInliers, min(normalInliers, 1000))
            c.edgeMargin = edgeMargin.isFinite ? max(0, min(edgeMargin, 10_000)) : d.edgeMargin
            c.globalFeatures = max(8, min(globalFeatures, 10_000))
            c.reacquireCorrelation =
                reacquireCorrelation.isFinite ? max(0.05, min(reacquireCorrelation, 1)) : d.reacquireCorrelation
            return c
        }
    }
}
