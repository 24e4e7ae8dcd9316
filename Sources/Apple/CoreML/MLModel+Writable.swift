import Foundation
import OpenVision
internal import OpenVisionConverters

extension MLModel {
    /// Saves the model (Core ML's `MLWritable.write(to:)`), typically the updated model of an `MLUpdateTask`: to a URL
    /// ending in `.mlmodelc` or naming an existing folder, as OpenVision's compiled folder (replacing what is there;
    /// it keeps the updatable model's file, so it can be updated again); to any other URL, as the `.mlmodel` file
    /// (protobuf). Throws `MLModelError.io` when it cannot be written and `.generic` for a model that is not a Core ML
    /// model file.
    public func write(to url: URL) throws {
        let bytes: [UInt8]
        do {
            bytes = try specification ?? CoreMLUpdatableModel.specification(at: visionModel.url)
        } catch {
            throw MLModelError.generic(
                "write(to:): \(visionModel.url.lastPathComponent) is not a Core ML model file: \(error)")
        }
        var isDirectory: ObjCBool = false
        let folder =
            url.pathExtension.lowercased() == "mlmodelc"
            || (FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        do {
            if folder {
                let name = url.deletingPathExtension().lastPathComponent
                let conversion = try CoreMLConverter.conversion(
                    bytes: bytes, name: name,
                    blob: { path in
                        throw ConversionError(.unsupported, "ML Program weights (\(path)) are not kept by write(to:)")
                    })
                try CoreMLConverter.writeCompiledFolder(conversion, to: url, replacing: true)
            } else {
                try Data(bytes).write(to: url, options: .atomic)
            }
        } catch let error as ConversionError where error.code != .io {
            throw MLModelError.generic("write(to:): \(error.message)")
        } catch {
            throw MLModelError.io("write(to:) \(url.path): \(error)")
        }
    }

    /// The model of `specification` (a `Model` message), converted into OpenVision's compiled folder in a private
    /// temporary folder (so that the models an update makes do not fill the cache), removed once the model is loaded
    /// (the session and description are read at load; `write(to:)` uses `specification`).
    static func loading(specification: [UInt8], name: String, configuration: MLModelConfiguration) throws -> MLModel {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openvision-updated-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent(name + ".mlmodelc")
            let conversion = try CoreMLConverter.conversion(
                bytes: specification, name: name,
                blob: { path in throw ConversionError(.unsupported, "no ML Program weights (\(path)) here") })
            try CoreMLConverter.writeCompiledFolder(conversion, to: url)
            let model = try MLModel(contentsOf: url, configuration: configuration)
            model.specification = specification
            try? FileManager.default.removeItem(at: folder)
            return model
        } catch {
            try? FileManager.default.removeItem(at: folder)
            if let error = error as? MLModelError { throw error }
            if let error = error as? ConversionError, error.code != .io { throw MLModelError.generic(error.message) }
            throw MLModelError.io("\(folder.path): \(error)")
        }
    }
}
