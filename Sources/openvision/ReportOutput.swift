import ArgumentParser
import Foundation
import OpenVision

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
    static func report(for file: URL, handler: ImageRequestHandler, stages: InferenceTimings, timings: Bool) throws
        -> AnalysisReport
    {
        var report = try AnalysisReport(image: file.path, handler: handler)
        if timings { report.timingsMs = Self.timings(stages) }
        return report
    }

    private static func timings(_ t: InferenceTimings) -> [String: Double] {
        [
            "decode": t.decode.milliseconds, "preprocess": t.preprocess.milliseconds,
            "inference": t.inference.milliseconds,
            "postprocess": t.postprocess.milliseconds,
        ]
    }
}
