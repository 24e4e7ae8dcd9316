import Foundation

@testable import OpenVisionConverters

/// Helpers of the ML Program tests: the `mlProgram` bytes of a Core ML `Model` message (plain, or the
/// first ML Program of a pipeline), weight files resolved in an `.mlpackage`, and one-graph ONNX
/// models wrapped around `MILToONNX.lower`.
enum MILTestSupport {
    static let coreml = SharedFiles.shared.appendingPathComponent("models/coreml")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/coreml-mil")

    /// The serialized `mlProgram` (Model.proto field 502), looking into pipelines (200, 201, 202 → models 1).
    static func mlProgramBytes(_ model: [UInt8]) -> ArraySlice<UInt8>? {
        model.withUnsafeBytes { raw -> ArraySlice<UInt8>? in
            func search(_ body: Slice<UnsafeRawBufferPointer>) -> Range<Int>? {
                var reader = ProtoReader(body)
                while let (field, value) = reader.next() {
                    guard case .bytes(let b) = value else { continue }
                    if field == 502 { return b.startIndex..<b.endIndex }
                    if field == 200 || field == 201 || field == 202 {
                        var pipeline = ProtoReader(b)
                        while let (pf, pv) = pipeline.next() {
                            guard case .bytes(let pb) = pv else { continue }
                            if pf == 1 {
                                var models = ProtoReader(pb)
                                while let (mf, mv) = models.next() {
                                    if mf == 1, case .bytes(let m) = mv, let found = search(m) { return found }
                                }
                            }
                            if pf == 1, let found = search(pb) { return found }
                        }
                    }
                }
                return nil
            }
            guard let range = search(raw[...]) else { return nil }
            return model[range]
        }
    }

    /// An `.mlpackage`'s program and a resolver of its weight files.
    static func package(_ url: URL) throws -> (MILProgram, (String) throws -> MILWeightBlobFile) {
        let root = url.appendingPathComponent("Data/com.apple.CoreML")
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("model.mlmodel")))
        guard let program = mlProgramBytes(bytes) else {
            throw ConversionError(.syntax, "no mlProgram in \(url.lastPathComponent)")
        }
        return (try MILProgram(serialized: program), resolver(root))
    }

    static func resolver(_ root: URL) -> (String) throws -> MILWeightBlobFile {
        { path in
            let relative = path.hasPrefix("@model_path/") ? String(path.dropFirst("@model_path/".count)) : path
            return try MILWeightBlobFile(bytes: [UInt8](try Data(contentsOf: root.appendingPathComponent(relative))))
        }
    }

    /// A one-graph ONNX model: the program's inputs as graph inputs (ONNX types of the boundary
    /// convention, default shapes for flexible dimensions), its tensor outputs as graph outputs.
    static func onnxModel(
        _ program: MILProgram, blobs: (String) throws -> MILWeightBlobFile,
        defaultShapes: [String: [Int]] = [:]
    ) throws -> ONNXWriter.Model {
        var graph = ONNXWriter.Graph(name: "mil")
        var inputs: [String: String] = [:]
        for input in program.mainInputs {
            guard let type = MILToONNX.onnxElementType(for: input.dataType) else { continue }
            let shape =
                defaultShapes[input.name].map { $0.map { ONNXWriter.Dimension.value($0) } }
                ?? input.shape.enumerated().map { i, d in d.map { .value($0) } ?? .param("\(input.name)_\(i)") }
            graph.inputs.append(ONNXWriter.ValueInfo(name: input.name, elementType: type, shape: shape))
            inputs[input.name] = input.name
        }
        let outputs = try MILToONNX.lowerDescribed(
            program, blobs: blobs, inputs: inputs, into: &graph, namePrefix: "mil_")
        for output in program.mainOutputs {
            guard let value = outputs[output.name] else { continue }
            let name = output.name
            if value.name != name {
                graph.nodes.append(
                    ONNXWriter.Node(opType: "Identity", name: "output_\(name)", inputs: [value.name], outputs: [name]))
            }
            let shape = (value.shape ?? []).enumerated().map { i, d in
                d.map { ONNXWriter.Dimension.value($0) } ?? .param("\(name)_\(i)")
            }
            graph.outputs.append(ONNXWriter.ValueInfo(name: name, elementType: value.elementType, shape: shape))
        }
        var model = ONNXWriter.Model(opsetVersion: MILToONNX.opsetVersion, graph: graph)
        model.irVersion = 8
        return model
    }
}
