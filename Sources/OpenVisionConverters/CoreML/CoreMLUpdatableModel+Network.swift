import Foundation

extension CoreMLUpdatableModel {
    /// Limits of what an update trains: values of one layer's weights (as doubles, with two optimizer moments).
    static let trainableValues = 1 << 24

    /// An updatable neural network (Model field `field`): its updatable innerProduct layers, the layers from them to
    /// the loss, and its `updateParams`.
    static func locateNetwork(_ m: ProtoMessage, field: Int, bytes: [UInt8]) throws -> Located {
        let nn = try m.message(field, "neural network")!
        let layerFields = Set(NeuralNetworkLayer.typeNames.keys)
        struct Raw {
            var name: String
            var inputs: [String]
            var outputs: [String]
            var type: Int
            var updatable: Bool
            var message: ProtoMessage
            var body: [UInt8]
        }
        var layers: [Raw] = []
        for (i, body) in try nn.messageBodies(1).enumerated() {
            guard i < CoreMLLimits.layers else {
                throw ConversionError(.limitExceeded, "\(nn.context): too many layers")
            }
            let l = try ProtoMessage(body, context: "\(nn.context) layer \(i)")
            let name = try l.string(1)
            layers.append(
                Raw(
                    name: name.isEmpty ? "layer\(i)" : name, inputs: try l.repeatedStrings(2),
                    outputs: try l.repeatedStrings(3), type: l.oneof(layerFields) ?? 0, updatable: try l.bool(10),
                    message: l, body: Array(bytes[body.startIndex..<body.endIndex])))
        }
        func typeName(_ l: Raw) -> String { NeuralNetworkLayer.typeNames[l.type] ?? "layer type \(l.type)" }
        if let other = layers.first(where: { $0.updatable && $0.type != 140 }) {
            throw ConversionError(
                .unsupported,
                "layer '\(other.name)' (\(typeName(other))) is updatable: only innerProduct layers are updated here")
        }
        var remaining = Set(layers.indices.filter { layers[$0].updatable })
        guard !remaining.isEmpty else {
            throw ConversionError(.unsupported, "\(nn.context): no layer is updatable")
        }
        guard let params = try nn.message(10, "updateParams") else {
            throw ConversionError(.invalidValue, "\(nn.context): an updatable network without updateParams")
        }
        let lossLayers = try params.messages(1, "lossLayers")
        guard lossLayers.count == 1, let lossLayer = lossLayers.first else {
            throw ConversionError(.unsupported, "\(params.context): \(lossLayers.count) loss layers (one is supported)")
        }
        let loss: CoreMLTrainableNetwork.Loss
        let lossMessage: ProtoMessage
        switch lossLayer.oneof([10, 11]) {
        case 10?:
            loss = .categoricalCrossEntropy
            lossMessage = try lossLayer.message(10, "categoricalCrossEntropyLossLayer")!
        case 11?:
            loss = .meanSquaredError
            lossMessage = try lossLayer.message(11, "meanSquaredErrorLossLayer")!
        default: throw ConversionError(.unsupported, "\(lossLayer.context): an unknown loss")
        }
        let lossInput = try lossMessage.string(1)
        let lossTarget = try lossMessage.string(2)

        // Walk back from the loss input to the first updatable layer.
        var producer: [String: Int] = [:]
        for (i, l) in layers.enumerated() { for o in l.outputs { producer[o] = i } }
        var chain: [CoreMLTrainableNetwork.Layer] = []
        var blob = lossInput
        var first = layers.count
        while !remaining.isEmpty {
            guard let i = producer[blob], i < first else {
                throw ConversionError(
                    .invalidValue,
                    "\(nn.context): the loss input '\(lossInput)' does not lead back to every updatable layer")
            }
            let l = layers[i]
            let kind = try trainableKind(l.message, type: l.type, name: l.name, isUpdatable: l.updatable)
            guard let kind, l.inputs.count == 1, l.outputs.count == 1 else {
                throw ConversionError(
                    .unsupported,
                    "layer '\(l.name)' (\(typeName(l))) lies between the updatable layers and the loss: only "
                        + "innerProduct, ReLU / sigmoid / tanh activations and a softmax before the loss are "
                        + "differentiated here")
            }
            if case .softmax = kind, !(loss == .categoricalCrossEntropy && chain.isEmpty) {
                throw ConversionError(
                    .unsupported, "layer '\(l.name)' (softmax): only a softmax right before a cross-entropy loss")
            }
            chain.insert(CoreMLTrainableNetwork.Layer(name: l.name, index: i, kind: kind), at: 0)
            remaining.remove(i)
            first = i
            blob = l.inputs[0]
        }
        if loss == .categoricalCrossEntropy {
            guard case .softmax = chain.last?.kind else {
                throw ConversionError(
                    .invalidValue, "the cross-entropy loss's input '\(lossInput)' is not a softmax layer's output")
            }
        }
        // Shapes along the chain.
        var width = 0
        var inputCount = 0
        for layer in chain {
            guard case .innerProduct(let p) = layer.kind else { continue }
            if width != 0, p.inputs != width {
                throw ConversionError(
                    .invalidValue,
                    "layer '\(layer.name)' takes \(p.inputs) values where the layer before gives \(width)")
            }
            if inputCount == 0 { inputCount = p.inputs }
            width = p.outputs
        }

        let (optimizer, batch) = try optimizer(params)
        let epochs = try int64Parameter(params, 3, "epochs", default: 1)
        guard (1...100_000).contains(epochs) else {
            throw ConversionError(.invalidValue, "\(params.context): epochs \(epochs) is out of range 1...100000")
        }
        let shuffle = try params.message(10, "shuffle")?.bool(1) ?? false
        let seed = try int64Parameter(params, 20, "seed", default: 0)
        var labels: [String] = []
        if field == 403 { labels = try CoreMLSpec.classLabels(nn, strings: 100, ints: 101) }
        let network = CoreMLTrainableNetwork(
            layers: chain, loss: loss, optimizer: optimizer, miniBatchSize: batch, epochs: Int(epochs),
            shuffle: shuffle, seed: UInt64(bitPattern: seed), classLabels: labels, outputCount: width)

        var targets = [lossTarget]
        if let d = try m.message(2, "description"), try d.string(12) == lossInput || field == 403 {
            targets.append(try d.string(11))
        }
        var located = Located(
            part: .network(network), partInput: blob, partInputCount: inputCount, path: [],
            networkField: field, targetCandidates: targets.filter { !$0.isEmpty })
        if first > 0 {
            let body = try m.bytes(field)!
            let keep = try ProtoSplice.removing(
                [1, 10, 100, 101, 200], from: bytes, body.startIndex..<body.endIndex, context: nn.context)
            let description = try m.message(2, "description")
            var inputs: [UInt8] = []
            for body in try description?.messageBodies(1) ?? [] {
                inputs += ProtoSplice.lengthDelimited(1, Array(bytes[body.startIndex..<body.endIndex]))
            }
            located.networkPrefix = (layers[0..<first].map(\.body), inputs, keep)
        }
        return located
    }

