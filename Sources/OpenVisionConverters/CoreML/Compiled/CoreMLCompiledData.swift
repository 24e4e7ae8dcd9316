import Foundation

/// A `coremldata.bin` of a Core ML model folder compiled by Xcode (`.mlmodelc`): which model the folder holds, its
/// specification version, its interface and, per model type, what the model itself adds. Apple does not document
/// the file; its layout as found in Xcode's output (docs/coreml.md, "Xcode's compiled folders"), little-endian:
///
///     u32  model type: Model.proto's `Type` field number (403 neuralNetworkClassifier, 202 pipeline, …)
///     u32  format version
///     20 bytes
///     u64  n, then n bytes: the compilers' tags ("generic", "spec", "generic.model0v5.0.0…")
///     u64  specification version
///     24 bytes
///     tag "spec": the model's whole `Model` message, to the end of the file (non-maximum suppression stages);
///     else:       u64 n, then n bytes: the `ModelDescription` message; then the model type's own data:
///                 pipelines `u64 sub-models, u64 type`; neural network classifiers `u64 type, u64 label kind
///                 (100 strings, 101 int64s), u64 labels, the labels (int64s, or u64 n + n bytes each), …`.
///
/// Every length is checked against the bytes left: a malformed file is a `.syntax` error naming it.
package struct CoreMLCompiledData: Sendable {
    /// What follows the fixed header.
    package enum Body: Sendable {
        /// The model's whole `Model` message (tag "spec").
        case spec(ArraySlice<UInt8>)
        /// The `ModelDescription` message and the model type's own data after it.
        case description(ArraySlice<UInt8>, payload: ArraySlice<UInt8>)
    }

    /// Model.proto's `Type` field number of the model.
    package var modelType: Int
    package var specificationVersion: Int
    /// The compilers' tags, as written.
    package var tag: String
    package var body: Body
    /// The file's bytes (`body` slices them).
    package var bytes: [UInt8]

    /// The longest tag read.
    static let maximumTagLength = 4096
    /// The fixed header before the tag's length.
    static let headerSize = 0x1C

    /// Reads `coremldata.bin` bytes; `.syntax` errors name `file` (a path, for messages).
    package init(bytes: [UInt8], file: String = "coremldata.bin") throws {
        self.bytes = bytes
        var reader = CompiledDataReader(bytes: bytes, file: file)
        modelType = Int(try reader.uint32())
        _ = try reader.uint32()
        try reader.skip(Self.headerSize - 8)
        let tagLength = try reader.length(limit: Self.maximumTagLength, what: "tag")
        tag = String(decoding: try reader.take(tagLength), as: UTF8.self)
        let version = try reader.uint64()
        guard (1...10).contains(version) else {
            throw ConversionError(.syntax, "\(file): specification version \(version) is not a Core ML one (1...10)")
        }
        specificationVersion = Int(version)
        try reader.skip(24)
        if tag == "spec" {
            body = .spec(try reader.take(reader.remaining))
        } else {
            let length = try reader.length(limit: reader.remaining, what: "model description")
            let description = try reader.take(length)
            body = .description(description, payload: try reader.take(reader.remaining))
        }
    }

    /// A neural network classifier's labels, from its data after the description (nil when the model is not one or
    /// the data holds none); `.syntax` when that data is malformed.
    package func classifierLabels(file: String) throws -> [String]? {
        guard modelType == 403, case .description(_, let payload) = body else { return nil }
        var reader = CompiledDataReader(bytes: Array(payload), file: file)
        guard reader.remaining >= 24 else { return nil }
        let type = try reader.uint64()
        guard type == 403 else {
            throw ConversionError(.syntax, "\(file): the classifier's data starts with model type \(type)")
        }
        let kind = try reader.uint64()
        // At least 8 bytes a label: a count beyond what is left is malformed.
        let count = try reader.length(limit: reader.remaining / 8, what: "class label count")
        var labels: [String] = []
        labels.reserveCapacity(count)
        switch kind {
        case 101:
            for _ in 0..<count { labels.append(String(Int64(bitPattern: try reader.uint64()))) }
        case 100:
            for _ in 0..<count {
                let n = try reader.length(limit: reader.remaining, what: "class label")
                labels.append(String(decoding: try reader.take(n), as: UTF8.self))
            }
        default:
            throw ConversionError(.syntax, "\(file): class labels of kind \(kind) (100 strings, 101 int64s)")
        }
        return labels
    }

    /// A pipeline's number of sub-models, from its data after the description (nil when the model is not one).
    package func pipelineModelCount(file: String) throws -> Int? {
        guard [200, 201, 202].contains(modelType), case .description(_, let payload) = body else { return nil }
        var reader = CompiledDataReader(bytes: Array(payload), file: file)
        return try reader.length(limit: CoreMLCompiledLimits.pipelineModels, what: "pipeline sub-model count")
    }
}

/// Little-endian reads over a `coremldata.bin`, each checked against the bytes left.
struct CompiledDataReader {
    let bytes: [UInt8]
    let file: String
    var offset = 0

    var remaining: Int { bytes.count - offset }

    private func truncated(_ n: Int) -> ConversionError {
        ConversionError(.syntax, "\(file): truncated: \(n) bytes wanted at offset \(offset), \(remaining) left")
    }

    mutating func skip(_ n: Int) throws {
        guard n <= remaining else { throw truncated(n) }
        offset += n
    }

    mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, n <= remaining else { throw truncated(n) }
        defer { offset += n }
        return bytes[offset..<offset + n]
    }

    mutating func uint32() throws -> UInt32 {
        let b = try take(4)
        return b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func uint64() throws -> UInt64 {
        let b = try take(8)
        return b.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A u64 length or count within `0...limit`.
    mutating func length(limit: Int, what: String) throws -> Int {
        let at = offset
        let value = try uint64()
        guard value <= UInt64(max(limit, 0)) else {
            throw ConversionError(.syntax, "\(file): \(what) \(value) at offset \(at) exceeds \(max(limit, 0))")
        }
        return Int(value)
    }
}
