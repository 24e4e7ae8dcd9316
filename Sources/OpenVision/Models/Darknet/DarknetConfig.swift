import Foundation

// MARK: - Parsed network

/// A Darknet activation function the converter supports.
enum DarknetActivation: String, Sendable, CaseIterable {
    case linear, leaky, relu, mish, logistic, swish
}

/// The shape of one layer's output for a batch of one image: channels × height × width.
struct DarknetShape: Sendable, Equatable, CustomStringConvertible {
    var channels: Int
    var height: Int
    var width: Int
    var description: String { "\(channels)×\(height)×\(width)" }
}

/// `[convolutional]`.
struct DarknetConvolution: Sendable {
    var filters: Int
    var size: Int
    var stride: Int
    /// Padding on each side (darknet's `pad=1` means `size/2`; otherwise `padding`).
    var padding: Int
    var groups: Int
    var dilation: Int
    var batchNormalize: Bool
    var activation: DarknetActivation
    /// Channels coming in, from the previous layer.
    var inputChannels: Int

    /// How many floats of the `.weights` file this layer consumes: biases, the three batch-norm
    /// vectors when there is batch normalisation, and the kernels.
    var weightFloatCount: Int {
        filters * (batchNormalize ? 4 : 1) + kernelCount
    }

    /// The number of kernel weights: filters × (inputChannels / groups) × size × size.
    var kernelCount: Int { filters * (inputChannels / groups) * size * size }
}

/// `[maxpool]`.
struct DarknetMaxPool: Sendable {
    var size: Int
    var stride: Int
    /// Total padding per axis (darknet default `size - 1`); `padding / 2` goes before, the rest after.
    var padding: Int
}

/// `[route]`: concatenates the outputs of earlier layers along channels; with `groups` > 1 it
/// takes the `groupID`-th of `groups` equal channel slices of each input first.
struct DarknetRoute: Sendable {
    /// Absolute layer indices.
    var layers: [Int]
    var groups: Int
    var groupID: Int
}

/// `[shortcut]`: adds the output of an earlier layer to the previous layer's output.
struct DarknetShortcut: Sendable {
    /// Absolute layer index.
    var from: Int
    var activation: DarknetActivation
}

/// `[yolo]`: a detection head.
struct DarknetYolo: Sendable {
    var classes: Int
    /// Every anchor of the cfg, as (width, height) pairs in input pixels.
    var anchors: [(width: Float, height: Float)]
    /// Indices into `anchors` this head uses.
    var mask: [Int]
    var scaleXY: Float
    /// 0: sigmoid / exp box coordinates (YOLOv3, v4); 1: the scaled-YOLOv4 form where the inputs are
    /// already logistic and w, h are (2t)² × anchor.
    var newCoords: Int
    /// Class scores objectness × class probability at or below this are written as 0 (OpenCV's `thresh`).
    var thresh: Float
    /// `nms_threshold` of the cfg. OpenCV's region layer runs a per-class NMS inside the layer when
    /// it is > 0; the converted graph does not (see `DarknetToONNX`).
    var nmsThreshold: Float

    /// The (width, height) of the anchors this head uses, in mask order.
    var usedAnchors: [(width: Float, height: Float)] { mask.map { anchors[$0] } }
}

/// One layer of a Darknet network.
enum DarknetLayerKind: Sendable {
    case convolutional(DarknetConvolution)
    case maxpool(DarknetMaxPool)
    /// Darknet's `[avgpool]`: a global average over height and width.
    case avgpool
    case route(DarknetRoute)
    case shortcut(DarknetShortcut)
    case upsample(stride: Int)
    case yolo(DarknetYolo)
    /// Inference-time identity.
    case dropout
}

/// A layer with its position and the shapes around it.
struct DarknetLayer: Sendable {
    /// Darknet's 0-based layer index (the index `route` and `shortcut` refer to).
    var index: Int
    /// The 1-based line of the section header in the `.cfg`.
    var line: Int
    /// The section name as written (`convolutional`, `conv`, ...).
    var typeName: String
    var kind: DarknetLayerKind
    /// The previous layer's output (the network input for layer 0).
    var input: DarknetShape
    var output: DarknetShape
}

/// A parsed and shape-checked Darknet `.cfg`.
struct DarknetConfig: Sendable {
    /// The file name used in error messages.
    var fileName: String
    /// Network input width and height in pixels, from `[net]`.
    var width: Int
    var height: Int
    var channels: Int
    var layers: [DarknetLayer]

