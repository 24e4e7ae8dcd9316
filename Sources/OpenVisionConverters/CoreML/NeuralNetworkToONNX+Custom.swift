import Foundation

extension NeuralNetworkToONNX {
    /// Most parameters and weight blobs one custom layer may declare.
    static let maximumCustomEntries = 4096

    /// `custom` (500, `CustomLayerParams`: 10 className, 20 weights, 30 parameters, 40 description): one
    /// `CustomLayer` node of `CoreMLCustomLayer.domain` whose outputs have the shapes the app's class gives
    /// (`CoreMLCustomLayer.shapes`); without one the layer is `.unsupported`, naming the class and how to register it.
    mutating func customLayer(_ layer: NeuralNetworkLayer, _ p: ProtoMessage, _ inputs: [NNValue]) throws {
        let className = try p.string(10)
        guard !className.isEmpty else { throw invalid("no className") }
        let entries = try p.messages(30, "parameters")
        let weightMessages = try p.messages(20, "weights")
        guard entries.count <= Self.maximumCustomEntries, weightMessages.count <= Self.maximumCustomEntries else {
            throw ConversionError(
                .limitExceeded,
                "layer '\(layerName)' (custom): more than \(Self.maximumCustomEntries) parameters or weights")
        }
        var parameters: [String: CoreMLCustomLayer.Parameter] = [:]
        for entry in entries {
            let key = try entry.string(1)
            guard let value = try entry.message(2, "parameter '\(key)'") else { continue }
            switch value.oneof([10, 20, 30, 40, 50]) {
            case 10: parameters[key] = .double(try value.double(10))
            case 20: parameters[key] = .string(try value.string(20))
            case 30: parameters[key] = .int(Int64(try value.int32(30)))
            case 40: parameters[key] = .int(try value.int64(40))
            case 50: parameters[key] = .bool(try value.bool(50))
            default: throw invalid("parameter '\(key)' has no value")
            }
        }
        var weights: [Data] = []
        for (k, blob) in weightMessages.enumerated() {
            let data: Data
            if blob.has(1) {
                let floats = try blob.repeatedFloats(1)
                try ConversionBudget.charge(floats.count * 4, "layer '\(layerName)' (custom): weights[\(k)]")
                data = floats.withUnsafeBufferPointer { Data(buffer: $0) }
            } else if let bytes = try blob.bytes(2) ?? blob.bytes(30) ?? blob.bytes(31) {
                try ConversionBudget.charge(bytes.count, "layer '\(layerName)' (custom): weights[\(k)]")
                data = Data(bytes)
            } else {
                data = Data()
            }
            weights.append(data)
        }
        var custom = CoreMLCustomLayer(
            className: className, layerName: layerName, summary: try p.string(40), parameters: parameters,
            weights: weights, inputShapes: inputs.map(\.shape), outputShapes: [], rank5: rank5)
        guard let resolve = CoreMLCustomLayer.shapes else {
            throw ConversionError(
                .unsupported,
                "layer '\(layerName)' (custom) is the custom layer class '\(className)', which the app implements "
                    + "(MLCustomLayer); it runs once the app registers it: "
                    + CoreMLCustomLayer.registration(className) + " (docs/coreml.md, \"Custom layers\")")
        }
        // The resolver's own errors (the app's class threw, or is not registered) go to the caller as they are.
        let shapes = try resolve.resolve(custom)
        guard shapes.count == layer.outputs.count else {
            throw invalid(
                "\(className).outputShapes(forInputShapes:) gave \(shapes.count) shapes for the layer's "
                    + "\(layer.outputs.count) outputs")
        }
        for shape in shapes {
            guard !rank5 || shape.count == 5 else {
                throw invalid(
                    "\(className).outputShapes(forInputShapes:) gave \(shape) in a rank-5 network "
                        + "(it must give [Seq, Batch, C, H, W])")
            }
            guard (1...8).contains(shape.count) else {
                throw invalid("\(className).outputShapes(forInputShapes:) gave \(shape): ranks 1...8")
            }
            _ = try checked(shape)
        }
        custom.outputShapes = shapes
        let outputs = layer.outputs.map { outputName($0) }
        graph.nodes.append(
            ONNXWriter.Node(
                opType: CoreMLCustomLayer.opType, name: fresh("\(layerName)/\(className)"),
                inputs: inputs.map(\.name), outputs: outputs,
                attributes: [.init("index", .int(customLayers.count)), .init("class_name", .string(className))],
                domain: CoreMLCustomLayer.domain))
        customLayers.append(custom)
        for (blob, (name, shape)) in zip(layer.outputs, zip(outputs, shapes)) {
            blobs[blob] = NNValue(name: name, shape: shape)
        }
    }
}
