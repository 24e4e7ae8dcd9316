import Foundation

/// A frame to show in the live viewer: the JPEG bytes of the full-resolution preview,
/// its pixel size, and the capture index and timestamp (seconds, any monotonic origin).
public struct PreviewFrame: Sendable {
    /// The preview's JPEG bytes.
    public var jpeg: [UInt8]
    /// The preview's width in pixels.
    public var width: Int
    /// The preview's height in pixels.
    public var height: Int
    /// The capture index of the frame (0, 1, 2, …, counting dropped frames).
    public var index: Int
    /// The capture time in seconds, from any monotonic origin.
    public var timestamp: Double

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(jpeg: [UInt8], width: Int, height: Int, index: Int, timestamp: Double) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.index = index
        self.timestamp = timestamp
    }
}

/// An observation update for the viewer's overlay, sent to browsers as JSON over Server-Sent Events.
///
/// Geometry uses Vision's convention: coordinates normalised to 0...1 with the origin at the
/// LOWER-LEFT corner of the image. The page maps a point to canvas pixels as
/// `x_px = x * W`, `y_px = (1 - y) * H`.
public struct OverlayUpdate: Sendable, Codable, Equatable {
    /// The capture index of the frame the overlay belongs to (see `PreviewFrame.index`).
    public var frameIndex: Int
    /// That frame's capture time in seconds (see `PreviewFrame.timestamp`).
    public var timestamp: Double
    /// What to draw, normalised with a lower-left origin.
    public var items: [Item]
    /// The pipeline's counters, shown in the stats line.
    public var stats: Stats
    /// The counting line's totals (`live --count-line`); the line itself is one of the items.
    public var counting: Counting?
    /// The label classifier's current top class (`live --pin-labels`), shown in a corner.
    public var topLabel: TopLabel?
    /// The pinned labels and their states (`live --pin-labels`), drawn with a × that removes them.
    public var anchors: [PinnedAnchor]?

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        frameIndex: Int, timestamp: Double, items: [Item], stats: Stats, counting: Counting? = nil,
        topLabel: TopLabel? = nil, anchors: [PinnedAnchor]? = nil
    ) {
        self.frameIndex = frameIndex
        self.timestamp = timestamp
        self.items = items
        self.stats = stats
        self.counting = counting
        self.topLabel = topLabel
        self.anchors = anchors
    }

    /// Tracks counted crossing the line so far: totals and per label.
    public struct Counting: Sendable, Codable, Equatable {
        /// Crossings in the `in` direction so far.
        public var totalIn: Int
        /// Crossings in the `out` direction so far.
        public var totalOut: Int
        /// Label → crossings in the `in` direction (tracks without a label under "").
        public var inByLabel: [String: Int]
        /// Label → crossings in the `out` direction (tracks without a label under "").
        public var outByLabel: [String: Int]

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(totalIn: Int, totalOut: Int, inByLabel: [String: Int], outByLabel: [String: Int]) {
            self.totalIn = totalIn
            self.totalOut = totalOut
            self.inByLabel = inByLabel
            self.outByLabel = outByLabel
        }
    }

    /// A classification: its label and confidence (0...1).
    public struct TopLabel: Sendable, Codable, Equatable {
        /// The class label.
        public var identifier: String
        /// Its confidence, 0...1.
        public var confidence: Double

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(identifier: String, confidence: Double) {
            self.identifier = identifier
            self.confidence = confidence
        }
    }

    /// A polyline or polygon (a box is a closed polygon of four points) with an optional label, or an
    /// image (a heat map) stretched over its points' bounding box.
    public struct Item: Sendable, Codable, Equatable {
        /// `[[x, y], ...]`, normalised, lower-left origin.
        public var points: [[Double]]
        /// Whether the last point joins the first (boxes, contours) or not (open polylines).
        public var closed: Bool
        /// CSS colour, `"#rrggbb"`.
        public var color: String
        /// Drawn with a filled background at the item's top-left corner.
        public var label: String?
        /// An image item: a `data:image/png;base64,…` URL drawn stretched over the points' bounding box,
        /// before (under) every line and label, with `opacity`; nothing is stroked. Absent for lines.
        public var image: String?
        /// The image's opacity, 0...1 (its PNG alpha multiplies it); absent means 0.5.
        public var opacity: Double?

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(
            points: [[Double]], closed: Bool = true, color: String = "#00ff66", label: String? = nil,
            image: String? = nil, opacity: Double? = nil
        ) {
            self.points = points
            self.closed = closed
            self.color = color
            self.label = label
            self.image = image
            self.opacity = opacity
        }

        /// An image item: `png` drawn stretched over the normalised rect (`x, y` its lower-left corner) with
        /// `opacity`, e.g. a saliency heat map whose PNG alpha is its value.
        public static func image(
            png: [UInt8], x: Double, y: Double, width: Double, height: Double, opacity: Double = 0.5
        ) -> Item {
            Item(
                points: [[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                closed: true, color: "#ffffff",
                image: "data:image/png;base64," + Data(png).base64EncodedString(), opacity: opacity)
        }

        /// A box from a Vision-style normalised rect (origin lower-left): `x, y` is the
        /// lower-left corner. The points go lower-left, lower-right, upper-right, upper-left.
        public static func box(
            x: Double, y: Double, width: Double, height: Double,
            color: String = "#00ff66", label: String? = nil
        ) -> Item {
            Item(
                points: [[x, y], [x + width, y], [x + width, y + height], [x, y + height]],
                closed: true, color: color, label: label)
        }
    }

    /// The pipeline's counters for the stats line (see `LiveStats` in OpenVision).
    public struct Stats: Sendable, Codable, Equatable {
        /// Frames read per second.
        public var captureFPS: Double
        /// Frames analysed per second.
        public var analysedFPS: Double
        /// Frames dropped before analysis so far.
        public var dropped: Int
        /// Median capture-to-result latency in milliseconds.
        public var latencyP50Ms: Double
        /// 99th-percentile capture-to-result latency in milliseconds.
        public var latencyP99Ms: Double

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(
            captureFPS: Double = 0, analysedFPS: Double = 0, dropped: Int = 0,
            latencyP50Ms: Double = 0, latencyP99Ms: Double = 0
        ) {
            self.captureFPS = captureFPS
            self.analysedFPS = analysedFPS
            self.dropped = dropped
            self.latencyP50Ms = latencyP50Ms
            self.latencyP99Ms = latencyP99Ms
        }
    }
}

extension OverlayUpdate {
    /// JSON cannot carry NaN or infinities; they become 0 so one bad value never drops an update.
    func sanitized() -> OverlayUpdate {
        func f(_ v: Double) -> Double { v.isFinite ? v : 0 }
        var copy = self
        copy.timestamp = f(timestamp)
        copy.items = items.map { item in
            var i = item
            i.points = item.points.map { $0.map(f) }
            i.opacity = item.opacity.map { min(1, max(0, f($0))) }
            return i
        }
        copy.topLabel?.confidence = f(topLabel?.confidence ?? 0)
        copy.anchors = anchors?.map { a in
            var anchor = a
            anchor.x = f(a.x)
            anchor.y = f(a.y)
            return anchor
        }
        copy.stats.captureFPS = f(stats.captureFPS)
        copy.stats.analysedFPS = f(stats.analysedFPS)
        copy.stats.latencyP50Ms = f(stats.latencyP50Ms)
        copy.stats.latencyP99Ms = f(stats.latencyP99Ms)
        return copy
    }
}

/// The state of what the viewer shows, sent to browsers as an SSE `status` event
/// (`event: status`, one `data:` line of this JSON). A page that receives `ended` or
/// `stopped` shows that state instead of a frozen last frame; it goes back to live when
/// updates flow again (after the server or the source restarts).
public struct ViewerStatus: Sendable, Codable, Equatable {
    /// What the viewer is showing.
    public enum State: String, Sendable, Codable {
        /// Frames and overlays are being published.
        case live
        /// The source ended (end of file, stream gone); no more frames will come.
        case ended
        /// The server is shutting down.
        case stopped
        /// The source failed (a stream that could not be reopened, a read error); `detail` says why.
        case failed
    }

    /// What the viewer is showing now.
    public var state: State
    /// A short human-readable reason, shown next to the state.
    public var detail: String?

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(state: State, detail: String? = nil) {
        self.state = state
        self.detail = detail
    }
}
