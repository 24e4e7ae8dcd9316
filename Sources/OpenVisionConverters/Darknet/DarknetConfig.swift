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

/// A Darknet activation function (the set both readers support).
package enum DarknetActivation: String, Sendable, CaseIterable {
    case linear, leaky, relu, mish, logistic, swish, tanh
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

/// `[connected]` (OpenCV's reader only): a fully connected layer over the whole input.
package struct DarknetConnected: Sendable {
    var outputs: Int
    var batchNormalize: Bool
    /// Input values per image (channels × height × width of the previous layer).
    var inputCount: Int

    /// Floats of the `.weights` file: biases, three batch-norm vectors when normalised, the matrix.
    var weightFloatCount: Int { outputs * (batchNormalize ? 4 : 1) + outputs * inputCount }
}

/// `[region]` (OpenCV's reader only): YOLOv2's detection head.
package struct DarknetRegion: Sendable {
    var classes: Int
    var anchors: Int
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
    /// Inference-time identity (`[dropout]`, and OpenCV's `[cost]`).
    case dropout
    /// The kinds below are OpenCV's reader's only; the converter refuses them when parsing.
    case connected(DarknetConnected)
    case softmax
    /// Space to depth by `stride`.
    case reorg(stride: Int)
    case region(DarknetRegion)
    /// The output of layer `from` scaled per channel by the previous layer's (a C × 1 × 1 vector).
    case scaleChannels(from: Int)
    /// The previous layer's output times layer `from`'s (spatial attention).
    case sam(from: Int)

    /// A detection head, whose output no other layer may read.
    var isDetection: Bool {
        switch self {
        case .yolo, .region: true
        default: false
        }
    }
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
/// A parsed and checked Darknet `.cfg`: every value and derived size within `DarknetLimits`, every
/// layer index pointing at an earlier layer, every shape consistent, for one `DarknetReader`.
/// This is the one validator of `.cfg` files: `models convert` builds its graph from it, and
/// OpenVision runs it (`reader: .openCV`) before OpenCV reads a file (`checkForLoading`).
package struct DarknetConfig: Sendable {
    /// The file name used in error messages.
    package var fileName: String
    /// The reader the network was checked for.
    package var reader: DarknetReader
    /// Network input width and height in pixels, from `[net]` (OpenCV's reader: 416 when absent).
    package var width: Int
    package var height: Int
    package var channels: Int
    package var layers: [DarknetLayer]
    /// Floats the `.weights` file holds after its header: every convolution's (and `[connected]`
    /// layer's), summed (≤ `DarknetLimits.maxWeightFloats`).
    package private(set) var weightFloatCount: Int

    /// Reads and parses a `.cfg` file.
    package static func load(_ url: URL, reader: DarknetReader = .converter) throws -> DarknetConfig {
        try DarknetConfig(text: readText(url), fileName: url.lastPathComponent, reader: reader)
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

    /// Parses and checks `.cfg` text for `reader`. `fileName` only appears in error messages.
    package init(text: String, fileName: String = "network.cfg", reader: DarknetReader = .converter) throws {
        self.fileName = fileName
        self.reader = reader
        let sections = try DarknetSection.parse(text, fileName: fileName, lastKeyWins: reader == .openCV)
        let net: DarknetSection
        let layerSections: [DarknetSection]
        switch reader {
        case .converter:
            guard let first = sections.first, first.name == "net" || first.name == "network" else {
                let line = sections.first?.line ?? 1
                throw ConversionError(.syntax, "the cfg must start with a [net] section", file: fileName, line: line)
            }
            net = first
            layerSections = Array(sections.dropFirst())
            (width, height, channels) = try DarknetConfig.inputSize(net)
        case .openCV:
            // OpenCV reads every `[net]` section's keys into one set (the last value wins) and numbers
            // the other sections as layers 0, 1, ...
            let nets = sections.filter { $0.name == "net" }
            var merged = DarknetSection(name: "net", line: nets.first?.line ?? 1, fileName: fileName)
            for section in nets { merged.options.merge(section.options) { $1 } }
            net = merged
            layerSections = sections.filter { $0.name != "net" }
            width = try net.int("width", default: 416, min: 1, max: DarknetLimits.maxSide)
            height = try net.int("height", default: 416, min: 1, max: DarknetLimits.maxSide)
            channels = try net.int("channels", default: 3, min: 1, max: DarknetLimits.maxChannels)
        }

        var layers: [DarknetLayer] = []
        var shape = DarknetShape(channels: channels, height: height, width: width)
        var weights = 0, rows = 0
        for section in layerSections {
            let layer = try DarknetConfig.makeLayer(section, index: layers.count, input: shape, previous: layers,
                                                    reader: reader)
            layers.append(layer)
            shape = layer.output
            var layerWeights = 0
            switch layer.kind {
            case .convolutional(let conv): layerWeights = conv.weightFloatCount
            case .connected(let connected): layerWeights = connected.weightFloatCount
            case .yolo(let yolo):
                rows += layer.input.height * layer.input.width * yolo.mask.count  // bounded by maxLayerElements
            case .region(let region):
                rows += layer.input.height * layer.input.width * region.anchors
            default:
                break
            }
            weights += layerWeights  // each ≤ maxWeightFloats: no overflow
            guard weights <= DarknetLimits.maxWeightFloats else {
                throw section.error(.limitExceeded, "the network needs more than \(DarknetLimits.maxWeightFloats) "
                                    + "weights by layer \(layer.index)")
            }
            guard rows <= DarknetLimits.maxDetectionRows else {
                throw section.error(.limitExceeded, "the detection heads have \(rows) detection rows by layer "
                                    + "\(layer.index), more than \(DarknetLimits.maxDetectionRows)")
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

    /// Layer types by reader: the converter's (with darknet's short names) and OpenCV 4.6's.
    static let converterTypes: [String: String] = [
        "convolutional": "convolutional", "conv": "convolutional", "maxpool": "maxpool", "max": "maxpool",
        "avgpool": "avgpool", "avg": "avgpool", "route": "route", "shortcut": "shortcut", "upsample": "upsample",
        "yolo": "yolo", "dropout": "dropout",
    ]
    static let openCVTypes: [String] = [
        "convolutional", "connected", "maxpool", "avgpool", "softmax", "route", "dropout", "cost", "reorg",
        "region", "shortcut", "scale_channels", "sam", "upsample", "yolo",
    ]

    private static func makeLayer(_ s: DarknetSection, index: Int, input: DarknetShape,
                                  previous: [DarknetLayer], reader: DarknetReader) throws -> DarknetLayer {
        let openCV = reader == .openCV
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
        /// An earlier layer by a darknet index (negative: relative to this layer). A layer may only
        /// read layers before it: OpenCV read far indices out of bounds, later ones and itself
        /// through `std::vector::at` (an exception, not a message).
        func resolve(_ value: Int, key: String) throws -> DarknetLayer {
            let absolute = value < 0 ? index + value : value
            guard absolute >= 0, absolute < index else {
                let which = absolute == index ? "itself" : absolute > index ? "a later layer" : "no layer"
                throw s.error(.invalidValue, "[\(s.name)] \(key) refers to layer \(value) (absolute \(absolute), "
                              + "\(which)); layer \(index) can only read layers 0...\(index - 1)", key: key)
            }
            let target = previous[absolute]
            if target.kind.isDetection {
                throw s.error(.unsupported, "[\(s.name)] \(key) refers to the [\(target.typeName)] layer \(absolute); "
                              + "reading a detection head's output is not supported", key: key)
            }
            return target
        }
        /// The single layer index of `from` (`[shortcut]`, `[scale_channels]`, `[sam]`).
        func from() throws -> DarknetLayer {
            let from = try s.ints("from")
            guard from.count == 1 else {
                throw s.error(.unsupported, "[\(s.name)] from more than one layer is not supported", key: "from")
            }
            return try resolve(from[0], key: "from")
        }
        /// Kernel `extent` (with dilation) must fit the input plus `padding` along both sides.
        func checkFits(extent: Int, padding: Int, key: String) throws {
            guard input.height + padding >= extent, input.width + padding >= extent else {
                throw s.error(.invalidValue, "[\(s.name)] a \(extent)-pixel kernel does not fit the \(input.height)×"
                              + "\(input.width) input with \(padding) pixels of padding", key: key)
            }
        }

        let type: String
        switch reader {
        case .converter:
            guard let known = converterTypes[s.name] else {
                if s.name == "net" || s.name == "network" { throw s.error(.syntax, "a second [\(s.name)] section") }
                throw s.error(.unsupported, "unsupported layer type [\(s.name)]; supported: convolutional, maxpool, "
                              + "avgpool, route, shortcut, upsample, yolo, dropout")
            }
            type = known
        case .openCV:
            guard openCVTypes.contains(s.name) else {
                throw s.error(.unsupported, "OpenCV cannot read the layer type [\(s.name)]; it reads "
                              + openCVTypes.joined(separator: ", "))
            }
            type = s.name
            // OpenCV adds the activation after any layer type.
            _ = try s.activation(required: false)
        }

        switch type {
        case "convolutional":
            if openCV {
                if s.has("flipped"), try s.int("flipped") == 1 {
                    throw s.error(.unsupported, "[\(s.name)] flipped=1 is not supported by OpenCV", key: "flipped")
                }
            } else {
                try s.rejectUnsupported(["flipped", "binary", "xnor", "antialiasing", "share_index", "deform",
                                         "assisted_excitation", "sway", "rotate", "stretch", "stretch_sway"])
            }
            let size = try s.int("size", min: 1, max: DarknetLimits.maxKernel)
            let filters = try s.int("filters", min: 1, max: DarknetLimits.maxChannels)
            let stride = try s.int("stride", default: 1, min: 1, max: DarknetLimits.maxKernel)
            if !openCV {
                for key in ["stride_x", "stride_y"] where s.has(key) {
                    guard try s.int(key, min: 1) == stride else {
                        throw s.error(.unsupported, "[\(s.name)] \(key) different from stride is not supported",
                                      key: key)
                    }
                }
            }
            let pad = try s.int("pad", default: 0, min: 0)
            let padding = pad != 0 ? size / 2 : try s.int("padding", default: 0, min: 0, max: DarknetLimits.maxPadding)
            let groups = try s.int("groups", default: 1, min: 1, max: DarknetLimits.maxChannels)
            // OpenCV's reader ignores dilation.
            let dilation = openCV ? 1 : try s.int("dilation", default: 1, min: 1, max: DarknetLimits.maxKernel)
            let batchNormalize = try s.flag("batch_normalize")
            // Darknet defaults a convolution's activation to logistic, OpenCV to linear: the converter insists on one.
            let activation = try s.activation(required: !openCV)
            guard input.channels % groups == 0 else {
                throw s.error(.invalidValue, "[\(s.name)] groups=\(groups) does not divide the \(input.channels) "
                              + "input channels", key: "groups")
            }
            guard filters % groups == 0 else {
                throw s.error(.invalidValue, "[\(s.name)] groups=\(groups) does not divide filters=\(filters)",
                              key: "groups")
            }
            let extent = (size - 1) * dilation + 1  // ≤ maxKernel²: no overflow
            try checkFits(extent: extent, padding: 2 * padding, key: "size")
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

        case "connected":
            let outputs = try s.int("output", default: 1, min: 1, max: DarknetLimits.maxChannels)
            let batchNormalize = try s.flag("batch_normalize")
            // OpenCV sizes the weights from its own running shape, which [route] and [scale_channels]
            // leave stale and which it reads as channels only for an input one pixel wide.
            if let stale = previous.first(where: { $0.typeName == "route" || $0.typeName == "scale_channels" }) {
                throw s.error(.unsupported, "[connected] after a [\(stale.typeName)] (layer \(stale.index)) is not "
                              + "supported: OpenCV would size its weights from the wrong shape")
            }
            guard input.width > 1 || input.height == 1 else {
                throw s.error(.unsupported, "[connected] on a \(input) input (one pixel wide, several high) is not "
                              + "supported: OpenCV would size its weights from the channels alone")
            }
            let inputCount = input.channels * input.height * input.width  // ≤ maxLayerElements
            let (matrix, overflow) = inputCount.multipliedReportingOverflow(by: outputs)
            guard !overflow, matrix <= DarknetLimits.maxWeightFloats else {
                throw s.error(.limitExceeded, "[connected] needs more than \(DarknetLimits.maxWeightFloats) weights "
                              + "(\(outputs) outputs of \(inputCount) inputs)", key: "output")
            }
            let connected = DarknetConnected(outputs: outputs, batchNormalize: batchNormalize, inputCount: inputCount)
            return try layer(.connected(connected), DarknetShape(channels: outputs, height: 1, width: 1))

        case "maxpool":
            let size: Int, stride: Int
            if openCV {
                size = try s.int("size", default: 2, min: 1, max: DarknetLimits.maxKernel)
                stride = try s.int("stride", default: 2, min: 1, max: DarknetLimits.maxKernel)
            } else {
                try s.rejectUnsupported(["maxpool_depth", "antialiasing", "out_channels"])
                // Darknet and OpenCV disagree on the defaults of size and stride: insist on both.
                size = try s.int("size", min: 1, max: DarknetLimits.maxKernel)
                stride = try s.int("stride", min: 1, max: DarknetLimits.maxKernel)
                for key in ["stride_x", "stride_y"] where s.has(key) {
                    guard try s.int(key, min: 1) == stride else {
                        throw s.error(.unsupported, "[\(s.name)] \(key) different from stride is not supported",
                                      key: key)
                    }
                }
            }
            let padding = try s.int("padding", default: size - 1, min: 0, max: DarknetLimits.maxPadding)
            try checkFits(extent: size, padding: padding, key: "size")
            let pool = DarknetMaxPool(size: size, stride: stride, padding: padding)
            let out = DarknetShape(channels: input.channels,
                                   height: (input.height + padding - size) / stride + 1,
                                   width: (input.width + padding - size) / stride + 1)
            return try layer(.maxpool(pool), out)

        case "avgpool":
            return try layer(.avgpool, DarknetShape(channels: input.channels, height: 1, width: 1))

        case "softmax":
            guard try s.int("groups", default: 1) == 1 else {
                throw s.error(.unsupported, "[softmax] groups other than 1 is not supported by OpenCV", key: "groups")
            }
            return try layer(.softmax, input)

        case "route":
            let indices = try s.ints("layers")
            let groups = try s.int("groups", default: 1, min: 1, max: DarknetLimits.maxChannels)
            let groupID = try s.int("group_id", default: 0, min: 0)
            guard groupID < groups else {
                throw s.error(.invalidValue, "[route] group_id=\(groupID) must be below groups=\(groups)",
                              key: "group_id")
            }
            if openCV, groups > 1, indices.count > 1 {
                throw s.error(.unsupported, "[route] with groups and several layers is not supported by OpenCV "
                              + "(it numbers the layers after it wrongly)", key: "layers")
            }
            var absolute: [Int] = []
            var channels = 0
            var spatial: (Int, Int)?
            for value in indices {
                let target = try resolve(value, key: "layers")
                // OpenCV's reader rewrites the channel count of the layer before a [connected] one.
                if openCV, target.index + 1 < index, case .connected = previous[target.index + 1].kind,
                   target.output.width > 1 {
                    throw s.error(.unsupported, "[route] from layer \(target.index), the input of a [connected] layer, "
                                  + "is not supported: OpenCV miscounts its channels", key: "layers")
                }
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
                channels += shape.channels / groups  // ≤ maxAnchors × maxChannels: no overflow
                absolute.append(target.index)
            }
            let route = DarknetRoute(layers: absolute, groups: groups, groupID: groupID)
            return try layer(.route(route), DarknetShape(channels: channels, height: spatial!.0, width: spatial!.1))

        case "dropout", "cost":
            if openCV, index == 0 {
                throw s.error(.invalidValue, "[\(s.name)] cannot be the first layer: OpenCV reads it as a copy of "
                              + "the layer before")
            }
            return try layer(.dropout, input)

        case "reorg":
            let stride = try s.int("stride", default: 2, min: 1, max: DarknetLimits.maxKernel)
            guard input.height % stride == 0, input.width % stride == 0 else {
                throw s.error(.invalidValue, "[reorg] stride=\(stride) does not divide the \(input.height)×"
                              + "\(input.width) input", key: "stride")
            }
            return try layer(.reorg(stride: stride), DarknetShape(channels: input.channels * stride * stride,
                                                                  height: input.height / stride,
                                                                  width: input.width / stride))

        case "region":
            let classes = try s.int("classes", min: 1, max: DarknetLimits.maxClasses)
            let num = try s.int("num", min: 1, max: DarknetLimits.maxAnchors)
            let anchors = try s.floats("anchors")
            guard anchors.count == 2 * num else {
                throw s.error(.invalidValue, "[region] num=\(num) but anchors has \(anchors.count) numbers", key: "anchors")
            }
            guard try s.int("coords", default: 4) == 4 else {
                throw s.error(.unsupported, "[region] coords other than 4 is not supported by OpenCV", key: "coords")
            }
            guard try s.flag("softmax") else {
                throw s.error(.unsupported, "[region] without softmax=1 is not supported by OpenCV", key: "softmax")
            }
            guard !s.has("tree") else {
                throw s.error(.unsupported, "[region] tree (YOLO9000) is not supported by OpenCV", key: "tree")
            }
            _ = try s.float("thresh", default: 0.001)
            _ = try s.int("classfix", default: 0)
            let needed = num * (5 + classes)
            guard input.channels == needed else {
                throw s.error(.invalidValue, "[region] with \(num) anchors and \(classes) classes needs \(needed) input "
                              + "channels, the previous layer gives \(input.channels)")
            }
            return try layer(.region(DarknetRegion(classes: classes, anchors: num)), input)

        case "shortcut":
            if openCV {
                if s.has("beta"), try s.float("beta") != 0 {
                    throw s.error(.unsupported, "[shortcut] beta other than 0 is not supported by OpenCV", key: "beta")
                }
                _ = try s.float("alpha", default: 1)
            } else {
                if let weights = s.string("weights_type"), weights != "none" {
                    throw s.error(.unsupported, "[shortcut] weights_type=\(weights) is not supported", key: "weights_type")
                }
                if s.has("alpha"), try s.float("alpha") != 1 {
                    throw s.error(.unsupported, "[shortcut] alpha other than 1 is not supported", key: "alpha")
                }
                if s.has("beta"), try s.float("beta") != 0 {
                    throw s.error(.unsupported, "[shortcut] beta other than 0 is not supported", key: "beta")
                }
            }
            let target = try from()
            guard target.output.height == input.height, target.output.width == input.width else {
                throw s.error(.unsupported, "[shortcut] from layer \(target.index) (\(target.output)) to an input of "
                              + "\(input): different sizes are not supported", key: "from")
            }
            let shortcut = DarknetShortcut(from: target.index, activation: try s.activation(required: false))
            return try layer(.shortcut(shortcut), input)

        case "scale_channels":
            let target = try from()
            guard input.height == 1, input.width == 1, input.channels == target.output.channels else {
                throw s.error(.invalidValue, "[scale_channels] scales layer \(target.index) (\(target.output)) by the "
                              + "previous layer's \(input); it needs \(target.output.channels)×1×1", key: "from")
            }
            return try layer(.scaleChannels(from: target.index), target.output)

        case "sam":
            let target = try from()
            guard target.output == input else {
                throw s.error(.invalidValue, "[sam] multiplies the previous layer's \(input) by layer \(target.index)'s "
                              + "\(target.output): the shapes must be equal", key: "from")
            }
            return try layer(.sam(from: target.index), input)

        case "upsample":
            // Darknet defaults stride to 2, OpenCV to 1: the converter insists on it.
            let stride = openCV ? try s.int("stride", default: 1, max: DarknetLimits.maxKernel)
                                : try s.int("stride", max: DarknetLimits.maxKernel)
            guard stride >= 1 else {
                throw s.error(.unsupported, "[upsample] stride=\(stride): downsampling is not supported", key: "stride")
            }
            if !openCV, s.has("scale"), try s.float("scale") != 1 {
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
            // OpenCV needs num and mask written; the converter takes darknet's defaults.
            let num = openCV ? try s.int("num", min: 1, max: DarknetLimits.maxAnchors)
                             : try s.int("num", default: anchors.count, min: 1, max: DarknetLimits.maxAnchors)
            guard num == anchors.count else {
                throw s.error(.invalidValue, "[yolo] num=\(num) but anchors has \(anchors.count) pairs", key: "num")
            }
            let mask = try openCV || s.has("mask") ? s.ints("mask") : Array(0..<num)
            if let bad = mask.first(where: { $0 < 0 || $0 >= num }) {
                throw s.error(.invalidValue, "[yolo] mask lists anchor \(bad); the \(num) anchors are 0...\(num - 1)",
                              key: "mask")
            }
            let newCoords = try s.int("new_coords", default: 0, min: 0)
            guard openCV || newCoords <= 1 else {
                throw s.error(.unsupported, "[yolo] new_coords=\(newCoords) is not supported", key: "new_coords")
            }
            let nmsThreshold = try s.float("nms_threshold", default: 0)
            guard nmsThreshold >= 0 else {
                throw s.error(.invalidValue, "[yolo] nms_threshold=\(nmsThreshold) must not be negative", key: "nms_threshold")
            }
            let yolo = DarknetYolo(classes: classes, anchors: anchors, mask: mask,
                                   scaleXY: try s.float("scale_x_y", default: 1),
                                   newCoords: newCoords,
                                   thresh: try s.float("thresh", default: 0.2),
                                   nmsThreshold: nmsThreshold)
            let needed = mask.count * (5 + classes)
            guard input.channels == needed else {
                throw s.error(.invalidValue, "[yolo] with \(mask.count) anchors and \(classes) classes needs "
                              + "\(needed) input channels, the previous layer gives \(input.channels)")
            }
            guard openCV || (index > 0 && { if case .convolutional = previous[index - 1].kind { true } else { false } }()) else {
                throw s.error(.unsupported, "[yolo] must follow a [convolutional] layer")
            }
            return try layer(.yolo(yolo), input)

        default:
            // Unreachable: `type` comes from the reader's own list above.
            throw s.error(.unsupported, "unsupported layer type [\(s.name)]")
        }
    }
}