    /// Every convolution's float count in the `.weights` file, summed.
    var weightFloatCount: Int {
        layers.reduce(0) { total, layer in
            if case .convolutional(let conv) = layer.kind { return total + conv.weightFloatCount }
            return total
        }
    }

    /// Reads and parses a `.cfg` file.
    static func load(_ url: URL) throws -> DarknetConfig {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DarknetError.unreadable(url, what: "cfg", error)
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw DarknetError(.syntax, "the cfg is not text", file: url.path)
        }
        return try DarknetConfig(text: text, fileName: url.lastPathComponent)
    }

    /// Parses `.cfg` text. `fileName` only appears in error messages.
    init(text: String, fileName: String = "network.cfg") throws {
        self.fileName = fileName
        let sections = try DarknetSection.parse(text, fileName: fileName)
        guard let net = sections.first, net.name == "net" || net.name == "network" else {
            let line = sections.first?.line ?? 1
            throw DarknetError(.syntax, "the cfg must start with a [net] section", file: fileName, line: line)
        }
        width = try net.int("width", min: 1)
        height = try net.int("height", min: 1)
        channels = try net.int("channels", default: 3, min: 1)

        var layers: [DarknetLayer] = []
        var shape = DarknetShape(channels: channels, height: height, width: width)
        for section in sections.dropFirst() {
            let layer = try DarknetConfig.makeLayer(section, index: layers.count, input: shape, previous: layers)
            layers.append(layer)
            shape = layer.output
        }
        guard !layers.isEmpty else {
            throw DarknetError(.syntax, "the cfg has no layers after [net]", file: fileName, line: net.line)
        }
        self.layers = layers
    }

    // MARK: Layers

    private static func makeLayer(_ s: DarknetSection, index: Int, input: DarknetShape,
                                  previous: [DarknetLayer]) throws -> DarknetLayer {
        func layer(_ kind: DarknetLayerKind, _ output: DarknetShape) throws -> DarknetLayer {
            guard output.channels > 0, output.height > 0, output.width > 0 else {
                throw s.error(.invalidValue, "[\(s.name)] would output \(output) from an input of \(input)")
            }
            return DarknetLayer(index: index, line: s.line, typeName: s.name, kind: kind, input: input, output: output)
        }
        /// An earlier layer by a darknet index (negative: relative to this layer).
        func resolve(_ value: Int, key: String) throws -> DarknetLayer {
            let absolute = value < 0 ? index + value : value
            guard absolute >= 0, absolute < index else {
                throw s.error(.invalidValue, "[\(s.name)] \(key) refers to layer \(value) (absolute \(absolute)); "
                              + "only layers 0..\(index - 1) come before layer \(index)")
            }
            let target = previous[absolute]
            if case .yolo = target.kind {
                throw s.error(.unsupported, "[\(s.name)] \(key) refers to the [yolo] layer \(absolute); "
                              + "routing from a detection head is not supported")
            }
            return target
        }

        switch s.name {
        case "convolutional", "conv":
            try s.rejectUnsupported(["flipped", "binary", "xnor", "antialiasing", "share_index", "deform",
                                     "assisted_excitation", "sway", "rotate", "stretch", "stretch_sway"])
            let size = try s.int("size", min: 1)
            let filters = try s.int("filters", min: 1)
            let stride = try s.int("stride", default: 1, min: 1)
            for key in ["stride_x", "stride_y"] where s.has(key) {
                guard try s.int(key, min: 1) == stride else {
                    throw s.error(.unsupported, "[\(s.name)] \(key) different from stride is not supported",
                                  key: key)
                }
            }
            let pad = try s.int("pad", default: 0, min: 0)
            let padding = pad != 0 ? size / 2 : try s.int("padding", default: 0, min: 0)
            let groups = try s.int("groups", default: 1, min: 1)
            let dilation = try s.int("dilation", default: 1, min: 1)
            let batchNormalize = try s.int("batch_normalize", default: 0, min: 0) != 0
            // Darknet defaults a convolution's activation to logistic, OpenCV to linear: insist on one.
            let activation = try s.activation(required: true)
            guard input.channels % groups == 0 else {
                throw s.error(.invalidValue, "[\(s.name)] groups=\(groups) does not divide the \(input.channels) "
                              + "input channels", key: "groups")
            }
            guard filters % groups == 0 else {
                throw s.error(.invalidValue, "[\(s.name)] groups=\(groups) does not divide filters=\(filters)",
                              key: "groups")
            }
            let extent = (size - 1) * dilation + 1
            let conv = DarknetConvolution(filters: filters, size: size, stride: stride, padding: padding,
                                          groups: groups, dilation: dilation, batchNormalize: batchNormalize,
                                          activation: activation, inputChannels: input.channels)
            let out = DarknetShape(channels: filters,
                                   height: (input.height + 2 * padding - extent) / stride + 1,
                                   width: (input.width + 2 * padding - extent) / stride + 1)
            return try layer(.convolutional(conv), out)

        case "maxpool", "max":
            try s.rejectUnsupported(["maxpool_depth", "antialiasing", "out_channels"])
            // Darknet and OpenCV disagree on the defaults of size and stride: insist on both.
            let size = try s.int("size", min: 1)
            let stride = try s.int("stride", min: 1)
            for key in ["stride_x", "stride_y"] where s.has(key) {
                guard try s.int(key, min: 1) == stride else {
                    throw s.error(.unsupported, "[\(s.name)] \(key) different from stride is not supported",
                                  key: key)
                }
            }
            let padding = try s.int("padding", default: size - 1, min: 0)
            let pool = DarknetMaxPool(size: size, stride: stride, padding: padding)
            let out = DarknetShape(channels: input.channels,
                                   height: (input.height + padding - size) / stride + 1,
                                   width: (input.width + padding - size) / stride + 1)
            return try layer(.maxpool(pool), out)

        case "avgpool", "avg":
            return try layer(.avgpool, DarknetShape(channels: input.channels, height: 1, width: 1))

        case "route":
            let indices = try s.ints("layers")
            guard !indices.isEmpty else { throw s.error(.missingKey, "[route] has an empty 'layers'", key: "layers") }
            let groups = try s.int("groups", default: 1, min: 1)
            let groupID = try s.int("group_id", default: 0, min: 0)
            guard groupID < groups else {
                throw s.error(.invalidValue, "[route] group_id=\(groupID) must be below groups=\(groups)",
                              key: "group_id")
            }
            var absolute: [Int] = []
            var channels = 0
            var spatial: (Int, Int)?
            for value in indices {
                let target = try resolve(value, key: "layers")
                let shape = target.output
                guard shape.channels % groups == 0 else {
                    throw s.error(.invalidValue, "[route] groups=\(groups) does not divide the \(shape.channels) "
                                  + "channels of layer \(target.index)", key: "groups")
                }
                if let (h, w) = spatial, h != shape.height || w != shape.width {
                    throw s.error(.invalidValue, "[route] joins layers of different sizes "
                                  + "(\(h)×\(w) and \(shape.height)×\(shape.width), layer \(target.index))",
                                  key: "layers")
                }
                spatial = (shape.height, shape.width)
                channels += shape.channels / groups
                absolute.append(target.index)
            }
            let route = DarknetRoute(layers: absolute, groups: groups, groupID: groupID)
            return try layer(.route(route), DarknetShape(channels: channels, height: spatial!.0, width: spatial!.1))

        case "shortcut":
            if let weights = s.string("weights_type"), weights != "none" {
                throw s.error(.unsupported, "[shortcut] weights_type=\(weights) is not supported", key: "weights_type")
            }
            let from = try s.ints("from")
            guard from.count == 1 else {
                throw s.error(.unsupported, "[shortcut] from more than one layer is not supported", key: "from")
            }
            if s.has("alpha"), try s.float("alpha") != 1 {
                throw s.error(.unsupported, "[shortcut] alpha other than 1 is not supported", key: "alpha")
            }
            if s.has("beta"), try s.float("beta") != 0 {
                throw s.error(.unsupported, "[shortcut] beta other than 0 is not supported", key: "beta")
            }
            let target = try resolve(from[0], key: "from")
            guard target.output.height == input.height, target.output.width == input.width else {
                throw s.error(.unsupported, "[shortcut] from layer \(target.index) (\(target.output)) to an input of "
                              + "\(input): different sizes are not supported", key: "from")
            }
            let shortcut = DarknetShortcut(from: target.index, activation: try s.activation(required: false))
            return try layer(.shortcut(shortcut), input)

        case "upsample":
            // Darknet defaults stride to 2, OpenCV to 1: insist on it.
            let stride = try s.int("stride")
            guard stride >= 1 else {
                throw s.error(.unsupported, "[upsample] stride=\(stride): downsampling is not supported", key: "stride")
            }
            if s.has("scale"), try s.float("scale") != 1 {
                throw s.error(.unsupported, "[upsample] scale other than 1 is not supported", key: "scale")
            }
            let out = DarknetShape(channels: input.channels, height: input.height * stride,
                                   width: input.width * stride)
            return try layer(.upsample(stride: stride), out)

        case "yolo":
            let classes = try s.int("classes", min: 1)
            let values = try s.floats("anchors")
            guard values.count >= 2, values.count % 2 == 0 else {
                throw s.error(.invalidValue, "[yolo] anchors must be width,height pairs (got \(values.count) numbers)",
                              key: "anchors")
            }
            guard values.allSatisfy({ $0 > 0 }) else {
                throw s.error(.invalidValue, "[yolo] anchors must be positive", key: "anchors")
            }
            let anchors = stride(from: 0, to: values.count, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
            let num = try s.int("num", default: anchors.count, min: 1)
            guard num == anchors.count else {
                throw s.error(.invalidValue, "[yolo] num=\(num) but anchors has \(anchors.count) pairs", key: "num")
            }
            let mask = try s.has("mask") ? s.ints("mask") : Array(0..<num)
            guard !mask.isEmpty, mask.allSatisfy({ $0 >= 0 && $0 < num }) else {
                throw s.error(.invalidValue, "[yolo] mask must list anchor indices in 0..\(num - 1)", key: "mask")
            }
            let newCoords = try s.int("new_coords", default: 0, min: 0)
            guard newCoords <= 1 else {
                throw s.error(.unsupported, "[yolo] new_coords=\(newCoords) is not supported", key: "new_coords")
            }
            let yolo = DarknetYolo(classes: classes, anchors: anchors, mask: mask,
                                   scaleXY: try s.float("scale_x_y", default: 1),
                                   newCoords: newCoords,
                                   thresh: try s.float("thresh", default: 0.2),
                                   nmsThreshold: try s.float("nms_threshold", default: 0))
            let needed = mask.count * (5 + classes)
            guard input.channels == needed else {
                throw s.error(.invalidValue, "[yolo] with \(mask.count) anchors and \(classes) classes needs "
                              + "\(needed) input channels, the previous layer gives \(input.channels)")
            }
            guard index > 0, case .convolutional = previous[index - 1].kind else {
                throw s.error(.unsupported, "[yolo] must follow a [convolutional] layer")
            }
            return try layer(.yolo(yolo), input)

        case "dropout":
            return try layer(.dropout, input)

        case "net", "network":
            throw s.error(.syntax, "a second [\(s.name)] section")

        default:
            throw s.error(.unsupported, "unsupported layer type [\(s.name)]; supported: convolutional, maxpool, "
                          + "avgpool, route, shortcut, upsample, yolo, dropout")
        }
    }
}

