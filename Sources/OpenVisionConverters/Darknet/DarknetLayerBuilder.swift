import Foundation

/// One `.cfg` section checked and turned into a `DarknetLayer`: the section, its index, the shape it reads and the
/// layers before it, for one reader (the converter's rules, or OpenCV 4.6's where `openCV`). One method per layer
/// type; each throws a `ConversionError` naming the section, line and key.
struct DarknetLayerBuilder {
    let s: DarknetSection
    let index: Int
    let input: DarknetShape
    let previous: [DarknetLayer]
    let openCV: Bool

    /// The layer of `kind` with `output`, once the output is checked to be non-empty and within the limits.
    func layer(_ kind: DarknetLayerKind, _ output: DarknetShape) throws -> DarknetLayer {
        guard output.channels > 0, output.height > 0, output.width > 0 else {
            throw s.error(.invalidValue, "[\(s.name)] would output \(output) from an input of \(input)")
        }
        let (plane, o1) = output.height.multipliedReportingOverflow(by: output.width)
        let (elements, o2) = plane.multipliedReportingOverflow(by: output.channels)
        guard output.height <= DarknetLimits.maxSide, output.width <= DarknetLimits.maxSide,
            output.channels <= DarknetLimits.maxChannels, !o1, !o2, elements <= DarknetLimits.maxLayerElements
        else {
            throw s.error(
                .limitExceeded,
                "[\(s.name)] would output \(output) from an input of \(input), beyond "
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
            throw s.error(
                .invalidValue,
                "[\(s.name)] \(key) refers to layer \(value) (absolute \(absolute), "
                    + "\(which)); layer \(index) can only read layers 0...\(index - 1)", key: key)
        }
        let target = previous[absolute]
        if target.kind.isDetection {
            throw s.error(
                .unsupported,
                "[\(s.name)] \(key) refers to the [\(target.typeName)] layer \(absolute); "
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
            throw s.error(
                .invalidValue,
                "[\(s.name)] a \(extent)-pixel kernel does not fit the \(input.height)×"
                    + "\(input.width) input with \(padding) pixels of padding", key: key)
        }
    }

    /// `[convolutional]`: kernel, filters, stride, padding, groups, dilation, batch normalisation, activation.
    func convolutional() throws -> DarknetLayer {
        if openCV {
            if s.has("flipped"), try s.int("flipped") == 1 {
                throw s.error(.unsupported, "[\(s.name)] flipped=1 is not supported by OpenCV", key: "flipped")
            }
        } else {
            try s.rejectUnsupported([
                "flipped", "binary", "xnor", "antialiasing", "share_index", "deform",
                "assisted_excitation", "sway", "rotate", "stretch", "stretch_sway",
            ])
        }
        let size = try s.int("size", min: 1, max: DarknetLimits.maxKernel)
        let filters = try s.int("filters", min: 1, max: DarknetLimits.maxChannels)
        let stride = try s.int("stride", default: 1, min: 1, max: DarknetLimits.maxKernel)
        if !openCV {
            for key in ["stride_x", "stride_y"] where s.has(key) {
                guard try s.int(key, min: 1) == stride else {
                    throw s.error(
                        .unsupported, "[\(s.name)] \(key) different from stride is not supported",
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
            throw s.error(
                .invalidValue,
                "[\(s.name)] groups=\(groups) does not divide the \(input.channels) "
                    + "input channels", key: "groups")
        }
        guard filters % groups == 0 else {
            throw s.error(
                .invalidValue, "[\(s.name)] groups=\(groups) does not divide filters=\(filters)",
                key: "groups")
        }
        let extent = (size - 1) * dilation + 1  // ≤ maxKernel²: no overflow
        try checkFits(extent: extent, padding: 2 * padding, key: "size")
        let conv = DarknetConvolution(
            filters: filters, size: size, stride: stride, padding: padding,
            groups: groups, dilation: dilation, batchNormalize: batchNormalize,
            activation: activation, inputChannels: input.channels)
        guard let count = conv.checkedWeightFloatCount, count <= DarknetLimits.maxWeightFloats else {
            throw s.error(
                .limitExceeded,
                "[\(s.name)] needs more than \(DarknetLimits.maxWeightFloats) weights "
                    + "(\(filters) filters of \(input.channels / groups)×\(size)×\(size))")
        }
        let out = DarknetShape(
            channels: filters,
            height: (input.height + 2 * padding - extent) / stride + 1,
            width: (input.width + 2 * padding - extent) / stride + 1)
        return try layer(.convolutional(conv), out)
    }

    /// `[connected]` (OpenCV only): a fully connected layer on the flattened input.
    func connected() throws -> DarknetLayer {
        let outputs = try s.int("output", default: 1, min: 1, max: DarknetLimits.maxChannels)
        let batchNormalize = try s.flag("batch_normalize")
        // OpenCV sizes the weights from its own running shape, which [route] and [scale_channels]
        // leave stale and which it reads as channels only for an input one pixel wide.
        if let stale = previous.first(where: { $0.typeName == "route" || $0.typeName == "scale_channels" }) {
            throw s.error(
                .unsupported,
                "[connected] after a [\(stale.typeName)] (layer \(stale.index)) is not "
                    + "supported: OpenCV would size its weights from the wrong shape")
        }
        guard input.width > 1 || input.height == 1 else {
            throw s.error(
                .unsupported,
                "[connected] on a \(input) input (one pixel wide, several high) is not "
                    + "supported: OpenCV would size its weights from the channels alone")
        }
        let inputCount = input.channels * input.height * input.width  // ≤ maxLayerElements
        let (matrix, overflow) = inputCount.multipliedReportingOverflow(by: outputs)
        guard !overflow, matrix <= DarknetLimits.maxWeightFloats else {
            throw s.error(
                .limitExceeded,
                "[connected] needs more than \(DarknetLimits.maxWeightFloats) weights "
                    + "(\(outputs) outputs of \(inputCount) inputs)", key: "output")
        }
        let connected = DarknetConnected(outputs: outputs, batchNormalize: batchNormalize, inputCount: inputCount)
        return try layer(.connected(connected), DarknetShape(channels: outputs, height: 1, width: 1))
    }

    /// `[maxpool]`: size, stride and padding (the converter insists on size and stride: darknet and OpenCV default them differently).
    func maxPool() throws -> DarknetLayer {
        let size: Int
        let stride: Int
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
                    throw s.error(
                        .unsupported, "[\(s.name)] \(key) different from stride is not supported",
                        key: key)
                }
            }
        }
        let padding = try s.int("padding", default: size - 1, min: 0, max: DarknetLimits.maxPadding)
        try checkFits(extent: size, padding: padding, key: "size")
        let pool = DarknetMaxPool(size: size, stride: stride, padding: padding)
        let out = DarknetShape(
            channels: input.channels,
            height: (input.height + padding - size) / stride + 1,
            width: (input.width + padding - size) / stride + 1)
        return try layer(.maxpool(pool), out)
    }

    /// `[avgpool]`: the global average, one value per channel.
    func averagePool() throws -> DarknetLayer {
        return try layer(.avgpool, DarknetShape(channels: input.channels, height: 1, width: 1))
    }

    /// `[softmax]` (OpenCV only), over the channels.
    func softmax() throws -> DarknetLayer {
        guard try s.int("groups", default: 1) == 1 else {
            throw s.error(.unsupported, "[softmax] groups other than 1 is not supported by OpenCV", key: "groups")
        }
        return try layer(.softmax, input)
    }

    /// `[route]`: earlier layers joined along the channels (or one group of one layer's channels).
    func route() throws -> DarknetLayer {
        let indices = try s.ints("layers")
        let groups = try s.int("groups", default: 1, min: 1, max: DarknetLimits.maxChannels)
        let groupID = try s.int("group_id", default: 0, min: 0)
        guard groupID < groups else {
            throw s.error(
                .invalidValue, "[route] group_id=\(groupID) must be below groups=\(groups)",
                key: "group_id")
        }
        if openCV, groups > 1, indices.count > 1 {
            throw s.error(
                .unsupported,
                "[route] with groups and several layers is not supported by OpenCV "
                    + "(it numbers the layers after it wrongly)", key: "layers")
        }
        var absolute: [Int] = []
        var channels = 0
        var spatial: (Int, Int)?
        for value in indices {
            let target = try resolve(value, key: "layers")
            // OpenCV's reader rewrites the channel count of the layer before a [connected] one.
            if openCV, target.index + 1 < index, case .connected = previous[target.index + 1].kind,
                target.output.width > 1
            {
                throw s.error(
                    .unsupported,
                    "[route] from layer \(target.index), the input of a [connected] layer, "
                        + "is not supported: OpenCV miscounts its channels", key: "layers")
            }
            let shape = target.output
            guard shape.channels % groups == 0 else {
                throw s.error(
                    .invalidValue,
                    "[route] groups=\(groups) does not divide the \(shape.channels) "
                        + "channels of layer \(target.index)", key: "groups")
            }
            if let (h, w) = spatial, h != shape.height || w != shape.width {
                throw s.error(
                    .invalidValue,
                    "[route] joins layers of different sizes "
                        + "(\(h)×\(w) and \(shape.height)×\(shape.width), layer \(target.index))",
                    key: "layers")
            }
            spatial = (shape.height, shape.width)
            channels += shape.channels / groups  // ≤ maxAnchors × maxChannels: no overflow
            absolute.append(target.index)
        }
        guard let (height, width) = spatial else {
            throw s.error(.invalidValue, "[route] lists no layers", key: "layers")
        }
        let route = DarknetRoute(layers: absolute, groups: groups, groupID: groupID)
        return try layer(.route(route), DarknetShape(channels: channels, height: height, width: width))
    }

    /// `[dropout]` and `[cost]`: a copy of the input at inference.
    func dropout() throws -> DarknetLayer {
        if openCV, index == 0 {
            throw s.error(
                .invalidValue,
                "[\(s.name)] cannot be the first layer: OpenCV reads it as a copy of "
                    + "the layer before")
        }
        return try layer(.dropout, input)
    }

    /// `[reorg]` (OpenCV only): space to depth by `stride`.
    func reorg() throws -> DarknetLayer {
        let stride = try s.int("stride", default: 2, min: 1, max: DarknetLimits.maxKernel)
        guard input.height % stride == 0, input.width % stride == 0 else {
            throw s.error(
                .invalidValue,
                "[reorg] stride=\(stride) does not divide the \(input.height)×"
                    + "\(input.width) input", key: "stride")
        }
        return try layer(
            .reorg(stride: stride),
            DarknetShape(
                channels: input.channels * stride * stride,
                height: input.height / stride,
                width: input.width / stride))
    }

    /// `[region]` (OpenCV only): the YOLOv2 detection head.
    func region() throws -> DarknetLayer {
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
            throw s.error(
                .invalidValue,
                "[region] with \(num) anchors and \(classes) classes needs \(needed) input "
                    + "channels, the previous layer gives \(input.channels)")
        }
        return try layer(.region(DarknetRegion(classes: classes, anchors: num)), input)
    }

    /// `[shortcut]`: the sum of the input and an earlier layer of the same size.
    func shortcut() throws -> DarknetLayer {
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
            throw s.error(
                .unsupported,
                "[shortcut] from layer \(target.index) (\(target.output)) to an input of "
                    + "\(input): different sizes are not supported", key: "from")
        }
        let shortcut = DarknetShortcut(from: target.index, activation: try s.activation(required: false))
        return try layer(.shortcut(shortcut), input)
    }

