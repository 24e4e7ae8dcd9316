import Foundation

/// `openvision live … --serve 127.0.0.1:0` started as a user would, for the viewer tests: the process, the page's
/// URL (read from the first stderr line naming it) and its stderr, which keeps being drained so the server never
/// blocks on a full pipe.
public final class LiveViewerProcess: @unchecked Sendable {
    // @unchecked: Process and FileHandle are used from the test task only; the drain thread only reads the pipe.
    public let process: Process
    /// The viewer's page, e.g. `http://127.0.0.1:40123/`.
    public let page: String
    /// What stderr printed up to the URL.
    public let printed: String
    private let tail: OutputTail

    /// The last few kilobytes stderr printed (stats, warnings, the exit reason), for failure messages.
    public var recentOutput: String { tail.text }

    /// Starts `openvision ARGUMENTS --serve 127.0.0.1:0` and waits up to `deadline` for the viewer's URL; throws
    /// (with what stderr printed) when none came.
    public init(_ arguments: [String], deadline: Duration = .seconds(60)) async throws {
        let process = Process()
        process.executableURL = CLIProcess.binary
        process.arguments = arguments + ["--serve", "127.0.0.1:0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let reader = stderr.fileHandleForReading
        let seconds = Double(deadline.components.seconds)
        let (url, printed) = try await blocking { () -> (String?, String) in
            var buffer = Data()
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer += chunk
                let text = String(decoding: buffer, as: UTF8.self)
                if let range = text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) {
                    return (String(text[range]), text)
                }
            }
            return (nil, String(decoding: buffer, as: UTF8.self))
        }
        guard let url else {
            if process.isRunning { process.terminate() }
            throw ViewerError(message: "no viewer URL on stderr: \(printed.suffix(1500))")
        }
        // Keep draining stderr (stats each second), keeping its last lines for failure messages.
        let tail = OutputTail()
        Thread.detachNewThread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                tail.append(chunk)
            }
        }
        self.tail = tail
        self.process = process
        self.page = url
        self.printed = printed
    }

    /// Stops the server (SIGTERM) and waits for it to exit.
    public func stop() async throws {
        if process.isRunning { process.terminate() }
        let process = self.process
        try await blocking { process.waitUntilExit() }
    }

    deinit { if process.isRunning { process.terminate() } }

    /// Debian's Chromium, installed by scripts/setup; nil when absent.
    public static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The last 4 KiB of a stream, appended from the drain thread and read from the test.
    private final class OutputTail: @unchecked Sendable {
        // @unchecked: `data` is only touched under `lock`.
        private let lock = NSLock()
        private var data = Data()
        func append(_ chunk: Data) {
            lock.lock()
            data += chunk
            if data.count > 4096 { data = Data(data.suffix(4096)) }
            lock.unlock()
        }
        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }

    struct ViewerError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