// MARK: - Sections and options

/// One `key=value` of a section, with the line it came from.
struct DarknetOption: Sendable {
    var value: String
    var line: Int
}

/// One `[name]` section of a `.cfg` and its options.
struct DarknetSection: Sendable {
    var name: String
    var line: Int
    var fileName: String
    var options: [String: DarknetOption] = [:]

    /// Splits `.cfg` text into sections the way darknet reads it: whitespace anywhere in a line is
    /// dropped, lines starting with `#` or `;` are comments, section names are lower-cased.
    static func parse(_ text: String, fileName: String) throws -> [DarknetSection] {
        var sections: [DarknetSection] = []
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let shown = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            let line = String(String.UnicodeScalarView(rawLine.unicodeScalars.filter {
                !($0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F || $0.value == 0xFEFF)
            }))
            guard let first = line.first, first != "#", first != ";" else { continue }
            if first == "[" {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw DarknetError(.syntax, "malformed section header '\(shown)'", file: fileName, line: lineNumber)
                }
                let name = String(line.dropFirst().dropLast()).lowercased()
                sections.append(DarknetSection(name: name, line: lineNumber, fileName: fileName))
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw DarknetError(.syntax, "expected '[section]' or 'key=value', found '\(shown)'",
                                   file: fileName, line: lineNumber)
            }
            let key = String(line[..<eq])
            let value = String(line[line.index(after: eq)...])
            guard !key.isEmpty else {
                throw DarknetError(.syntax, "a value without a key: '\(line)'", file: fileName, line: lineNumber)
            }
            guard !sections.isEmpty else {
                throw DarknetError(.syntax, "'\(key)' before the first [section]", file: fileName, line: lineNumber)
            }
            if value.isEmpty { continue }  // darknet and OpenCV treat "key=" as absent
            if let earlier = sections[sections.count - 1].options[key] {
                throw DarknetError(.syntax, "'\(key)' is set twice in [\(sections[sections.count - 1].name)] "
                                   + "(first on line \(earlier.line))", file: fileName, line: lineNumber)
            }
            sections[sections.count - 1].options[key] = DarknetOption(value: value, line: lineNumber)
        }
        return sections
    }

    func has(_ key: String) -> Bool { options[key] != nil }

    func string(_ key: String) -> String? { options[key]?.value }

    /// An error on the line of `key` when it is set, else on the section header.
    func error(_ kind: DarknetError.Kind, _ message: String, key: String? = nil) -> DarknetError {
        let line = key.flatMap { options[$0]?.line } ?? self.line
        return DarknetError(kind, message, file: fileName, line: line)
    }

    private func required(_ key: String) throws -> DarknetOption {
        guard let option = options[key] else {
            throw error(.missingKey, "[\(name)] is missing the key '\(key)'")
        }
        return option
    }

    private static func parseInt(_ text: String) -> Int? {
        if let value = Int(text) { return value }
        if let value = Double(text), value.rounded() == value, abs(value) < 1e15 { return Int(value) }
        return nil
    }

    func int(_ key: String, default defaultValue: Int? = nil, min: Int? = nil) throws -> Int {
        let value: Int
        if let option = options[key] {
            guard let parsed = DarknetSection.parseInt(option.value) else {
                throw error(.invalidValue, "[\(name)] \(key)=\(option.value) is not an integer", key: key)
            }
            value = parsed
        } else if let defaultValue {
            return defaultValue
        } else {
            _ = try required(key)
            return 0
        }
        if let min, value < min {
            throw error(.invalidValue, "[\(name)] \(key)=\(value) must be at least \(min)", key: key)
        }
        return value
    }

    func float(_ key: String, default defaultValue: Float? = nil) throws -> Float {
        guard let option = options[key] else {
            if let defaultValue { return defaultValue }
            _ = try required(key)
            return 0
        }
        guard let value = Float(option.value), value.isFinite else {
            throw error(.invalidValue, "[\(name)] \(key)=\(option.value) is not a number", key: key)
        }
        return value
    }

    /// A comma-separated list of integers (empty items, e.g. a trailing comma, are skipped).
    func ints(_ key: String) throws -> [Int] {
        let option = try required(key)
        return try option.value.split(separator: ",").map { item in
            guard let value = DarknetSection.parseInt(String(item)) else {
                throw error(.invalidValue, "[\(name)] \(key): '\(item)' is not an integer", key: key)
            }
            return value
        }
    }

    /// A comma-separated list of numbers (empty items, e.g. a trailing comma, are skipped).
    func floats(_ key: String) throws -> [Float] {
        let option = try required(key)
        return try option.value.split(separator: ",").map { item in
            guard let value = Float(String(item)), value.isFinite else {
                throw error(.invalidValue, "[\(name)] \(key): '\(item)' is not a number", key: key)
            }
            return value
        }
    }

    func activation(required: Bool) throws -> DarknetActivation {
        guard let value = options["activation"]?.value else {
            if required {
                throw error(.missingKey, "[\(name)] is missing the key 'activation' (darknet's default is logistic, "
                            + "OpenCV's linear: write the one the network was trained with)")
            }
            return .linear
        }
        guard let activation = DarknetActivation(rawValue: value.lowercased()) else {
            throw error(.unsupported, "[\(name)] activation=\(value) is not supported; supported: "
                        + DarknetActivation.allCases.map(\.rawValue).joined(separator: ", "), key: "activation")
        }
        return activation
    }

    /// Throws when one of `keys` is set to something other than 0.
    func rejectUnsupported(_ keys: [String]) throws {
        for key in keys {
            guard let option = options[key] else { continue }
            if let number = Double(option.value), number == 0 { continue }
            throw error(.unsupported, "[\(name)] \(key)=\(option.value) is not supported", key: key)
        }
    }
}