    /// `[scale_channels]` (OpenCV only): an earlier layer scaled channel by channel by the 1×1 input.
    func scaleChannels() throws -> DarknetLayer {
        let target = try from()
        guard input.height == 1, input.width == 1, input.channels == target.output.channels else {
            throw s.error(
                .invalidValue,
                "[scale_channels] scales layer \(target.index) (\(target.output)) by the "
                    + "previous layer's \(input); it needs \(target.output.channels)×1×1", key: "from")
        }
        return try layer(.scaleChannels(from: target.index), target.output)
    }

    /// `[sam]` (OpenCV only): the input multiplied element by element by an earlier layer of the same shape.
    func sam() throws -> DarknetLayer {
        let target = try from()
        guard target.output == input else {
            throw s.error(
                .invalidValue,
                "[sam] multiplies the previous layer's \(input) by layer \(target.index)'s "
                    + "\(target.output): the shapes must be equal", key: "from")
        }
        return try layer(.sam(from: target.index), input)
    }

    /// `[upsample]`: nearest-neighbour upsampling by `stride`.
    func upsample() throws -> DarknetLayer {
        // Darknet defaults stride to 2, OpenCV to 1: the converter insists on it.
        let stride =
            openCV
            ? try s.int("stride", default: 1, max: DarknetLimits.maxKernel)
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
        return try layer(
            .upsample(stride: stride), DarknetShape(channels: input.channels, height: height, width: width))
    }

