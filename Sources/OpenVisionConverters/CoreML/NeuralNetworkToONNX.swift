import Foundation

/// A Core ML blob in the ONNX graph being built: the ONNX value holding it and its shape as Core ML
/// sees it (rank 5 `[Seq, Batch, C, H, W]` in old networks, whose ONNX value is the rank-4
/// `[Seq × Batch, C, H, W]`; any rank in N-D networks, where the two are the same).
struct NNValue {
    var name: String
    var shape: [Int]
    /// The values, when they are known at conversion time (constants and what is computed from them only),
    /// so that layers taking shapes or indices as inputs stay static.
    var constant: [Float]?

    init(name: String, shape: [Int], constant: [Float]? = nil) {
        self.name = name
        self.shape = shape
        self.constant = constant
    }
}

/// Converts the layers of a `NeuralNetworkSpec` into nodes of an ONNX graph (opset
/// `CoreMLConverter.opsetVersion`), following NeuralNetwork.proto's definition of each layer.
///
/// Shapes are static: flexible inputs take the shape Core ML uses by default, and each layer's output
/// shape is computed here, as Core ML's shape inference does, so that layers defined on the last three
/// axes ("channel", "height", "width") or on rank 5 can be expressed with ONNX's NCHW operators.
/// Unsupported layers are `ConversionError(.unsupported)` naming the layer type and the layer.
struct NeuralNetworkToONNX {
    let spec: NeuralNetworkSpec
    /// Old networks: logical rank 5 `[Seq, Batch, C, H, W]`, stored as rank 4 `[Seq × Batch, C, H, W]`.
    let rank5: Bool
    /// Prepended to every ONNX name this network adds (pipelines hold several networks).
    let prefix: String
    var graph: ONNXWriter.Graph
    /// Core ML blob name → value.
    var blobs: [String: NNValue] = [:]
    /// Storage formats of the weights converted, for `models info`.
    var weightFormats = Set<NeuralNetworkWeights.Format>()
    /// The custom layers converted so far (of every network of a pipeline: a node's `index` is its place here).
    var customLayers: [CoreMLCustomLayer] = []

    private var usedNames = Set<String>()
    private var int64Constants: [[Int]: String] = [:]
    private var floatScalars: [Float: String] = [:]
    /// The layer being converted (for names and errors).
    var layerName = ""
    var layerType = ""

    init(spec: NeuralNetworkSpec, prefix: String, graph: ONNXWriter.Graph) {
        self.spec = spec
        self.rank5 = spec.isRank5
        self.prefix = prefix
        self.graph = graph
        for node in graph.nodes { usedNames.formUnion(node.outputs) }
        for input in graph.inputs { usedNames.insert(input.name) }
        for tensor in graph.initializers { usedNames.insert(tensor.name) }
    }

    // MARK: Running

    /// Converts every layer in file order; `blobs` must hold the network's inputs.
    mutating func convertLayers() throws {
        try spec.bytes.withUnsafeBytes { raw in
            for layer in spec.layers {
                layerName = layer.name
                layerType = layer.typeName
                guard layer.typeField != 0 else {
                    throw ConversionError(.syntax, "layer '\(layer.name)' has no layer type")
                }
                guard layer.parameters.upperBound <= raw.count else {
                    throw ConversionError(.syntax, "layer '\(layer.name)': parameters past the end of the file")
                }
                let params = try ProtoMessage(
                    raw[layer.parameters], context: "layer '\(layer.name)' (\(layer.typeName))")
                do {
                    try convert(layer, params)
                } catch let error as ConversionError where !error.message.contains("'\(layer.name)'") {
                    throw ConversionError(error.code, "layer '\(layer.name)' (\(layer.typeName)): \(error.message)")
                }
            }
        }
    }

    /// The value of blob `name` (an input, or an earlier layer's output).
    func blob(_ name: String) throws -> NNValue {
        guard let value = blobs[name] else {
            throw ConversionError(
                .syntax, "layer '\(layerName)' (\(layerType)) reads '\(name)', which no earlier layer or input produces"
            )
        }
        return value
    }

    func unsupported(_ detail: String = "") -> ConversionError {
        ConversionError(
            .unsupported, "layer '\(layerName)' (\(layerType)) is not supported" + (detail.isEmpty ? "" : ": \(detail)")
        )
    }

