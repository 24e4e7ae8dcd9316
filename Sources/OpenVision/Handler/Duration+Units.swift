/// A duration as a number of milliseconds or seconds, for reports, logs and metrics.
extension Duration {
    /// The duration in milliseconds (fractional).
    public var milliseconds: Double {
        let (s, atto) = components
        return Double(s) * 1000 + Double(atto) / 1e15
    }

    /// The duration in seconds (fractional).
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
