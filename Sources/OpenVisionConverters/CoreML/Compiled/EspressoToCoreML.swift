import Foundation

/// Rewrites an `EspressoNetwork` as the Core ML `NeuralNetwork` it was compiled from, so that it converts to ONNX
/// through the same layer converter as `.mlmodel` files (`NeuralNetworkToONNX`). The layers and keys translated are
/// those of Xcode's output (docs/coreml.md); the real folders at hand (MNISTClassifier, UpdatableDrawingClassifier)
/// give exactly what their `.mlmodel`s give, and every layer's shape is checked against `model.espresso.shape`:
///
/// - `convolution` (`C`, `K`, `Nx`, `Ny`, `n_groups`, `stride_x/y`; `pad_mode` 0 explicit `pad_t/b/l/r`, 1 same,
///   2 valid, 4 same with the odd pad top and left; `fused_relu`, `fused_tanh`) → `convolution` (+ `activation`);
/// - `pool` (`avg_or_max` 0 average, 1 max; `size_x/y`, `stride_x/y`, `pad_mode` 0, 1, 2; `is_global`;
///   `average_count_exclude_padding`) → `pooling`;
/// - `inner_product` (`nB`, `nC`, `has_relu`, `has_tanh`) → `innerProduct` (+ `activation`);
/// - `activation` (`mode` 0: ReLU) → `activation`; `softmax` over channels → `softmax`;
/// - `flatten` (`mode` 0 channel first, 1 channel last) → `flatten`;
/// - in N-D networks (shapes with `_rank`; exact array mapping): `transpose` → `transpose`, `reshape` →
///   `reshapeStatic`, `softmax_nd` → `softmaxND` (see `ndLayer`).
///
/// Weights are the blobs the layers name (`blob_weights` float32, `blob_weights_f16` float16, `blob_biases`
/// float32, which Xcode pads with zeros), in Core ML's order. Every layer's output shape is computed and must be
/// the one `model.espresso.shape` states. Any other layer type, key or value is refused (`.unsupported`, naming
/// the layer, the key and the value): nothing is guessed.
struct EspressoToCoreML {
    let network: EspressoNetwork
    /// Whether the network is N-D (its shapes state ranks: Core ML's exact array and rank-4 image mappings, blobs of
    /// rank 1–4); otherwise every blob is Core ML's old rank-5 `[C, H, W]` (as `[k, h, w]`).
    let nd: Bool
    /// Blob shapes computed so far (the inputs, then each layer's tops): N-D shapes, or `[k, h, w]`.
    private(set) var shapes: [String: [Int]] = [:]
    private(set) var layers: [[UInt8]] = []

    init(network: EspressoNetwork) {
        self.network = network
        nd = network.shapes.values.contains { $0.rank != nil }
    }

    /// The `Model` message of the network described by `description` (the raw `ModelDescription` of its
    /// `coremldata.bin`) as model type `modelType` (500, 403 or 303), with `labels` for a classifier.
    static func model(
        _ network: EspressoNetwork, modelType: Int, specificationVersion: Int, description: CoreMLModelDescription,
        descriptionBytes: ArraySlice<UInt8>, labels: [String]
    ) throws -> [UInt8] {
        var translator = EspressoToCoreML(network: network)
        let preprocessing = try translator.declareInputs(description)
        for layer in network.layers { try translator.translate(layer) }
        var model = ONNXProtobufEncoder()
        model.int64(1, Int64(specificationVersion))
        model.bytes(2, descriptionBytes)
        var nn = ONNXProtobufEncoder()
        for layer in translator.layers { nn.bytes(1, layer) }
        for step in preprocessing { nn.bytes(2, step) }
        // Old (rank-5) shape semantics: Espresso's blobs are [n, k, h, w], as the rank-5 layers see them; N-D networks
        // map arrays exactly and images to rank 4.
        nn.int64(5, translator.nd ? 1 : 0)
        nn.int64(6, translator.nd ? 1 : 0)
        if modelType == 403 {
            if labels.allSatisfy({ Int64($0) != nil }), !labels.isEmpty {
                nn.message(101) { v in v.packedInt64(1, labels.compactMap { Int64($0) }) }
            } else {
                nn.message(100) { v in for label in labels { v.string(1, label) } }
            }
        }
        model.bytes(modelType, nn.bytes)
        return model.bytes
    }

    // MARK: Inputs

