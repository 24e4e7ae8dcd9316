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

    /// What a stream job records when it ends: its frame counts and its source.
    struct StreamSummary: Encodable {
        var dropped: Int
        var framesAnalysed: Int
        var framesCaptured: Int
        var framesStored: Int
        var source: String
    }

    func runImage(_ job: ClaimedJob) async throws -> String {
        let options = try Self.options(job)
        do throws(VisionError) {
            let handler = ImageRequestHandler(URL(fileURLWithPath: job.input), strictDecoding: options.strict == true)
            var analysis = try options.stillAnalysis()
            // Models load once per worker process (LocalModels), not per job.
            try await analysis.loadModels(with: LocalModels.shared)
            let run = try await analysis.run(on: handler, image: job.input)
            return String(decoding: try run.report.jsonData(pretty: false), as: UTF8.self)
        } catch {
            let message = error.message.contains(job.input) ? error.message : "\(job.input): \(error.message)"
            throw Failure(description: "\(message) [\(error.code)]")
        }
    }

    func runStream(_ job: ClaimedJob, frames: StreamFrames) async throws -> String {
        let options = try Self.options(job)
        let analyzer: LiveAnalyzer
        do throws(VisionError) {
            let requests = try await AnalysisOptions.makeRequests(try options.streamKinds(), options: options.options)
            try LiveAnalyzer.prewarm()
            var configuration = LiveAnalyzer.Configuration()
            configuration.analysisMaxDimension = options.analysisSize
            analyzer = LiveAnalyzer(
                source: FrameSource(parsing: job.input), requests: requests, configuration: configuration)
        } catch {
            throw Failure(description: "\(job.input): \(error.message) [\(error.code)]")
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
            let summary = StreamSummary(
                dropped: stats.framesDropped, framesAnalysed: stats.framesAnalysed,
                framesCaptured: stats.framesCaptured, framesStored: frames.written, source: job.input)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(summary), as: UTF8.self)
        case .failure(let error as VisionError):
            throw Failure(description: "\(job.input): \(error.message) [\(error.code)]")
        case .failure(let error):
            throw error
        }
    }

    private static func options(_ job: ClaimedJob) throws -> JobOptions {
        do { return try JobOptions(json: job.options) } catch {
            throw Failure(description: "job \(job.id): unreadable options \(job.options)")
        }
    }
}