    /// `[yolo]`: the YOLOv3/v4 detection head (anchors, mask, classes, new_coords).
    func yolo() throws -> DarknetLayer {
        let classes = try s.int("classes", min: 1, max: DarknetLimits.maxClasses)
        let values = try s.floats("anchors")
        guard values.count >= 2, values.count % 2 == 0 else {
            throw s.error(
                .invalidValue, "[yolo] anchors must be width,height pairs (got \(values.count) numbers)",
                key: "anchors")
        }
        guard values.allSatisfy({ $0 > 0 }) else {
            throw s.error(.invalidValue, "[yolo] anchors must be positive", key: "anchors")
        }
        let anchors = stride(from: 0, to: values.count, by: 2).map { (width: values[$0], height: values[$0 + 1]) }
        // OpenCV needs num and mask written; the converter takes darknet's defaults.
        let num =
            openCV
            ? try s.int("num", min: 1, max: DarknetLimits.maxAnchors)
            : try s.int("num", default: anchors.count, min: 1, max: DarknetLimits.maxAnchors)
        guard num == anchors.count else {
            throw s.error(.invalidValue, "[yolo] num=\(num) but anchors has \(anchors.count) pairs", key: "num")
        }
        let mask = try openCV || s.has("mask") ? s.ints("mask") : Array(0..<num)
        if let bad = mask.first(where: { $0 < 0 || $0 >= num }) {
            throw s.error(
                .invalidValue, "[yolo] mask lists anchor \(bad); the \(num) anchors are 0...\(num - 1)",
                key: "mask")
        }
        let newCoords = try s.int("new_coords", default: 0, min: 0)
        guard openCV || newCoords <= 1 else {
            throw s.error(.unsupported, "[yolo] new_coords=\(newCoords) is not supported", key: "new_coords")
        }
        let nmsThreshold = try s.float("nms_threshold", default: 0)
        guard nmsThreshold >= 0 else {
            throw s.error(
                .invalidValue, "[yolo] nms_threshold=\(nmsThreshold) must not be negative", key: "nms_threshold")
        }
        let yolo = DarknetYolo(
            classes: classes, anchors: anchors, mask: mask,
            scaleXY: try s.float("scale_x_y", default: 1),
            newCoords: newCoords,
            thresh: try s.float("thresh", default: 0.2),
            nmsThreshold: nmsThreshold)
        let needed = mask.count * (5 + classes)
        guard input.channels == needed else {
            throw s.error(
                .invalidValue,
                "[yolo] with \(mask.count) anchors and \(classes) classes needs "
                    + "\(needed) input channels, the previous layer gives \(input.channels)")
        }
        guard openCV || (index > 0 && { if case .convolutional = previous[index - 1].kind { true } else { false } }())
        else {
            throw s.error(.unsupported, "[yolo] must follow a [convolutional] layer")
        }
        return try layer(.yolo(yolo), input)
    }
}
