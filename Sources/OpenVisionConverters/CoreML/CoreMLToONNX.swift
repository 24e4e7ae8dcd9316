import Foundation

/// Builds the ONNX model of a Core ML model: graph inputs and outputs from its description, the model
/// itself (a neural network, an ML Program through the MIL side, non-maximum suppression, or a pipeline of
/// them, each sub-model's nodes under its own name prefix), and metadata describing what ONNX cannot
/// (labels, the image inputs' preprocessing, the Core ML description as JSON).
///
/// Image inputs become float32 `[1, 3, H, W]` graph inputs at their default size; image outputs float32
/// `[1, C, H, W]` graph outputs holding the pixel values (0...255, Core ML clamps and rounds them), C = 1 for
/// grayscale and 3 for RGB or BGR in that order (`imageOutputs` in the metadata). The `NeuralNetworkImageScaler`
/// of the network reading an RGB or BGR image is not computed in the graph: the input takes the scaled
/// values, and `metadata_props` (`coreml` JSON, `mean`/`std`) say how to make them, which OpenVision's own
/// preprocessing does at no extra cost. Mean images and grayscale conversion (luma of the RGB input,
/// Rec. 601 weights) are computed in the graph.
struct CoreMLToONNX {
    /// A feature available to the next sub-model.
    struct Feature {
        var value: String
        /// The logical shape, when known.
        var shape: [Int]?
        /// For a top-level image input: its colour space, and the scaler already applied by the caller.
        var image: CoreMLFeatureType.Image?
        var applied: ImageScaler?
        /// The element type of `value` (float for images and network values; classic models' values keep Core ML's
        /// double, int64 and string types; a dictionary input is a map of this type).
        var type: ONNXWriter.DataType = .float
        /// A dictionary input: an ONNX-ML map from string or int64 keys to `type` values.
        var isMap = false
    }

    /// An affine per-channel map `y = scale × x + bias[c]`, in the tensor's channel order.
    struct ImageScaler: Equatable, Codable {
        var scale: Float
        var bias: [Float]
        static let identity = ImageScaler(scale: 1, bias: [0, 0, 0])
    }

    var graph: ONNXWriter.Graph
    var features: [String: Feature] = [:]
    /// Per top-level image input: the scaler the caller applies (recorded in the metadata).
    var exposed: [String: ImageScaler] = [:]
    var layerCounts: [String: Int] = [:]
    var weightFormats = Set<NeuralNetworkWeights.Format>()
    var unsupportedLayers: [String] = []
    /// The custom layers of the graph (`CoreMLCustomLayer`), in node `index` order.
    var customLayers: [CoreMLCustomLayer] = []
    /// Each lowered ML Program's class labels, by its sub-model prefix ("" for a top-level program).
    var programLabels: [String: [String]] = [:]
    let blob: (String) throws -> [UInt8]
    private var modelIndex = 0
    var reserved = Set<String>()
    /// Classic models lowered so far (numbering their values' names).
    var classicCount = 0
    /// Whether the graph uses ONNX-ML (`ai.onnx.ml`) operators.
    var usesONNXML = false
    /// Whether the top-level model holds a classic model: its double multi-array inputs are then given as doubles.
    var keepsDoubles = false

    init(name: String, blob: @escaping (String) throws -> [UInt8]) {
        graph = ONNXWriter.Graph(name: name)
        self.blob = blob
    }

    // MARK: Entry

    /// Converts `spec` (the file's top-level model).
    mutating func convert(_ spec: CoreMLSpec) throws {
        let d = spec.description
        guard !d.inputs.isEmpty, !d.outputs.isEmpty else {
            throw ConversionError(.syntax, "the model describes no inputs or no outputs")
        }
        reserved = Set(d.outputs.map(\.name))
        keepsDoubles = Self.containsClassic(spec)
        for input in d.inputs { try declareInput(input, spec: spec) }
        try lower(spec, prefix: "")
        for output in d.outputs { try declareOutput(output, spec: spec) }
        if keepsDoubles { simplifyClassicGraph() }
        let initializers = Set(graph.initializers.map(\.name))
        guard graph.inputs.contains(where: { !initializers.contains($0.name) }) else {
            throw ConversionError(.unsupported, "the model has no input it reads (only optional thresholds)")
        }
    }

