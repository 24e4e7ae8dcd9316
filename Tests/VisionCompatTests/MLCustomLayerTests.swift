import CoreML
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// hollance's `Swish` as his app implements it (`x * sigmoid(x)`; the file's `beta` parameter is read, not used).
final class Swish: MLCustomLayer {
    nonisolated(unsafe) static var seenBeta: Double?
    nonisolated(unsafe) static var seenInputShapes: [[Int]] = []

    init(parameters: [String: Any]) throws { Self.seenBeta = parameters["beta"] as? Double }

    func setWeightData(_ weights: [Data]) throws {}

    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]] {
        Self.seenInputShapes = inputShapes.map { $0.map(\.intValue) }
        return inputShapes
    }

    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws {
        for (input, output) in zip(inputs, outputs) {
            let x = try UnsafeBufferPointer<Float>(input)
            let y = try UnsafeMutableBufferPointer<Float>(output)
            for i in 0..<input.count { y[i] = x[i] / (1 + exp(-x[i])) }
        }
    }
}

/// The fixture's `ChannelAffine`: `(x · scale[c] + shift[c]) · gain`, negatives clipped to 0 when `clip`, from its two
/// weight blobs and four parameters.
final class ChannelAffine: MLCustomLayer {
    let gain: Float
    let clip: Bool
    let channels: Int
    var scale: [Float] = []
    var shift: [Float] = []

    init(parameters: [String: Any]) throws {
        guard let gain = parameters["gain"] as? Double, parameters["mode"] as? String == "affine",
            let clip = parameters["clip"] as? Bool, let channels = parameters["channels"] as? Int
        else { throw MLModelError.generic("ChannelAffine: parameters \(parameters)") }
        self.gain = Float(gain)
        self.clip = clip
        self.channels = channels
    }

    func setWeightData(_ weights: [Data]) throws {
        let floats = weights.map { data in data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) } }
        guard floats.count == 2, floats.allSatisfy({ $0.count == channels }) else {
            throw MLModelError.generic("ChannelAffine: weights of \(weights.map(\.count)) bytes")
        }
        (scale, shift) = (floats[0], floats[1])
    }

    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]] { inputShapes }

    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws {
        let x = try UnsafeBufferPointer<Float>(inputs[0])
        let y = try UnsafeMutableBufferPointer<Float>(outputs[0])
        let plane = inputs[0].count / channels
        for i in 0..<inputs[0].count {
            let c = i / plane
            let v = (x[i] * scale[c] + shift[c]) * gain
            y[i] = clip ? max(0, v) : v
        }
    }
}

/// A `ChannelAffine` stand-in whose evaluation fails.
final class FailingAffine: MLCustomLayer {
    struct Refusal: Error, Equatable { let reason: String }
    init(parameters: [String: Any]) throws {}
    func setWeightData(_ weights: [Data]) throws {}
    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]] { inputShapes }
    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws { throw Refusal(reason: "no GPU here") }
}

/// A `ChannelAffine` stand-in whose output shapes are not a size.
final class NegativeShapeAffine: MLCustomLayer {
    init(parameters: [String: Any]) throws {}
    func setWeightData(_ weights: [Data]) throws {}
    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]] { [[3, -4, 5]] }
    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws {}
}

