import Foundation
import Synchronization

/// Models from files: a path, or a file name in the model search path (`ModelLocator`), each loaded once per process for
/// each configuration and shared (`VisionModel` is immutable). What the CLI and job workers load models with.
public final class LocalModels: ModelLoader {
    /// The process's models.
    public static let shared = LocalModels()

    private struct Key: Hashable {
        var path: String
        var configuration: VisionModel.Configuration
    }

    private let loaded = Mutex<[Key: VisionModel]>([:])

    /// An empty cache.
    public init() {}

    /// The model file `name` names: the path when a file is there, else the file of that name in the search path.
    /// `fileNotFound` naming the folders searched otherwise.
    public static func url(named name: String) throws(VisionError) -> URL {
        guard let url = ModelLocator.find(name) else {
            throw VisionError(
                .fileNotFound,
                "model '\(name)' not found (searched "
                    + ModelLocator.searchPaths.map(\.path).joined(separator: ", ") + ")")
        }
        return url
    }

    /// The model `name` names (see `url(named:)`), loaded with `configuration` once; blocks while it loads.
    public func loadModel(named name: String, configuration: VisionModel.Configuration = VisionModel.Configuration())
        throws(VisionError) -> VisionModel
    {
        let url = try Self.url(named: name)
        let key = Key(path: url.standardizedFileURL.path, configuration: configuration)
        if let model = loaded.withLock({ $0[key] }) { return model }
        let model = try VisionModel(contentsOf: url, configuration: configuration)
        // Two loads racing keep the first: every caller shares one instance.
        return loaded.withLock { table in
            if let first = table[key] { return first }
            table[key] = model
            return model
        }
    }

    /// `loadModel(named:configuration:)` off the cooperative pool (a load is blocking native work).
    public func model(named name: String, configuration: VisionModel.Configuration) async throws(VisionError)
        -> VisionModel
    {
        let result = await withCheckedContinuation {
            (c: CheckedContinuation<Result<VisionModel, VisionError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                c.resume(
                    returning: Result { () throws(VisionError) in
                        try self.loadModel(named: name, configuration: configuration)
                    })
            }
        }
        return try result.get()
    }
}
