import Foundation

/// What a `.tflite` file's `TFLITE_METADATA` entry says (TensorFlow Lite Support's
/// `metadata_schema.fbs`, file identifier `M001`): the model's name and description, and how its
/// first input is normalised. Unreadable metadata is ignored (it is optional and never needed to run).
package struct TFLiteMetadata: Sendable, Equatable {
    package var name: String?
    package var description: String?
    package var version: String?
    package var author: String?
    package var license: String?
    /// `NormalizationOptions` of the first input: `(pixel − mean) / std` on 0...255 pixels.
    package var inputMean: [Float]?
    package var inputStd: [Float]?
    /// `Stats` of the first input (the normalised range), when given.
    package var inputMin: [Float]?
    package var inputMax: [Float]?

    /// Parses `ModelMetadata`: 0 name, 1 description, 2 version, 3 subgraph_metadata, 4 author, 5 license.
    /// `SubGraphMetadata`: 2 input_tensor_metadata. `TensorMetadata`: 4 process_units, 5 stats.
    /// `ProcessUnit`: 0 options_type (1 = NormalizationOptions), 1 options. `NormalizationOptions`: 0 mean, 1 std.
    /// `Stats`: 0 max, 1 min.
    package init?(bytes: ArraySlice<UInt8>) {
        let fb = FlatBuffer(Array(bytes))
        do {
            let root = try fb.root()
            name = try fb.string(root, 0)
            description = try fb.string(root, 1)
            version = try fb.string(root, 2)
            author = try fb.string(root, 4)
            license = try fb.string(root, 5)
            if let subgraph = try fb.tables(root, 3).first, let input = try fb.tables(subgraph, 2).first {
                for unit in try fb.tables(input, 4) {
                    if try fb.uint8(unit, 0) == 1, let options = try fb.table(unit, 1) {
                        inputMean = try fb.float32s(options, 0)
                        inputStd = try fb.float32s(options, 1)
                    }
                }
                if let stats = try fb.table(input, 5) {
                    inputMax = try fb.float32s(stats, 0)
                    inputMin = try fb.float32s(stats, 1)
                }
            }
        } catch {
            return nil
        }
    }
}
