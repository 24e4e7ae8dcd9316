import Foundation
import Hummingbird
import OpenVision

/// The models `POST /v1/detect`, `/v1/classify` and the model requests of `/v1/analyze` run: files in the model search path
/// (`ModelLocator`: OPENVISION_MODELS, ~/.cache/openvision/models, /usr/local/share/openvision/models),
/// named by file name only (a client cannot name a path). Each is loaded once, on first use, and
/// shared by every request after it; concurrent first requests wait for the same load.
actor ModelStore {
    private var models: [String: Task<Result<VisionModel, VisionError>, Never>] = [:]
    private let metrics: ServerMetrics

    init(metrics: ServerMetrics) {
        self.metrics = metrics
    }

    /// One installed model file, named by file name only (no path of the machine is shown).
    struct Entry: Encodable, Sendable {
        var name: String
        var bytes: Int
        var loaded: Bool
    }

    /// Every model in the search path, and whether it is loaded.
    func list() -> [Entry] {
        ModelLocator.installedModels().map { url in
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
            return Entry(name: url.lastPathComponent, bytes: size ?? 0, loaded: models[url.lastPathComponent] != nil)
        }
    }

    /// The model `name` (a file name in the search path, e.g. `yolo-fastest-1.1.cfg`), loading it on first use.
    func model(named name: String) async throws(APIError) -> VisionModel {
        if models[name] == nil {
            guard !name.isEmpty, !name.contains("/"), name != "..",
                let url = ModelLocator.installedModels().first(where: { $0.lastPathComponent == name })
            else {
                throw APIError(
                    .notFound, "modelNotFound",
                    "model '\(name)' not found in the model search path (GET /v1/models lists them)")
            }
            let metrics = self.metrics
            models[name] = Task {
                let start = ContinuousClock.now
                // Loading is blocking native work: off the concurrency pool.
                let result = await withCheckedContinuation {
                    (c: CheckedContinuation<Result<VisionModel, VisionError>, Never>) in
                    DispatchQueue.global(qos: .userInitiated).async {
                        c.resume(returning: Result { () throws(VisionError) in try VisionModel(contentsOf: url) })
                    }
                }
                if case .success = result { metrics.modelLoaded(name, in: ContinuousClock.now - start) }
                return result
            }
        }
        let result = await models[name]!.value
        switch result {
        case .success(let model): return model
        case .failure(let error):
            models[name] = nil  // a file fixed later can be loaded then
            throw APIError(error)
        }
    }
}

/// The store as the registry's model loader (`StillAnalysis.loadModels(with:)`): its refusals are `VisionError`s whose
/// cause is the `APIError` the endpoint answers with (`APIError(loading:)`). Models load with the server's
/// configuration: clients choose a model by name, never how it is loaded (`RequestOption.Role.modelLoading`).
extension ModelStore: ModelLoader {
    func model(named name: String, configuration: VisionModel.Configuration) async throws(VisionError) -> VisionModel {
        do {
            return try await model(named: name)
        } catch {
            throw VisionError(.fileNotFound, error.message, cause: error)
        }
    }
}
