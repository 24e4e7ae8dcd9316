import Foundation

/// Converts Darknet YOLO models (`.cfg` + `.weights`, optionally `.names`) to ONNX.
///
/// The ONNX graph computes exactly what OpenCV's DNN module (4.6) computes for the same files with
/// `readNetFromDarknet`:
///
/// - input `images`: float32 `[1, channels, height, width]` (NCHW, RGB, values 0...1), height and
///   width from `[net]`;
/// - one output per `[yolo]` layer, named like OpenCV's output layer (`yolo_<darknet layer index>`),
///   float32 `[H × W × A, 5 + classes]` for an H × W grid with A anchors, row `(y × W + x) × A + a`:
///   `cx, cy, w, h` of the box normalised to 0...1 of the input, the objectness, then per class
///   objectness × class probability, written as 0 when it is not above the layer's `thresh`
///   (0.2 unless the cfg says otherwise). No NMS is applied.
///
/// The graph is opset 11 and uses only operations OpenCV 4.6's own ONNX importer runs (Conv,
/// LeakyRelu, Relu, Sigmoid, Softplus, Tanh, Mul, Add, MaxPool, GlobalAveragePool, Concat, Slice,
/// Resize, Transpose, Reshape, Exp, Log, Sign), so the file loads both there and in onnxruntime.
///
/// `metadata_props`: `source` = `darknet`, `input_size` = `"[<height>, <width>]"`, `classes`,
/// `score_threshold` (the `thresh` of each yolo output, comma-separated, in output order),
/// `outputs` (the yolo output names, comma-separated), `output_format`, and when a `.names` file
/// is given `names` (Ultralytics' form, `{0: 'person', 1: 'bicycle'}`) and `labels` (a JSON array).
public enum DarknetConverter {
    /// The `ai.onnx` operator-set version of the graphs written.
    public static let opsetVersion = 11

    /// Converts `cfg` + `weights` (and the class names in `names`, one a line) to an ONNX file at `output`.
    public static func convert(cfg: URL, weights: URL, names: URL?, to output: URL) throws {
        try ONNXFile.write(try onnxData(cfg: cfg, weights: weights, names: names), to: output)
    }

    /// The serialized ONNX model for `cfg` + `weights` (and the class names in `names`, one a line).
    public static func onnxData(cfg: URL, weights: URL, names: URL?) throws -> Data {
        let config = try DarknetConfig.load(cfg)
        let parameters = try DarknetWeights.load(weights, config: config)
        let classNames = try names.map(readNames)
        if let names, let classNames {
            for layer in config.layers {
                guard case .yolo(let yolo) = layer.kind, yolo.classes != classNames.count else { continue }
                throw ConversionError(
                    .names,
                    "the names file lists \(classNames.count) classes, the [yolo] layer "
                        + "\(layer.index) of \(config.fileName) has \(yolo.classes)", file: names.path)
            }
        }
        var converter = DarknetToONNX(config: config, weights: parameters, classNames: classNames)
        return try converter.makeModel().serialized()
    }

    /// Class names, one a line; blank lines are skipped and surrounding whitespace trimmed.
    static func readNames(_ url: URL) throws -> [String] {
        let text: String
        do {
            let data = try Data(contentsOf: url)
            guard let decoded = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
                throw ConversionError(.names, "the names file is not text", file: url.path)
            }
            text = decoded
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError.unreadable(url, what: "names", error)
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}

/// Builds the ONNX graph of a parsed Darknet network.
struct DarknetToONNX {
    /// Batch-norm epsilon: OpenCV's Darknet importer uses 1e-6 inside the square root
    /// (`scale / sqrt(variance + 1e-6)`), darknet's own `normalize_cpu` adds .000001 to the root.
    static let batchNormEpsilon = 1e-6
    static let inputName = "images"

    let config: DarknetConfig
    let weights: DarknetWeights
    let classNames: [String]?
    private var graph = ONNXWriter.Graph(name: "darknet")

    init(config: DarknetConfig, weights: DarknetWeights, classNames: [String]?) {
        self.config = config
        self.weights = weights
        self.classNames = classNames
    }

