import Foundation

/// An updatable Core ML model (Model.proto `isUpdatable`) as `MLUpdateTask` trains it: the one part that is updated
/// (an updatable `kNearestNeighborsClassifier`, or a neural network's updatable `innerProduct` layers with their
/// `updateParams`), the Core ML model that computes that part's input from the model's inputs (the pipeline models
/// before it and the network's layers before the updatable ones; nil when the part reads a model input), and the
/// training input that holds the target. `appending(samples:labels:)` / `writing(network:)` give the updated file.
///
/// Refused (`ConversionError`): a model that is not updatable, an updatable sub-model that is not the last of its
/// pipeline, an updatable model of another type, an updatable layer that is not an `innerProduct` (`.unsupported`,
/// naming the layer), a layer between the updatable ones and the loss that is not an `innerProduct`, ReLU / sigmoid /
/// tanh activation or the softmax before a cross-entropy loss, float16 or quantized weights.
package struct CoreMLUpdatableModel: Sendable {
    /// The part an update changes.
    package enum Part: Sendable {
        /// An updatable kNN classifier: the update appends examples to its index.
        case nearestNeighbors(NearestNeighbors)
        /// A network whose updatable `innerProduct` layers are trained.
        case network(CoreMLTrainableNetwork)
    }

    /// An updatable kNN classifier's index.
    package struct NearestNeighbors: Sendable {
        /// The length of each sample.
        package var dimensions: Int
        /// Whether the labels are strings (else int64s).
        package var stringLabels: Bool
        /// The samples the file holds.
        package var sampleCount: Int
    }

    /// The model file's bytes.
    package let bytes: [UInt8]
    /// The features the training data provides (the model description's `trainingInput`).
    package let trainingInputs: [CoreMLFeature]
    /// The updated part.
    package let part: Part
    /// The feature (or network blob) the updated part reads.
    package let partInput: String
    /// How many values `partInput` holds.
    package let partInputCount: Int
    /// A Core ML model file computing `partInput` (as its only output) from the model's inputs; nil when `partInput`
    /// is an input of the model.
    package let prefix: [UInt8]?
    /// The training input holding each example's target: a class label, a class index or the expected values.
    package let targetName: String
    /// Where the updated Model message is in the file.
    let path: [ProtoSplice.Step]
    /// The neural network's field in that Model message (500, 403 or 303), for `.network`.
    let networkField: Int

    /// Reads the updatable part of the Core ML model in `bytes` (see the type's documentation for what is refused).
    package init(bytes: [UInt8]) throws {
        self.bytes = bytes
        var located: Located!
        var trainingInputs: [CoreMLFeature] = []
        try bytes.withUnsafeBytes { raw in
            let top = try ProtoMessage(raw[...], context: "Model")
            guard try top.bool(10) else {
                throw ConversionError(.unsupported, "the model is not updatable (its isUpdatable is false)")
            }
            guard let description = try top.message(2, "description") else {
                throw ConversionError(.syntax, "Model: no model description")
            }
            trainingInputs = try description.messages(50, "trainingInput").map(CoreMLSpec.parseFeature)
            located = try Self.locate(top, bytes: bytes, depth: 0)
            let inputs = try description.messageBodies(1).map { Array(bytes[$0.startIndex..<$0.endIndex]) }
            located.prefix = try Self.prefixModel(
                located, version: try top.int64(1), inputs: inputs,
                inputNames: try description.messages(1, "input").map { try $0.string(1) })
        }
        guard !trainingInputs.isEmpty else {
            throw ConversionError(.invalidValue, "the updatable model declares no training inputs")
        }
        self.trainingInputs = trainingInputs
        part = located.part
        partInput = located.partInput
        partInputCount = located.partInputCount
        prefix = located.prefix
        path = located.path
        networkField = located.networkField
        let names = trainingInputs.map(\.name)
        guard let target = located.targetCandidates.first(where: names.contains) else {
            throw ConversionError(
                .invalidValue,
                "no training input holds the target (\(located.targetCandidates.joined(separator: " or ")); "
                    + "the training inputs are \(names.joined(separator: ", ")))")
        }
        targetName = target
    }

    /// What `locate` finds: the updatable Model message and what feeds it.
    struct Located {
        var part: Part
        var partInput: String
        var partInputCount: Int
        var path: [ProtoSplice.Step]
        var networkField = 0
        /// Earlier pipeline models (whole Model messages), in order.
        var pipelinePrefix: [[UInt8]] = []
        /// The network's layers before the first trained one, and the network's other fields to keep.
        var networkPrefix: (layers: [[UInt8]], description: [UInt8], keep: [UInt8])?
        var targetCandidates: [String]
        var prefix: [UInt8]?
    }

    private static let pipelineFields: Set<Int> = [200, 201, 202]
    private static let networkFields: Set<Int> = [500, 403, 303]

    static func locate(_ m: ProtoMessage, bytes: [UInt8], depth: Int) throws -> Located {
        let typeFields = pipelineFields.union(networkFields).union(CoreMLSpec.otherTypeNames.keys).union([502, 610])
        switch m.oneof(typeFields) {
        case let field? where pipelineFields.contains(field):
            guard depth < CoreMLLimits.pipelineDepth else {
                throw ConversionError(.invalidValue, "\(m.context): pipelines nested too deep")
            }
            var pipeline = try m.message(field, "pipeline")!
            var path = [ProtoSplice.Step(number: field, occurrence: nil)]
            if field != 202 {
                guard let inner = try pipeline.message(1, "pipeline") else {
                    throw ConversionError(.syntax, "\(pipeline.context): no pipeline")
                }
                pipeline = inner
                path.append(ProtoSplice.Step(number: 1, occurrence: nil))
            }
            let bodies = try pipeline.messageBodies(1)
            guard let last = bodies.last else { throw ConversionError(.invalidValue, "\(m.context): empty pipeline") }
            for (i, body) in bodies.dropLast().enumerated() {
                if try ProtoMessage(body, context: "\(pipeline.context) model \(i)").bool(10) {
                    throw ConversionError(
                        .unsupported,
                        "\(pipeline.context): model \(i) is updatable; only a pipeline's last model can be updated")
                }
            }
            let sub = try ProtoMessage(last, context: "\(pipeline.context) model \(bodies.count - 1)")
            guard try sub.bool(10) else {
                throw ConversionError(.unsupported, "\(sub.context): the pipeline's last model is not updatable")
            }
            var located = try locate(sub, bytes: bytes, depth: depth + 1)
            located.path = path + [ProtoSplice.Step(number: 1, occurrence: bodies.count - 1)] + located.path
            located.pipelinePrefix =
                bodies.dropLast().map { Array(bytes[$0.startIndex..<$0.endIndex]) } + located.pipelinePrefix
            if let d = try sub.message(2, "description") {
                located.targetCandidates += [try d.string(11)].filter { !$0.isEmpty }
            }
            return located
        case 404?:
            let body = try m.bytes(404)!
            let knn = try CoreMLClassicModel(
                type: .kNearestNeighborsClassifier, parameters: body.startIndex..<body.endIndex, bytes: bytes
            ).nearestNeighbors()
            guard let d = try m.message(2, "description"), let input = try d.messages(1, "input").first else {
                throw ConversionError(.invalidValue, "\(m.context): the kNN classifier has no input")
            }
            let inputName = try input.string(1)
            var targets = [try d.string(11)].filter { !$0.isEmpty }
            targets += try d.messages(50, "trainingInput").map { try $0.string(1) }.filter { $0 != inputName }
            var stringLabels = true
            if case .int64s = knn.defaultLabel { stringLabels = false }
            if case .int64s = knn.labels, knn.sampleCount > 0 { stringLabels = false }
            return Located(
                part: .nearestNeighbors(
                    NearestNeighbors(
                        dimensions: knn.dimensions, stringLabels: stringLabels, sampleCount: knn.sampleCount)),
                partInput: inputName, partInputCount: knn.dimensions,
                path: [ProtoSplice.Step(number: 404, occurrence: nil)], targetCandidates: targets)
        case let field? where networkFields.contains(field):
            return try locateNetwork(m, field: field, bytes: bytes)
        case let field?:
            let name = CoreMLSpec.otherTypeNames[field] ?? (field == 502 ? "mlProgram" : "model type \(field)")
            throw ConversionError(
                .unsupported,
                "\(m.context): an updatable \(name) is not supported (kNearestNeighborsClassifier and neural "
                    + "networks' innerProduct layers are)")
        case nil:
            throw ConversionError(.invalidValue, "\(m.context): no model type")
        }
    }

    /// The Core ML file computing the updated part's input: the pipeline models before it and the network's layers
    /// before the trained ones, as one pipeline whose output is `partInput` (float32, `partInputCount` values).
    static func prefixModel(_ l: Located, version: Int64, inputs: [[UInt8]], inputNames: [String]) throws -> [UInt8]? {
        var models = l.pipelinePrefix
        if let network = l.networkPrefix, !network.layers.isEmpty {
            var nn: [UInt8] = network.keep
            for layer in network.layers { nn += ProtoSplice.lengthDelimited(1, layer) }
            var model = ProtoSplice.varint(1, version)
            model += ProtoSplice.lengthDelimited(2, network.description + outputDescription(l))
            model += ProtoSplice.lengthDelimited(500, nn)
            models.append(model)
        }
        if models.isEmpty {
            guard inputNames.contains(l.partInput) else {
                throw ConversionError(
                    .invalidValue, "the updatable part reads '\(l.partInput)', which no part of the model computes")
            }
            return nil
        }
        var description: [UInt8] = []
        for input in inputs { description += ProtoSplice.lengthDelimited(1, input) }
        description += outputDescription(l)
        var pipeline: [UInt8] = []
        for model in models { pipeline += ProtoSplice.lengthDelimited(1, model) }
        return ProtoSplice.varint(1, version) + ProtoSplice.lengthDelimited(2, description)
            + ProtoSplice.lengthDelimited(202, pipeline)
    }

    /// ModelDescription `output` (10): `partInput` as a float32 multi-array of `partInputCount` values.
    static func outputDescription(_ l: Located) -> [UInt8] {
        let array = ProtoSplice.lengthDelimited(1, varintBytes(UInt64(l.partInputCount))) + ProtoSplice.varint(2, 65568)
        let type = ProtoSplice.lengthDelimited(5, array)
        let feature = ProtoSplice.lengthDelimited(1, Array(l.partInput.utf8)) + ProtoSplice.lengthDelimited(3, type)
        return ProtoSplice.lengthDelimited(10, feature)
    }

    static func varintBytes(_ value: UInt64) -> [UInt8] {
        var e = ONNXProtobufEncoder()
        e.varint(value)
        return e.bytes
    }

    // MARK: Updated files

    /// The model file with `samples` (each `dimensions` values, row after row) and their labels (strings or int64s,
    /// as the index holds them) appended to the kNN index.
    package func appending(samples: [Float], stringLabels: [String], int64Labels: [Int64]) throws -> [UInt8] {
        guard case .nearestNeighbors(let knn) = part else {
            throw ConversionError(.invalidValue, "the model's updatable part is not a kNN classifier")
        }
        let count = knn.stringLabels ? stringLabels.count : int64Labels.count
        guard samples.count == count * knn.dimensions else {
            throw ConversionError(.invalidValue, "\(samples.count) values for \(count) samples of \(knn.dimensions)")
        }
        return try ProtoSplice.editing(bytes, at: path, context: "kNearestNeighborsClassifier") { body in
            var rows: [UInt8] = []
            for i in 0..<count {
                let row = Array(samples[(i * knn.dimensions)..<((i + 1) * knn.dimensions)])
                rows += ProtoSplice.lengthDelimited(2, ProtoSplice.packedFloats(1, row))
            }
            var out = try ProtoSplice.editing(
                body, at: [ProtoSplice.Step(number: 1, occurrence: nil)], context: "nearestNeighborsIndex"
            ) { $0 + rows }
            var labels: [UInt8] = []
            if knn.stringLabels {
                for label in stringLabels { labels += ProtoSplice.lengthDelimited(1, Array(label.utf8)) }
            } else {
                for label in int64Labels { labels += ProtoSplice.varint(1, label) }
            }
            out = try ProtoSplice.editing(
                out, at: [ProtoSplice.Step(number: knn.stringLabels ? 100 : 101, occurrence: nil)],
                context: "classLabels"
            ) { $0 + labels }
            return out
        }
    }

    /// The model file with the trained weights and biases of `network`'s updatable layers.
    package func writing(network: CoreMLTrainableNetwork) throws -> [UInt8] {
        var out = bytes
        for layer in network.layers {
            guard case .innerProduct(let p) = layer.kind, p.isUpdatable else { continue }
            let layerPath =
                path + [
                    ProtoSplice.Step(number: networkField, occurrence: nil),
                    ProtoSplice.Step(number: 1, occurrence: layer.index),
                    ProtoSplice.Step(number: 140, occurrence: nil),
                ]
            let values: [(Int, [Double])] = p.hasBias ? [(20, p.weights), (21, p.bias)] : [(20, p.weights)]
            for (field, v) in values {
                out = try ProtoSplice.editing(
                    out, at: layerPath + [ProtoSplice.Step(number: field, occurrence: nil)],
                    context: "layer '\(layer.name)' weights"
                ) { old in
                    let kept = try ProtoSplice.removing(
                        [1, 2, 30, 31, 40], from: old, 0..<old.count, context: "weights")
                    return kept + ProtoSplice.packedFloats(1, v.map { Float($0) })
                }
            }
        }
        return out
    }
}

extension CoreMLUpdatableModel {
    /// The `Model` message of the Core ML model at `url`: a `.mlmodel` file's bytes, a `.mlpackage`'s root model, or
    /// the `updatable.mlmodel` that OpenVision keeps in the compiled folder of an updatable model. Throws `.io` for an
    /// unreadable path and `.unsupported` for a compiled folder without it (Xcode's, or a model that is not updatable).
    package static func specification(at url: URL) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            let kept = url.appendingPathComponent(CoreMLConverter.updatableFileName)
            if FileManager.default.fileExists(atPath: kept.path) {
                return try CoreMLSource.read(kept, what: "updatable Core ML model")
            }
        }
        switch try CoreMLSource.open(url) {
        case .model(let bytes, _): return bytes
        default:
            throw ConversionError(
                .unsupported,
                "this compiled folder holds no updatable model (\(CoreMLConverter.updatableFileName)); update the "
                    + ".mlmodel, or a folder OpenVision compiled from an updatable one", file: url.path)
        }
    }
}
