import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar {
    private let total: Int
    private let enabled: Bool
    private let start = Date()

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled && isatty(STDERR_FILENO) != 0
    }

    func update(_ done: Int, label: String) {
        guard enabled else { return }
        let width = 30
        let filled = total > 0 ? width * done / total : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let elapsed = Date().timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let line = String(format: "\r[%@] %d/%d %.1f img/s %@", bar, done, total, rate, String(label.prefix(30)))
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    func finish() {
        guard enabled else { return }
        update(total, label: "done")
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