    /// Records the inputs' shapes (checked against `model.espresso.shape`) and returns the image inputs'
    /// `NeuralNetworkPreprocessing` messages.
    mutating func declareInputs(_ description: CoreMLModelDescription) throws -> [[UInt8]] {
        var steps: [[UInt8]] = []
        for input in description.inputs {
            let shape: [Int]
            switch input.type {
            case .image(let image):
                shape =
                    nd ? [1, image.channels, image.height, image.width] : [image.channels, image.height, image.width]
                if let step = try preprocessing(input.name, image: image) { steps.append(step) }
            case .multiArray(let array):
                let s = array.defaultShape
                switch (nd, s.count) {
                case (true, 1...4): shape = s
                case (false, 1): shape = [s[0], 1, 1]
                case (false, 3): shape = s
                default:
                    throw ConversionError(
                        .unsupported,
                        "Xcode's compiled neural network: input '\(input.name)' of shape \(s) "
                            + (nd ? "(1 to 4 dimensions are read)" : "(1 or 3 dimensions are read)"))
                }
            default:
                throw ConversionError(
                    .unsupported,
                    "Xcode's compiled neural network: input '\(input.name)' of type "
                        + CoreMLToONNX.typeName(input.type))
            }
            if let stated = network.shapes[input.name], !Self.matches(shape, stated) {
                throw ConversionError(
                    .invalidValue,
                    "model.espresso.shape gives input '\(input.name)' \(stated); "
                        + "its description \(shape)")
            }
            shapes[input.name] = shape
        }
        return steps
    }

    /// The image scaler of `transform_params` (absent: none).
    private func preprocessing(_ name: String, image: CoreMLFeatureType.Image) throws -> [UInt8]? {
        guard let t = network.transforms[name] else { return nil }
        let known: Set<String> = [
            "scale", "bias_r", "bias_g", "bias_b", "bias_a", "center_mean", "is_network_bgr", "is_image_bgr",
        ]
        func refuse(_ what: String) -> ConversionError {
            ConversionError(.unsupported, "model.espresso.net: transform_params of '\(name)': \(what)")
        }
        if let key = t.numbers.keys.sorted().first(where: { !known.contains($0) }) {
            throw refuse("\(key) = \(t.numbers[key]!)")
        }
        let v = { (key: String) in t.numbers[key] ?? 0 }
        guard v("center_mean") == 0 else { throw refuse("center_mean = \(v("center_mean")) (a mean image)") }
        guard v("bias_a") == 0 else { throw refuse("bias_a = \(v("bias_a"))") }
        guard v("is_image_bgr") == 0 else { throw refuse("is_image_bgr = \(v("is_image_bgr"))") }
        let bgr = image.colorSpace == .bgr
        guard v("is_network_bgr") == (bgr ? 1 : 0) else {
            throw refuse("is_network_bgr = \(v("is_network_bgr")) for a \(image.colorSpace.rawValue) image")
        }
        var scaler = ONNXProtobufEncoder()
        scaler.float(10, Float(t.scale))
        if image.channels == 1 {
            guard v("bias_r") == v("bias_g"), v("bias_g") == v("bias_b") else {
                throw refuse("a grayscale image with biases r \(v("bias_r")), g \(v("bias_g")), b \(v("bias_b"))")
            }
            scaler.float(30, Float(v("bias_r")))
        } else {
            scaler.float(20, Float(v("bias_b")))
            scaler.float(21, Float(v("bias_g")))
            scaler.float(22, Float(v("bias_r")))
        }
        var step = ONNXProtobufEncoder()
        step.string(1, name)
        step.bytes(10, scaler.bytes)
        return step.bytes
    }

    /// Whether a blob's shape is the one `model.espresso.shape` states: its dimensions are the last of n, k, h, w
    /// (and its rank the stated one, when stated).
    static func matches(_ shape: [Int], _ stated: EspressoNetwork.Shape) -> Bool {
        guard (1...4).contains(shape.count), stated.rank.map({ $0 == shape.count }) ?? true else { return false }
        let padded = Array(repeating: 1, count: 4 - shape.count) + shape
        return padded[1] == stated.k && padded[2] == stated.h && padded[3] == stated.w
            && (shape.count < 4 || padded[0] == stated.n)
    }

    // MARK: Layers

    private func refuse(_ layer: EspressoNetwork.Layer, _ what: String) -> ConversionError {
        ConversionError(.unsupported, "Espresso layer '\(layer.name)' (\(layer.type)): \(what)")
    }

