import Foundation

/// Counts tracks crossing a line segment, per class and direction, as people use Ultralytics'
/// `ObjectCounter` with a two-point region: feed it each frame's tracks (from `ObjectTracker`, in
/// the same unit as the line) and it reports every crossing and keeps running totals.
///
/// A crossing is counted when a track's centre, between the last frame it was matched on and this
/// one, passes from one side of the line to the other through the segment (not its extension). It
/// counts once per crossing: a track that crosses back is counted again, in the other direction.
/// A centre exactly on the line has not crossed yet (the side it came from is kept).
///
/// Directions, with the segment going from `start` to `end` as seen in the picture (normalised,
/// lower-left origin, y up, or any unit with y up): `in` is from the left of that direction to its
/// right, `out` the reverse. So a line drawn left to right counts downward motion as `in`, one drawn
/// bottom to top counts rightward motion as `in` (Ultralytics' conventions for horizontal and
/// vertical lines). Memory: one point per live track; `update` forgets ended tracks.
public struct LineCounter: Sendable {
    /// The segment's ends.
    public let start: CGPoint
    /// The segment's second end (see the type for the direction convention).
    public let end: CGPoint
    /// Totals so far.
    public private(set) var counts = Counts()
    /// Each live track's last centre off the line, and its side (+1 left, −1 right).
    private var lastSide: [Int: (point: CGPoint, side: Int)] = [:]

    /// A counter on the segment `start` → `end`. Throws `invalidArgument` when a coordinate is not
    /// finite or the segment has zero length.
    public init(from start: CGPoint, to end: CGPoint) throws(VisionError) {
        guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else {
            throw VisionError(.invalidArgument, "the counting line's coordinates must be finite numbers")
        }
        guard hypot(end.x - start.x, end.y - start.y) > 1e-9 else {
            throw VisionError(
                .invalidArgument, "the counting line has zero length (both ends at \(start.x), \(start.y))")
        }
        self.start = start
        self.end = end
    }

    /// Advances one frame: `tracks` are the tracks matched on it (boxes in the line's unit), `ended`
    /// the IDs that ended (forgotten). Returns this frame's crossings, in track order.
    public mutating func update(tracks: [ObjectTracker.Track], ended: [Int] = []) -> [Crossing] {
        var crossings: [Crossing] = []
        for track in tracks {
            let box = track.boundingBox
            let centre = CGPoint(x: box.midX, y: box.midY)
            guard centre.x.isFinite, centre.y.isFinite else { continue }
            let side = side(of: centre)
            guard side != 0 else { continue }  // on the line: not crossed yet
            if let last = lastSide[track.id], last.side != side, segmentCrosses(from: last.point, to: centre) {
                let direction: Direction = last.side > 0 ? .in : .out
                let label = track.label ?? ""
                counts.add(label: label, direction: direction)
                crossings.append(Crossing(trackID: track.id, label: track.label, direction: direction, point: centre))
            }
            lastSide[track.id] = (centre, side)
        }
        for id in ended { lastSide[id] = nil }
        return crossings
    }

    /// +1 left of start → end, −1 right, 0 on the line (y up).
    private func side(of p: CGPoint) -> Int {
        let cross = (end.x - start.x) * (p.y - start.y) - (end.y - start.y) * (p.x - start.x)
        return cross > 0 ? 1 : cross < 0 ? -1 : 0
    }

    /// Whether the motion a → b (whose ends are on opposite sides of the line) passes through the segment:
    /// the segment's ends are not strictly on the same side of the motion.
    private func segmentCrosses(from a: CGPoint, to b: CGPoint) -> Bool {
        func cross(_ p: CGPoint) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
        let s = cross(start)
        let e = cross(end)
        return !(s > 0 && e > 0) && !(s < 0 && e < 0)
    }
}

extension LineCounter {
    /// Which way a track crossed (see `LineCounter` for the convention).
    public enum Direction: String, Sendable, Hashable, Codable {
        /// `in`: from the left of the segment's direction to its right; `out`: the reverse.
        case `in`, out
    }

    /// One track crossing the line on the current frame.
    public struct Crossing: Sendable, Hashable {
        /// The crossing track's ID.
        public var trackID: Int
        /// The track's label on this frame, if any.
        public var label: String?
        /// Which way it crossed.
        public var direction: Direction
        /// The track's centre on this frame (after crossing).
        public var point: CGPoint
    }

    /// Running totals, overall and per label (a track without a label counts under "").
    public struct Counts: Sendable, Hashable, Codable {
        /// Crossings in the `in` direction so far.
        public var totalIn = 0
        /// Crossings in the `out` direction so far.
        public var totalOut = 0
        /// Label → crossings in / out.
        public var inByLabel: [String: Int] = [:]
        /// Label → crossings in the `out` direction.
        public var outByLabel: [String: Int] = [:]

        /// A value with every property at its default (zero, empty or nil).
        public init() {}

        mutating func add(label: String, direction: Direction) {
            switch direction {
            case .in:
                totalIn += 1
                inByLabel[label, default: 0] += 1
            case .out:
                totalOut += 1
                outByLabel[label, default: 0] += 1
            }
        }
    }
}