    mutating func makeModel() throws -> ONNXWriter.Model {
        graph = ONNXWriter.Graph(name: "darknet")
        graph.docString = "Converted by openvision from the Darknet network \(config.fileName)"
        graph.inputs = [
            ONNXWriter.ValueInfo(
                name: Self.inputName, elementType: .float,
                shape: [.value(1), .value(config.channels), .value(config.height), .value(config.width)])
        ]

        var tensors: [String] = []  // output tensor of each darknet layer
        var heads: [(name: String, yolo: DarknetYolo)] = []
        for layer in config.layers {
            let input = layer.index == 0 ? Self.inputName : tensors[layer.index - 1]
            let i = layer.index
            var output: String
            switch layer.kind {
            case .convolutional(let conv):
                output = convolution(conv, layer: layer, input: input)
                output = activation(conv.activation, input: output, name: "\(conv.activation.rawValue)_\(i)")

            case .maxpool(let pool):
                let before = pool.padding / 2
                let after = pool.padding - before
                output = add(
                    "MaxPool", [input], "pool_\(i)",
                    [
                        .init("kernel_shape", .ints([pool.size, pool.size])),
                        .init("strides", .ints([pool.stride, pool.stride])),
                        .init("pads", .ints([before, before, after, after])),
                    ])

            case .avgpool:
                output = add("GlobalAveragePool", [input], "avgpool_\(i)")

            case .route(let route):
                var parts: [String] = []
                for (k, source) in route.layers.enumerated() {
                    let tensor = tensors[source]
                    if route.groups == 1 {
                        parts.append(tensor)
                    } else {
                        let size = config.layers[source].output.channels / route.groups
                        let name = route.layers.count == 1 ? "route_\(i)" : "route_\(i)_in\(k)"
                        parts.append(
                            slice(
                                tensor, axis: 1, from: size * route.groupID, to: size * (route.groupID + 1),
                                name: name))
                    }
                }
                output = parts.count == 1 ? parts[0] : add("Concat", parts, "concat_\(i)", [.init("axis", .int(1))])

            case .shortcut(let shortcut):
                output = self.shortcut(shortcut, layer: layer, input: input, from: tensors[shortcut.from])
                output = activation(shortcut.activation, input: output, name: "\(shortcut.activation.rawValue)_\(i)")

            case .upsample(let stride):
                let roi = constant("upsample_\(i)/roi", dims: [0], floats: [])
                let scales = constant("upsample_\(i)/scales", dims: [4], floats: [1, 1, Float(stride), Float(stride)])
                output = add(
                    "Resize", [input, roi, scales], "upsample_\(i)",
                    [
                        .init("mode", .string("nearest")),
                        .init("coordinate_transformation_mode", .string("asymmetric")),
                        .init("nearest_mode", .string("floor")),
                    ])

            case .yolo(let yolo):
                let name = "yolo_\(i)"
                yoloDecode(yolo, layer: layer, input: input, name: name)
                heads.append((name, yolo))
                output = input  // never read: routes and shortcuts from a [yolo] are rejected when parsing

            case .dropout:
                output = input

            case .connected, .softmax, .reorg, .region, .scaleChannels, .sam:
                // OpenCV's reader's layer types: a network parsed for the converter has none.
                throw ConversionError(
                    .unsupported, "[\(layer.typeName)] is not supported by the converter",
                    file: config.fileName, line: layer.line)
            }
            tensors.append(output)
        }
        guard !heads.isEmpty else {
            throw ConversionError(
                .unsupported, "the network has no [yolo] layer: only YOLO detectors are converted",
                file: config.fileName)
        }
        let classes = Set(heads.map(\.yolo.classes))
        if let classNames {
            for head in heads where head.yolo.classes != classNames.count {
                throw ConversionError(
                    .names,
                    "the names file lists \(classNames.count) classes, \(head.name) has "
                        + "\(head.yolo.classes)")
            }
        }

        var metadata: [(key: String, value: String)] = [
            ("source", "darknet"),
            ("input_size", "[\(config.height), \(config.width)]"),
            ("classes", classes.sorted().map(String.init).joined(separator: ",")),
            ("outputs", heads.map(\.name).joined(separator: ",")),
            ("score_threshold", heads.map { "\($0.yolo.thresh)" }.joined(separator: ",")),
            (
                "output_format",
                "opencv-darknet-region: rows [cx, cy, w, h, objectness, class scores...], "
                    + "box normalised to 0...1 of the input, class score = objectness * class probability, "
                    + "0 when not above score_threshold, row (y*W + x)*A + a, no NMS"
            ),
        ]
        if let classNames {
            metadata.append(("names", Self.pythonDictionaryLiteral(classNames)))
            let json = try JSONSerialization.data(withJSONObject: classNames, options: [.withoutEscapingSlashes])
            metadata.append(("labels", String(decoding: json, as: UTF8.self)))
        }
        return ONNXWriter.Model(
            opsetVersion: DarknetConverter.opsetVersion, producerName: "openvision",
            graph: graph, metadata: metadata)
    }