    /// Whether `spec` is or holds a classic model type.
    static func containsClassic(_ spec: CoreMLSpec) -> Bool {
        switch spec.kind {
        case .classic: true
        case .pipeline(let p): p.models.contains(where: containsClassic)
        default: false
        }
    }

    // MARK: Inputs and outputs

    mutating func declareInput(_ f: CoreMLFeature, spec: CoreMLSpec) throws {
        switch f.type {
        case .image(let image):
            guard image.width > 0, image.height > 0, image.width <= 16384, image.height <= 16384 else {
                throw ConversionError(
                    .invalidValue,
                    "image input '\(f.name)' of \(image.width) × \(image.height) pixels (1...16384 a side)")
            }
            guard image.colorSpace != .invalid else {
                throw ConversionError(.invalidValue, "image input '\(f.name)' has no colour space")
            }
            graph.inputs.append(
                ONNXWriter.ValueInfo(
                    name: f.name, elementType: .float,
                    shape: [.value(1), .value(3), .value(image.height), .value(image.width)]))
            features[f.name] = Feature(
                value: f.name, shape: [1, 3, image.height, image.width], image: image, applied: nil)
        case .multiArray(let array):
            var shape = array.defaultShape
            guard !shape.isEmpty, shape.allSatisfy({ $0 > 0 }) else {
                throw ConversionError(
                    .invalidValue,
                    "multi-array input '\(f.name)' has no usable shape (\(array.shape), flexible \(array.enumeratedShapes) \(array.shapeRanges))"
                )
            }
            var type: ONNXWriter.DataType = array.dataType == .int32 || array.dataType == .int8 ? .int32 : .float
            if keepsDoubles {
                // A classic model's vector: a [1, n] row, as ONNX-ML operators take it; doubles kept.
                if shape.count == 1 { shape = [1, shape[0]] }
                if array.dataType == .double { type = .double }
            }
            graph.inputs.append(ONNXWriter.ValueInfo(name: f.name, elementType: type, shape: shape.map { .value($0) }))
            var name = f.name
            if type == .int32 {
                name = "\(f.name)__float"
                graph.nodes.append(
                    ONNXWriter.Node(
                        opType: "Cast", name: name, inputs: [f.name], outputs: [name],
                        attributes: [.init("to", .int(1))]))
                type = .float
            }
            features[f.name] = Feature(value: name, shape: shape, type: type)
        case .double, .int64:
            if let defaultValue = Self.scalarDefault(f.name, spec: spec) {
                // Scalar parameters (the NMS thresholds): an initializer of the same name holds the default, which
                // ONNX Runtime lets callers override.
                graph.initializers.append(ONNXWriter.Tensor(name: f.name, dims: [1], doubles: [defaultValue]))
                graph.inputs.append(ONNXWriter.ValueInfo(name: f.name, elementType: .double, shape: [.value(1)]))
                features[f.name] = Feature(value: f.name, shape: [1], type: .double)
            } else {
                // A feature of a classic model: a [1, 1] tensor of its type.
                let type: ONNXWriter.DataType = f.type == .double ? .double : .int64
                graph.inputs.append(
                    ONNXWriter.ValueInfo(name: f.name, elementType: type, shape: [.value(1), .value(1)]))
                features[f.name] = Feature(value: f.name, shape: [1, 1], type: type)
            }
        case .string:
            graph.inputs.append(
                ONNXWriter.ValueInfo(name: f.name, elementType: .string, shape: [.value(1), .value(1)]))
            features[f.name] = Feature(value: f.name, shape: [1, 1], type: .string)
        case .dictionary(let stringKeys):
            // An ONNX-ML map of doubles (what `dictVectorizer` reads).
            graph.inputs.append(
                ONNXWriter.ValueInfo(name: f.name, mapKey: stringKeys ? .string : .int64, value: .double))
            features[f.name] = Feature(value: f.name, shape: nil, type: .double, isMap: true)
        default:
            throw ConversionError(
                .unsupported,
                "input '\(f.name)' of type \(Self.typeName(f.type)) (image, multi-array, double, int64, "
                    + "string and dictionary inputs are converted)")
        }
    }

