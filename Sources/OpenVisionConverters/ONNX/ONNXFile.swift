import Foundation

/// ONNX files on disk, with their `ConversionError`s: what the converters write and the readers read.
enum ONNXFile {
    /// Writes a converted model to `output` (atomically): `.io` when it cannot, naming the folder when that
    /// does not exist.
    static func write(_ data: Data, to output: URL) throws {
        do {
            try data.write(to: output, options: .atomic)
        } catch {
            var isDirectory: ObjCBool = false
            let folder = output.deletingLastPathComponent().path
            let reason =
                FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue
                ? error.localizedDescription : "the folder \(folder) does not exist"
            throw ConversionError(.io, "cannot write the ONNX model: \(reason)", file: output.path)
        }
    }

    /// `parse` of the bytes of the ONNX file at `url` (memory-mapped): `.io` when it cannot be read, and
    /// the file's name in front of the message of a `ConversionError` from `parse`.
    static func read<T>(_ url: URL, _ parse: (Data) throws -> T) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ConversionError.unreadable(url, what: "ONNX model", error)
        }
        do {
            return try parse(data)
        } catch let error as ConversionError {
            throw ConversionError(error.code, "\(url.lastPathComponent) \(error.message)")
        }
    }
}