/// Core ML custom layers (`MLCustomLayer`) registered with `MLCustomLayerRegistry`, run at their place in the converted
/// graph by ONNX Runtime. Serialized: the registry is process-wide.
@Suite(.serialized) struct MLCustomLayerTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/custom")
    static let hollance = Fixtures.shared.appendingPathComponent(
        "models/coreml-wild/hollance-NeuralMcNeuralNet.mlmodel")
    static let affine = folder.appendingPathComponent("ChannelAffine.mlmodel")

    struct Affine: Decodable {
        var x: [Float]
        var y: [Float]
    }

    static func affineInput() throws -> (MLFeatureProvider, Affine) {
        let data = try JSONDecoder().decode(
            Affine.self, from: Data(contentsOf: folder.appendingPathComponent("ChannelAffine.json")))
        let x = MLMultiArray(shape: [3, 4, 5], values: data.x)
        return (try MLDictionaryFeatureProvider(dictionary: ["x": MLFeatureValue(multiArray: x)]), data)
    }

    @Test func swishModelGivesWhatItsWeightsCompute() throws {
        // Expected: NeuralMcNeuralNet.json, numpy on the file's own weights with Swish = x · sigmoid(x)
        // (/tmp/cmc/venv/bin/python scripts/models/coreml_custom_layer_fixtures.py).
        struct Reference: Decodable { var output: [Double] }
        let reference = try JSONDecoder().decode(
            Reference.self, from: Data(contentsOf: Self.folder.appendingPathComponent("NeuralMcNeuralNet.json")))
        MLCustomLayerRegistry.register(Swish.self, forClassName: "Swish")
        let model = try MLModel(contentsOf: Self.hollance)
        #expect(Swish.seenBeta == 0.01)
        // An old (rank-5) network: Core ML's [Seq, Batch, C, H, W].
        #expect(Swish.seenInputShapes == [[1, 1, 6, 256, 256]])
        let image = try MLFeatureValue(
            imageAt: Self.folder.appendingPathComponent("swish_input.png"), pixelsWide: 256, pixelsHigh: 256,
            pixelFormatType: kCVPixelFormatType_32BGRA, options: nil)
        let out = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: ["image": image]))
        let probabilities = try #require(out.featureValue(for: "output")?.multiArrayValue).doubleValues
        #expect(probabilities.count == 10)
        for (got, want) in zip(probabilities, reference.output) {
            #expect(abs(got - want) <= 1e-4, "\(got) vs \(want)")
        }
    }

    @Test func layerGetsItsWeightsAndParameters() throws {
        MLCustomLayerRegistry.register(ChannelAffine.self)
        let model = try MLModel(contentsOf: Self.affine)
        let (input, expected) = try Self.affineInput()
        let y = try #require(model.prediction(from: input).featureValue(for: "y")?.multiArrayValue)
        #expect(y.shape.map(\.intValue) == [3, 4, 5])
        // Expected: ChannelAffine.json, numpy's sigmoid(max(0, (x · scale[c] + shift[c]) · 1.5)).
        for (got, want) in zip(y.values, expected.y) { #expect(abs(got - want) <= 1e-5) }
    }

    @Test func unregisteredClassIsRefusedNamingTheRegistration() throws {
        MLCustomLayerRegistry.unregister(className: "ChannelAffine")
        #expect {
            _ = try VisionModel(contentsOf: Self.affine)
        } throws: { error in
            let error = error as? VisionError
            return error?.code == .unsupported
                && error?.message.contains(
                    "MLCustomLayerRegistry.register(ChannelAffine.self, forClassName: \"ChannelAffine\")") == true
        }
        #expect(throws: MLModelError.self) { _ = try MLModel(contentsOf: Self.affine) }
    }

    @Test func failingLayerFailsThePredictionWithItsError() throws {
        MLCustomLayerRegistry.register(FailingAffine.self, forClassName: "ChannelAffine")
        defer { MLCustomLayerRegistry.register(ChannelAffine.self) }
        let model = try VisionModel(contentsOf: Self.affine)
        let x = try MultiArray(shape: [3, 4, 5], elements: .float32(Array(repeating: 1, count: 60)))
        #expect {
            _ = try model.prediction(features: ["x": .multiArray(x)])
        } throws: { error in
            let error = error as? VisionError
            return error?.code == .customLayer && error?.message.contains("'affine' (ChannelAffine)") == true
                && (error?.cause as? FailingAffine.Refusal) == FailingAffine.Refusal(reason: "no GPU here")
        }
        // The model still runs afterwards with a working class (a new load).
        MLCustomLayerRegistry.register(ChannelAffine.self)
        let (input, expected) = try Self.affineInput()
        let y = try #require(MLModel(contentsOf: Self.affine).prediction(from: input).featureValue(for: "y"))
        #expect(abs((y.multiArrayValue?.values.first ?? -1) - expected.y[0]) <= 1e-5)
    }

    @Test func outputShapesThatAreNotASizeAreRefused() throws {
        MLCustomLayerRegistry.register(NegativeShapeAffine.self, forClassName: "ChannelAffine")
        defer { MLCustomLayerRegistry.register(ChannelAffine.self) }
        #expect {
            _ = try VisionModel(contentsOf: Self.affine)
        } throws: { error in
            (error as? VisionError)?.code == .customLayer
                && (error as? VisionError)?.message.contains("[3, -4, 5]") == true
        }
    }

    @Test func openCVRefusesCustomLayerGraphs() throws {
        MLCustomLayerRegistry.register(ChannelAffine.self)
        var configuration = VisionModel.Configuration()
        configuration.backend = .openCV
        #expect {
            _ = try VisionModel(contentsOf: Self.affine, configuration: configuration)
        } throws: { error in
            (error as? VisionError)?.code == .unsupported
                && (error as? VisionError)?.message.contains("only on ONNX Runtime") == true
        }
    }
}
