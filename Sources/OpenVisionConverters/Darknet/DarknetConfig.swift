import Foundation

// MARK: - Limits

/// The bounds the `.cfg` parser puts on every value it reads and every size it derives, so that
/// an absurd file gives a `ConversionError` (`limitExceeded`) instead of a trap on arithmetic
/// overflow or gigabytes of graph. Real networks are far inside them (YOLOv4 at 1280 × 1280:
/// sides ≤ 1280, ≤ 2048 channels, ≤ 60 M weights, 100 k detection rows).
public enum DarknetLimits {
    /// The largest `.cfg` file read, in bytes.
    public static let maxCfgBytes = 16 << 20
    /// The most layers (sections after `[net]`).
    public static let maxLayers = 10_000
    /// `[net]` width and height, and the height and width of every layer's output: 1...16384
    /// (the range OpenVision's preprocessing accepts for a model input).
    public static let maxSide = 16_384
    /// `[net]` channels, `filters`, and the channels of every layer's output.
    public static let maxChannels = 65_536
    /// The elements of one layer's output (channels × height × width): 2³¹, the index range of
    /// OpenCV's and ONNX Runtime's tensors.
    public static let maxLayerElements = 1 << 31
    /// Convolution and max-pool `size`, `stride`, `dilation`, and `[upsample] stride`.
    public static let maxKernel = 1_024
    /// Convolution and max-pool `padding`.
    public static let maxPadding = 16_384
    /// Floats of the `.weights` file the network needs, per layer and in all (8 GB).
    public static let maxWeightFloats = 1 << 31
    /// `[yolo]` `classes`.
    public static let maxClasses = 65_536
    /// `[yolo]` anchors (pairs) and mask entries.
    public static let maxAnchors = 1_024
    /// Detection rows (grid height × width × anchors) summed over every `[yolo]` head: the
    /// converter writes two constants of 2 floats a row, so this keeps them ≤ 64 MB.
    public static let maxDetectionRows = 1 << 22
    /// `route`, `shortcut` and `mask` indices, and other small integers (in magnitude).
    public static let maxIndex = 1_000_000
}

// MARK: - Parsed network

/// A Darknet activation function the converter supports.
package enum DarknetActivation: String, Sendable, CaseIterable {
    case linear, leaky, relu, mish, logistic, swish
}

/// The shape of one layer's output for a batch of one image: channels × height × width.
package struct DarknetShape: Sendable, Equatable, CustomStringConvertible {
    var channels: Int
    var height: Int
    var width: Int
    package var description: String { "\(channels)×\(height)×\(width)" }
}

/// `[convolutional]`.
package struct DarknetConvolution: Sendable {
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

    /// `weightFloatCount`, or nil when it overflows `Int` (the parser rejects such layers, so
    /// `weightFloatCount` and `kernelCount` never overflow afterwards).
    var checkedWeightFloatCount: Int? {
        var total = filters
        for factor in [inputChannels / groups, size, size] {
            let (product, overflow) = total.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            total = product
        }
        let (sum, overflow) = total.addingReportingOverflow(filters * (batchNormalize ? 4 : 1))
        return overflow ? nil : sum
    }
}

/// `[maxpool]`.
package struct DarknetMaxPool: Sendable {
    var size: Int
    var stride: Int
    /// Total padding per axis (darknet default `size - 1`); `padding / 2` goes before, the rest after.
    var padding: Int
}

/// `[route]`: concatenates the outputs of earlier layers along channels; with `groups` > 1 it
/// takes the `groupID`-th of `groups` equal channel slices of each input first.
package struct DarknetRoute: Sendable {
    /// Absolute layer indices.
    var layers: [Int]
    var groups: Int
    var groupID: Int
}

/// `[shortcut]`: adds the output of an earlier layer to the previous layer's output.
package struct DarknetShortcut: Sendable {
    /// Absolute layer index.
    var from: Int
    var activation: DarknetActivation
}

