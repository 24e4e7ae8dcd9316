import Foundation

extension CoreMLConverter {
    /// Writes `conversion` as OpenVision's compiled `.mlmodelc` folder at `target` (docs/coreml.md: `model.onnx` and
    /// `coreml.json`), replacing an earlier one: written beside it under a temporary name, then moved into place.
    /// Throws `.io` when the folder cannot be written.
    package static func writeCompiledFolder(_ conversion: Conversion, to target: URL) throws {
        let fm = FileManager.default
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).mlmodelc")
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            try conversion.onnx.write(to: staging.appendingPathComponent("model.onnx"))
            try Data(conversion.info.json().utf8).write(to: staging.appendingPathComponent("coreml.json"))
            if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
            try fm.moveItem(at: staging, to: target)
        } catch {
            try? fm.removeItem(at: staging)
            throw ConversionError(.io, "cannot write \(target.path): \(error.localizedDescription)", file: target.path)
        }
    }
}
