import ArgumentParser
import Foundation
import OpenVision

/// Loads a model named on the command line, with a one-line error for bad input.
enum ModelOptions {
    /// `--pixel-scale`, `--pixel-mean`, `--pixel-std` (see `VisionModel.Configuration.pixelMean`).
    struct Normalization {
        var scale: Float?
        var mean: String?
        var std: String?

        func apply(to configuration: inout VisionModel.Configuration) throws {
            func values(_ text: String?, _ flag: String) throws -> [Float]? {
                guard let text else { return nil }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                let floats = parts.compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
                guard floats.count == parts.count, floats.count == 1 || floats.count == 3 else {
                    throw ValidationError("\(flag) takes one number or three, comma-separated (R,G,B)")
                }
                return floats
            }
            configuration.pixelScale = scale
            configuration.pixelMean = try values(mean, "--pixel-mean")
            configuration.pixelStd = try values(std, "--pixel-std")
        }
    }

    static func load(_ name: String, backend: String, threads: Int, normalization: Normalization? = nil) throws -> VisionModel {
        guard let url = ModelLocator.find(name) else {
            FileHandle.standardError.write(Data("openvision: error: model '\(name)' not found (searched \(ModelLocator.searchPaths.map(\.path).joined(separator: ", ")))\n".utf8))
            throw ExitCode(1)
        }
        return try load(url, backend: backend, threads: threads, normalization: normalization)
    }

    /// The built-in detector (`VisionModel.defaultDetectorURL`) with the command's backend and threads.
    static func loadDefaultDetector(backend: String, threads: Int) throws -> VisionModel {
        guard let url = VisionModel.defaultDetectorURL else {
            FileHandle.standardError.write(Data("openvision: error: the built-in detector is missing from OpenVision's resources; rebuild, or pass --model\n".utf8))
            throw ExitCode(1)
        }
        return try load(url, backend: backend, threads: threads)
    }

    private static func load(_ url: URL, backend: String, threads: Int, normalization: Normalization? = nil) throws -> VisionModel {
        guard let choice = BackendChoice(rawValue: backend) else {
            throw ValidationError("unknown backend '\(backend)'; choose from \(BackendChoice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var configuration = VisionModel.Configuration()
        configuration.backend = choice
        configuration.threads = threads
        try normalization?.apply(to: &configuration)
        do {
            return try VisionModel(contentsOf: url, configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// How `analyze`, `detect` and `classify` print reports: JSON (docs/json-schema.md) or text
/// lines (`table` is the same as `text`).
enum OutputFormat: String, ExpressibleByArgument { case json, text, table }

enum ReportOutput {
    /// Prints one report: pretty JSON for a single image, one line per image otherwise.
    static func emit(_ report: AnalysisReport, format: OutputFormat, pretty: Bool) throws {
        switch format {
        case .json:
            BatchRunner.write(String(decoding: try report.jsonData(pretty: pretty), as: UTF8.self))
        case .text, .table:
            BatchRunner.write(report.summary)
        }
    }

    /// The report as JSON (docs/json-schema.md): sorted keys, slashes unescaped; pretty or one line.
    static func encode(_ report: AnalysisReport, pretty: Bool = false) throws -> Data {
        try report.jsonData(pretty: pretty)
    }

    /// The report for `file` analysed through `handler` (see `AnalysisReport(image:handler:)`) and, when asked, the
    /// request's stage timings.
    static func report(for file: URL, handler: ImageRequestHandler, stages: InferenceTimings, timings: Bool) throws -> AnalysisReport {
        var report = try AnalysisReport(image: file.path, handler: handler)
        if timings { report.timingsMs = Self.timings(stages) }
        return report
    }

    private static func timings(_ t: InferenceTimings) -> [String: Double] {
        ["decode": t.decode.milliseconds, "preprocess": t.preprocess.milliseconds, "inference": t.inference.milliseconds,
         "postprocess": t.postprocess.milliseconds]
    }
}