    /// The default value of a scalar input: the threshold of the NMS model reading it.
    static func scalarDefault(_ name: String, spec: CoreMLSpec) -> Double? {
        switch spec.kind {
        case .nonMaximumSuppression(let nms):
            if nms.iouThresholdInputFeatureName == name { return nms.iouThreshold }
            if nms.confidenceThresholdInputFeatureName == name { return nms.confidenceThreshold }
            return nil
        case .pipeline(let p):
            return p.models.lazy.compactMap { scalarDefault(name, spec: $0) }.first
        default:
            return nil
        }
    }

    static func typeName(_ t: CoreMLFeatureType) -> String {
        switch t {
        case .int64: "int64"
        case .double: "double"
        case .string: "string"
        case .image: "image"
        case .multiArray: "multiArray"
        case .dictionary: "dictionary"
        case .sequence: "sequence"
        case .state: "state"
        case .invalid: "(none)"
        }
    }

    mutating func declareOutput(_ f: CoreMLFeature, spec: CoreMLSpec) throws {
        switch f.type {
        case .string, .int64:
            // A neural network's or ML Program's label: the argmax of the probabilities, which OpenVision reads from
            // them (classic classifiers compute theirs in the graph, as a string or int64 tensor).
            if f.name == spec.description.predictedFeatureName, ![.string, .int64].contains(features[f.name]?.type) {
                return
            }
        default: break
        }
        guard var feature = features[f.name] else {
            throw ConversionError(.syntax, "no sub-model produces the output '\(f.name)'")
        }
        var shape: [ONNXWriter.Dimension]
        switch f.type {
        case .multiArray(let array):
            if let s = feature.shape, keepsDoubles || array.shape.isEmpty || array.shape == s {
                // (A classic model's row keeps its [1, n] shape: OpenVision gives it Core ML's [n].)
                shape = s.map { $0 < 0 ? .param("\(f.name)_n") : .value($0) }
            } else if !array.shape.isEmpty {
                shape = array.shape.map { .value($0) }
            } else {
                shape = (0..<(array.shapeRanges.count)).map { .param("\(f.name)_\($0)") }
            }
        case .dictionary:
            shape = (feature.shape ?? []).map { .value($0) }
        case .double, .int64, .string:
            // A classic model's scalar, as a one-element tensor of Core ML's type.
            let want: ONNXWriter.DataType = f.type == .double ? .double : f.type == .int64 ? .int64 : .string
            guard let s = feature.shape, s.reduce(1, *) == 1 else {
                throw ConversionError(
                    .invalidValue,
                    "output '\(f.name)' is a \(Self.typeName(f.type)); the model gives "
                        + "\(feature.shape.map { "shape \($0)" } ?? "a value of unknown shape")")
            }
            // A float for a double stays float (OpenVision reads it as a double): no cast.
            if feature.type != want && !(want == .double && feature.type == .float) {
                guard want != .string, feature.type != .string else {
                    throw ConversionError(
                        .invalidValue,
                        "output '\(f.name)' is a \(Self.typeName(f.type)); the model gives "
                            + "\(feature.type == .string ? "a string" : "a number")")
                }
                let cast = "output/\(f.name)__\(want)"
                add("Cast", [feature.value], cast, [.init("to", .int(Int(want.rawValue)))])
                feature.value = cast
                feature.type = want
            }
            shape = s.map { .value($0) }
        case .image(let image):
            let (value, dims) = try imageOutput(f.name, image: image, feature: feature)
            graph.nodes.append(
                ONNXWriter.Node(opType: "Identity", name: "output/\(f.name)", inputs: [value], outputs: [f.name]))
            graph.outputs.append(ONNXWriter.ValueInfo(name: f.name, elementType: .float, shape: dims))
            return
        default:
            throw ConversionError(.unsupported, "output '\(f.name)' of type \(Self.typeName(f.type))")
        }
        graph.nodes.append(
            ONNXWriter.Node(opType: "Identity", name: "output/\(f.name)", inputs: [feature.value], outputs: [f.name]))
        graph.outputs.append(ONNXWriter.ValueInfo(name: f.name, elementType: feature.type, shape: shape))
    }

