import Foundation

/// Where a Core ML model's bytes are, by the kind of path given:
/// - a `.mlmodel` file (the `Model` message);
/// - a `.mlpackage` folder: `Manifest.json`'s `rootModelIdentifier` names an item whose `path` is
///   relative to `Data/`; ML Program weights (`@model_path/weights/…`) are relative to the model file's folder
///   (`Data/com.apple.CoreML/`);
/// - a compiled `.mlmodelc` folder: OpenVision's own (`model.onnx` + `coreml.json`, see docs/coreml.md), or
///   Xcode's (`coremldata.bin`, read by `XcodeCompiledFolder`: neural networks as Espresso files, ML Programs as
///   `model.mil` + `weights/`, pipelines of them in `model0` …), or a lone `model.mil` + `weights/` +
///   `metadata.json` without `coremldata.bin`.
package enum CoreMLSource {
    /// A `Model` message; `weightsRoot` resolves `@model_path` (nil for a lone `.mlmodel`, whose ML Program
    /// weights must then be inline).
    case model(bytes: [UInt8], weightsRoot: URL?)
    /// A folder compiled by Xcode (`coremldata.bin`).
    case xcode(URL)
    /// An ML Program's `model.mil` without `coremldata.bin` (its interface from `metadata.json` or the program).
    case compiledProgram(mil: String, root: URL, metadata: Data?)
    /// OpenVision's compiled folder.
    case compiled(onnx: URL, info: URL)

    /// The largest model file read into memory.
    static let maximumFileSize = 1 << 31

    package static func open(_ url: URL) throws -> CoreMLSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ConversionError(.io, "no such file or folder", file: url.path)
        }
        guard isDirectory.boolValue else {
            return .model(bytes: try read(url, what: "Core ML model"), weightsRoot: nil)
        }
        let ext = url.pathExtension.lowercased()
        if ext == "mlmodelc"
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("coremldata.bin").path)
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("coreml.json").path)
        {
            return try compiled(url)
        }
        return try package(url)
    }

    /// Reads a whole file (bounded by `limit`, default `maximumFileSize`).
    static func read(_ url: URL, what: String, limit: Int = maximumFileSize) throws -> [UInt8] {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= limit else {
            throw ConversionError(.limitExceeded, "\(what) of \(size) bytes exceeds \(limit)", file: url.path)
        }
        do {
            return [UInt8](try Data(contentsOf: url, options: .mappedIfSafe))
        } catch {
            throw ConversionError.unreadable(url, what: what, error)
        }
    }

    /// A `.mlpackage`: Manifest.json → the root model item.
    static func package(_ url: URL) throws -> CoreMLSource {
        let manifestURL = try contained("Manifest.json", in: url, what: "the package manifest")
        guard FileManager.default.fileExists(atPath: manifestURL.path) else {
            throw ConversionError(.syntax, "not a Core ML package: no Manifest.json", file: url.path)
        }
        let manifestBytes = try read(manifestURL, what: "package manifest")
        guard let manifest = try? JSONSerialization.jsonObject(with: Data(manifestBytes)) as? [String: Any],
            let root = manifest["rootModelIdentifier"] as? String,
            let items = manifest["itemInfoEntries"] as? [String: Any],
            let item = items[root] as? [String: Any], let path = item["path"] as? String
        else {
            throw ConversionError(
                .syntax, "Manifest.json does not name the root model (rootModelIdentifier → itemInfoEntries → path)",
                file: manifestURL.path)
        }
        let data = url.appendingPathComponent("Data")
        let modelURL = try contained(path, in: data, what: "the package's root model")
        return .model(
            bytes: try read(modelURL, what: "Core ML model"), weightsRoot: modelURL.deletingLastPathComponent())
    }

    /// A compiled folder: ours, Xcode's, or a lone `model.mil`.
    static func compiled(_ url: URL) throws -> CoreMLSource {
        let fm = FileManager.default
        let onnx = url.appendingPathComponent("model.onnx")
        let info = url.appendingPathComponent("coreml.json")
        if fm.fileExists(atPath: onnx.path) && fm.fileExists(atPath: info.path) {
            return .compiled(onnx: onnx, info: info)
        }
        if XcodeCompiledFolder.isXcodeCompiled(url) { return .xcode(url) }
        let mil = url.appendingPathComponent("model.mil")
        if fm.fileExists(atPath: mil.path) {
            let metadataURL = url.appendingPathComponent("metadata.json")
            let metadata =
                fm.fileExists(atPath: metadataURL.path)
                ? Data(try read(metadataURL, what: "metadata.json", limit: CoreMLCompiledLimits.descriptionFileSize))
                : nil
            return .compiledProgram(mil: try CompiledProgram.text(mil), root: url, metadata: metadata)
        }
        throw ConversionError(
            .syntax, "not a compiled Core ML model: no model.onnx + coreml.json, coremldata.bin or model.mil",
            file: url.path)
    }

    /// `relative` (a package path or a weight file reference) inside `folder`, as its canonical path (`.`, `..`,
    /// repeated slashes and symbolic links resolved: every spelling of one file gives one URL); `.syntax` if it
    /// leaves `folder`, by its text or through a symbolic link anywhere on the way.
    package static func contained(_ relative: String, in folder: URL, what: String) throws -> URL {
        let candidate = folder.appendingPathComponent(relative).standardizedFileURL
        let base = folder.standardizedFileURL.path
        func inside(_ path: String, _ base: String) -> Bool { path.hasPrefix(base.hasSuffix("/") ? base : base + "/") }
        guard inside(candidate.path, base) else {
            throw ConversionError(
                .syntax, "\(what) '\(relative)' is outside \(folder.lastPathComponent)", file: folder.path)
        }
        // The same with links resolved (a path that does not exist resolves as far as it does; reading it fails).
        guard let realBase = realPath(folder.path) else { return candidate }
        var resolved = candidate.path
        var missing: [String] = []
        while realPath(resolved) == nil, resolved.count > base.count {
            missing.insert((resolved as NSString).lastPathComponent, at: 0)
            resolved = (resolved as NSString).deletingLastPathComponent
        }
        guard let real = realPath(resolved) else { return candidate }
        let full = missing.reduce(real) { ($0 as NSString).appendingPathComponent($1) }
        guard inside(full, realBase) else {
            throw ConversionError(
                .syntax, "\(what) '\(relative)' leads outside \(folder.lastPathComponent) through a symbolic link",
                file: folder.path)
        }
        return URL(fileURLWithPath: full)
    }

    /// `path` with every symbolic link, `.` and `..` resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Reads the weight file an ML Program names (`@model_path/weights/weight.bin`) under `root`: each file once per
    /// reader, whatever spelling names it (`@model_path/./weights/weight.bin`, a link to it), charged once to the
    /// conversion's budget.
    package static func blobReader(root: URL?) -> (String) throws -> [UInt8] {
        let files = WeightFiles()
        return { reference in
            guard let root else {
                throw ConversionError(
                    .syntax,
                    "the model refers to the weight file '\(reference)', which a lone .mlmodel does not have (use the .mlpackage)"
                )
            }
            var path = reference
            if path.hasPrefix("@model_path/") { path.removeFirst("@model_path/".count) }
            let url = try contained(path, in: root, what: "weight file")
            if let bytes = files.read[url.path] { return bytes }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            try ConversionBudget.charge(size, "the weight file \(url.lastPathComponent)")
            let bytes = try read(url, what: "weight file")
            files.read[url.path] = bytes
            return bytes
        }
    }

    /// The weight files one reader has read, by canonical path.
    private final class WeightFiles {
        var read: [String: [UInt8]] = [:]
    }
}