    /// The tail kind of a layer, or nil for a layer that is not differentiated here.
    static func trainableKind(_ l: ProtoMessage, type: Int, name: String, isUpdatable: Bool) throws
        -> CoreMLTrainableNetwork.Kind?
    {
        switch type {
        case 140:
            let p = try l.message(140, "innerProduct")!
            let inputs = try p.count(1, limit: CoreMLLimits.dimension, what: "inputChannels")
            let outputs = try p.count(2, limit: CoreMLLimits.dimension, what: "outputChannels")
            guard inputs > 0, outputs > 0,
                inputs.multipliedReportingOverflow(by: outputs).partialValue
                    <= trainableValues, !inputs.multipliedReportingOverflow(by: outputs).overflow
            else {
                throw ConversionError(
                    .limitExceeded, "layer '\(name)': \(inputs) × \(outputs) weights (at most \(trainableValues))")
            }
            let hasBias = try p.bool(10)
            func values(_ field: Int, _ count: Int, _ what: String) throws -> [Double] {
                guard let w = try p.message(field, what) else {
                    throw ConversionError(.invalidValue, "layer '\(name)': no \(what)")
                }
                guard !w.has(2), !w.has(30), !w.has(31), !w.has(40) else {
                    throw ConversionError(
                        .unsupported, "layer '\(name)': \(what) are not float32 (float16 or quantized weights)")
                }
                let floats = try w.repeatedFloats(1)
                guard floats.count == count, floats.allSatisfy(\.isFinite) else {
                    throw ConversionError(
                        .invalidValue, "layer '\(name)': \(floats.count) \(what) values for \(count), or not finite")
                }
                return floats.map(Double.init)
            }
            return .innerProduct(
                CoreMLTrainableNetwork.InnerProduct(
                    inputs: inputs, outputs: outputs, hasBias: hasBias, isUpdatable: isUpdatable,
                    weights: try values(20, inputs * outputs, "weights"),
                    bias: hasBias ? try values(21, outputs, "bias") : []))
        case 130:
            let a = try l.message(130, "activation")!
            switch a.oneof([5, 10, 15, 20, 25, 30, 31, 40, 41, 50, 60, 70, 71]) {
            case 10?: return .relu
            case 30?: return .tanh
            case 40?: return .sigmoid
            default: return nil
            }
        case 175: return .softmax
        default: return nil
        }
    }