    /// An image output as the float32 tensor `[1, C, H, W]` (C = 1 for grayscale, 3 for RGB / BGR in the colour
    /// space's channel order) whose values are the pixels, 0...255, as Core ML takes them. A value of another
    /// layout with the image's element count is reshaped; a flexible size leaves H and W symbolic.
    private mutating func imageOutput(_ name: String, image: CoreMLFeatureType.Image, feature: Feature) throws -> (
        String, [ONNXWriter.Dimension]
    ) {
        guard image.colorSpace != .invalid else {
            throw ConversionError(.invalidValue, "image output '\(name)' has no colour space")
        }
        let c = image.channels
        let flexible = !image.enumeratedSizes.isEmpty || image.widthRange != nil || image.heightRange != nil
        if let s = feature.shape, s.count == 4, s[0] == 1, s[1] == c, s[2] > 0, s[3] > 0,
            flexible || (s[2] == image.height && s[3] == image.width)
        {
            // The size the graph computes (a flexible model's graph is built at its inputs' default size).
            return (feature.value, s.map { .value($0) })
        }
        guard !flexible else {
            if let s = feature.shape, s.count == 4, s[0] == 1, s[1] == c {
                return (
                    feature.value,
                    [
                        .value(1), .value(c), s[2] > 0 ? .value(s[2]) : .param("\(name)_height"),
                        s[3] > 0 ? .value(s[3]) : .param("\(name)_width"),
                    ]
                )
            }
            return (feature.value, [.value(1), .value(c), .param("\(name)_height"), .param("\(name)_width")])
        }
        guard image.width > 0, image.height > 0 else {
            throw ConversionError(.invalidValue, "image output '\(name)' of \(image.width) × \(image.height) pixels")
        }
        let dims = [1, c, image.height, image.width]
        guard let s = feature.shape, s.allSatisfy({ $0 > 0 }) else { return (feature.value, dims.map { .value($0) }) }
        guard s.reduce(1, *) == dims.reduce(1, *) else {
            throw ConversionError(
                .invalidValue,
                "image output '\(name)' of \(c) × \(image.height) × \(image.width) values: the model gives shape \(s)")
        }
        let reshaped = "\(name)__image"
        add("Reshape", [feature.value, int64s("\(reshaped)_shape", dims)], reshaped)
        return (reshaped, dims.map { .value($0) })
    }

    // MARK: Models

    private mutating func lower(_ spec: CoreMLSpec, prefix: String) throws {
        switch spec.kind {
        case .neuralNetwork(let nn):
            try lowerNeuralNetwork(nn, description: spec.description, prefix: prefix)
        case .pipeline(let pipeline):
            for (i, model) in pipeline.models.enumerated() {
                try lower(model, prefix: Self.submodelPrefix(pipeline, i, under: prefix))
            }
        case .nonMaximumSuppression(let nms):
            try lowerNMS(nms, description: spec.description, prefix: prefix)
        case .mlProgram(let bytes):
            try lowerProgram(description: spec.description, prefix: prefix) { [blob] inputs, graph in
                try CoreMLProgramBridge.lower(
                    serialized: bytes, blob: blob, inputs: inputs, into: &graph, prefix: prefix)
            }
        case .compiledProgram(let program, let root):
            try lowerProgram(description: spec.description, prefix: prefix) { inputs, graph in
                let outputs = try CoreMLProgramBridge.lower(
                    program, blob: CoreMLSource.blobReader(root: root), inputs: inputs,
                    into: &graph, prefix: prefix)
                return (outputs, program.summary)
            }
        case .identity:
            for (input, output) in zip(spec.description.inputs, spec.description.outputs) {
                guard let f = features[input.name] else {
                    throw ConversionError(.syntax, "identity model: no input '\(input.name)'")
                }
                features[output.name] = f
            }
        case .classic(let model):
            try lowerClassic(model, description: spec.description, prefix: prefix)
        case .other(let name):
            throw Self.unconverted(name)
        }
    }