    func invalid(_ detail: String) -> ConversionError {
        ConversionError(.invalidValue, "layer '\(layerName)' (\(layerType)): \(detail)")
    }

    // MARK: Names and nodes

    /// A new ONNX value name derived from `hint`.
    mutating func fresh(_ hint: String) -> String {
        var name = prefix + hint
        var k = 1
        while usedNames.contains(name) {
            name = "\(prefix)\(hint)__\(k)"
            k += 1
        }
        usedNames.insert(name)
        return name
    }

    /// Keeps `name` out of the names this network gives its values (the graph's outputs).
    mutating func reserve(_ name: String) { usedNames.insert(name) }

    /// The ONNX name for the layer's output blob `blob` (a new name if a `copy` layer rewrites it).
    mutating func outputName(_ blob: String) -> String { fresh(blob) }

    /// Appends a node; returns its output names (new names unless given).
    @discardableResult
    mutating func node(
        _ op: String, _ inputs: [String], outputs: [String]? = nil, count: Int = 1,
        _ attributes: [ONNXWriter.Attribute] = []
    ) -> [String] {
        let outs = outputs ?? (0..<count).map { fresh("\(layerName)_\(op.lowercased())\($0 == 0 ? "" : "_\($0)")") }
        graph.nodes.append(
            ONNXWriter.Node(
                opType: op, name: fresh("\(layerName)/\(op)"), inputs: inputs, outputs: outs,
                attributes: attributes))
        return outs
    }

    /// A one-output node.
    mutating func node1(
        _ op: String, _ inputs: [String], output: String? = nil, _ attributes: [ONNXWriter.Attribute] = []
    ) -> String {
        node(op, inputs, outputs: output.map { [$0] }, attributes)[0]
    }

