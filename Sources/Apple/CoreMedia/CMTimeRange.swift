/// A range of time: a start and a duration (Core Media's `CMTimeRange`), e.g. the video frame a Vision observation
/// was made on (`timeRange`). Valid when both times are valid and the duration is not negative.
public struct CMTimeRange: Hashable, Sendable, CustomStringConvertible {
    /// Where the range starts.
    public var start: CMTime
    /// How long it lasts.
    public var duration: CMTime

    /// A range from `start` lasting `duration` (`CMTimeRangeMake`).
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// The range from `start` up to `end` (`CMTimeRangeFromTimeToTime`).
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: end - start)
    }

    /// The empty range at time zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)
    /// An invalid range (both times invalid).
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)

    /// Where the range ends: `start + duration`, itself not in the range.
    public var end: CMTime { start + duration }

    /// True when both times are valid and the duration is numeric and not negative, or positive infinity.
    public var isValid: Bool {
        start.isValid && duration.isValid && duration.epoch == 0 && (duration.isPositiveInfinity || duration >= .zero)
    }

    /// True for a valid range of zero duration.
    public var isEmpty: Bool { isValid && duration == .zero }

    /// True when `time` is at or after the start and before the end.
    public func containsTime(_ time: CMTime) -> Bool {
        isValid && time >= start && time < end
    }

    /// Both ranges, as two ranges are equal in Core Media: the same start and duration.
    public static func == (lhs: CMTimeRange, rhs: CMTimeRange) -> Bool {
        lhs.start == rhs.start && lhs.duration == rhs.duration
    }

    /// Hashes the start and duration (as `==` compares them, by value).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(duration)
    }

    /// `{start, duration}` in seconds.
    public var description: String { "{\(start.seconds) s, \(duration.seconds) s}" }
}

/// A range from `start` lasting `duration`.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// The end of `range` (`start + duration`).
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime { range.end }

/// Whether `time` lies in `range` (at or after its start, before its end).
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool { range.containsTime(time) }