    /// `{0: 'person', 1: 'bicycle'}`, the way Ultralytics writes `names` (Python's `repr` of a dict).
    static func pythonDictionaryLiteral(_ names: [String]) -> String {
        let items = names.enumerated().map { index, name -> String in
            let quote: Character = name.contains("'") && !name.contains("\"") ? "\"" : "'"
            var literal = String(quote)
            for character in name {
                if character == "\\" || character == quote { literal.append("\\") }
                literal.append(character)
            }
            literal.append(quote)
            return "\(index): \(literal)"
        }
        return "{" + items.joined(separator: ", ") + "}"
    }

    // MARK: Layers

    /// `Conv` with batch normalisation folded into its weights and bias.
    private mutating func convolution(_ conv: DarknetConvolution, layer: DarknetLayer, input: String) -> String {
        let i = layer.index
        let parameters = weights.convolution(at: i, conv)
        var kernels = Array(parameters.weights)
        var bias = Array(parameters.biases)
        if conv.batchNormalize, let scales = parameters.scales, let mean = parameters.mean,
            let variance = parameters.variance
        {
            let perFilter = kernels.count / conv.filters
            for f in 0..<conv.filters {
                let scale =
                    Double(scales[scales.startIndex + f])
                    / (Double(variance[variance.startIndex + f]) + Self.batchNormEpsilon).squareRoot()
                for k in (f * perFilter)..<((f + 1) * perFilter) {
                    kernels[k] = Float(Double(kernels[k]) * scale)
                }
                bias[f] = Float(Double(bias[f]) - Double(mean[mean.startIndex + f]) * scale)
            }
        }
        let w = constant(
            "conv_\(i).weight", dims: [conv.filters, conv.inputChannels / conv.groups, conv.size, conv.size],
            floats: kernels)
        let b = constant("conv_\(i).bias", dims: [conv.filters], floats: bias)
        return add(
            "Conv", [input, w, b], "conv_\(i)",
            [
                .init("kernel_shape", .ints([conv.size, conv.size])),
                .init("strides", .ints([conv.stride, conv.stride])),
                .init("pads", .ints([conv.padding, conv.padding, conv.padding, conv.padding])),
                .init("dilations", .ints([conv.dilation, conv.dilation])),
                .init("group", .int(conv.groups)),
            ])
    }

    /// Darknet's shortcut: adds `from` to the input over the channels they share; channels of the
    /// input beyond those of `from` pass through, extra channels of `from` are dropped.
    private mutating func shortcut(
        _ shortcut: DarknetShortcut, layer: DarknetLayer, input: String,
        from: String
    ) -> String {
        let i = layer.index
        let own = layer.input.channels
        let other = config.layers[shortcut.from].output.channels
        if own == other {
            return add("Add", [input, from], "shortcut_\(i)")
        }
        if other > own {
            let trimmed = slice(from, axis: 1, from: 0, to: own, name: "shortcut_\(i)/from")
            return add("Add", [input, trimmed], "shortcut_\(i)")
        }
        let head = slice(input, axis: 1, from: 0, to: other, name: "shortcut_\(i)/head")
        let tail = slice(input, axis: 1, from: other, to: own, name: "shortcut_\(i)/tail")
        let sum = add("Add", [head, from], "shortcut_\(i)/sum")
        return add("Concat", [sum, tail], "shortcut_\(i)", [.init("axis", .int(1))])
    }

