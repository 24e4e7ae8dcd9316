import Foundation

extension CoreMLConverter {
    /// The file of a compiled folder that holds an updatable model's own `Model` message.
    package static let updatableFileName = "updatable.mlmodel"

    /// Writes `conversion` as OpenVision's compiled `.mlmodelc` folder at `target` (docs/coreml.md: `model.onnx` and
    /// `coreml.json`, and `updatable.mlmodel` for an updatable model): written beside it under a temporary name, then renamed into place (`ModelOutput`). An existing
    /// `target` is an `.io` error unless `replacing` (then it is replaced as a whole, never merged into). Throws `.io`
    /// when the folder cannot be written.
    package static func writeCompiledFolder(_ conversion: Conversion, to target: URL, replacing: Bool = false) throws {
        try ModelOutput.refuseExisting(target, replacing: replacing)
        let fm = FileManager.default
        let staging = ModelOutput.temporary(beside: target, "partial")
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            try conversion.onnx.write(to: staging.appendingPathComponent("model.onnx"))
            try Data(conversion.info.json().utf8).write(to: staging.appendingPathComponent("coreml.json"))
            if let specification = conversion.updatableSpecification {
                try Data(specification).write(to: staging.appendingPathComponent(Self.updatableFileName))
            }
        } catch {
            try? fm.removeItem(at: staging)
            throw ConversionError(.io, "cannot write \(target.path): \(error.localizedDescription)", file: target.path)
        }
        try ModelOutput.install(folder: staging, at: target, replacing: replacing)
    }
}