    private func invalid(_ layer: EspressoNetwork.Layer, _ what: String) -> ConversionError {
        ConversionError(.invalidValue, "Espresso layer '\(layer.name)' (\(layer.type)): \(what)")
    }

    /// A key's allowed values.
    private enum Rule {
        case positive, count, flag, index
        /// A dimension, or −1 for one inferred.
        case dimensionOrInferred
        case oneOf(Set<Double>)
        case any

        func allows(_ v: Double) -> Bool {
            let integral = v == v.rounded()
            switch self {
            case .positive: return integral && v >= 1 && v <= Double(CoreMLLimits.dimension)
            case .count: return integral && v >= 0 && v <= Double(CoreMLLimits.dimension)
            case .flag: return v == 0 || v == 1
            case .index: return integral && v >= 0 && v <= Double(Int32.max)
            case .dimensionOrInferred: return integral && v >= -1 && v != 0 && v <= Double(CoreMLLimits.dimension)
            case .oneOf(let values): return values.contains(v)
            case .any: return true
            }
        }
    }

    /// Refuses keys outside `rules`, values a rule does not allow, objects no rule reads, and missing `required` keys.
    private func check(_ layer: EspressoNetwork.Layer, _ rules: [String: Rule], required: [String] = []) throws {
        if let key = layer.otherKeys.first { throw refuse(layer, "the key '\(key)' (its value is not read)") }
        for (key, value) in layer.numbers.sorted(by: { $0.key < $1.key }) {
            guard let rule = rules[key] else { throw refuse(layer, "the key '\(key)' = \(value)") }
            guard rule.allows(value) else { throw refuse(layer, "\(key) = \(value)") }
        }
        for key in required where layer.numbers[key] == nil { throw invalid(layer, "no '\(key)'") }
    }

    private func int(_ layer: EspressoNetwork.Layer, _ key: String, default value: Int = 0) -> Int {
        layer.numbers[key].map { Int($0) } ?? value
    }

    /// The one input a layer reads, with its shape.
    private func input(_ layer: EspressoNetwork.Layer) throws -> (String, [Int]) {
        guard layer.bottoms.count == 1, layer.tops.count == 1 else {
            throw invalid(layer, "\(layer.bottoms.count) inputs and \(layer.tops.count) outputs (1 and 1 expected)")
        }
        guard let shape = shapes[layer.bottoms[0]] else {
            throw ConversionError(
                .syntax,
                "Espresso layer '\(layer.name)' reads '\(layer.bottoms[0])', which no input or earlier layer gives")
        }
        return (layer.bottoms[0], shape)
    }

    /// Records `top`'s shape, which `model.espresso.shape` must state the same.
    private mutating func output(_ layer: EspressoNetwork.Layer, _ shape: [Int]) throws {
        let top = layer.tops[0]
        guard let stated = network.shapes[top] else {
            throw ConversionError(.syntax, "model.espresso.shape has no shape for '\(top)' (layer '\(layer.name)')")
        }
        guard Self.matches(shape, stated) else {
            throw invalid(layer, "computes \(shape), model.espresso.shape states \(stated)")
        }
        shapes[top] = shape
    }

    /// A `NeuralNetworkLayer` message.
    private mutating func emit(
        _ name: String, _ inputs: [String], _ outputs: [String], _ field: Int,
        _ params: (inout ONNXProtobufEncoder) -> Void
    ) {
        var layer = ONNXProtobufEncoder()
        layer.string(1, name)
        for i in inputs { layer.string(2, i) }
        for o in outputs { layer.string(3, o) }
        layer.message(field, params)
        layers.append(layer.bytes)
    }

    /// An `activation` layer (ReLU 10, tanh 30) from `input` to `output`.
    private mutating func activation(_ name: String, _ input: String, _ output: String, _ kind: Int) {
        emit(name, [input], [output], 130) { a in a.message(kind) { _ in } }
    }

