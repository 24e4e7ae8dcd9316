import Foundation

/// Where OpenVision looks for model files by name: the folders in `OPENVISION_MODELS`
/// (colon-separated), then `~/.cache/openvision/models`, then `/usr/local/share/openvision/models`
/// (where scripts/setup installs the default models).
public enum ModelLocator {
    /// The search folders, in order.
    public static var searchPaths: [URL] {
        var paths: [URL] = []
        if let env = ProcessInfo.processInfo.environment["OPENVISION_MODELS"] {
            paths += env.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        let home =
            ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        paths.append(home.appendingPathComponent("openvision/models"))
        paths.append(URL(fileURLWithPath: "/usr/local/share/openvision/models"))
        return paths
    }

    /// The model named `name` (a path, or a file name looked up in the search folders).
    public static func find(_ name: String) -> URL? {
        if FileManager.default.fileExists(atPath: name) { return URL(fileURLWithPath: name) }
        guard !name.contains("/") else { return nil }
        for dir in searchPaths {
            let url = dir.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }

    /// Every model file (.onnx, .tflite, Core ML .mlmodel / .mlpackage / .mlmodelc, Darknet .cfg with weights) in the
    /// search folders.
    public static func installedModels() -> [URL] {
        var seen = Set<String>()
        var result: [URL] = []
        for dir in searchPaths {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            let extensions = [".onnx", ".cfg", ".tflite", ".mlmodel", ".mlpackage", ".mlmodelc"]
            for name in names.sorted() where extensions.contains(where: { name.hasSuffix($0) }) {
                guard !seen.contains(name) else { continue }
                seen.insert(name)
                result.append(dir.appendingPathComponent(name))
            }
        }
        return result
    }
}