    /// The name prefix of a pipeline's `i`th sub-model's values: its name in the pipeline, else "model`i`".
    static func submodelPrefix(_ pipeline: CoreMLPipelineSpec, _ i: Int, under prefix: String) -> String {
        let name = i < pipeline.names.count && !pipeline.names[i].isEmpty ? pipeline.names[i] : "model\(i)"
        return "\(prefix)\(name)/"
    }

    /// The value of feature `name` for a sub-model's input.
    func feature(_ name: String) throws -> Feature {
        guard let f = features[name] else {
            throw ConversionError(.syntax, "no input or earlier sub-model gives the feature '\(name)'")
        }
        return f
    }

    mutating func add(_ op: String, _ inputs: [String], _ output: String, _ attributes: [ONNXWriter.Attribute] = []) {
        graph.nodes.append(
            ONNXWriter.Node(
                opType: op, name: output + "/" + op, inputs: inputs, outputs: [output], attributes: attributes))
    }

    mutating func floats(_ name: String, _ values: [Float], _ dims: [Int]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: values))
        return name
    }

    mutating func int64s(_ name: String, _ values: [Int]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: [values.count], int64s: values.map(Int64.init)))
        return name
    }

    // MARK: Neural networks

    private mutating func lowerNeuralNetwork(
        _ nn: NeuralNetworkSpec, description: CoreMLModelDescription, prefix: String
    ) throws {
        var inputs: [String: NNValue] = [:]
        for input in description.inputs { inputs[input.name] = try networkInput(input, nn: nn, prefix: prefix) }
        for layer in nn.layers {
            layerCounts[layer.typeName, default: 0] += 1
            if !NeuralNetworkToONNX.supportedLayerTypes.contains(layer.typeField) {
                unsupportedLayers.append("\(layer.typeName) '\(layer.name)'")
            }
        }
        var converter = NeuralNetworkToONNX(spec: nn, prefix: prefix, graph: graph)
        for name in reserved { converter.reserve(name) }
        converter.blobs = inputs
        converter.customLayers = customLayers
        do {
            try converter.convertLayers()
        } catch {
            weightFormats.formUnion(converter.weightFormats)
            throw error
        }
        weightFormats.formUnion(converter.weightFormats)
        customLayers = converter.customLayers
        for output in description.outputs {
            let isLabel = output.name == description.predictedFeatureName
            if nn.flavor == .classifier, case .dictionary = output.type {
                features[output.name] = try converter.classifierProbabilities(
                    nn, description: description, output: output.name)
            } else if nn.flavor == .classifier, isLabel {
                continue
            } else {
                features[output.name] = try converter.networkOutput(output, nn: nn)
            }
        }
        // A classifier without a dictionary output still gives its probabilities.
        if nn.flavor == .classifier,
            !description.outputs.contains(where: { if case .dictionary = $0.type { return true } else { return false } }
            )
        {
            let name =
                description.predictedProbabilitiesName.isEmpty
                ? "classLabelProbs" : description.predictedProbabilitiesName
            features[name] = try converter.classifierProbabilities(nn, description: description, output: name)
        }
        graph = converter.graph
    }

    /// A network input as the network sees it: images with their preprocessing applied, arrays in the
    /// rank the network's shape mapping gives them.
    private mutating func networkInput(_ input: CoreMLFeature, nn: NeuralNetworkSpec, prefix: String) throws -> NNValue
    {
        var f = try feature(input.name)
        switch input.type {
        case .image(let image):
            let channels = image.channels
            let steps = nn.preprocessing.filter {
                $0.featureName == input.name || ($0.featureName.isEmpty && nn.preprocessing.count == 1)
            }
            let scalerStep = steps.first { $0.hasScaler }
            var scaler = ImageScaler.identity
            if let s = scalerStep {
                scaler =
                    image.colorSpace == .bgr
                    ? ImageScaler(scale: s.channelScale, bias: [s.blueBias, s.greenBias, s.redBias])
                    : channels == 1
                        ? ImageScaler(scale: s.channelScale, bias: [s.grayBias])
                        : ImageScaler(scale: s.channelScale, bias: [s.redBias, s.greenBias, s.blueBias])
            }
            let top = f.image != nil && graph.inputs.contains { $0.name == input.name }
            var value = f.value
            if channels == 3 {
                let wantsBGR = image.colorSpace == .bgr
                if top, f.applied == nil, exposed[input.name] == nil {
                    // The caller applies this scaler (and gives BGR order when the image is BGR).
                    exposed[input.name] = scaler
                    f.applied = scaler
                    if wantsBGR { exposedBGR.insert(input.name) }
                    features[input.name] = f
                } else if f.applied != scaler {
                    value = try rescale(
                        value, from: f.applied ?? .identity, to: scaler, name: "\(prefix)\(input.name)__scaled")
                }
            } else {
                // Grayscale: luma of the RGB pixels (Rec. 601), then the scaler.
                graphScalers[input.name] = scaler
                let raw =
                    f.applied.map { try? rescale(value, from: $0, to: .identity, name: "\(prefix)\(input.name)__raw") }
                    ?? value
                guard let raw else {
                    throw ConversionError(.invalidValue, "image input '\(input.name)': its scaler cannot be undone")
                }
                let weights = floats(
                    "\(prefix)\(input.name)__luma_w", [0.299, 0.587, 0.114].map { $0 * scaler.scale }, [1, 3, 1, 1])
                let bias = floats("\(prefix)\(input.name)__luma_b", [scaler.bias[0]], [1])
                value = "\(prefix)\(input.name)__gray"
                add("Conv", [raw, weights, bias], value)
            }
            // Mean images, after (or before) the scaler as they are listed.
            let scalerIndex = steps.firstIndex { $0.hasScaler }
            for (k, step) in steps.enumerated() where !step.meanImage.isEmpty {
                guard step.meanImage.count == channels * image.height * image.width else {
                    throw ConversionError(
                        .invalidValue,
                        "mean image of \(step.meanImage.count) values for a \(channels) × \(image.height) × \(image.width) input '\(input.name)'"
                    )
                }
                let factor: Float = scalerIndex.map { $0 < k } ?? true ? 1 : scaler.scale
                let mean = floats(
                    "\(prefix)\(input.name)__mean\(k)", step.meanImage.map { $0 * factor },
                    [1, channels, image.height, image.width])
                let next = "\(prefix)\(input.name)__centred\(k)"
                add("Sub", [value, mean], next)
                value = next
            }
            let shape =
                nn.isRank5 || nn.imageInputShapeMapping == 0
                ? [1, 1, channels, image.height, image.width] : [1, channels, image.height, image.width]
            return NNValue(name: value, shape: shape)
        case .multiArray(let array):
            var declared = array.defaultShape
            let rank5 = nn.arrayInputShapeMapping == 0
            if rank5 {
                switch declared.count {
                case 1: declared = [1, 1, declared[0], 1, 1]
                case 3: declared = [1, 1] + declared
                case 5: break
                default:
                    throw ConversionError(
                        .invalidValue,
                        "input '\(input.name)' of shape \(array.defaultShape): rank-5 networks take 1 or 3 dimensions")
                }
            }
            let physical = rank5 ? [declared[0] * declared[1], declared[2], declared[3], declared[4]] : declared
            if f.type != .float {
                // A classic model's double (or int64) values, as the float32 the network computes in.
                let cast = "\(prefix)\(input.name)__float"
                add("Cast", [f.value], cast, [.init("to", .int(1))])
                f.value = cast
            }
            if let s = f.shape, s == physical { return NNValue(name: f.value, shape: declared) }
            let name = "\(prefix)\(input.name)__in"
            add("Reshape", [f.value, int64s("\(name)_shape", physical)], name)
            return NNValue(name: name, shape: declared)
        default:
            throw ConversionError(.unsupported, "network input '\(input.name)' of type \(Self.typeName(input.type))")
        }
    }

    /// Image inputs the caller gives in BGR order.
    var exposedBGR = Set<String>()
    /// Per grayscale image input of a network: the scaler the graph applies to the luma it makes.
    var graphScalers: [String: ImageScaler] = [:]

    /// `value` computed with scaler `from`, recomputed with `to`: `(x − b₁) / s₁ × s₂ + b₂`.
    private mutating func rescale(_ value: String, from: ImageScaler, to: ImageScaler, name: String) throws -> String {
        guard from.scale != 0, from.bias.count == to.bias.count || from.bias.count == 3 else {
            throw ConversionError(.invalidValue, "an image scaled by 0 cannot be rescaled")
        }
        let a = to.scale / from.scale
        let b = (0..<3).map { c in
            (to.bias.count == 3 ? to.bias[c] : to.bias[0]) - (from.bias.count == 3 ? from.bias[c] : from.bias[0]) * a
        }
        let scaled = name + "_mul"
        add("Mul", [value, floats(name + "_a", [a], [1])], scaled)
        add("Add", [scaled, floats(name + "_b", b, [1, 3, 1, 1])], name)
        return name
    }

    // MARK: ML Programs

    /// An ML Program's inputs prepared as its `main` reads them, `lowering` run on them, and its outputs recorded.
    private mutating func lowerProgram(
        description: CoreMLModelDescription, prefix: String,
        lowering: ([String: String], inout ONNXWriter.Graph) throws -> (
            outputs: [String: String], summary: CoreMLProgramBridge.Summary
        )
    ) throws {
        var inputs: [String: String] = [:]
        for input in description.inputs {
            var f = try feature(input.name)
            if case .image = input.type, let applied = f.applied, applied != .identity {
                f.value = try rescale(f.value, from: applied, to: .identity, name: "\(prefix)\(input.name)__pixels")
            } else if case .image(let image) = input.type, graph.inputs.contains(where: { $0.name == input.name }),
                exposed[input.name] == nil
            {
                // ML Programs scale their images inside the program: the caller gives pixels (in BGR order for a BGR
                // image: the program's channels are blue, green, red).
                exposed[input.name] = .identity
                if image.colorSpace == .bgr { exposedBGR.insert(input.name) }
                var g = f
                g.applied = .identity
                features[input.name] = g
            }
            if f.type == .double {
                let cast = "\(prefix)\(input.name)__float"
                add("Cast", [f.value], cast, [.init("to", .int(1))])
                f.value = cast
            }
            inputs[input.name] = f.value
            if case .image(let image) = input.type {
                inputs[input.name] = programImage(f.value, image: image, name: "\(prefix)\(input.name)")
            }
        }
        let (outputs, program) = try lowering(inputs, &graph)
        for output in description.outputs {
            guard let value = outputs[output.name] else {
                throw ConversionError(.syntax, "the ML Program gives no output '\(output.name)'")
            }
            var shape: [Int]?
            if case .multiArray(let array) = output.type, !array.shape.isEmpty { shape = array.shape }
            // An image output is the program's [1, C, H, W] tensor (coremltools' ImageType outputs).
            if case .image(let image) = output.type, image.enumeratedSizes.isEmpty, image.widthRange == nil,
                image.heightRange == nil
            {
                shape = [1, image.channels, image.height, image.width]
            }
            features[output.name] = Feature(value: value, shape: shape)
        }
        layerCounts["mlProgram", default: 0] += 1
        for (op, n) in program.opCounts { layerCounts["mil." + op, default: 0] += n }
        programLabels[prefix] = program.classLabels
    }

    /// An ML Program's image input from the graph's RGB pixels: as they are for colour images, their luma (Rec. 601,
    /// as for networks) as `[1, 1, H, W]` for grayscale ones.
    mutating func programImage(_ value: String, image: CoreMLFeatureType.Image, name: String) -> String {
        guard image.channels == 1 else { return value }
        let gray = "\(name)__gray"
        add("Conv", [value, floats("\(name)__luma_w", [0.299, 0.587, 0.114], [1, 3, 1, 1])], gray)
        return gray
    }

    // MARK: Non-maximum suppression

    private mutating func lowerNMS(_ nms: CoreMLNMSSpec, description: CoreMLModelDescription, prefix: String) throws {
        let confidence = try feature(nms.confidenceInputFeatureName)
        let coordinates = try feature(nms.coordinatesInputFeatureName)
        func threshold(_ featureName: String, _ value: Double, _ what: String) -> String {
            if !featureName.isEmpty, let f = features[featureName] { return f.value }
            let name = "\(prefix)nms_\(what)_default"
            graph.initializers.append(
                ONNXWriter.Tensor(
                    name: name, dims: [1], type: .double,
                    rawBytes: withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)))
            return name
        }
        let classes = nms.classLabels.count
        var lowering = CoreMLNMSToONNX(prefix: prefix + "nms/", graph: graph)
        let (conf, coords) = try lowering.lower(
            confidence: confidence.value, confidenceShape: confidence.shape, coordinates: coordinates.value,
            classCount: classes > 0 ? classes : nil,
            iouThreshold: threshold(nms.iouThresholdInputFeatureName, nms.iouThreshold, "iou"),
            confidenceThreshold: threshold(
                nms.confidenceThresholdInputFeatureName, nms.confidenceThreshold, "confidence"),
            perClass: nms.perClass)
        graph = lowering.graph
        let outConfidence = nms.confidenceOutputFeatureName.isEmpty ? "confidence" : nms.confidenceOutputFeatureName
        let outCoordinates = nms.coordinatesOutputFeatureName.isEmpty ? "coordinates" : nms.coordinatesOutputFeatureName
        features[outConfidence] = Feature(value: conf, shape: [-1, lowering.classCount])
        features[outCoordinates] = Feature(value: coords, shape: [-1, 4])
        layerCounts["nonMaximumSuppression", default: 0] += 1
    }
}

