import Foundation
import OpenVision
internal import OpenVisionConverters

/// Core ML's `MLUpdateTask`: updates an updatable Core ML model with training data, in the background once
/// `resume()` is called, and hands the updated model to the completion handler (`MLUpdateContext.model`, saved with
/// `write(to:)`). Two kinds of update are supported (docs/coreml.md, "Updatable models"):
/// - an updatable `kNearestNeighborsClassifier` (alone, or last in a pipeline such as Apple's
///   UpdatableDrawingClassifier): each example's input (as the pipeline's earlier models compute it) is appended to
///   the index with its label;
/// - a neural network's updatable `innerProduct` layers, trained as the file's `updateParams` say (categorical
///   cross-entropy or mean squared error; SGD with momentum or Adam; mini-batch size, epochs, shuffle).
///
/// The initializer loads the model and checks the training data: a model that is not updatable, or whose updatable
/// part is of another kind (an updatable convolution, …), throws `MLModelError.generic` naming it; a training example
/// without a training input, or with one of the wrong type, throws `MLModelError.featureType` naming it and its index.
/// Handlers are called on the task's background queue.
open class MLUpdateTask: MLTask {
    /// An example's target, as the training data gives it.
    enum Target {
        case label(String)
        case int64(Int64)
        case values([Double])
    }

    private let updatable: CoreMLUpdatableModel
    private let original: MLModel
    private let trainingData: MLBatchProvider
    private let configuration: MLModelConfiguration
    private let handlers: MLUpdateProgressHandlers
    private let name: String
    private let targets: [Target]

    /// A task updating the model at `modelURL` (a `.mlmodel`, `.mlpackage`, or a folder OpenVision compiled from an
    /// updatable model) with `trainingData` (each provider holds the model's training inputs), calling
    /// `completionHandler` at the end.
    public convenience init(
        forModelAt modelURL: URL, trainingData: MLBatchProvider, configuration: MLModelConfiguration?,
        completionHandler: @escaping (MLUpdateContext) -> Void
    ) throws {
        try self.init(
            forModelAt: modelURL, trainingData: trainingData, configuration: configuration,
            progressHandlers: MLUpdateProgressHandlers(
                forEvents: [], progressHandler: nil, completionHandler: completionHandler))
    }

    /// `init(forModelAt:trainingData:configuration:completionHandler:)` with the default configuration.
    public convenience init(
        forModelAt modelURL: URL, trainingData: MLBatchProvider, completionHandler: @escaping (MLUpdateContext) -> Void
    ) throws {
        try self.init(
            forModelAt: modelURL, trainingData: trainingData, configuration: nil, completionHandler: completionHandler)
    }

    /// `init(forModelAt:trainingData:configuration:progressHandlers:)` with the default configuration.
    public convenience init(
        forModelAt modelURL: URL, trainingData: MLBatchProvider, progressHandlers: MLUpdateProgressHandlers
    ) throws {
        try self.init(
            forModelAt: modelURL, trainingData: trainingData, configuration: nil, progressHandlers: progressHandlers)
    }

    /// A task updating the model at `modelURL` with `trainingData`, reporting the events `progressHandlers` asks for.
    public init(
        forModelAt modelURL: URL, trainingData: MLBatchProvider, configuration: MLModelConfiguration?,
        progressHandlers: MLUpdateProgressHandlers
    ) throws {
        let configuration = configuration ?? MLModelConfiguration()
        do {
            updatable = try CoreMLUpdatableModel(bytes: try CoreMLUpdatableModel.specification(at: modelURL))
        } catch let error as ConversionError {
            throw error.code == .io
                ? MLModelError.io("\(modelURL.path): \(error.message)")
                : MLModelError.generic("\(modelURL.lastPathComponent) cannot be updated: \(error.message)")
        }
        let model = try MLModel(contentsOf: modelURL, configuration: configuration)
        model.specification = updatable.bytes
        original = model
        self.trainingData = trainingData
        self.configuration = configuration
        self.handlers = progressHandlers
        name = modelURL.deletingPathExtension().lastPathComponent
        targets = try Self.targets(trainingData, updatable)
        super.init()
    }

    private struct Cancelled: Error {}

    override func main() {
        do {
            report(.trainingBegin, original, [:])
            let inputs = try partInputs()
            switch updatable.part {
            case .nearestNeighbors(let knn): try updateNearestNeighbors(knn, inputs)
            case .network(let network): try train(network, inputs)
            }
        } catch is Cancelled {
            handlers.completionHandler(MLUpdateContext(task: self, model: original, event: [], metrics: [:]))
        } catch {
            setState(.failed, error: error as? MLModelError ?? MLModelError.generic("\(error)"))
            handlers.completionHandler(MLUpdateContext(task: self, model: original, event: [], metrics: [:]))
        }
    }

