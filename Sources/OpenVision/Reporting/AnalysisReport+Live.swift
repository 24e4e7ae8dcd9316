import Foundation

extension AnalysisReport {
    /// Something that happened on a live frame: `track_started` (a track was confirmed; `id`, `label`),
    /// `track_ended` (a track was lost for longer than the tracker's buffer, or merged, or was still alive on the
    /// last frame of a file or image folder; `id`), or
    /// `line_crossed` (a track's centre crossed the counting line; `id`, `label`, `direction` `in` / `out`).
    public struct Event: Sendable, Codable, Hashable {
        /// The kind: `track_started`, `track_ended` or `line_crossed`.
        public var event: String
        /// The track ID.
        public var id: Int
        /// The track's label (`track_started`, `line_crossed`); nil when the track has none or for `track_ended`.
        public var label: String?
        /// `in` or `out` for `line_crossed` (which side the track's centre crossed to); nil for other events.
        public var direction: String?

        /// An event of kind `event` for track `id`; `label` and `direction` as the kind carries them.
        public init(event: String, id: Int, label: String? = nil, direction: String? = nil) {
            self.event = event
            self.id = id
            self.label = label
            self.direction = direction
        }
    }

    /// The counting line (normalised, lower-left origin: `[[x1, y1], [x2, y2]]`) and its totals so far.
    public struct Counting: Sendable, Codable, Hashable {
        /// The line's two end points, `[[x1, y1], [x2, y2]]`, normalised with a lower-left origin.
        public var line: [[Double]]
        /// Crossings in the `in` direction since the start.
        public var totalIn: Int
        /// Crossings in the `out` direction since the start.
        public var totalOut: Int
        /// Label → crossings (tracks without a label under "").
        public var inByLabel: [String: Int]
        /// Label → crossings in the `out` direction (tracks without a label under "").
        public var outByLabel: [String: Int]
    }

    /// A pinned label: its ID, text, tracked point (both ways) and state (`normal`, `limited`, `lost`).
    public struct PinnedLabel: Sendable, Codable, Hashable {
        /// The pinned label's ID, stable across frames.
        public var id: Int
        /// The label's text.
        public var label: String
        /// Where the label's anchor is tracked to on this frame, both normalised and in pixels.
        public var point: Point
        /// `normal`, `limited` (tracking is unsure) or `lost`.
        public var state: String

        /// A pinned label `id` with text `label` at `point` in `state`.
        public init(id: Int, label: String, point: Point, state: String) {
            self.id = id
            self.label = label
            self.point = point
            self.state = state
        }
    }

    /// A report of one live frame: the frame index and timestamp, every request's results, each tracked
    /// object's `trackID`, this frame's events, the counting line's totals and the pinned labels.
    public init(_ result: LiveResult, name: String = "frame") {
        self.init(image: name, width: result.image.width, height: result.image.height)
        frame = result.frameIndex
        timestamp = result.sourceTimestamp
        let tracked = LiveResult.detectedObjects(in: result.outcomes)
        for (index, outcome) in result.outcomes.enumerated() {
            add(outcome)
            // The tracked request's objects carry their track IDs (another object request after it would replace them).
            if index == tracked?.index, let tracking = result.tracking, var reported = objects {
                for track in tracking.tracks where track.detectionIndex < reported.count {
                    reported[track.detectionIndex].trackID = track.id
                }
                objects = reported
            }
        }
        var events: [Event] = []
        if let tracking = result.tracking {
            for id in tracking.started {
                events.append(
                    Event(event: "track_started", id: id, label: tracking.tracks.first { $0.id == id }?.label))
            }
            for id in tracking.ended { events.append(Event(event: "track_ended", id: id)) }
        }
        for crossing in result.lineCrossings {
            events.append(
                Event(
                    event: "line_crossed", id: crossing.trackID, label: crossing.label,
                    direction: crossing.direction.rawValue))
        }
        self.events = events.isEmpty ? nil : events
        if let counts = result.lineCounts, let line = result.lineSegment {
            counting = Counting(
                line: [[line.start.x, line.start.y], [line.end.x, line.end.y]], totalIn: counts.totalIn,
                totalOut: counts.totalOut, inByLabel: counts.inByLabel, outByLabel: counts.outByLabel)
        }
        if !result.anchors.isEmpty {
            anchors = result.anchors.map { anchor in
                PinnedLabel(
                    id: anchor.id, label: anchor.label,
                    point: point(NormalizedPoint(x: anchor.point.x, y: anchor.point.y)), state: anchor.state.rawValue)
            }
        }
        topLabel = result.topLabel.map { Label(identifier: $0.identifier, confidence: $0.confidence) }
    }
}

extension AnalysisReport {
    static func summary(_ events: [Event]) -> [String] {
        events.map { e in
            "  event \(e.event) #\(e.id)" + (e.label.map { " \($0)" } ?? "") + (e.direction.map { " \($0)" } ?? "")
        }
    }

    static func summary(_ c: Counting) -> [String] {
        ["  counting in \(c.totalIn) out \(c.totalOut)"]
    }

    static func summary(_ anchors: [PinnedLabel]) -> [String] {
        anchors.map {
            String(
                format: "  pinned #%d %@ (%@) at (%.0f,%.0f)", $0.id, $0.label, $0.state, $0.point.pixels.x,
                $0.point.pixels.y)
        }
    }
}
