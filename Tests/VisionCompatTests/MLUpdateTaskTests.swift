import CoreML
import Foundation
import OpenVisionTestSupport
import Testing

/// Core ML's on-device updates (`MLUpdateTask`, `MLUpdateContext`, `MLUpdateProgressHandlers`, `MLModel.write(to:)`)
/// on the fixtures of Tests/Fixtures/coreml/updatable (coremltools' builders; expected values from a numpy
/// transcription of the same training steps: scripts/models/coreml_updatable_fixtures.py) and on Apple's
/// UpdatableDrawingClassifier (an embedder feeding an empty updatable kNN, as the "Personalizing a Model with On-Device
/// Updates" sample updates it). Waits are generous deadlines on events, never time budgets.
@Suite struct MLUpdateTaskTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/updatable")
    static let drawing = Fixtures.shared.appendingPathComponent("models/coreml-wild/UpdatableDrawingClassifier.mlmodel")

    static func json(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name + ".json")))
            as! [String: Any]
    }

    static func array(_ values: [Double]) -> MLMultiArray {
        MLMultiArray(shape: [values.count], values: values.map { Float($0) })
    }

    /// The fixture's training examples as providers (arrays as float32 multi-arrays, labels as strings).
    static func training(_ name: String) throws -> MLArrayBatchProvider {
        let examples = try json(name)["training"] as! [[String: Any]]
        return MLArrayBatchProvider(
            array: try examples.map { e in
                var values: [String: MLFeatureValue] = [:]
                for (key, value) in e {
                    if let s = value as? String {
                        values[key] = MLFeatureValue(string: s)
                    } else {
                        values[key] = MLFeatureValue(multiArray: array(value as! [Double]))
                    }
                }
                return try MLDictionaryFeatureProvider(dictionary: values)
            })
    }

    /// Runs `task` and waits (up to 5 minutes) for its completion handler's context.
    final class Run: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var context: MLUpdateContext?
        var events: [(MLUpdateProgressEvent, [MLMetricKey: Any])] = []
        let lock = NSLock()

        func handlers(_ events: MLUpdateProgressEvent, cancelAt: MLUpdateProgressEvent? = nil)
            -> MLUpdateProgressHandlers
        {
            MLUpdateProgressHandlers(
                forEvents: events,
                progressHandler: { context in
                    self.lock.lock()
                    self.events.append((context.event, context.metrics))
                    self.lock.unlock()
                    if context.event == cancelAt { context.task.cancel() }
                },
                completionHandler: { context in
                    self.context = context
                    self.done.signal()
                })
        }

        func wait() throws -> MLUpdateContext {
            guard done.wait(timeout: .now() + 300) == .success, let context else {
                throw MLModelError.generic("the update did not complete")
            }
            return context
        }
    }

    static func label(_ model: MLModel, _ features: [String: MLFeatureValue], _ output: String = "label") throws
        -> String
    {
        try model.prediction(from: MLDictionaryFeatureProvider(dictionary: features)).featureValue(for: output)!
            .stringValue
    }

    @Test func knnLearnsItsExamplesAndIsWrittenAndUpdatedAgain() throws {
        let url = Self.folder.appendingPathComponent("knn_updatable.mlmodel")
        let run = Run()
        let task = try MLUpdateTask(
            forModelAt: url, trainingData: try Self.training("knn_updatable"), configuration: nil,
            progressHandlers: run.handlers([.trainingBegin, .epochEnd]))
        #expect(task.state == .suspended)
        task.resume()
        let context = try run.wait()
        #expect(task.state == .completed)
        #expect(task.error == nil)
        #expect(run.events.map { $0.0 } == [.trainingBegin, .epochEnd])
        let expected = try Self.json("knn_updatable")
        let queries = expected["queries"] as! [[Double]]
        let labels = expected["labels"] as! [String]
        // Before: the empty index answers its default label; after: the taught labels.
        let before = try MLModel(contentsOf: url)
        #expect(try Self.label(before, ["features": MLFeatureValue(multiArray: Self.array(queries[0]))]) == "unknown")
        for (q, want) in zip(queries, labels) {
            #expect(try Self.label(context.model, ["features": MLFeatureValue(multiArray: Self.array(q))]) == want)
        }
        // Written as a .mlmodel and as a compiled folder (into a folder created first, as Apple's sample does); both
        // load and answer the same, and the compiled folder is updated again.
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("taught.mlmodel")
        let compiled = dir.appendingPathComponent("taught.mlmodelc")
        try FileManager.default.createDirectory(at: compiled, withIntermediateDirectories: true)
        try context.model.write(to: file)
        try context.model.write(to: compiled)
        for reloaded in [try MLModel(contentsOf: file), try MLModel(contentsOf: compiled)] {
            for (q, want) in zip(queries, labels) {
                #expect(try Self.label(reloaded, ["features": MLFeatureValue(multiArray: Self.array(q))]) == want)
            }
        }
        let west = try MLArrayBatchProvider(dictionary: [
            "features": [Self.array([-5, 0, 0, 0]), Self.array([-5.2, 0.1, 0, 0]), Self.array([-4.9, 0, 0.2, 0])],
            "label": ["west", "west", "west"],
        ])
        let again = Run()
        try MLUpdateTask(
            forModelAt: compiled, trainingData: west, completionHandler: again.handlers([]).completionHandler
        )
        .resume()
        let second = try again.wait()
        #expect(
            try Self.label(second.model, ["features": MLFeatureValue(multiArray: Self.array([-4.8, 0, 0, 0]))])
                == "west")
        #expect(
            try Self.label(second.model, ["features": MLFeatureValue(multiArray: Self.array(queries[0]))]) == "north")
    }

    @Test func innerProductUpdateMatchesNumpySGD() throws {
        // Expected: dense_classifier.json — numpy's SGD (lr 0.1, momentum 0.9, mini-batches of 4, 3 epochs) on the
        // same examples: each mini-batch's mean cross-entropy, and the trained network's probabilities.
        let run = Run()
        let task = try MLUpdateTask(
            forModelAt: Self.folder.appendingPathComponent("dense_classifier.mlmodel"),
            trainingData: try Self.training("dense_classifier"), configuration: nil,
            progressHandlers: run.handlers([.miniBatchEnd, .epochEnd]))
        task.resume()
        let context = try run.wait()
        #expect(task.state == .completed)
        let expected = try Self.json("dense_classifier")
        let losses = run.events.filter { $0.0 == .miniBatchEnd }.map { $0.1[.lossValue] as! Double }
        let want = expected["miniBatchLosses"] as! [Double]
        #expect(losses.count == want.count)
        for (a, b) in zip(losses, want) { #expect(abs(a - b) <= 1e-5 * max(1, abs(b))) }
        let epochs = run.events.filter { $0.0 == .epochEnd }.map { $0.1[.epochIndex] as! Int }
        #expect(epochs == [0, 1, 2])
        #expect(
            run.events.filter { $0.0 == .miniBatchEnd }.map { $0.1[.miniBatchIndex] as! Int } == [
                0, 1, 2, 0, 1, 2, 0, 1, 2,
            ])
        let queries = expected["queries"] as! [[Double]]
        let probabilities = expected["probabilities"] as! [[String: Double]]
        for (q, p) in zip(queries, probabilities) {
            let out = try context.model.prediction(
                from: MLDictionaryFeatureProvider(dictionary: ["features": MLFeatureValue(multiArray: Self.array(q))]))
            let got = out.featureValue(for: "probs")!.dictionaryValue
            for (label, value) in p { #expect(abs((got[label] ?? -1) - value) <= 1e-5) }
            #expect(out.featureValue(for: "label")!.stringValue == p.max { $0.value < $1.value }!.key)
        }
    }

    @Test func adamWithAnONNXRunPrefixMatchesNumpy() throws {
        // Expected: dense_regressor.json — numpy's Adam (lr 0.05, batches of 3, 2 epochs) on dense1 after the frozen
        // dense0 + ReLU (run here by ONNX Runtime), mean squared error against y_true.
        let run = Run()
        try MLUpdateTask(
            forModelAt: Self.folder.appendingPathComponent("dense_regressor.mlmodel"),
            trainingData: try Self.training("dense_regressor"), completionHandler: run.handlers([]).completionHandler
        ).resume()
        let context = try run.wait()
        #expect(context.task.state == .completed)
        let expected = try Self.json("dense_regressor")
        for (q, want) in zip(expected["queries"] as! [[Double]], expected["outputs"] as! [[Double]]) {
            let out = try context.model.prediction(
                from: MLDictionaryFeatureProvider(dictionary: ["x": MLFeatureValue(multiArray: Self.array(q))]))
            let got = out.featureValue(for: "y")!.multiArrayValue!.doubleValues
            #expect(got.count == want.count)
            for (a, b) in zip(got, want) { #expect(abs(a - b) <= 1e-5) }
        }
    }

    @Test func cancelStopsWithTheOriginalModel() throws {
        let run = Run()
        let task = try MLUpdateTask(
            forModelAt: Self.folder.appendingPathComponent("dense_classifier.mlmodel"),
            trainingData: try Self.training("dense_classifier"), configuration: nil,
            progressHandlers: run.handlers([.miniBatchEnd], cancelAt: .miniBatchEnd))
        task.resume()
        let context = try run.wait()
        #expect(task.state == .cancelling)
        #expect(run.events.count == 1)
        // The model handed back is the file's (untrained): its probabilities are not the numpy-trained ones.
        let q = (try Self.json("dense_classifier")["queries"] as! [[Double]])[0]
        let original = try MLModel(contentsOf: Self.folder.appendingPathComponent("dense_classifier.mlmodel"))
        let input = try MLDictionaryFeatureProvider(dictionary: ["features": MLFeatureValue(multiArray: Self.array(q))])
        #expect(
            try context.model.prediction(from: input).featureValue(for: "probs")!.dictionaryValue
                == original.prediction(from: input).featureValue(for: "probs")!.dictionaryValue)
    }

    @Test func refusalsAndWrongTrainingData() throws {
        // An updatable convolution: refused naming the layer.
        #expect {
            try MLUpdateTask(
                forModelAt: Self.folder.appendingPathComponent("conv_updatable.mlmodel"),
                trainingData: MLArrayBatchProvider(array: []), configuration: nil, completionHandler: { _ in })
        } throws: { error in
            guard case .generic(let m) = error as? MLModelError else { return false }
            return m.contains("'conv' (convolution)")
        }
        // A model that is not updatable.
        #expect(throws: MLModelError.self) {
            try MLUpdateTask(
                forModelAt: Fixtures.shared.appendingPathComponent("models/coreml/MobileNetLike.mlmodel"),
                trainingData: MLArrayBatchProvider(array: []), configuration: nil, completionHandler: { _ in })
        }
        func featureTypeError(_ model: String, _ data: [String: [Any]]) -> Bool {
            do {
                _ = try MLUpdateTask(
                    forModelAt: Self.folder.appendingPathComponent(model + ".mlmodel"),
                    trainingData: try MLArrayBatchProvider(dictionary: data), configuration: nil,
                    completionHandler: { _ in })
                return false
            } catch MLModelError.featureType {
                return true
            } catch {
                return false
            }
        }
        let x = Self.array([1, 2, 3, 4])
        // A kNN label that is a number, not a string; a missing input; a class the classifier does not have; a
        // multi-array where a label is due; an MSE target of the wrong size.
        #expect(featureTypeError("knn_updatable", ["features": [x], "label": [3.0]]))
        #expect(featureTypeError("knn_updatable", ["label": ["north"]]))
        #expect(featureTypeError("dense_classifier", ["features": [x], "label": ["wolf"]]))
        #expect(featureTypeError("dense_classifier", ["features": ["text"], "label": ["cat"]]))
        #expect(
            featureTypeError("dense_regressor", ["x": [Self.array([1, 2, 3])], "y_true": [Self.array([1, 2, 3])]]))
    }

    @Test func drawingClassifierLearnsDigitsAsAppleSampleUpdatesIt() throws {
        guard FileManager.default.fileExists(atPath: Self.drawing.path) else { return }
        let inputs = Fixtures.shared.appendingPathComponent("models/coreml-wild/inputs")
        func drawing(_ name: String) throws -> MLFeatureValue {
            try MLFeatureValue(
                imageAt: inputs.appendingPathComponent(name + ".png"), pixelsWide: 28, pixelsHigh: 28,
                pixelFormatType: kCVPixelFormatType_OneComponent8, options: nil)
        }
        let names = ["zero", "one", "seven"]
        let data = try MLArrayBatchProvider(dictionary: [
            "drawing": try names.map(drawing), "label": names.map { "digit \($0)" },
        ])
        let run = Run()
        try MLUpdateTask(
            forModelAt: Self.drawing, trainingData: data, configuration: nil,
            completionHandler: run.handlers([]).completionHandler
        ).resume()
        let context = try run.wait()
        #expect(context.task.state == .completed, "\(String(describing: context.task.error))")
        for name in names {
            #expect(try Self.label(context.model, ["drawing": try drawing(name)]) == "digit \(name)")
        }
    }
}
