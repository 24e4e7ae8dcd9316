import ArgumentParser
import Foundation
import OpenVision
import Synchronization

/// The write end of the pipe the signal handler writes to (a C handler cannot capture context).
nonisolated(unsafe) private var interruptionPipe: Int32 = -1

/// SIGINT (Ctrl-C) and SIGTERM end `video` and `live` cleanly: the first signal cancels the
/// analysis task, and the command then finishes its video file (an MP4 is unplayable without the
/// index written at the end), closes its JSON Lines and exits with the conventional status, 128 +
/// the signal (130, 143). A second signal exits at once with that status, unfinished.
///
/// Create it first thing in `run()`, so a signal during setup (model loading) is handled too.
/// The handler is installed with sigaction before init returns and only writes the signal number
/// to a pipe (async-signal-safe); a thread reading the pipe does the rest. (A DispatchSource is
/// armed asynchronously, so with `signal(_, SIG_IGN)` set first a signal arriving in between
/// would be lost.)
final class Interruption: @unchecked Sendable {
    private let state = Mutex<(signal: Int32, cancel: (@Sendable () -> Void)?)>((0, nil))

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }  // no pipe: the default actions stay
        interruptionPipe = fds[1]
        let readEnd = fds[0]
        let reader = Thread { [self] in
            while true {
                var byte: UInt8 = 0
                let n = read(readEnd, &byte, 1)
                if n == 1 { self.received(Int32(byte)) } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
        reader.name = "openvision-signals"
        reader.start()
        for number in signals {
            // A signal ignored from the start stays ignored (a shell starts background jobs with SIGINT
            // ignored so that Ctrl-C in the terminal does not reach them).
            var previous = sigaction()
            if sigaction(number, nil, &previous) == 0,
                unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == 1 /* SIG_IGN */
            {
                continue
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(interruptionPipe, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    private func received(_ number: Int32) {
        let (first, cancel) = state.withLock { s -> (Bool, (@Sendable () -> Void)?) in
            guard s.signal == 0 else { return (false, nil) }
            s.signal = number
            return (true, s.cancel)
        }
        if first { cancel?() } else { exit(128 + number) }
    }

    /// Cancels `task` on the first signal (at once if one already came).
    func cancels<Success, Failure>(_ task: Task<Success, Failure>) {
        let already = state.withLock { s -> Bool in
            s.cancel = { task.cancel() }
            return s.signal != 0
        }
        if already { task.cancel() }
    }

    /// The signal received, if any.
    var received: Int32? {
        let number = state.withLock { $0.signal }
        return number == 0 ? nil : number
    }

    /// The conventional exit status after the signal: 130 for SIGINT, 143 for SIGTERM.
    var exitStatus: Int32? { received.map { 128 + $0 } }

    /// "SIGINT", "SIGTERM".
    var signalName: String {
        switch received {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case let number?: "signal \(number)"
        case nil: ""
        }
    }
}

/// The annotated output video of `video` and `live`: created with the first frame's size, written
/// from any thread (preview callbacks run on the capture thread), finished once. Frames that arrive
/// after `finish()` (the capture thread stopping) are ignored, so they can neither reopen the file
/// nor write to a finished one. The first write error is kept for the caller.
final class AnnotatedVideoOutput: Sendable {
    private struct State {
        var writer: VideoFileWriter?
        var finished = false
        var frames = 0
        var error: VisionError?
    }

    let url: URL
    private let state = Mutex(State())

    init(path: String) { url = URL(fileURLWithPath: path) }

    /// Draws `items` on `image` and appends it; opens the file at `fps` on the first frame.
    func write(_ image: VisionImage, items: [OverlayItem], fps: Double) {
        state.withLock { s in
            guard !s.finished, s.error == nil else { return }
            do {
                if s.writer == nil {
                    s.writer = try VideoFileWriter(url: url, fps: fps, width: image.width, height: image.height)
                }
                try s.writer?.write(try image.annotated(with: items))
                s.frames += 1
            } catch let error as VisionError {
                s.error = error
            } catch {
                s.error = VisionError(.internalError, "\(error)")
            }
        }
    }

    /// Completes the file (writes an MP4's index); later frames are ignored.
    func finish() {
        state.withLock { s in
            s.finished = true
            s.writer?.finish()
        }
    }

    /// The first error writing the file, if any.
    var error: VisionError? { state.withLock { $0.error } }

    /// Frames written so far.
    var frames: Int { state.withLock { $0.frames } }
}

/// Exit statuses of `video` and `live` besides 0 (done), 1 (error) and 130 / 143 (SIGINT / SIGTERM).
enum ExitStatus {
    /// The file ended before the frames its container lists (cut short or damaged); everything
    /// readable was analysed and written.
    static let sourceEndedEarly: Int32 = 3
}

/// Reports how a `video` or `live` run ended, once its outputs are finished, and throws its exit
/// status: the signal's, 1 for an error, `ExitStatus.sourceEndedEarly`; returns for a clean end.
/// `written`: the analysed frames the command wrote out (JSON Lines, video); after a signal the analyzer
/// may have analysed one more that the cancelled loop never received, so this, not its stats, is reported.
func finishRun(
    _ outcome: Result<Void, any Error>, stats: LiveStats, written: Int, interruption: Interruption,
    output: AnnotatedVideoOutput?, source: String
) throws {
    func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    if let status = interruption.exitStatus {
        say(
            "openvision: stopped by \(interruption.signalName) after \(written) analysed frames"
                + (output.map { "; \($0.url.path) finished with \($0.frames) frames" } ?? ""))
        throw ExitCode(status)
    }
    if case .failure(let error) = outcome, !(error is CancellationError) {
        let message = (error as? VisionError).map { "\($0.message) [\($0.code)]" } ?? "\(error)"
        say("openvision: error: \(message)")
        throw ExitCode(1)
    }
    if let error = output?.error {
        say("openvision: error: \(error.message) [\(error.code)]")
        throw ExitCode(1)
    }
    if let info = stats.captureInfo, info.endedEarly {
        say(
            "openvision: warning: \(source) ended early: \(stats.framesCaptured) of the \(info.frameCount) frames its container lists "
                + "were read (the file is cut short or damaged)")
        throw ExitCode(ExitStatus.sourceEndedEarly)
    }
}