/// `[yolo]`: a detection head.
package struct DarknetYolo: Sendable {
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
package enum DarknetLayerKind: Sendable {
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
package struct DarknetLayer: Sendable {
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
package struct DarknetConfig: Sendable {
    /// The file name used in error messages.
    package var fileName: String
    /// Network input width and height in pixels, from `[net]`.
    package var width: Int
    package var height: Int
    package var channels: Int
    package var layers: [DarknetLayer]
    /// Every convolution's float count in the `.weights` file, summed (≤ `DarknetLimits.maxWeightFloats`).
    package private(set) var weightFloatCount: Int

    /// Reads and parses a `.cfg` file.
    package static func load(_ url: URL) throws -> DarknetConfig {
        try DarknetConfig(text: readText(url), fileName: url.lastPathComponent)
    }

    /// The text of a `.cfg` file (UTF-8, else Latin-1), at most `DarknetLimits.maxCfgBytes`.
    package static func readText(_ url: URL) throws -> String {
        let data: Data
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= DarknetLimits.maxCfgBytes else {
                throw ConversionError(.limitExceeded, "the cfg is \(size) bytes, more than the \(DarknetLimits.maxCfgBytes) "
                                      + "a network description can take", file: url.path)
            }
            data = try Data(contentsOf: url)
        } catch let error as ConversionError {
            throw error
        } catch {
            throw ConversionError.unreadable(url, what: "cfg", error)
        }
        guard data.count <= DarknetLimits.maxCfgBytes else {
            throw ConversionError(.limitExceeded, "the cfg is more than \(DarknetLimits.maxCfgBytes) bytes", file: url.path)
        }
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            throw ConversionError(.syntax, "the cfg is not text", file: url.path)
        }
        return text
    }

    /// Parses `.cfg` text. `fileName` only appears in error messages.
    package init(text: String, fileName: String = "network.cfg") throws {
        self.fileName = fileName
        let sections = try DarknetSection.parse(text, fileName: fileName)
        guard sections.count <= DarknetLimits.maxLayers + 1 else {
            throw ConversionError(.limitExceeded, "the cfg has \(sections.count - 1) layers, more than "
                                  + "\(DarknetLimits.maxLayers)", file: fileName)
        }
        guard let net = sections.first, net.name == "net" || net.name == "network" else {
            let line = sections.first?.line ?? 1
            throw ConversionError(.syntax, "the cfg must start with a [net] section", file: fileName, line: line)
        }
        (width, height, channels) = try DarknetConfig.inputSize(net)

        var layers: [DarknetLayer] = []
        var shape = DarknetShape(channels: channels, height: height, width: width)
        var weights = 0, rows = 0
        for section in sections.dropFirst() {
            let layer = try DarknetConfig.makeLayer(section, index: layers.count, input: shape, previous: layers)
            layers.append(layer)
            shape = layer.output
            switch layer.kind {
            case .convolutional(let conv):
                weights += conv.weightFloatCount  // each ≤ maxWeightFloats: no overflow
                guard weights <= DarknetLimits.maxWeightFloats else {
                    throw section.error(.limitExceeded, "the network needs more than \(DarknetLimits.maxWeightFloats) "
                                        + "weights by layer \(layer.index)")
                }
            case .yolo(let yolo):
                rows += layer.input.height * layer.input.width * yolo.mask.count  // bounded by maxLayerElements
                guard rows <= DarknetLimits.maxDetectionRows else {
                    throw section.error(.limitExceeded, "the [yolo] heads have \(rows) detection rows by layer "
                                        + "\(layer.index), more than \(DarknetLimits.maxDetectionRows)")
                }
            default:
                break
            }
        }
        weightFloatCount = weights
        guard !layers.isEmpty else {
            throw ConversionError(.syntax, "the cfg has no layers after [net]", file: fileName, line: net.line)
        }
        self.layers = layers
    }

    /// The `[net]` width, height and channels of `.cfg` text, read without building the layers
    /// (which may use options only OpenCV supports). Bounded like `init(text:)`.
    package static func inputSize(text: String, fileName: String = "network.cfg") throws
        -> (width: Int, height: Int, channels: Int) {
        let sections = try DarknetSection.parse(text, fileName: fileName)
        guard let net = sections.first, net.name == "net" || net.name == "network" else {
            let line = sections.first?.line ?? 1
            throw ConversionError(.syntax, "the cfg must start with a [net] section", file: fileName, line: line)
        }
        return try inputSize(net)
    }

    static func inputSize(_ net: DarknetSection) throws -> (width: Int, height: Int, channels: Int) {
        (try net.int("width", min: 1, max: DarknetLimits.maxSide),
         try net.int("height", min: 1, max: DarknetLimits.maxSide),
         try net.int("channels", default: 3, min: 1, max: DarknetLimits.maxChannels))
    }

    // MARK: Layers

    private static func makeLayer(_ s: DarknetSection, index: Int, input: DarknetShape,
                                  previous: [DarknetLayer]) throws -> DarknetLayer {
        func layer(_ kind: DarknetLayerKind, _ output: DarknetShape) throws -> DarknetLayer {
            guard output.channels > 0, output.height > 0, output.width > 0 else {
                throw s.error(.invalidValue, "[\(s.name)] would output \(output) from an input of \(input)")
            }
            let (plane, o1) = output.height.multipliedReportingOverflow(by: output.width)
            let (elements, o2) = plane.multipliedReportingOverflow(by: output.channels)
            guard output.height <= DarknetLimits.maxSide, output.width <= DarknetLimits.maxSide,
                  output.channels <= DarknetLimits.maxChannels, !o1, !o2, elements <= DarknetLimits.maxLayerElements else {
                throw s.error(.limitExceeded, "[\(s.name)] would output \(output) from an input of \(input), beyond "
                              + "the limits (sides ≤ \(DarknetLimits.maxSide), channels ≤ \(DarknetLimits.maxChannels), "
                              + "≤ \(DarknetLimits.maxLayerElements) elements)")
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
            let size = try s.int("size", min: 1, max: DarknetLimits.maxKernel)
            let filters = try s.int("filters", min: 1, max: DarknetLimits.maxChannels)
            let stride = try s.int("stride", default: 1, min: 1, max: DarknetLimits.maxKernel)
            for key in ["stride_x", "stride_y"] where s.has(key) {
                guard try s.int(key, min: 1) == stride else {
                    throw s.error(.unsupported, "[\(s.name)] \(key) different from stride is not supported",
                                  key: key)
                }
            }
            let pad = try s.int("pad", default: 0, min: 0)
            let padding = pad != 0 ? size / 2 : try s.int("padding", default: 0, min: 0, max: DarknetLimits.maxPadding)
            let groups = try s.int("groups", default: 1, min: 1, max: DarknetLimits.maxChannels)
            let dilation = try s.int("dilation", default: 1, min: 1, max: DarknetLimits.maxKernel)
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
            let extent = (size - 1) * dilation + 1  // ≤ maxKernel²: no overflow
            let conv = DarknetConvolution(filters: filters, size: size, stride: stride, padding: padding,
                                          groups: groups, dilation: dilation, batchNormalize: batchNormalize,
                                          activation: activation, inputChannels: input.channels)
            guard let count = conv.checkedWeightFloatCount, count <= DarknetLimits.maxWeightFloats else {
                throw s.error(.limitExceeded, "[\(s.name)] needs more than \(DarknetLimits.maxWeightFloats) weights "
                              + "(\(filters) filters of \(input.channels / groups)×\(size)×\(size))")
            }
            let out = DarknetShape(channels: filters,
                                   height: (input.height + 2 * padding - extent) / stride + 1,
                                   width: (input.width + 2 * padding - extent) / stride + 1)
            return try layer(.convolutional(conv), out)

        case "maxpool", "max":
            try s.rejectUnsupported(["maxpool_depth", "antialiasing", "out_channels"])
            // Darknet and OpenCV disagree on the defaults of size and stride: insist on both.
            let size = try s.int("size", min: 1, max: DarknetLimits.maxKernel)
            let stride = try s.int("stride", min: 1, max: DarknetLimits.maxKernel)
            for key in ["stride_x", "stride_y"] where s.has(key) {
                guard try s.int(key, min: 1) == stride else {
                    throw s.error(.unsupported, "[\(s.name)] \(key) different from stride is not supported",
                                  key: key)
                }
            }
            let padding = try s.int("padding", default: size - 1, min: 0, max: DarknetLimits.maxPadding)
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
            let groups = try s.int("groups", default: 1, min: 1, max: DarknetLimits.maxChannels)
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
            let stride = try s.int("stride", max: DarknetLimits.maxKernel)
            guard stride >= 1 else {
                throw s.error(.unsupported, "[upsample] stride=\(stride): downsampling is not supported", key: "stride")
            }
            if s.has("scale"), try s.float("scale") != 1 {
                throw s.error(.unsupported, "[upsample] scale other than 1 is not supported", key: "scale")
            }
            let (height, o1) = input.height.multipliedReportingOverflow(by: stride)
            let (width, o2) = input.width.multipliedReportingOverflow(by: stride)
            guard !o1, !o2 else {
                throw s.error(.limitExceeded, "[upsample] stride=\(stride) overflows the size of \(input)", key: "stride")
            }
            return try layer(.upsample(stride: stride), DarknetShape(channels: input.channels, height: height, width: width))

        case "yolo":
            let classes = try s.int("classes", min: 1, max: DarknetLimits.maxClasses)
            let values = try s.floats("anchors")
            guard values.count >= 2, values.count % 2 == 0 else {
                throw s.error(.invalidValue, "[yolo] anchors must be width,height pairs (got \(values.count) numbers)",
                              key: "anchors")
            }
            guard values.allSatisfy({ $0 > 0 }) else {
                throw s.error(.invalidValue, "[yolo] anchors must be positive", key: "anchors")
            }
            let anchors = stride(from: 0, to: values.count, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
            let num = try s.int("num", default: anchors.count, min: 1, max: DarknetLimits.maxAnchors)
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
package struct DarknetOption: Sendable {
    var value: String
    var line: Int
}

/// One `[name]` section of a `.cfg` and its options.
package struct DarknetSection: Sendable {
    var name: String
    var line: Int
    var fileName: String
    var options: [String: DarknetOption] = [:]

    /// Splits `.cfg` text into sections the way darknet reads it: whitespace anywhere in a line is
    /// dropped, lines starting with `#` or `;` are comments, section names are lower-cased.
    /// With `lastKeyWins`, a key set twice in a section takes its last value (OpenCV's reading)
    /// instead of being an error (the converter's: which one the network was trained with is unclear).
    static func parse(_ text: String, fileName: String, lastKeyWins: Bool = false) throws -> [DarknetSection] {
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
                    throw ConversionError(.syntax, "malformed section header '\(shown)'", file: fileName, line: lineNumber)
                }
                let name = String(line.dropFirst().dropLast()).lowercased()
                sections.append(DarknetSection(name: name, line: lineNumber, fileName: fileName))
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                throw ConversionError(.syntax, "expected '[section]' or 'key=value', found '\(shown)'",
                                   file: fileName, line: lineNumber)
            }
            let key = String(line[..<eq])
            let value = String(line[line.index(after: eq)...])
            guard !key.isEmpty else {
                throw ConversionError(.syntax, "a value without a key: '\(line)'", file: fileName, line: lineNumber)
            }
            guard !sections.isEmpty else {
                throw ConversionError(.syntax, "'\(key)' before the first [section]", file: fileName, line: lineNumber)
            }
            if value.isEmpty { continue }  // darknet and OpenCV treat "key=" as absent
            if !lastKeyWins, let earlier = sections[sections.count - 1].options[key] {
                throw ConversionError(.syntax, "'\(key)' is set twice in [\(sections[sections.count - 1].name)] "
                                   + "(first on line \(earlier.line))", file: fileName, line: lineNumber)
            }
            sections[sections.count - 1].options[key] = DarknetOption(value: value, line: lineNumber)
        }
        return sections
    }

    func has(_ key: String) -> Bool { options[key] != nil }

    func string(_ key: String) -> String? { options[key]?.value }

    /// An error on the line of `key` when it is set, else on the section header.
    func error(_ kind: ConversionError.Code, _ message: String, key: String? = nil) -> ConversionError {
        let line = key.flatMap { options[$0]?.line } ?? self.line
        return ConversionError(kind, message, file: fileName, line: line)
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

    /// An integer option; beyond `max` (or below -`DarknetLimits.maxIndex`) is `limitExceeded`.
    func int(_ key: String, default defaultValue: Int? = nil, min: Int? = nil,
             max: Int = DarknetLimits.maxIndex) throws -> Int {
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
        guard value <= max, value >= -DarknetLimits.maxIndex else {
            throw error(.limitExceeded, "[\(name)] \(key)=\(value) is out of range (at most \(max))", key: key)
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
    /// Each item within ±`DarknetLimits.maxIndex`, at most `DarknetLimits.maxAnchors` items.
    func ints(_ key: String) throws -> [Int] {
        let option = try required(key)
        let items = option.value.split(separator: ",")
        guard items.count <= DarknetLimits.maxAnchors else {
            throw error(.limitExceeded, "[\(name)] \(key) lists \(items.count) values, more than "
                        + "\(DarknetLimits.maxAnchors)", key: key)
        }
        return try items.map { item in
            guard let value = DarknetSection.parseInt(String(item)) else {
                throw error(.invalidValue, "[\(name)] \(key): '\(item)' is not an integer", key: key)
            }
            guard value.magnitude <= UInt(DarknetLimits.maxIndex) else {
                throw error(.limitExceeded, "[\(name)] \(key): \(value) is out of range", key: key)
            }
            return value
        }
    }

    /// A comma-separated list of numbers (empty items, e.g. a trailing comma, are skipped).
    func floats(_ key: String) throws -> [Float] {
        let option = try required(key)
        let items = option.value.split(separator: ",")
        guard items.count <= 2 * DarknetLimits.maxAnchors else {
            throw error(.limitExceeded, "[\(name)] \(key) lists \(items.count) values, more than "
                        + "\(2 * DarknetLimits.maxAnchors)", key: key)
        }
        return try items.map { item in
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