    private func checkCancelled() throws {
        if state == .cancelling { throw Cancelled() }
    }

    private func report(
        _ event: MLUpdateProgressEvent, _ model: @autoclosure () throws -> MLModel, _ metrics: [MLMetricKey: Any]
    )
        rethrows
    {
        guard handlers.interestedEvents.contains(event), let progress = handlers.progressHandler else { return }
        progress(MLUpdateContext(task: self, model: try model(), event: event, metrics: metrics))
    }

    private func finish(_ bytes: [UInt8], _ metrics: [MLMetricKey: Any]) throws {
        try checkCancelled()
        let model = try MLModel.loading(specification: bytes, name: name, configuration: configuration)
        setState(.completed)
        handlers.completionHandler(MLUpdateContext(task: self, model: model, event: [], metrics: metrics))
    }

    // MARK: kNN

    private func updateNearestNeighbors(_ knn: CoreMLUpdatableModel.NearestNeighbors, _ inputs: [[Float]]) throws {
        var strings: [String] = []
        var ints: [Int64] = []
        for target in targets {
            switch target {
            case .label(let s): strings.append(s)
            case .int64(let i): ints.append(i)
            case .values: break
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try updatable.appending(samples: inputs.flatMap { $0 }, stringLabels: strings, int64Labels: ints)
        } catch let error as ConversionError {
            throw MLModelError.generic(error.message)
        }
        try checkCancelled()
        let metrics: [MLMetricKey: Any] = [.epochIndex: 0]
        if handlers.interestedEvents.contains(.epochEnd) {
            let model = try MLModel.loading(specification: bytes, name: name, configuration: configuration)
            report(.epochEnd, model, metrics)
            try checkCancelled()
            setState(.completed)
            handlers.completionHandler(MLUpdateContext(task: self, model: model, event: [], metrics: metrics))
            return
        }
        try finish(bytes, metrics)
    }

    // MARK: Networks

    private func train(_ initial: CoreMLTrainableNetwork, _ inputs: [[Float]]) throws {
        var network = initial
        let examples = zip(inputs, targets).map { input, target in
            (input: input.map { Double($0) }, target: Self.vector(target, network))
        }
        var metrics: [MLMetricKey: Any] = [:]
        for epoch in 0..<network.epochs {
            let order = network.order(count: examples.count, epoch: epoch)
            var total = 0.0
            var batchIndex = 0
            for start in stride(from: 0, to: order.count, by: network.miniBatchSize) {
                try checkCancelled()
                let batch = order[start..<min(start + network.miniBatchSize, order.count)].map { examples[$0] }
                let loss = network.step(batch)
                total += loss * Double(batch.count)
                try report(
                    .miniBatchEnd, try model(network),
                    [.lossValue: loss, .epochIndex: epoch, .miniBatchIndex: batchIndex])
                batchIndex += 1
            }
            metrics = [.lossValue: total / Double(max(examples.count, 1)), .epochIndex: epoch]
            try report(.epochEnd, try model(network), metrics)
        }
        try finish(try bytes(network), metrics)
    }

    private func bytes(_ network: CoreMLTrainableNetwork) throws -> [UInt8] {
        do {
            return try updatable.writing(network: network)
        } catch let error as ConversionError {
            throw MLModelError.generic(error.message)
        }
    }

    private func model(_ network: CoreMLTrainableNetwork) throws -> MLModel {
        try MLModel.loading(specification: try bytes(network), name: name, configuration: configuration)
    }

    /// A target as the network's loss takes it: one-hot for cross-entropy, the values for squared error.
    static func vector(_ target: Target, _ network: CoreMLTrainableNetwork) -> [Double] {
        guard network.loss == .categoricalCrossEntropy else {
            if case .values(let v) = target { return v }
            return []
        }
        var index = 0
        switch target {
        case .label(let s): index = network.classLabels.firstIndex(of: s) ?? 0
        case .int64(let i):
            index = network.classLabels.isEmpty ? Int(i) : network.classLabels.firstIndex(of: String(i)) ?? 0
        case .values(let v): index = Int(v.first ?? 0)
        }
        var onehot = [Double](repeating: 0, count: network.outputCount)
        onehot[index] = 1
        return onehot
    }

    // MARK: Training data

    /// The updated part's input for every example: the training input itself, or what the model's earlier part
    /// (pipeline models, network layers) computes from the example.
    private func partInputs() throws -> [[Float]] {
        var prefixModel: MLModel?
        if let prefix = updatable.prefix {
            prefixModel = try MLModel.loading(
                specification: prefix, name: name + "-input", configuration: configuration)
        }
        var result: [[Float]] = []
        result.reserveCapacity(trainingData.count)
        for i in 0..<trainingData.count {
            try checkCancelled()
            let example = trainingData.features(at: i)
            let value: MLFeatureValue?
            if let prefixModel {
                value = try prefixModel.prediction(from: example).featureValue(for: updatable.partInput)
            } else {
                value = example.featureValue(for: updatable.partInput)
            }
            let values = value.flatMap(Self.numbers) ?? []
            guard values.count == updatable.partInputCount else {
                throw MLModelError.featureType(
                    "training example \(i): '\(updatable.partInput)' has \(values.count) values where the "
                        + "updatable part takes \(updatable.partInputCount)")
            }
            result.append(values.map { Float($0) })
        }
        return result
    }

    /// A number or multi-array feature's values; nil for other types.
    static func numbers(_ value: MLFeatureValue) -> [Double]? {
        switch value.type {
        case .multiArray: value.multiArrayValue?.doubleValues
        case .double: [value.doubleValue]
        case .int64: [Double(value.int64Value)]
        default: nil
        }
    }

    /// Each example's target, checked against what the model takes (label type, class, number of values), and each
    /// example's inputs checked to be present.
    static func targets(_ data: MLBatchProvider, _ model: CoreMLUpdatableModel) throws -> [Target] {
        let name = model.targetName
        var result: [Target] = []
        result.reserveCapacity(data.count)
        for i in 0..<data.count {
            let example = data.features(at: i)
            for feature in model.trainingInputs where feature.name != name {
                guard let v = example.featureValue(for: feature.name), !v.isUndefined else {
                    throw MLModelError.featureType("training example \(i) has no feature '\(feature.name)'")
                }
                if case .image = feature.type, v.type != .image {
                    throw MLModelError.featureType(
                        "training example \(i): '\(feature.name)' is a \(v.type), not an image")
                }
                if case .multiArray = feature.type, numbers(v) == nil {
                    throw MLModelError.featureType(
                        "training example \(i): '\(feature.name)' is a \(v.type), not a multi-array")
                }
            }
            guard let value = example.featureValue(for: name), !value.isUndefined else {
                throw MLModelError.featureType("training example \(i) has no target feature '\(name)'")
            }
            result.append(try target(value, example: i, name: name, model: model))
        }
        return result
    }

    private static func target(_ value: MLFeatureValue, example i: Int, name: String, model: CoreMLUpdatableModel)
        throws -> Target
    {
        func wrong(_ expected: String) -> MLModelError {
            MLModelError.featureType("training example \(i): '\(name)' is a \(value.type), not \(expected)")
        }
        switch model.part {
        case .nearestNeighbors(let knn):
            if knn.stringLabels {
                guard value.type == .string else { throw wrong("a string label") }
                return .label(value.stringValue)
            }
            guard value.type == .int64 else { throw wrong("an int64 label") }
            return .int64(value.int64Value)
        case .network(let network):
            if network.loss == .meanSquaredError {
                guard let v = numbers(value) else { throw wrong("a multi-array") }
                guard v.count == network.outputCount, v.allSatisfy(\.isFinite) else {
                    throw MLModelError.featureType(
                        "training example \(i): '\(name)' has \(v.count) values for \(network.outputCount) outputs")
                }
                return .values(v)
            }
            let target: Target
            let index: Int?
            switch value.type {
            case .string:
                target = .label(value.stringValue)
                index = network.classLabels.firstIndex(of: value.stringValue)
            case .int64:
                target = .int64(value.int64Value)
                index =
                    network.classLabels.isEmpty
                    ? Int(exactly: value.int64Value) : network.classLabels.firstIndex(of: String(value.int64Value))
            default:
                guard let v = numbers(value), let first = v.first, first.isFinite, first == first.rounded(),
                    abs(first) < 1e9
                else { throw wrong("a class label or index") }
                target = .values([first])
                index = Int(first)
            }
            guard let index, (0..<network.outputCount).contains(index) else {
                throw MLModelError.featureType(
                    "training example \(i): '\(name)' is not one of the model's \(network.outputCount) classes"
                        + (network.classLabels.isEmpty ? "" : " (\(network.classLabels.joined(separator: ", ")))"))
            }
            return target
        }
    }
}