    /// `WeightParams` of `count` values from a blob: float32 (`float16`: float16 bytes); a bias blob may be longer,
    /// padded with zeros.
    private func weights(
        _ layer: EspressoNetwork.Layer, blob: Int, count: Int, float16: Bool = false,
        padded: Bool = false
    ) throws -> [UInt8] {
        let bytes = try network.blob(blob, layer: layer.name)
        let size = float16 ? 2 : 4
        let (wanted, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow, bytes.count == wanted || (padded && bytes.count > wanted && bytes.count % size == 0) else {
            throw invalid(
                layer, "blob \(blob) has \(bytes.count) bytes for \(count) \(float16 ? "float16" : "float32") values")
        }
        if padded, bytes.dropFirst(wanted).contains(where: { $0 != 0 }) {
            throw invalid(layer, "blob \(blob) has values after its \(count) (padding is zeros)")
        }
        var w = ONNXProtobufEncoder()
        w.bytes(float16 ? 2 : 1, bytes.prefix(wanted))
        return w.bytes
    }

    /// The weight blob of a layer: `blob_weights` (float32) or `blob_weights_f16`.
    private func weightBlob(_ layer: EspressoNetwork.Layer) throws -> (Int, Bool) {
        switch (layer.numbers["blob_weights"], layer.numbers["blob_weights_f16"]) {
        case (let b?, nil): return (Int(b), false)
        case (nil, let b?): return (Int(b), true)
        default: throw invalid(layer, "needs one of blob_weights and blob_weights_f16")
        }
    }

    /// The fused activation (`relu`, `tanh` keys; at most one set).
    private func fused(_ layer: EspressoNetwork.Layer, relu: String, tanh: String) throws -> Int? {
        switch (int(layer, relu), int(layer, tanh)) {
        case (0, 0): return nil
        case (1, 0): return 10
        case (0, 1): return 30
        default: throw refuse(layer, "both \(relu) and \(tanh)")
        }
    }

    mutating func translate(_ layer: EspressoNetwork.Layer) throws {
        switch layer.type {
        case "convolution": try convolution(layer)
        case "pool": try pool(layer)
        case "inner_product": try innerProduct(layer)
        case "activation":
            try check(layer, ["mode": .oneOf([0]), "alpha": .oneOf([0]), "beta": .oneOf([0])], required: ["mode"])
            let (x, shape) = try input(layer)
            activation(layer.name, x, layer.tops[0], 10)
            try output(layer, shape)
        case "softmax":
            try check(layer, ["C": .any])
            let (x, shape) = try input(layer)
            guard !nd, shape.count == 3, shape[1] == 1, shape[2] == 1 else {
                throw refuse(layer, "a softmax of a \(shape) blob (over channels of 1 × 1 is read)")
            }
            emit(layer.name, [x], [layer.tops[0]], 175) { _ in }
            try output(layer, shape)
        case "flatten":
            try check(layer, ["mode": .flag, "nd_axis": .oneOf([0])])
            let (x, shape) = try input(layer)
            guard !nd, shape.count == 3 else { throw refuse(layer, "a flatten in an N-D network") }
            let mode = int(layer, "mode")
            emit(layer.name, [x], [layer.tops[0]], 301) { f in f.int64(1, Int64(mode)) }
            let (count, overflow) = (shape[0] * shape[1]).multipliedReportingOverflow(by: shape[2])
            guard !overflow, count <= CoreMLLimits.dimension else { throw invalid(layer, "flattens \(shape)") }
            try output(layer, [count, 1, 1])
        case "transpose", "reshape", "softmax_nd":
            guard nd else { throw refuse(layer, "an N-D layer in a network of rank-5 blobs") }
            try ndLayer(layer)
        default:
            throw refuse(
                layer,
                "this Espresso layer type is not converted (convolution, pool, inner_product, activation, "
                    + "softmax, flatten, transpose, reshape and softmax_nd are)")
        }
    }

    private mutating func convolution(_ layer: EspressoNetwork.Layer) throws {
        try check(
            layer,
            [
                "C": .positive, "K": .positive, "Nx": .positive, "Ny": .positive, "n_groups": .positive,
                "stride_x": .positive, "stride_y": .positive, "pad_mode": .oneOf([0, 1, 2, 4]),
                "pad_t": .count, "pad_b": .count, "pad_l": .count, "pad_r": .count, "pad_fill_mode": .oneOf([0]),
                "pad_value": .oneOf([0]), "has_biases": .flag, "blob_biases": .index, "blob_weights": .index,
                "blob_weights_f16": .index, "fused_relu": .flag, "fused_tanh": .flag, "has_batch_norm": .oneOf([0]),
                "n_parallel": .oneOf([1]),
            ], required: ["C", "K", "Nx", "Ny"])
        let (x, shape) = try input(layer)
        let c = int(layer, "C")
        let k = int(layer, "K")
        let groups = int(layer, "n_groups", default: 1)
        let (kw, kh) = (int(layer, "Nx"), int(layer, "Ny"))
        let (sx, sy) = (int(layer, "stride_x", default: 1), int(layer, "stride_y", default: 1))
        let (lead, channels, height, width) = try spatialInput(layer, shape)
        guard k == channels else { throw invalid(layer, "K \(k) for an input of \(channels) channels") }
        guard k % groups == 0, c % groups == 0 else {
            throw invalid(layer, "\(groups) groups of \(k) → \(c) channels")
        }
        let mode = int(layer, "pad_mode")
        let pads = (t: int(layer, "pad_t"), b: int(layer, "pad_b"), l: int(layer, "pad_l"), r: int(layer, "pad_r"))
        let out = try spatial(layer, (height, width), kernel: (kh, kw), stride: (sy, sx), mode: mode, pads: pads)
        let (blob, half) = try weightBlob(layer)
        let (count, overflow) = c.multipliedReportingOverflow(by: (k / groups) * kh * kw)
        guard !overflow, count <= CoreMLLimits.elements else {
            throw invalid(layer, "\(c) × \(k / groups) × \(kh) × \(kw) weights")
        }
        let w = try weights(layer, blob: blob, count: count, float16: half)
        let hasBias = int(layer, "has_biases") == 1
        let b = hasBias ? try weights(layer, blob: int(layer, "blob_biases", default: -1), count: c, padded: true) : []
        let act = try fused(layer, relu: "fused_relu", tanh: "fused_tanh")
        let top = layer.tops[0]
        let convOut = act == nil ? top : "\(top)__\(layer.name)_conv"
        emit(layer.name, [x], [convOut], 100) { p in
            p.int64(1, Int64(c))
            p.int64(2, Int64(k / groups))
            p.int64(10, Int64(groups))
            p.packedInt64(20, [Int64(kh), Int64(kw)])
            p.packedInt64(30, [Int64(sy), Int64(sx)])
            p.packedInt64(40, [1, 1])
            Self.padding(&p, mode: mode, pads: pads, valid: 50, same: 51)
            p.int64(70, hasBias ? 1 : 0)
            p.bytes(90, w)
            if hasBias { p.bytes(91, b) }
        }
        if let act { activation("\(layer.name)__activation", convOut, top, act) }
        try output(layer, lead + [c, out.h, out.w])
    }

    private mutating func pool(_ layer: EspressoNetwork.Layer) throws {
        try check(
            layer,
            [
                "avg_or_max": .flag, "size_x": .positive, "size_y": .positive, "stride_x": .positive,
                "stride_y": .positive,
                "pad_mode": .oneOf([0, 1, 2]), "pad_t": .count, "pad_b": .count, "pad_l": .count, "pad_r": .count,
                "is_global": .flag, "average_count_exclude_padding": .flag, "top_shape_style": .oneOf([0]),
                "pad_fill_mode": .oneOf([0]), "pad_value": .oneOf([0]),
            ], required: ["avg_or_max"])
        let (x, shape) = try input(layer)
        let global = int(layer, "is_global") == 1
        let (kw, kh) = (int(layer, "size_x", default: 1), int(layer, "size_y", default: 1))
        let (sx, sy) = (int(layer, "stride_x", default: 1), int(layer, "stride_y", default: 1))
        let mode = int(layer, "pad_mode")
        let pads = (t: int(layer, "pad_t"), b: int(layer, "pad_b"), l: int(layer, "pad_l"), r: int(layer, "pad_r"))
        let (lead, channels, height, width) = try spatialInput(layer, shape)
        let out =
            global
            ? (h: 1, w: 1)
            : try spatial(layer, (height, width), kernel: (kh, kw), stride: (sy, sx), mode: mode, pads: pads)
        let average = int(layer, "avg_or_max") == 0
        let exclude = int(layer, "average_count_exclude_padding") == 1
        emit(layer.name, [x], [layer.tops[0]], 120) { p in
            p.int64(1, average ? 1 : 0)
            p.packedInt64(10, [Int64(kh), Int64(kw)])
            p.packedInt64(20, [Int64(sy), Int64(sx)])
            Self.padding(&p, mode: global ? 2 : mode, pads: pads, valid: 30, same: 31)
            p.int64(50, exclude ? 1 : 0)
            p.int64(60, global ? 1 : 0)
        }
        try output(layer, lead + [channels, out.h, out.w])
    }

    private mutating func innerProduct(_ layer: EspressoNetwork.Layer) throws {
        try check(
            layer,
            [
                "nB": .positive, "nC": .positive, "has_biases": .flag, "blob_biases": .index, "blob_weights": .index,
                "blob_weights_f16": .index, "has_relu": .flag, "has_tanh": .flag, "has_prelu": .oneOf([0]),
            ], required: ["nB", "nC"])
        let (x, shape) = try input(layer)
        let nB = int(layer, "nB")
        let nC = int(layer, "nC")
        // Core ML's innerProduct: rank-5 networks read [nB, 1, 1]; N-D ones [nB], [x, nB] or [x, nB', 1, 1].
        let outShape: [Int]
        switch (nd, shape.count) {
        case (false, 3) where shape == [nB, 1, 1]: outShape = [nC, 1, 1]
        case (true, 1) where shape == [nB]: outShape = [nC]
        case (true, 2) where shape[1] == nB: outShape = [shape[0], nC]
        case (true, 4) where shape[1] * shape[2] * shape[3] == nB: outShape = [shape[0], nC, 1, 1]
        default: throw invalid(layer, "nB \(nB) for an input of \(shape)")
        }
        let (blob, half) = try weightBlob(layer)
        let (count, overflow) = nB.multipliedReportingOverflow(by: nC)
        guard !overflow, count <= CoreMLLimits.elements else { throw invalid(layer, "\(nC) × \(nB) weights") }
        let w = try weights(layer, blob: blob, count: count, float16: half)
        let hasBias = int(layer, "has_biases") == 1
        let b = hasBias ? try weights(layer, blob: int(layer, "blob_biases", default: -1), count: nC, padded: true) : []
        let act = try fused(layer, relu: "has_relu", tanh: "has_tanh")
        let top = layer.tops[0]
        let productOut = act == nil ? top : "\(top)__\(layer.name)_product"
        emit(layer.name, [x], [productOut], 140) { p in
            p.int64(1, Int64(nB))
            p.int64(2, Int64(nC))
            p.int64(10, hasBias ? 1 : 0)
            p.bytes(20, w)
            if hasBias { p.bytes(21, b) }
        }
        if let act { activation("\(layer.name)__activation", productOut, top, act) }
        try output(layer, outShape)
    }

    /// Output height and width of a windowed layer under Espresso's `pad_mode`: 0 the explicit pads, 1 and 4 "same"
    /// (⌈size / stride⌉; 4 puts the odd pad on the top and left), 2 "valid" (no pads).
    private func spatial(
        _ layer: EspressoNetwork.Layer, _ shape: (h: Int, w: Int), kernel: (h: Int, w: Int),
        stride: (h: Int, w: Int), mode: Int, pads: (t: Int, b: Int, l: Int, r: Int)
    ) throws -> (h: Int, w: Int) {
        func size(_ n: Int, _ k: Int, _ s: Int, _ before: Int, _ after: Int) throws -> Int {
            switch mode {
            case 1, 4: return (n + s - 1) / s
            default:
                let padded = n + (mode == 0 ? before + after : 0)
                guard padded >= k else { throw invalid(layer, "a \(k) window over \(padded) values") }
                return (padded - k) / s + 1
            }
        }
        return (
            try size(shape.h, kernel.h, stride.h, pads.t, pads.b), try size(shape.w, kernel.w, stride.w, pads.l, pads.r)
        )
    }

    /// A windowed layer's input as its leading dimensions, channels, height and width: `[C, H, W]` in rank-5 networks,
    /// `[N, C, H, W]` in N-D ones.
    private func spatialInput(_ layer: EspressoNetwork.Layer, _ shape: [Int]) throws -> ([Int], Int, Int, Int) {
        guard shape.count == (nd ? 4 : 3) else {
            throw invalid(layer, "an input of shape \(shape) (\(nd ? "[N, C, H, W]" : "[C, H, W]") is read)")
        }
        let r = shape.count
        return (Array(shape.prefix(r - 3)), shape[r - 3], shape[r - 2], shape[r - 1])
    }

    /// The N-D layers. `transpose`: each output axis takes the input axis its key names (`axis_w`, `axis_h`, `axis_k`,
    /// `axis_n`, `axis_seq`; axes counted w 0, h 1, k 2, n 3, seq 4, a blob of rank r being the last r of n, k, h, w);
    /// `reshape` (`mode` 0): the last `dst_nd_rank` of `dst_seq`, `dst_n`, `dst_k`, `dst_h`, `dst_w` (−1 inferred),
    /// the others 1; `softmax_nd` along `nd_axis`. Core ML's `transpose`, `reshapeStatic` and `softmaxND`.
    private mutating func ndLayer(_ layer: EspressoNetwork.Layer) throws {
        let (x, shape) = try input(layer)
        let r = shape.count
        let top = layer.tops[0]
        switch layer.type {
        case "transpose":
            let names = ["axis_w", "axis_h", "axis_k", "axis_n", "axis_seq"]
            try check(
                layer, Dictionary(uniqueKeysWithValues: names.map { ($0, Rule.oneOf([0, 1, 2, 3, 4])) }),
                required: names)
            let axes = names.map { int(layer, $0) }
            guard Set(axes).count == 5 else { throw invalid(layer, "axes \(axes) are not a permutation") }
            for e in r..<5 where axes[e] != e { throw refuse(layer, "moves \(names[e]) of a rank-\(r) blob") }
            let permutation = (0..<r).map { i in r - 1 - axes[r - 1 - i] }
            guard permutation.allSatisfy({ (0..<r).contains($0) }) else {
                throw refuse(layer, "axes \(axes) for rank \(r)")
            }
            emit(layer.name, [x], [top], 985) { t in t.packedInt64(1, permutation.map(Int64.init)) }
            try output(layer, permutation.map { shape[$0] })
        case "reshape":
            let names = ["dst_seq", "dst_n", "dst_k", "dst_h", "dst_w"]
            var rules = Dictionary(uniqueKeysWithValues: names.map { ($0, Rule.dimensionOrInferred) })
            rules["dst_nd_rank"] = .oneOf([1, 2, 3, 4])
            rules["mode"] = .oneOf([0])
            rules["dynamic_shape"] = .oneOf([0])
            rules["version"] = .oneOf([1])
            try check(layer, rules, required: names + ["dst_nd_rank"])
            let rank = int(layer, "dst_nd_rank")
            let dims = names.map { int(layer, $0) }
            guard dims.prefix(5 - rank).allSatisfy({ $0 == 1 }) else {
                throw refuse(layer, "a target \(dims) beyond rank \(rank)")
            }
            var target = Array(dims.suffix(rank))
            let total = shape.reduce(1, *)
            if let unknown = target.firstIndex(of: -1) {
                let known = target.enumerated().filter { $0.offset != unknown }.map(\.element).reduce(1, *)
                guard target.filter({ $0 == -1 }).count == 1, known > 0, total % known == 0 else {
                    throw invalid(layer, "cannot infer -1 in \(target) for \(shape)")
                }
                target[unknown] = total / known
            }
            guard target.allSatisfy({ $0 > 0 }), target.reduce(1, *) == total else {
                throw invalid(layer, "cannot reshape \(shape) to \(target)")
            }
            emit(layer.name, [x], [top], 1140) { t in t.packedInt64(1, dims.suffix(rank).map(Int64.init)) }
            try output(layer, target)
        default:  // softmax_nd
            try check(layer, ["nd_axis": .oneOf(Set((-r..<r).map(Double.init)))], required: ["nd_axis"])
            let axis = int(layer, "nd_axis")
            emit(layer.name, [x], [top], 950) { t in t.int64(1, Int64(axis)) }
            try output(layer, shape)
        }
    }

    /// Core ML's padding message for an Espresso `pad_mode` (see `spatial`).
    private static func padding(
        _ p: inout ONNXProtobufEncoder, mode: Int, pads: (t: Int, b: Int, l: Int, r: Int),
        valid: Int, same: Int
    ) {
        switch mode {
        case 1: p.message(same) { _ in }
        case 4: p.message(same) { s in s.int64(1, 1) }
        case 0:
            p.message(valid) { v in
                v.message(1) { amounts in
                    amounts.message(10) { e in
                        e.int64(1, Int64(pads.t))
                        e.int64(2, Int64(pads.b))
                    }
                    amounts.message(10) { e in
                        e.int64(1, Int64(pads.l))
                        e.int64(2, Int64(pads.r))
                    }
                }
            }
        default: p.message(valid) { _ in }
        }
    }
}
