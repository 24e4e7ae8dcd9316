import Foundation

/// Where the Core ML import calls the ML Program side (`MIL/`: `MILProgram`, `MILWeightBlobFile`, `MILToONNX`):
/// the model-file readers (`CoreMLToONNX` for a `.mlmodel` / `.mlpackage`, `CompiledProgram` for Xcode's
/// `model.mil`) hand a program over here and get ONNX values back.
enum CoreMLProgramBridge {
    /// A program's description: its `main` inputs and outputs and how often each op occurs.
    struct Summary {
        typealias Value = MILValueDescription

        var opset: String
        var inputs: [Value]
        var outputs: [Value]
        var opCounts: [String: Int]
        /// Default shapes of flexible inputs (compiled `model.mil` files); empty otherwise.
        var defaultShapes: [String: [Int]]
        /// A classifier's labels (its `classify` operation's classes), in probability order; empty otherwise.
        var classLabels: [String]
    }

    /// Lowers a serialized `MILSpec.Program` (Model field 502) into `graph`: each program input is read from
    /// the ONNX value `inputs[name]`; returns program output name → ONNX value name. `blob` reads a weight
    /// file named as the program names it (`@model_path/weights/weight.bin`).
    static func lower(serialized: ArraySlice<UInt8>, blob: (String) throws -> [UInt8], inputs: [String: String],
                      into graph: inout ONNXWriter.Graph, prefix: String) throws -> [String: String] {
        try lower(MILProgram(serialized: serialized), blob: blob, inputs: inputs, into: &graph, prefix: prefix)
    }

    /// The same for Xcode's compiled `model.mil` text.
    static func lower(text: String, blob: (String) throws -> [UInt8], inputs: [String: String],
                      into graph: inout ONNXWriter.Graph, prefix: String) throws -> [String: String] {
        try lower(MILProgram(text: text), blob: blob, inputs: inputs, into: &graph, prefix: prefix)
    }

    /// The summary of a serialized program.
    static func summary(serialized: ArraySlice<UInt8>) throws -> Summary {
        summary(try MILProgram(serialized: serialized))
    }

    /// The summary of a `model.mil` text.
    static func summary(text: String) throws -> Summary {
        summary(try MILProgram(text: text))
    }

    private static func summary(_ program: MILProgram) -> Summary {
        Summary(opset: program.opset, inputs: program.mainInputs, outputs: program.mainOutputs,
                opCounts: program.opCounts, defaultShapes: program.defaultShapes,
                classLabels: program.classifier?.labels ?? [])
    }

    /// Each weight file is read and parsed once per conversion, however many constants name it.
    private static func lower(_ program: MILProgram, blob: (String) throws -> [UInt8], inputs: [String: String],
                              into graph: inout ONNXWriter.Graph, prefix: String) throws -> [String: String] {
        var files: [String: MILWeightBlobFile] = [:]
        return try MILToONNX.lower(program, blobs: { path in
            if let file = files[path] { return file }
            let file = try MILWeightBlobFile(bytes: blob(path))
            files[path] = file
            return file
        }, inputs: inputs, into: &graph, namePrefix: prefix)
    }
}
