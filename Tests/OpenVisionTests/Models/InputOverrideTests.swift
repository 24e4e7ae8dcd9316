import Foundation
import OpenVisionConverters
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Overridable model inputs (a Core ML detector pipeline's NMS thresholds) go through the backend protocol: a request
/// sets only the thresholds it was given, so a pipeline's own stand otherwise; a backend that cannot set an input
/// refuses (never drops it silently).
@Suite struct InputOverrideTests {
    static let layers = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/layers")

    static func onnxRuntime() -> VisionModel.Configuration {
        var c = VisionModel.Configuration()
        c.threads = 1
        c.backend = .onnxRuntime
        return c
    }

    /// The NonMaximumSuppression fixture (scripts/models/coreml_fixtures.py `nms_model`: IoU 0.5, confidence 0.3, per
    /// class) on its six boxes. Rows kept, from the generator's `nms_reference(conf, boxes, iou, conf_thr, True)`:
    /// 4 at the model's own 0.5 / 0.3 (its JSON's outputs), 5 at IoU 0.95 (0.95 / 0.3).
    @Test func aPipelinesThresholdsStandWhenUnset() throws {
        struct Values: Decodable {
            var name: String
            var shape: [Int]
            var values: [Float]
        }
        struct Reference: Decodable {
            var inputs: [Values]
            var outputs: [Values]
        }
        let reference = try JSONDecoder().decode(
            Reference.self, from: Data(contentsOf: Self.layers.appendingPathComponent("nms_per_class.json")))
        let model = try VisionModel(
            contentsOf: Self.layers.appendingPathComponent("nms_per_class.mlmodel"), configuration: Self.onnxRuntime())
        let nms = try #require(model.modelDescription.coreML?.nms)
        #expect(nms.iouThreshold == 0.5 && abs(nms.confidenceThreshold - 0.3) < 1e-6)
        let inputs = reference.inputs.map { Tensor(name: $0.name, shape: $0.shape, scalars: $0.values) }

        let unset = DetectObjectsRequest(model: model)
        #expect(unset.inputOverrides(for: model).isEmpty)
        #expect(unset.confidenceThreshold(for: model) == Float(0.3))
        let own = try model.prediction(from: inputs, overriding: unset.inputOverrides(for: model))
        #expect(own[0].shape == [4, 3] && own[0].scalars == reference.outputs[0].values)

        var set = unset
        set.iouThreshold = 0.95
        #expect(set.inputOverrides(for: model) == ["iouThreshold": 0.95])
        #expect(set.confidenceThreshold(for: model) == Float(0.3))
        #expect(try model.prediction(from: inputs, overriding: set.inputOverrides(for: model))[0].shape == [5, 3])
        set.confidenceThreshold = 0.25
        #expect(set.inputOverrides(for: model) == ["iouThreshold": 0.95, "confidenceThreshold": 0.25])
        #expect(set.confidenceThreshold(for: model) == 0.25)
    }

    /// A backend of one's own that declares an overridable input but cannot set it.
    struct FixedBackend: InferenceBackend {
        var name: String { "fixed-backend" }
        var inputs: [TensorDescription] { [TensorDescription(name: "x", shape: [1, 3, 8, 8])] }
        var outputs: [TensorDescription] { [TensorDescription(name: "y", shape: [1, 3, 8, 8])] }
        var overridableInputs: Set<String> { ["threshold"] }
        func metadata(_ key: String) -> String? { nil }
        func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] { inputs }
    }

    @Test func aBackendThatCannotSetAnInputRefuses() throws {
        let model = try VisionModel(backend: FixedBackend(), url: URL(fileURLWithPath: "/models/fixed.onnx"))
        let input = Tensor(name: "x", shape: [1, 3, 8, 8], scalars: [Float](repeating: 0.5, count: 192))
        #expect(try model.prediction(from: [input], overriding: [:])[0].scalars == input.scalars)
        #expect { _ = try model.prediction(from: [input], overriding: ["threshold": 0.5]) } throws: { error in
            let error = error as! VisionError
            return error.code == .unsupported
                && error.message.hasPrefix("fixed-backend cannot set the model's input 'threshold'")
        }
        #expect { _ = try model.prediction(from: [input], overriding: ["nosuch": 0.5]) } throws: { error in
            (error as! VisionError).code == .invalidArgument
        }
    }

    /// An ONNX graph with an overridable input (a graph input with a default, as a converted Core ML pipeline's
    /// thresholds): `out = images × scale`, `scale` defaulting to 2. ONNX Runtime sets it; OpenCV DNN runs it at its
    /// default and refuses to set it (before: the value was dropped without a word). Expected values: the product.
    @Test(arguments: [BackendChoice.onnxRuntime, .openCV])
    func onlyABackendThatCanSetAnInputTakesIt(_ backend: BackendChoice) throws {
        let shape: [ONNXWriter.Dimension] = [.value(1), .value(3), .value(4), .value(4)]
        var graph = ONNXWriter.Graph(name: "scaled")
        graph.inputs = [
            ONNXWriter.ValueInfo(name: "images", elementType: .float, shape: shape),
            ONNXWriter.ValueInfo(name: "scale", elementType: .float, shape: [.value(1)]),
        ]
        graph.outputs = [ONNXWriter.ValueInfo(name: "out", elementType: .float, shape: shape)]
        graph.initializers = [ONNXWriter.Tensor(name: "scale", dims: [1], floats: [2])]
        graph.nodes = [ONNXWriter.Node(opType: "Mul", name: "mul", inputs: ["images", "scale"], outputs: ["out"])]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-override-\(UUID()).onnx")
        try ONNXWriter.Model(opsetVersion: 13, graph: graph).serialized().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var configuration = VisionModel.Configuration()
        configuration.backend = backend
        let model = try VisionModel(contentsOf: url, configuration: configuration)
        #expect(model.backend.overridableInputs == ["scale"])
        let input = Tensor(name: "images", shape: [1, 3, 4, 4], scalars: (0..<48).map(Float.init))
        #expect(try model.prediction(from: [input])[0].scalars == input.scalars.map { $0 * 2 })
        switch backend {
        case .onnxRuntime:
            #expect(
                try model.prediction(from: [input], overriding: ["scale": 3])[0].scalars == input.scalars.map { $0 * 3 }
            )
        default:
            #expect { _ = try model.prediction(from: [input], overriding: ["scale": 3]) } throws: { error in
                let error = error as! VisionError
                return error.code == .unsupported
                    && error.message.hasPrefix("opencv-dnn 4.6 cannot set the model's input 'scale'")
            }
        }
    }
}
