import CoreMedia

// Core Media times as OpenVision's Swift `Duration`s, for the stateful requests.
extension CMTime {
    /// The time as a `Duration` (nanosecond precision; zero for an invalid or non-numeric time).
    var duration: Duration {
        guard isNumeric else { return .zero }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// A duration in nanoseconds.
    init(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(value: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, timescale: 1_000_000_000)
    }
}
