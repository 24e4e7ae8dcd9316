import Foundation

/// Where the models of model requests (`detect`, `classify`, `model`) come from, by the name their `model` option
/// gives: `LocalModels` (a path, or a file name in the model search path) for the CLI and job workers, the server's
/// model store (search-path names only) for `openvision serve`.
public protocol ModelLoader: Sendable {
    /// The model `name` names, loaded with `configuration`. Throws `fileNotFound` for a name that names none, and
    /// `VisionModel(contentsOf:configuration:)`'s errors.
    func model(named name: String, configuration: VisionModel.Configuration) async throws(VisionError) -> VisionModel
}