    /// OpenCV's region layer for a `[yolo]` head (`modules/dnn/src/layers/region_layer.cpp`, the
    /// `logistic` path the Darknet importer sets up), as graph operations:
    ///
    ///     rows = reshape(transpose(input, NHWC), [H*W*A, 5+C])         // row (y*W + x)*A + a
    ///     new_coords = 0:
    ///       cx = (x + (σ(tx) - 0.5) * scale_x_y + 0.5) / W,  cy likewise with y, H
    ///       w  = exp(tw) * anchor_w / net_width,            h likewise
    ///       objectness = σ(to),  p_c = objectness * σ(t_c)
    ///     new_coords = 1 (inputs already logistic):
    ///       cx = (x + (tx - 0.5) * scale_x_y + 0.5) / W,  w = tw² * 4 * anchor_w / net_width
    ///       objectness = to,  p_c = objectness * t_c
    ///     score_c = p_c > thresh ? p_c : 0
    ///
    /// OpenCV also runs a per-class NMS inside the layer when the cfg sets `nms_threshold` > 0
    /// (the default is 0); that step is not reproduced. With new_coords = 1, OpenCV 4.6 leaves the
    /// objectness column unwritten (later 4.x write `to`, as here); the class scores agree.
    private mutating func yoloDecode(_ yolo: DarknetYolo, layer: DarknetLayer, input: String, name: String) {
        let grid = layer.input
        let anchors = yolo.usedAnchors
        let a = anchors.count
        let k = 5 + yolo.classes
        let n = grid.height * grid.width * a
        let s = yolo.scaleXY

        let permuted = add("Transpose", [input], "\(name)/permute", [.init("perm", .ints([0, 2, 3, 1]))])
        let shape = int64Constant("\(name)/shape", dims: [2], values: [Int64(n), Int64(k)])
        let rows = add("Reshape", [permuted, shape], "\(name)/rows")
        let txy = slice(rows, axis: 1, from: 0, to: 2, name: "\(name)/txy")
        let twh = slice(rows, axis: 1, from: 2, to: 4, name: "\(name)/twh")
        let tobj = slice(rows, axis: 1, from: 4, to: 5, name: "\(name)/tobj")
        let tcls = slice(rows, axis: 1, from: 5, to: k, name: "\(name)/tcls")

        // xy = v * (s / [W, H]) + (grid + 0.5 - 0.5 s) / [W, H];  wh = f(t) * anchor / net size
        var offsets = [Float](repeating: 0, count: n * 2)
        var logSizes = [Float](repeating: 0, count: n * 2)
        let whFactor: Float = yolo.newCoords == 1 ? 4 : 1
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                for anchor in 0..<a {
                    let row = (y * grid.width + x) * a + anchor
                    offsets[row * 2] = (Float(x) + 0.5 - 0.5 * s) / Float(grid.width)
                    offsets[row * 2 + 1] = (Float(y) + 0.5 - 0.5 * s) / Float(grid.height)
                    logSizes[row * 2] = log(whFactor * anchors[anchor].width / Float(config.width))
                    logSizes[row * 2 + 1] = log(whFactor * anchors[anchor].height / Float(config.height))
                }
            }
        }
        let xyScale = constant(
            "\(name)/xy_scale", dims: [1, 2], floats: [s / Float(grid.width), s / Float(grid.height)])
        let xyOffset = constant("\(name)/xy_offset", dims: [n, 2], floats: offsets)
        let logAnchor = constant("\(name)/log_anchors", dims: [n, 2], floats: logSizes)

