import ArgumentParser
import Foundation
import OpenVision

/// What `openvision detect` and `classify` do: one model request kind (`detect`, `classify`) on each image, built from
/// the registry's options, reported with its stage timings (decode, preprocess, inference, postprocess).
enum ModelRun {
    static func run(
        _ kindName: String, options: RequestOptions, inputs: [String], format: OutputFormat, annotate: String? = nil,
        timings: Bool, strict: Bool
    ) async throws {
        let kind = try ModelOptions.kind(kindName)
        let model = try await ModelOptions.model(for: kind, options: options)
        let built: any VisionRequest
        do { built = try kind.makeRequest(options, model: model) } catch { throw ModelOptions.failure(error) }
        guard let request = built as? any ModelRequest else { throw ValidationError("'\(kindName)' runs no model") }
        let images = ImageFiles(expanding: inputs)
        let target = try annotate.map { try AnnotationTarget(path: $0, imageCount: images.files.count) }
        try await BatchRunner.run(images) { file in
            // The handler decodes a large JPEG only at the scale the model's input needs; annotating
            // decodes it again at full size.
            let handler = ImageRequestHandler(file, strictDecoding: strict)
            let (results, stages) = try perform(request, in: handler)
            var report = try ReportOutput.report(for: file, handler: handler, stages: stages, timings: timings)
            results.add(to: &report)
            if let url = target?.url(for: file) {
                try handler.image().annotated(with: results.overlayItems).write(to: url)
            }
            try ReportOutput.emit(report, format: format, pretty: images.files.count == 1)
            return true
        }
    }

    private static func perform<R: ModelRequest>(_ request: R, in handler: ImageRequestHandler) throws(VisionError)
        -> (any ReportableResult, InferenceTimings)
    {
        let (results, stages) = try request.performWithTimings(in: handler.context)
        return (request.reportable(results), stages)
    }
}
