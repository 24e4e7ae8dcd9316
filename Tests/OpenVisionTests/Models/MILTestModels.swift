import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@testable import OpenVisionConverters

/// ML Programs as one-graph ONNX files for the tests that run them (the lowering plus the graph
/// inputs and outputs a caller adds), and the programs of the shared `.mlpackage` files.
enum MILTestModels {
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")

    /// The program as an ONNX file: its inputs as graph inputs (flexible dimensions symbolic), its
    /// outputs renamed to the program's names as graph outputs.
    static func onnxFile(_ program: MILProgram, blobs: (String) throws -> MILWeightBlobFile) throws -> URL {
        var graph = ONNXWriter.Graph(name: "mil")
        var inputs: [String: String] = [:]
        for input in program.mainInputs {
            let type = try #require(MILToONNX.onnxElementType(for: input.dataType))
            graph.inputs.append(
                ONNXWriter.ValueInfo(
                    name: input.name, elementType: type,
                    shape: input.shape.enumerated().map { i, d in
                        d.map { .value($0) } ?? .param("\(input.name)_\(i)")
                    }))
            inputs[input.name] = input.name
        }
        let outputs = try MILToONNX.lowerDescribed(
            program, blobs: blobs, inputs: inputs, into: &graph, namePrefix: "mil/")
        for output in program.mainOutputs {
            let value = try #require(outputs[output.name])
            graph.nodes.append(
                ONNXWriter.Node(
                    opType: "Identity", name: "output/\(output.name)", inputs: [value.name], outputs: [output.name]))
            graph.outputs.append(
                ONNXWriter.ValueInfo(
                    name: output.name, elementType: value.elementType,
                    shape: (value.shape ?? []).enumerated().map { i, d in
                        d.map { .value($0) } ?? .param("\(output.name)_\(i)")
                    }))
        }
        var model = ONNXWriter.Model(opsetVersion: MILToONNX.opsetVersion, graph: graph)
        model.irVersion = 8
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mil-\(UUID()).onnx")
        try model.serialized().write(to: url)
        return url
    }

    /// An `.mlpackage`'s ML Program (the first of a pipeline) and a resolver of its weight files.
    static func package(_ name: String) throws -> (MILProgram, (String) throws -> MILWeightBlobFile) {
        let root = coreml.appendingPathComponent(name).appendingPathComponent("Data/com.apple.CoreML")
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent("model.mlmodel")))
        let range = try #require(programRange(bytes), "no mlProgram in \(name)")
        return (
            try MILProgram(serialized: bytes[range]),
            { path in
                let relative = path.hasPrefix("@model_path/") ? String(path.dropFirst("@model_path/".count)) : path
                return try MILWeightBlobFile(
                    bytes: [UInt8](try Data(contentsOf: root.appendingPathComponent(relative))))
            }
        )
    }

    /// Where Model.proto's `mlProgram` (field 502) is, looking into pipelines (fields 200–202 → `models` 1).
    static func programRange(_ model: [UInt8]) -> Range<Int>? {
        model.withUnsafeBytes { raw -> Range<Int>? in
            func search(_ body: Slice<UnsafeRawBufferPointer>, depth: Int) -> Range<Int>? {
                guard depth < 4 else { return nil }
                var reader = ProtoReader(body)
                while let (field, value) = reader.next() {
                    guard case .bytes(let b) = value else { continue }
                    if field == 502 { return b.startIndex..<b.endIndex }
                    if (200...202).contains(field) || (depth > 0 && field == 1), let found = search(b, depth: depth + 1)
                    {
                        return found
                    }
                }
                return nil
            }
            return search(raw[...], depth: 0)
        }
    }

    /// An RGB image as a [1, 3, H, W] tensor of 0…255 pixel values (a program's image input).
    static func pixels(_ url: URL, name: String) throws -> OpenVision.Tensor {
        let image = try OpenVision.VisionImage(contentsOf: url)
        let rgb = [UInt8](image.rgbData())
        let plane = image.width * image.height
        var values = [Float](repeating: 0, count: 3 * plane)
        for i in 0..<plane { for c in 0..<3 { values[c * plane + i] = Float(rgb[i * 3 + c]) } }
        return OpenVision.Tensor(name: name, shape: [1, 3, image.height, image.width], scalars: values)
    }
}
