import Foundation

/// What a `.tflite` file declares, read without converting it: inputs and outputs, the operators
/// it uses (with how often), whether the converter supports each, and its metadata. For
/// `openvision models info`.
package struct TFLiteModelSummary: Sendable {
    package struct Value: Sendable {
        package var name: String
        package var shape: [Int]
        package var type: String
    }

    package var inputs: [Value]
    package var outputs: [Value]
    /// Operator name → count, in first-use order.
    package var operatorCounts: [(name: String, count: Int)]
    /// Operator names the converter does not support, with the index of their first use.
    package var unsupported: [(name: String, index: Int)]
    package var metadata: TFLiteMetadata?
    /// Metadata entry names (`TFLITE_METADATA`, `min_runtime_version`, …).
    package var metadataNames: [String]
    package var schemaVersion: UInt32
    package var description: String?
    package var tensorCount: Int

    /// Reads the file at `url`; throws `ConversionError` as `TFLiteModel` does.
    package init(contentsOf url: URL) throws {
        let model = try TFLiteModel(contentsOf: url)
        func describe(_ t: Int) -> Value {
            let tensor = model.tensors[t]
            return Value(name: tensor.name, shape: tensor.shape, type: TFLiteToONNX.typeName(tensor))
        }
        inputs = model.inputs.map(describe)
        outputs = model.outputs.map(describe)
        var counts: [(name: String, count: Int)] = []
        var unsupported: [(name: String, index: Int)] = []
        for (index, op) in model.operators.enumerated() {
            let name = model.operatorCodes[op.opcodeIndex].name
            if let i = counts.firstIndex(where: { $0.name == name }) {
                counts[i].count += 1
            } else {
                counts.append((name, 1))
                if !TFLiteToONNX.supportedOperators.contains(name) { unsupported.append((name, index)) }
            }
        }
        operatorCounts = counts
        self.unsupported = unsupported
        metadata = model.metadataBytes("TFLITE_METADATA").flatMap { TFLiteMetadata(bytes: $0) }
        metadataNames = model.metadata.map(\.name)
        schemaVersion = model.version
        description = model.description
        tensorCount = model.tensors.count
    }
}
