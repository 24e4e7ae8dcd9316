import Foundation

/// Where the Core ML import calls the ML Program side (Sources/OpenVisionConverters/CoreML/MIL: `MILProgram`,
/// `MILWeightBlobFile`, `MILToONNX`, developed on the `coreml-mil` branch). This file is the only place that
/// names them, so that the NeuralNetwork side builds on its own; the merge of both branches replaces the
/// bodies below with the calls written in their comments (the interface agreed between the two sides).
enum CoreMLProgramBridge {
    /// A program's description: its `main` inputs and outputs and how often each op occurs.
    struct Summary {
        struct Value {
            var name: String
            /// "fp32", "fp16", "int32", …
            var dataType: String
            /// nil for a dimension unknown until run time.
            var shape: [Int?]
        }

        var opset: String
        var inputs: [Value]
        var outputs: [Value]
        var opCounts: [String: Int]
    }

    /// Whether this build lowers ML Programs.
    static let isAvailable = false

    static let missing = "ML Programs (mlProgram, .mlpackage) are converted by the MIL side of the Core ML import, which this build does not include"

    /// Lowers a serialized `MILSpec.Program` (Model field 502) into `graph`: each program input is read from
    /// the ONNX value `inputs[name]`; returns program output name → ONNX value name. `blob` reads a weight
    /// file named as the program names it (`@model_path/weights/weight.bin`).
    static func lower(serialized: ArraySlice<UInt8>, blob: (String) throws -> [UInt8], inputs: [String: String],
                      into graph: inout ONNXWriter.Graph, prefix: String) throws -> [String: String] {
        // let program = try MILProgram(serialized: serialized)
        // return try MILToONNX.lower(program, blobs: { try MILWeightBlobFile(bytes: blob($0)) }, inputs: inputs,
        //                            into: &graph, namePrefix: prefix)
        throw ConversionError(.unsupported, missing)
    }

    /// The same for Xcode's compiled `model.mil` text.
    static func lower(text: String, blob: (String) throws -> [UInt8], inputs: [String: String],
                      into graph: inout ONNXWriter.Graph, prefix: String) throws -> [String: String] {
        // let program = try MILProgram(text: text)
        // return try MILToONNX.lower(program, blobs: { try MILWeightBlobFile(bytes: blob($0)) }, inputs: inputs,
        //                            into: &graph, namePrefix: prefix)
        throw ConversionError(.unsupported, missing)
    }

    /// The summary of a serialized program.
    static func summary(serialized: ArraySlice<UInt8>) throws -> Summary {
        // let program = try MILProgram(serialized: serialized)
        // return summary(program)
        throw ConversionError(.unsupported, missing)
    }

    /// The summary of a `model.mil` text.
    static func summary(text: String) throws -> Summary {
        // let program = try MILProgram(text: text)
        // return summary(program)
        throw ConversionError(.unsupported, missing)
    }

    // static func summary(_ program: MILProgram) -> Summary {
    //     func values(_ list: [MILValueDescription]) -> [Summary.Value] {
    //         list.map { Summary.Value(name: $0.name, dataType: $0.dataType, shape: $0.shape) }
    //     }
    //     return Summary(opset: program.opset, inputs: values(program.mainInputs), outputs: values(program.mainOutputs),
    //                    opCounts: program.opCounts)
    // }
}