    /// A float32 initializer.
    mutating func constant(_ values: [Float], dims: [Int], hint: String = "const") -> String {
        let name = fresh("\(layerName)_\(hint)")
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: values))
        return name
    }

    /// A 1-D int64 initializer (shared between layers for equal values).
    mutating func int64s(_ values: [Int]) -> String {
        if let name = int64Constants[values] { return name }
        let name = fresh("i64_" + values.map { String($0) }.joined(separator: "_").prefix(40))
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [values.count], int64s: values.map(Int64.init)))
        int64Constants[values] = name
        return name
    }

    /// A scalar int64 initializer.
    mutating func int64Scalar(_ value: Int) -> String {
        let name = fresh("i64s_\(value)")
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [], int64s: [Int64(value)]))
        return name
    }

    /// A scalar float32 initializer (shared).
    mutating func scalar(_ value: Float) -> String {
        if let name = floatScalars[value] { return name }
        let name = fresh("f32_\(value)")
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [], floats: [value]))
        floatScalars[value] = name
        return name
    }

    mutating func reshape(_ x: String, _ shape: [Int], output: String? = nil) -> String {
        node1("Reshape", [x, int64s(shape)], output: output)
    }

    mutating func transpose(_ x: String, _ perm: [Int], output: String? = nil) -> String {
        node1("Transpose", [x], output: output, [.init("perm", .ints(perm))])
    }

    mutating func identity(_ x: String, output: String) -> String {
        node1("Identity", [x], output: output)
    }

    /// Cast to float32 (ONNX `TensorProto.FLOAT`).
    mutating func toFloat(_ x: String, output: String? = nil) -> String {
        node1("Cast", [x], output: output, [.init("to", .int(1))])
    }

    /// Cast to int64.
    mutating func toInt64(_ x: String) -> String {
        node1("Cast", [x], [.init("to", .int(7))])
    }

    /// Cast to bool (non-zero is true).
    mutating func toBool(_ x: String) -> String {
        node1("Cast", [x], [.init("to", .int(9))])
    }

    // MARK: Shapes

    /// The ONNX (physical) shape of a logical shape.
    func physical(_ shape: [Int]) -> [Int] {
        guard rank5, shape.count == 5 else { return shape }
        return [shape[0] * shape[1], shape[2], shape[3], shape[4]]
    }

    /// The element count of `shape`, checked against `CoreMLLimits.elements`.
    func elements(_ shape: [Int]) throws -> Int {
        var n = 1
        for d in shape {
            guard d >= 0 else { throw invalid("negative dimension in shape \(shape)") }
            let (p, overflow) = n.multipliedReportingOverflow(by: d)
            guard !overflow, p <= CoreMLLimits.elements else {
                throw ConversionError(
                    .limitExceeded,
                    "layer '\(layerName)' (\(layerType)): shape \(shape) exceeds \(CoreMLLimits.elements) elements")
            }
            n = p
        }
        return n
    }

    /// Checks a shape computed for a layer's output.
    func checked(_ shape: [Int]) throws -> [Int] {
        guard shape.count <= CoreMLLimits.rank else {
            throw invalid("rank \(shape.count) exceeds \(CoreMLLimits.rank)")
        }
        for d in shape where d < 0 || d > CoreMLLimits.dimension { throw invalid("output dimension \(d) in \(shape)") }
        _ = try elements(shape)
        return shape
    }

    /// `axis` (negative counts from the end) as a non-negative axis of a rank-`rank` value.
    func normalized(_ axis: Int, rank: Int) throws -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < rank else { throw invalid("axis \(axis) for rank \(rank)") }
        return a
    }

    /// The ONNX axis of logical axis `axis` of a value of logical shape `shape`.
    func physicalAxis(_ axis: Int, of shape: [Int]) throws -> Int {
        let a = try normalized(axis, rank: shape.count)
        guard rank5, shape.count == 5 else { return a }
        switch a {
        case 2, 3, 4: return a - 1
        case 0 where shape[1] == 1, 1 where shape[0] == 1: return 0
        default: throw unsupported("an operation on the sequence or batch axis of a rank-5 blob with both > 1")
        }
    }

    /// Numpy broadcasting of two shapes.
    func broadcast(_ a: [Int], _ b: [Int]) throws -> [Int] {
        let rank = max(a.count, b.count)
        let pa = Array(repeating: 1, count: rank - a.count) + a
        let pb = Array(repeating: 1, count: rank - b.count) + b
        return try zip(pa, pb).map { x, y in
            if x == y || y == 1 { return x }
            if x == 1 { return y }
            throw invalid("shapes \(a) and \(b) do not broadcast")
        }
    }

    /// Brings `x` to rank-4 `[N, C, H, W]` (the last three axes; leading ones merged into N, or N = 1
    /// for rank 3), runs `body` with the name to write, and gives the result back with the leading axes.
    /// `body` returns the output's `[C, H, W]`.
    mutating func onNCHW(
        _ x: NNValue, output: String,
        _ body: (inout NeuralNetworkToONNX, _ input: String, _ nchw: [Int], _ output: String) throws -> [Int]
    ) throws -> NNValue {
        let shape = x.shape
        guard shape.count >= 3 else { throw invalid("needs a blob of rank ≥ 3, got \(shape)") }
        let lead = Array(shape.dropLast(3))
        let n = try elements(lead)
        let p = physical(shape)
        if p.count == 4 {
            let chw = try body(&self, x.name, p, output)
            return NNValue(name: output, shape: try checked(lead + chw))
        }
        let input = reshape(x.name, [n] + Array(shape.suffix(3)))
        let temp = fresh("\(layerName)_nchw")
        let chw = try body(&self, input, [n] + Array(shape.suffix(3)), temp)
        let outShape = try checked(lead + chw)
        _ = reshape(temp, outShape, output: output)
        return NNValue(name: output, shape: outShape)
    }

    // MARK: Weights

    /// Float32 values of the `WeightParams` in field `field` of `params`, recording its format.
    mutating func weights(
        _ params: ProtoMessage, _ field: Int, count: Int, what: String,
        channels: NeuralNetworkWeights.ChannelAxis = .none
    ) throws -> [Float] {
        let m = try params.message(field, what)
        if let m, let format = try NeuralNetworkWeights.format(m) { weightFormats.insert(format) }
        return try NeuralNetworkWeights.floats(m, count: count, what: "\(params.context) \(what)", channels: channels)
    }

    // MARK: Dispatch

    private mutating func convert(_ layer: NeuralNetworkLayer, _ p: ProtoMessage) throws {
        let field = layer.typeField
        let fixedInputs: [Int: ClosedRange<Int>] = [
            100: 1...2, 120: 1...1, 130: 1...1, 140: 1...1, 150: 1...1, 160: 1...1, 165: 1...1, 170: 1...1, 175: 1...1,
            180: 1...1, 190: 1...2, 200: 1...1, 210: 1...1, 211: 1...1, 212: 2...2, 220: 1...1, 230: 1...Int.max,
            231: 1...Int.max, 240: 1...Int.max, 245: 1...1, 250: 1...1, 260: 1...Int.max, 261: 1...Int.max,
            270: 2...2, 280: 1...1, 290: 0...0, 300: 1...1, 301: 1...1, 310: 1...1, 320: 1...Int.max, 330: 1...1,
            340: 1...1, 345: 1...1, 350: 1...1, 600: 1...1,
        ]
        if let range = fixedInputs[field], !range.contains(layer.inputs.count) {
            throw invalid(
                "\(layer.inputs.count) inputs (expected \(range.upperBound == Int.max ? "\(range.lowerBound) or more" : range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"))"
            )
        }
        guard !layer.outputs.isEmpty else { throw invalid("no outputs") }
        let inputs = try layer.inputs.map { try blob($0) }
        if field == 500 {
            guard !inputs.isEmpty else { throw invalid("no inputs") }
            try customLayer(layer, p, inputs)
            return
        }
        let out = outputName(layer.outputs[0])
        let result: NNValue
        switch field {
        case 100: result = try convolution(p, inputs, out)
        case 120: result = try pooling(p, inputs[0], out)
        case 130: result = try activation(p, inputs[0], out)
        case 140: result = try innerProduct(p, inputs[0], out)
        case 150: result = try embedding(p, inputs[0], out)
        case 160: result = try batchnorm(p, inputs[0], out)
        case 165: result = try mvn(p, inputs[0], out)
        case 170: result = try l2normalize(p, inputs[0], out)
        // Along C (axis −3); a blob of rank 1 or 2 (an N-D network's [N, C] probabilities, which Core ML runs although
        // the specification asks rank ≥ 3) along its last axis, its channels.
        case 175: result = try softmax(axis: inputs[0].shape.count < 3 ? -1 : -3, inputs[0], out)
        case 180: result = try lrn(p, inputs[0], out)
        case 190: result = try crop(p, inputs, out)
        case 200: result = try padding(p, inputs[0], out)
        case 210: result = try upsample(p, inputs[0], out)
        case 211: result = try resizeBilinear(p, inputs[0], out)
        case 212: result = try cropResize(p, inputs, out)
        case 220: result = try unary(p, inputs[0], out)
        case 230: result = try variadic(inputs, out, op: "Sum", scalar: try p.float(1), scalarOp: "Add")
        case 231: result = try variadic(inputs, out, op: "Mul", scalar: try p.float(1), scalarOp: "Mul")
        case 240: result = try variadic(inputs, out, op: "Mean", scalar: nil, scalarOp: nil)
        case 260: result = try variadic(inputs, out, op: "Max", scalar: nil, scalarOp: nil)
        case 261: result = try variadic(inputs, out, op: "Min", scalar: nil, scalarOp: nil)
        case 245: result = try scaleLayer(p, inputs[0], out)
        case 250: result = try biasLayer(p, inputs[0], out)
        case 270: result = try dot(p, inputs, out)
        case 280: result = try reduce(p, inputs[0], out)
        case 290: result = try loadConstant(p, out, rank5Output: true)
        case 300: result = try reshapeRank5(p, inputs[0], out)
        case 301: result = try flatten(p, inputs[0], out)
        case 310: result = try permute(p, inputs[0], out)
        case 320: result = try concat(axis: try p.bool(100) ? -5 : -3, inputs, out, interleave: false)
        case 330:
            try split(p, inputs[0], layer.outputs)
            return
        case 400:
            try simpleRecurrent(p, inputs, layer.outputs)
            return
        case 410:
            try gru(p, inputs, layer.outputs)
            return
        case 420, 430:
            try lstm(p, inputs, layer.outputs, bidirectional: field == 430)
            return
        case 340: result = try sequenceRepeat(p, inputs[0], out)
        case 345: result = try reorganizeData(p, inputs[0], out)
        case 350: result = try slice(p, inputs[0], out)
        case 600:
            result = NNValue(
                name: identity(inputs[0].name, output: out), shape: inputs[0].shape, constant: inputs[0].constant)
        default:
            try convertND(layer, p, inputs, out)
            return
        }
        guard layer.outputs.count == 1 else { throw invalid("\(layer.outputs.count) outputs (expected 1)") }
        blobs[layer.outputs[0]] = result
    }
}
