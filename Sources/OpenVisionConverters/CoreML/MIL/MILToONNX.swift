/// Lowers an ML Program's entry function to ONNX nodes and initializers (ai.onnx opset
/// `MILToONNX.opsetVersion`), for ONNX Runtime.
///
/// Numerics: every floating tensor (fp16, fp32, bf16, fp64) is computed in float32 — fp16 weights and
/// constants become exact float32 initializers, `cast`s between float types disappear — so a program
/// Core ML would run in fp16 gives here the fp32 arithmetic of its stored weights (Core ML's fp16
/// execution differs from that by fp16 rounding, ~1e-3 relative). Compressed weights (`constexpr_*`)
/// are expanded at conversion time into float32 initializers, each value first rounded to the
/// scale's or palette's type, as Core ML does. Integer tensors are int64 inside the graph (int8/uint8
/// stay themselves), booleans bool.
///
/// Boundaries: the caller gives an ONNX value per program input — float32 for fp16/fp32 inputs,
/// int32 for integer ones, bool for bool (`onnxElementType(for:)`) — and gets, per program output,
/// an ONNX value of that same convention. A `classify` operation's label output becomes the int64
/// index of the top class and its dictionary output the probability tensor (`MILProgram.classifier`).
///
/// Errors are `ConversionError`: `.unsupported` naming the operation type and its output name,
/// `.syntax` / `.invalidValue` for a malformed program or weight file, `.limitExceeded` for sizes
/// beyond `MILLimits`.
package enum MILToONNX {
    /// The lowest `ai.onnx` opset the graphs need (LayerNormalization is opset 17).
    package static let opsetVersion = 17

    /// The ONNX element type of the value that carries a program input or output of `dataType`
    /// ("fp32", "int32", …): float for every floating type, int32 for integers of up to 32 bits,
    /// int64, (u)int8 and bool as themselves; nil for types that have none (strings, dictionaries,
    /// lists — a `classify` label is an int64 index).
    package static func onnxElementType(for dataType: String) -> ONNXWriter.DataType? {
        guard let type = MILDataType(rawValue: dataType) else { return nil }
        if type.isFloat { return .float }
        switch type {
        case .bool: return .bool
        case .string: return nil
        case .int8: return .int8
        case .uint8: return .uint8
        case .int64, .uint64: return .int64
        default: return .int32
        }
    }

    /// Appends the nodes and initializers of `program`'s entry function to `graph`. Program input
    /// `name` is read from the ONNX value `inputs[name]`; `blobs` resolves a weight file as the
    /// program names it ("@model_path/weights/weight.bin"). New value, node and initializer names
    /// start with `namePrefix`. Returns each program output's name → the ONNX value holding it.
    package static func lower(
        _ program: MILProgram, blobs: (String) throws -> MILWeightBlobFile,
        inputs: [String: String], into graph: inout ONNXWriter.Graph,
        namePrefix: String
    ) throws -> [String: String] {
        try lowerDescribed(program, blobs: blobs, inputs: inputs, into: &graph, namePrefix: namePrefix).mapValues(
            \.name)
    }

    /// `lower`, returning for each program output its ONNX value with the element type and the
    /// shape the program declares (a `classify` label: int64 `[]`-less index; its dictionary: the
    /// float probability tensor).
    package static func lowerDescribed(
        _ program: MILProgram, blobs: (String) throws -> MILWeightBlobFile,
        inputs: [String: String], into graph: inout ONNXWriter.Graph,
        namePrefix: String
    ) throws -> [String: MILLoweredOutput] {
        try withoutActuallyEscaping(blobs) { blobs in
            var lowering = MILLowering(graph: graph, blobs: blobs, prefix: namePrefix, opset: program.opset)
            let outputs = try lowering.lower(program.main, inputs: inputs)
            graph = lowering.graph
            return outputs
        }
    }

    /// The operation types `lower` converts.
    package static var supportedOperations: Set<String> { MILLowering.supportedOperations }
}

/// A program output as the lowered graph carries it.
package struct MILLoweredOutput: Sendable, Equatable {
    /// The ONNX value.
    package var name: String
    package var elementType: ONNXWriter.DataType
    /// Declared dimensions (nil: unknown; nil as a whole: unknown rank).
    package var shape: [Int?]?
}
