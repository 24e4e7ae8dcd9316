import Foundation
import Testing

@testable import OpenVisionConverters

/// The updatable-model reader and trainer (`CoreMLUpdatableModel`, `CoreMLTrainableNetwork`) on the fixtures of
/// Tests/Fixtures/coreml/updatable, made by coremltools' builders (scripts/models/coreml_updatable_fixtures.py, whose
/// numpy transcription of the same SGD / Adam steps wrote the expected weights and losses into <name>.json), on
/// Apple's UpdatableDrawingClassifier, and on files made to break them.
@Suite struct CoreMLUpdatableModelTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/coreml/updatable")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name + ".mlmodel")))
    }

    static func json(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name + ".json")))
            as! [String: Any]
    }

    @Test func denseClassifierTrainsAsTheNumpyTranscription() throws {
        // Expected: dense_classifier.json (numpy, float64: SGD lr 0.1, momentum 0.9, batches of 4, 3 epochs).
        let model = try CoreMLUpdatableModel(bytes: try Self.bytes("dense_classifier"))
        #expect(model.prefix == nil)
        #expect(model.partInput == "features")
        #expect(model.targetName == "label")
        guard case .network(var network) = model.part else {
            Issue.record("not a network")
            return
        }
        #expect(network.layers.map(\.name) == ["dense1", "relu1", "dense2", "softmax"])
        #expect(network.optimizer == .sgd(learningRate: 0.1, momentum: 0.9))
        #expect(network.miniBatchSize == 4 && network.epochs == 3 && !network.shuffle)
        let expected = try Self.json("dense_classifier")
        let training = expected["training"] as! [[String: Any]]
        let examples = training.map { e -> (input: [Double], target: [Double]) in
            let label = network.classLabels.firstIndex(of: e["label"] as! String)!
            return ((e["features"] as! [Double]).map { Double(Float($0)) }, (0..<3).map { $0 == label ? 1 : 0 })
        }
        var losses: [Double] = []
        for epoch in 0..<network.epochs {
            let order = network.order(count: examples.count, epoch: epoch)
            for start in stride(from: 0, to: order.count, by: network.miniBatchSize) {
                losses.append(network.step(order[start..<min(start + 4, order.count)].map { examples[$0] }))
            }
        }
        let wantLosses = expected["miniBatchLosses"] as! [Double]
        #expect(losses.count == wantLosses.count)
        for (a, b) in zip(losses, wantLosses) { #expect(abs(a - b) <= 1e-5 * max(1, abs(b))) }
        // The written file holds the trained weights (as float32), and reads back as the same network.
        let written = try CoreMLUpdatableModel(bytes: try model.writing(network: network))
        guard case .network(let reread) = written.part else { return }
        let weights = expected["weights"] as! [String: [Double]]
        for layer in reread.layers {
            guard case .innerProduct(let p) = layer.kind else { continue }
            for (got, want) in zip(p.weights, weights[layer.name]!) { #expect(abs(got - want) <= 1e-5) }
            for (got, want) in zip(p.bias, weights[layer.name + "_bias"]!) { #expect(abs(got - want) <= 1e-5) }
            #expect(p.weights.count == weights[layer.name]!.count)
        }
        // Every field the trainer does not touch is as it was: same specification, labels and updateParams.
        #expect(written.trainingInputs == model.trainingInputs)
        guard case .network(let again) = written.part else { return }
        #expect(again.classLabels == ["cat", "dog", "fox"] && again.optimizer == network.optimizer)
    }

    @Test func regressorHasAnONNXPrefixAndAdam() throws {
        let model = try CoreMLUpdatableModel(bytes: try Self.bytes("dense_regressor"))
        #expect(model.prefix != nil)
        #expect(model.partInput == "hr" && model.partInputCount == 5 && model.targetName == "y_true")
        guard case .network(let network) = model.part else {
            Issue.record("not a network")
            return
        }
        #expect(network.loss == .meanSquaredError)
        #expect(network.optimizer == .adam(learningRate: 0.05, beta1: 0.9, beta2: 0.999, epsilon: 1e-8))
        // The prefix is a Core ML pipeline that reads as one (dense0 and relu0, output 'hr').
        let prefix = try CoreMLSpec(bytes: model.prefix!)
        #expect(prefix.description.outputs.map(\.name) == ["hr"])
        #expect(prefix.description.inputs.map(\.name) == ["x"])
    }

    @Test func updatableConvolutionIsRefusedByName() throws {
        #expect {
            try CoreMLUpdatableModel(bytes: try Self.bytes("conv_updatable"))
        } throws: { error in
            let e = error as? ConversionError
            return e?.code == .unsupported && e!.message.contains("'conv' (convolution)")
        }
    }

    @Test func knnAppendsSamplesAndLabels() throws {
        let model = try CoreMLUpdatableModel(bytes: try Self.bytes("knn_updatable"))
        guard case .nearestNeighbors(let knn) = model.part else {
            Issue.record("not a kNN")
            return
        }
        #expect(knn.dimensions == 4 && knn.sampleCount == 0 && knn.stringLabels)
        let samples: [Float] = [1, 2, 3, 4, 5, 6, 7, 8]
        let updated = try model.appending(samples: samples, stringLabels: ["a", "b"], int64Labels: [])
        let again = try CoreMLUpdatableModel(bytes: updated)
        guard case .nearestNeighbors(let grown) = again.part else { return }
        #expect(grown.sampleCount == 2)
        let twice = try again.appending(samples: [9, 9, 9, 9], stringLabels: ["c"], int64Labels: [])
        let spec = try CoreMLSpec(bytes: twice)
        guard case .classic(let classic) = spec.kind else { return }
        let index = try classic.nearestNeighbors()
        #expect(index.samples == samples + [9, 9, 9, 9])
        #expect(index.labels == .strings(["a", "b", "c"]))
        #expect(throws: ConversionError.self) {
            try model.appending(samples: [1, 2, 3], stringLabels: ["a"], int64Labels: [])
        }
    }

    @Test func drawingClassifierIsAnEmbedderThenAKNN() throws {
        let url = SharedFiles.shared.appendingPathComponent("models/coreml-wild/UpdatableDrawingClassifier.mlmodel")
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let model = try CoreMLUpdatableModel(bytes: [UInt8](try Data(contentsOf: url)))
        guard case .nearestNeighbors(let knn) = model.part else {
            Issue.record("not a kNN")
            return
        }
        #expect(knn.dimensions == 128 && knn.stringLabels)
        #expect(model.partInput == "embedding" && model.targetName == "label")
        let prefix = try CoreMLSpec(bytes: model.prefix!)
        #expect(prefix.description.inputs.map(\.name) == ["drawing"])
        #expect(prefix.description.outputs.map(\.name) == ["embedding"])
    }

    @Test func notUpdatableAndBrokenFilesAreErrors() throws {
        // A model whose isUpdatable is false: the dense classifier with Model field 10 removed.
        var bytes = try Self.bytes("dense_classifier")
        let stripped = try ProtoSplice.removing([10], from: bytes, 0..<bytes.count, context: "Model")
        #expect(throws: ConversionError.self) { try CoreMLUpdatableModel(bytes: stripped) }
        // Every truncation of a real file is an error or a model, never a crash.
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? CoreMLUpdatableModel(bytes: Array(bytes[0..<cut]))
        }
        bytes[bytes.count / 2] ^= 0xFF
        _ = try? CoreMLUpdatableModel(bytes: bytes)
        #expect(throws: ConversionError.self) {
            try ProtoSplice.editing(
                [0x0A, 0x05, 0x01], at: [ProtoSplice.Step(number: 1, occurrence: nil)], context: "t"
            ) {
                $0
            }
        }
    }
}