    /// `updateParams.optimizer`: SGD or Adam, and the mini-batch size.
    static func optimizer(_ params: ProtoMessage) throws -> (CoreMLTrainableNetwork.Optimizer, Int) {
        guard let o = try params.message(2, "optimizer") else {
            throw ConversionError(.invalidValue, "\(params.context): no optimizer")
        }
        func double(_ m: ProtoMessage, _ f: Int, _ what: String, _ range: ClosedRange<Double>) throws -> Double {
            let v = try m.message(f, what)?.double(1) ?? 0
            guard v.isFinite, range.contains(v) else {
                throw ConversionError(.invalidValue, "\(m.context): \(what) \(v) is out of range \(range)")
            }
            return v
        }
        func batch(_ m: ProtoMessage) throws -> Int {
            let b = try int64Parameter(m, 2, "miniBatchSize", default: 1)
            guard (1...(1 << 20)).contains(b) else {
                throw ConversionError(.invalidValue, "\(m.context): miniBatchSize \(b) is out of range")
            }
            return Int(b)
        }
        switch o.oneof([10, 11]) {
        case 10?:
            let s = try o.message(10, "sgdOptimizer")!
            return (
                .sgd(
                    learningRate: try double(s, 1, "learningRate", 0...1e6),
                    momentum: try double(s, 3, "momentum", 0...1)), try batch(s)
            )
        case 11?:
            let a = try o.message(11, "adamOptimizer")!
            var epsilon = try double(a, 5, "eps", 0...1)
            if epsilon == 0 { epsilon = 1e-8 }
            return (
                .adam(
                    learningRate: try double(a, 1, "learningRate", 0...1e6),
                    beta1: try double(a, 3, "beta1", 0...1), beta2: try double(a, 4, "beta2", 0...1),
                    epsilon: epsilon), try batch(a)
            )
        default: throw ConversionError(.unsupported, "\(o.context): an unknown optimizer")
        }
    }

    /// An `Int64Parameter` field's `defaultValue`, or `default` when the field is absent.
    static func int64Parameter(_ m: ProtoMessage, _ f: Int, _ what: String, default value: Int64) throws -> Int64 {
        guard let p = try m.message(f, what) else { return value }
        return try p.int64(1)
    }
}
