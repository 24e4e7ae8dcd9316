import Synchronization

/// Passes a worker's log lines on, at most one per kind of line (`key`) per `interval`; the others are
/// counted, and the next line of that kind that passes says how many were left out. A database restart
/// under 100 slots is then one "unavailable" line and one "back" line, not 200, and a slot that keeps
/// failing logs once per interval, not once per attempt.
final class LogLimiter: Sendable {
    private struct Entry {
        var last: ContinuousClock.Instant
        var leftOut = 0
    }

    let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sink: @Sendable (String) -> Void
    private let entries = Mutex<[String: Entry]>([:])

    init(
        interval: Duration = .seconds(10), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        sink: @escaping @Sendable (String) -> Void
    ) {
        self.interval = interval
        self.now = now
        self.sink = sink
    }

    /// Logs `line` unless a line of the same `key` passed less than `interval` ago.
    func callAsFunction(_ key: String, _ line: String) {
        let time = now()
        let leftOut = entries.withLock { table -> Int? in
            if let entry = table[key], time - entry.last < interval {
                table[key]?.leftOut += 1
                return nil
            }
            let leftOut = table[key]?.leftOut ?? 0
            table[key] = Entry(last: time)
            return leftOut
        }
        guard let leftOut else { return }
        sink(
            leftOut == 0 ? line : "\(line) (\(leftOut) similar line\(leftOut == 1 ? "" : "s") left out before this one)"
        )
    }

    /// Reports the lines left out since each kind's last line (a worker calls it as it ends).
    func flush() {
        let pending = entries.withLock { table -> [(String, Int)] in
            defer { for key in table.keys { table[key]?.leftOut = 0 } }
            return table.filter { $0.value.leftOut > 0 }.map { ($0.key, $0.value.leftOut) }.sorted { $0.0 < $1.0 }
        }
        for (key, count) in pending { sink("\(count) more '\(key)' line\(count == 1 ? "" : "s") left out") }
    }
}
