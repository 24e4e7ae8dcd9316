import Foundation
import OpenVision
import OpenVisionJobs

/// What `openvision worker` runs: image jobs exactly as `openvision analyze` (same requests, same
/// report, same JSON), stream jobs through `LiveAnalyzer` as `openvision live --jsonl` (one report per
/// analysed frame).
struct AnalysisJobRunner: JobRunner {
    /// A job that could not run: the message (with the VisionError code) becomes the job's `last_error`.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The requests of an image job that names none (as `openvision analyze`).
    static let defaultRequests = "barcodes,rectangles,faces,landmarks,text"

    func runImage(_ job: ClaimedJob) async throws -> String {
        let options = try Self.options(job)
        do throws(VisionError) {
            let handler = ImageRequestHandler(URL(fileURLWithPath: job.input), strictDecoding: options.strict == true)
            let run = try await options.stillAnalysis().run(on: handler, image: job.input)
            return String(decoding: try run.report.jsonData(pretty: false), as: UTF8.self)
        } catch {
            let message = error.message.contains(job.input) ? error.message : "\(job.input): \(error.message)"
            throw Failure(description: "\(message) [\(error.code)]")
        }
    }

    func runStream(_ job: ClaimedJob, frames: StreamFrames) async throws -> String {
        let options = try Self.options(job)
        var arguments: [String] = []
        if let model = options.model { arguments += ["--model", model] }
        if let requests = options.requests { arguments += ["--requests", requests] }
        if let confidence = options.confidence { arguments += ["--confidence", String(confidence)] }
        if let size = options.analysisSize { arguments += ["--analysis-size", String(size)] }
        let analyzer: LiveAnalyzer
        do {
            let requests = try AnalysisOptions.parse(arguments).makeRequests()
            try LiveAnalyzer.prewarm()
            var configuration = LiveAnalyzer.Configuration()
            configuration.analysisMaxDimension = options.analysisSize
            analyzer = LiveAnalyzer(source: FrameSource(parsing: job.input), requests: requests, configuration: configuration)
        } catch let error as VisionError {
            throw Failure(description: "\(job.input): \(error.message) [\(error.code)]")
        } catch {
            throw Failure(description: "\(job.input): \(AnalyzeCommand.oneLineMessage(for: error))")
        }
        let deadline = options.duration.map { ContinuousClock.now + .seconds($0) }
        let outcome: Result<Void, any Error>
        do {
            for try await result in analyzer {
                let json = String(decoding: try ReportOutput.encode(JSONLinesWriter.report(for: result)), as: UTF8.self)
                await frames.append(frame: result.frameIndex, result: json)
                if let deadline, ContinuousClock.now >= deadline { break }
                try Task.checkCancellation()
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        // The frame in analysis finishes and the threads return before the job is recorded.
        _ = await analyzer.waitUntilStopped(timeout: .seconds(10))
        let stats = analyzer.stats()
        switch outcome {
        case .success:
            return #"{"dropped":\#(stats.framesDropped),"framesAnalysed":\#(stats.framesAnalysed),"framesCaptured":\#(stats.framesCaptured),"framesStored":\#(frames.written),"source":\#(Self.quoted(job.input))}"#
        case .failure(let error as VisionError):
            throw Failure(description: "\(job.input): \(error.message) [\(error.code)]")
        case .failure(let error):
            throw error
        }
    }

    private static func options(_ job: ClaimedJob) throws -> JobOptions {
        do { return try JobOptions(json: job.options) } catch { throw Failure(description: "job \(job.id): unreadable options \(job.options)") }
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

extension AnalyzeCommand {
    /// A parse or validation error of the job's options as one line.
    static func oneLineMessage(for error: any Error) -> String {
        message(for: error).trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
    }
}