extension NeuralNetworkToONNX {
    /// A classifier's probabilities as `[1, labels]`: the blob named by `labelProbabilityLayerName`, else the
    /// output's own name, else the last layer's output.
    mutating func classifierProbabilities(_ nn: NeuralNetworkSpec, description: CoreMLModelDescription, output: String)
        throws -> CoreMLToONNX.Feature
    {
        let candidates = [nn.labelProbabilityLayerName, output, nn.layers.last?.outputs.first ?? ""].filter {
            !$0.isEmpty
        }
        guard let name = candidates.first(where: { blobs[$0] != nil }), let value = blobs[name] else {
            throw ConversionError(
                .syntax,
                "the classifier's probabilities ('\(nn.labelProbabilityLayerName)') are not produced by any layer")
        }
        let count = try elements(value.shape)
        guard count == nn.classLabels.count || nn.classLabels.isEmpty else {
            throw ConversionError(
                .invalidValue, "the classifier gives \(count) probabilities for \(nn.classLabels.count) labels")
        }
        layerName = "classifier"
        let flat = reshape(value.name, [1, count])
        return CoreMLToONNX.Feature(value: flat, shape: [1, count])
    }

    /// A network output in the shape its description declares (old networks' rank-5 blobs reshaped).
    mutating func networkOutput(_ output: CoreMLFeature, nn: NeuralNetworkSpec) throws -> CoreMLToONNX.Feature {
        guard let value = blobs[output.name] else {
            throw ConversionError(.syntax, "no layer produces the output '\(output.name)'")
        }
        var declared: [Int] = []
        if case .multiArray(let array) = output.type { declared = array.defaultShape }
        let count = try elements(value.shape)
        layerName = "output_\(output.name)"
        if case .image(let image) = output.type {
            // An image: [1, C, H, W] (a rank-5 blob's sequence and batch axes of 1 dropped).
            let image = [1, image.channels, image.height, image.width]
            if image.reduce(1, *) == count, image != physical(value.shape) {
                return CoreMLToONNX.Feature(value: reshape(value.name, image), shape: image)
            }
            return CoreMLToONNX.Feature(value: value.name, shape: physical(value.shape))
        }
        if !declared.isEmpty, declared.reduce(1, *) == count, declared != physical(value.shape) {
            return CoreMLToONNX.Feature(value: reshape(value.name, declared), shape: declared)
        }
        if rank5, value.shape.count == 5 {
            // One sequence step and batch: [C, H, W]; otherwise the rank-5 shape.
            let shape = value.shape[0] == 1 && value.shape[1] == 1 ? Array(value.shape.suffix(3)) : value.shape
            return CoreMLToONNX.Feature(value: reshape(value.name, shape), shape: shape)
        }
        return CoreMLToONNX.Feature(value: value.name, shape: physical(value.shape))
    }
}
