import Foundation
import Testing

@testable import OpenVisionConverters

/// The shared `.mlpackage` files (../shared/models/coreml) read and lowered: what the program declares
/// and the graph written (their numbers are checked through ONNX Runtime in OpenVisionTests'
/// MILSharedModelTests).
@Suite struct MILSharedPackageTests {
    /// Set MIL_ONNX_OUT=/path/x.onnx to keep the lowered MobileNetLike graph (Benchmarks/python/coreml_mil_speed.py).
    @Test func mobileNetLikeProgramAndGraph() throws {
        let (program, blobs) = try MILTestSupport.package(
            MILTestSupport.coreml.appendingPathComponent("MobileNetLike.mlpackage"))
        #expect(program.opset == "CoreML5")
        #expect(program.mainInputs == [MILValueDescription(name: "image", dataType: "fp32", shape: [1, 3, 224, 224])])
        #expect(
            program.mainOutputs == [
                MILValueDescription(name: "classLabel", dataType: "string", shape: []),
                MILValueDescription(name: "classLabel_probs", dataType: "dict", shape: []),
            ])
        // As coremltools' loader counts them, less the const it makes of classify's inline class list:
        //   collections.Counter(op.op_type for op in milproto_load(spec, ...).functions["main"].operations)
        #expect(
            program.opCounts == [
                "const": 419, "conv": 49, "clip": 33, "add": 10, "cast": 2, "mul": 1, "reduce_mean": 1,
                "reshape": 1, "linear": 1, "softmax": 1, "classify": 1,
            ])
        let classifier = try #require(program.classifier)
        #expect(
            classifier.labels.count == 1000 && classifier.labels[999] == "toilet tissue, toilet paper, bathroom tissue")
        #expect(classifier.probabilitiesSource == "classLabelProbs")
        let model = try MILTestSupport.onnxModel(program, blobs: blobs)
        let nodes = model.graph.nodes.map(\.opType)
        #expect(nodes.filter { $0 == "Conv" }.count == 49)
        #expect(nodes.filter { $0 == "Clip" }.count == 33)
        #expect(!nodes.contains("Cast"), "fp16 casts disappear: the graph computes in fp32")
        #expect(nodes.contains("GlobalAveragePool") && nodes.contains("Gemm") && nodes.contains("ArgMax"))
        // 4.63 M fp16 weights widened to float32 (weight.bin has 9.27 MB).
        let floats = model.graph.initializers.reduce(0) { $0 + $1.dims.reduce(1, *) }
        #expect(floats > 4_600_000 && floats < 4_700_000)
        if let out = ProcessInfo.processInfo.environment["MIL_ONNX_OUT"] {
            try model.serialized().write(to: URL(fileURLWithPath: out))
        }
    }

    @Test func yoloFastestProgramAndGraph() throws {
        let (program, blobs) = try MILTestSupport.package(
            MILTestSupport.coreml.appendingPathComponent("YoloFastestPipeline.mlpackage"))
        #expect(
            program.mainOutputs == [
                MILValueDescription(name: "raw_confidence", dataType: "fp32", shape: [1500, 80]),
                MILValueDescription(name: "raw_coordinates", dataType: "fp32", shape: [1500, 4]),
            ])
        #expect(
            program.opCounts["conv"] == 84 && program.opCounts["leaky_relu"] == 54
                && program.opCounts["upsample_nearest_neighbor"] == 1)
        #expect(program.classifier == nil)
        let model = try MILTestSupport.onnxModel(program, blobs: blobs)
        #expect(model.graph.nodes.filter { $0.opType == "Conv" }.count == 84)
        #expect(model.graph.nodes.filter { $0.opType == "Resize" }.count == 1)
    }
}