        // Multiplying by a per-row constant is written as exp(log t + log c) / exp(t + log c):
        // OpenCV 4.6's ONNX importer cannot multiply by an [N, 2] constant but can add one.
        let vxy: String
        let logWH: String
        let objectness: String
        let classProbability: String
        if yolo.newCoords == 1 {
            vxy = txy
            let squared = add("Mul", [twh, twh], "\(name)/twh2")
            logWH = add("Log", [squared], "\(name)/log_twh2")  // log 0 = -inf, exp(-inf) = 0
            objectness = tobj
            classProbability = tcls
        } else {
            vxy = add("Sigmoid", [txy], "\(name)/sxy")
            logWH = twh
            objectness = add("Sigmoid", [tobj], "\(name)/objectness")
            classProbability = add("Sigmoid", [tcls], "\(name)/scls")
        }
        let scaledXY = add("Mul", [vxy, xyScale], "\(name)/xy_scaled")
        let xy = add("Add", [scaledXY, xyOffset], "\(name)/xy")
        let exponent = add("Add", [logWH, logAnchor], "\(name)/log_wh")
        let wh = add("Exp", [exponent], "\(name)/wh")
        let probability = add("Mul", [classProbability, objectness], "\(name)/p")
        // keep = p > thresh as 1 / 0, without Greater + Cast (which OpenCV 4.6 cannot run):
        // relu(sign(p - thresh)); for floats p > t exactly when p - t > 0.
        let negativeThresh = constant("\(name)/neg_thresh", dims: [1], floats: [-yolo.thresh])
        let margin = add("Add", [probability, negativeThresh], "\(name)/margin")
        let sign = add("Sign", [margin], "\(name)/sign")
        let keep = add("Relu", [sign], "\(name)/keep")
        let scores = add("Mul", [probability, keep], "\(name)/scores")
        add("Concat", [xy, wh, objectness, scores], name, [.init("axis", .int(1))])
        graph.outputs.append(ONNXWriter.ValueInfo(name: name, elementType: .float, shape: [.value(n), .value(k)]))
    }

    private mutating func activation(_ activation: DarknetActivation, input: String, name: String) -> String {
        switch activation {
        case .linear:
            return input
        case .leaky:
            return add("LeakyRelu", [input], name, [.init("alpha", .float(0.1))])
        case .relu:
            return add("Relu", [input], name)
        case .logistic:
            return add("Sigmoid", [input], name)
        case .tanh:
            return add("Tanh", [input], name)
        case .swish:
            let sigmoid = add("Sigmoid", [input], "\(name)/sigmoid")
            return add("Mul", [input, sigmoid], name)
        case .mish:
            let softplus = add("Softplus", [input], "\(name)/softplus")
            let tanh = add("Tanh", [softplus], "\(name)/tanh")
            return add("Mul", [input, tanh], name)
        }
    }

    // MARK: Graph helpers

    /// Appends a node whose single output (and node name) is `output`; returns `output`.
    @discardableResult
    private mutating func add(
        _ op: String, _ inputs: [String], _ output: String,
        _ attributes: [ONNXWriter.Attribute] = []
    ) -> String {
        graph.nodes.append(
            ONNXWriter.Node(
                opType: op, name: output, inputs: inputs, outputs: [output],
                attributes: attributes))
        return output
    }

    private mutating func constant(_ name: String, dims: [Int], floats: [Float]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: floats))
        return name
    }

    private mutating func int64Constant(_ name: String, dims: [Int], values: [Int64]) -> String {
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, int64s: values))
        return name
    }

    /// `Slice` of `[from, to)` along one axis (opset 10+ form, bounds as inputs).
    private mutating func slice(_ input: String, axis: Int, from: Int, to: Int, name: String) -> String {
        let starts = int64Constant("\(name)/starts", dims: [1], values: [Int64(from)])
        let ends = int64Constant("\(name)/ends", dims: [1], values: [Int64(to)])
        let axes = int64Constant("\(name)/axes", dims: [1], values: [Int64(axis)])
        return add("Slice", [input, starts, ends, axes], name)
    }
}
