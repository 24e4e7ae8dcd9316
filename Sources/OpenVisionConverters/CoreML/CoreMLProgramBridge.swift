import Foundation

/// Where the Core ML import calls the ML Program side (`MIL/`: `MILProgram`, `MILWeightBlobFile`, `MILToONNX`):
/// the model-file readers (`CoreMLToONNX` for a `.mlmodel` / `.mlpackage`, `CompiledProgram` for Xcode's
/// `model.mil`) hand a program over here and get ONNX values back.
package enum CoreMLProgramBridge {
    /// A program's description: its `main` inputs and outputs and how often each op occurs.
    package struct Summary: Sendable {
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
    /// the ONNX value `inputs[name]`; returns program output name → ONNX value name, and the summary of the
    /// program it read. `blob` reads a weight file named as the program names it (`@model_path/weights/weight.bin`).
    static func lower(
        serialized: ArraySlice<UInt8>, blob: (String) throws -> [UInt8], inputs: [String: String],
        into graph: inout ONNXWriter.Graph, prefix: String
    ) throws -> (outputs: [String: String], summary: Summary) {
        try lower(MILProgram(serialized: serialized), blob: blob, inputs: inputs, into: &graph, prefix: prefix)
    }

    /// The same for a program already read (Xcode's compiled `model.mil` text, `program(text:)`).
    static func lower(
        _ program: Program, blob: (String) throws -> [UInt8], inputs: [String: String],
        into graph: inout ONNXWriter.Graph, prefix: String
    ) throws -> [String: String] {
        try lower(program.program, blob: blob, inputs: inputs, into: &graph, prefix: prefix).outputs
    }

    /// A `model.mil` text read once, for its summary and then its lowering.
    package struct Program: Sendable {
        fileprivate let program: MILProgram
        package let summary: Summary
    }

    /// Reads Xcode's compiled `model.mil` text.
    static func program(text: String) throws -> Program {
        let program = try MILProgram(text: text)
        return Program(program: program, summary: summary(program))
    }

    /// The summary of a serialized program.
    static func summary(serialized: ArraySlice<UInt8>) throws -> Summary {
        summary(try MILProgram(serialized: serialized))
    }

    private static func summary(_ program: MILProgram) -> Summary {
        Summary(
            opset: program.opset, inputs: program.mainInputs, outputs: program.mainOutputs,
            opCounts: program.opCounts, defaultShapes: program.defaultShapes,
            classLabels: program.classifier?.labels ?? [])
    }

    /// Each weight file is read and parsed once per conversion, however many constants name it. The program's values
    /// are named under `prefix` + "mil/": the caller names the model's outputs after the program's (an Identity per
    /// output), so a program value must never take an output's name.
    private static func lower(
        _ program: MILProgram, blob: (String) throws -> [UInt8], inputs: [String: String],
        into graph: inout ONNXWriter.Graph, prefix: String
    ) throws -> (outputs: [String: String], summary: Summary) {
        var files: [String: MILWeightBlobFile] = [:]
        let outputs = try MILToONNX.lower(
            program,
            blobs: { path in
                if let file = files[path] { return file }
                let file = try MILWeightBlobFile(bytes: blob(path))
                files[path] = file
                return file
            }, inputs: inputs, into: &graph, namePrefix: prefix + "mil/")
        return (outputs, summary(program))
    }
}
