import Foundation

// Convolution, pooling, padding, cropping and resizing layers (NeuralNetwork.proto's spatial layers,
// all on the last three axes [C, H, W]).
extension NeuralNetworkToONNX {
    /// A `repeated uint64` of length 2 (`[H, W]`), or `fallback` when absent; each value ≥ `minimum`.
    func pair(_ p: ProtoMessage, _ field: Int, fallback: [Int], what: String, minimum: Int = 1) throws -> [Int] {
        let values = try p.repeatedCounts(field, limit: CoreMLLimits.dimension, what: what)
        if values.isEmpty { return fallback }
        guard values.count == 2, values.allSatisfy({ $0 >= minimum }) else {
            throw invalid("\(what) \(values) (expected 2 values ≥ \(minimum))")
        }
        return values
    }

    /// `BorderAmounts` (field 10: `EdgeSizes` {startEdgeSize 1, endEdgeSize 2} for height, then width).
    func borders(_ m: ProtoMessage?) throws -> (top: Int, bottom: Int, left: Int, right: Int) {
        guard let m else { return (0, 0, 0, 0) }
        let edges = try m.messages(10, "borderAmounts")
        if edges.isEmpty { return (0, 0, 0, 0) }
        guard edges.count == 2 else { throw invalid("\(edges.count) border amounts (expected height and width)") }
        let d = CoreMLLimits.dimension
        return (
            try edges[0].count(1, limit: d, what: "border"), try edges[0].count(2, limit: d, what: "border"),
            try edges[1].count(1, limit: d, what: "border"), try edges[1].count(2, limit: d, what: "border")
        )
    }

    /// `SamePadding`: the output size and the padding before and after, for one axis.
    func samePadding(input: Int, kernel: Int, stride: Int, topLeftHeavy: Bool) -> (out: Int, before: Int, after: Int) {
        let out = (input + stride - 1) / stride
        let total = max(0, (out - 1) * stride + kernel - input)
        let small = total / 2
        return topLeftHeavy ? (out, total - small, small) : (out, small, total - small)
    }

    // MARK: Convolution (100)

    /// `ConvolutionLayerParams`: 1 outputChannels, 2 kernelChannels, 10 nGroups, 20 kernelSize, 30 stride,
    /// 40 dilationFactor, 50 valid, 51 same, 60 isDeconvolution, 70 hasBias, 90 weights, 91 bias, 100 outputShape.
    mutating func convolution(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let d = CoreMLLimits.dimension
        let x = inputs[0]
        let cout = try p.count(1, limit: d, what: "outputChannels")
        let kc = try p.count(2, limit: d, what: "kernelChannels")
        let groups = max(1, try p.count(10, limit: d, what: "nGroups"))
        let kernel = try pair(p, 20, fallback: [3, 3], what: "kernelSize")
        let stride = try pair(p, 30, fallback: [1, 1], what: "stride")
        let deconv = try p.bool(60)
        let dilation = deconv ? [1, 1] : try pair(p, 40, fallback: [1, 1], what: "dilationFactor")
        let hasBias = try p.bool(70)
        let outputShape = try p.repeatedCounts(100, limit: d, what: "outputShape")
        guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 3)") }
        let cin = x.shape[x.shape.count - 3]
        let h = x.shape[x.shape.count - 2]
        let w = x.shape[x.shape.count - 1]
        guard cout > 0, kc > 0 else { throw invalid("outputChannels \(cout), kernelChannels \(kc)") }
        if deconv {
            guard cin == kc, cout % groups == 0 else {
                throw invalid(
                    "deconvolution of \(cin) input channels with kernelChannels \(kc), \(cout) outputs in \(groups) groups"
                )
            }
            guard inputs.count == 1 else { throw unsupported("a deconvolution with weights as an input") }
        } else {
            guard cin == kc * groups, cout % groups == 0 else {
                throw invalid(
                    "\(cin) input channels do not fit kernelChannels \(kc) × nGroups \(groups) (or \(cout) outputs)")
            }
        }
        let weightShape = deconv ? [kc, cout / groups, kernel[0], kernel[1]] : [cout, kc, kernel[0], kernel[1]]
        let weightName: String
        if inputs.count == 2 {
            guard inputs[1].shape.suffix(4).elementsEqual(weightShape) || physical(inputs[1].shape) == weightShape
            else {
                throw invalid("weight input of shape \(inputs[1].shape), expected \(weightShape)")
            }
            weightName =
                physical(inputs[1].shape) == weightShape ? inputs[1].name : reshape(inputs[1].name, weightShape)
        } else {
            let count = try elements(weightShape)
            let channels =
                deconv
                ? NeuralNetworkWeights.ChannelAxis(channels: cout / groups, inner: kernel[0] * kernel[1])
                : NeuralNetworkWeights.ChannelAxis(channels: cout, inner: kc * kernel[0] * kernel[1])
            weightName = constant(
                try weights(p, 90, count: count, what: "weights", channels: channels), dims: weightShape, hint: "W")
        }
        var convInputs = [weightName]
        if hasBias {
            convInputs.append(constant(try weights(p, 91, count: cout, what: "bias"), dims: [cout], hint: "B"))
        }

        var pads = [0, 0, 0, 0]  // top, left, bottom, right
        var outputPadding = [0, 0]
        var outHW = [0, 0]
        let size = [h, w]
        let effective = (0..<2).map { (kernel[$0] - 1) * dilation[$0] + 1 }
        switch p.oneof([50, 51]) {
        case 51?:
            let topLeft = try p.message(51, "same")!.int32(1) == 1
            for a in 0..<2 {
                if deconv {
                    outHW[a] = size[a] * stride[a]
                } else {
                    let s = samePadding(input: size[a], kernel: effective[a], stride: stride[a], topLeftHeavy: topLeft)
                    outHW[a] = s.out
                    pads[a] = s.before
                    pads[a + 2] = s.after
                }
            }
            if deconv {
                // ConvTranspose pads that give H × stride: k − s in total, split as for convolution.
                for a in 0..<2 {
                    let total = kernel[a] - stride[a]
                    if total >= 0 {
                        let small = total / 2
                        pads[a] = topLeft ? total - small : small
                        pads[a + 2] = total - pads[a]
                    } else {
                        outputPadding[a] = -total
                    }
                }
            }
        default:
            let b = try borders(try p.message(50, "valid")?.message(1, "paddingAmounts"))
            pads = [b.top, b.left, b.bottom, b.right]
            for a in 0..<2 {
                if deconv {
                    outHW[a] = (size[a] - 1) * stride[a] + kernel[a] - pads[a] - pads[a + 2]
                } else {
                    let span = size[a] + pads[a] + pads[a + 2] - effective[a]
                    guard span >= 0 else { throw invalid("kernel \(kernel) larger than the padded input \(size)") }
                    outHW[a] = span / stride[a] + 1
                }
            }
        }
        if deconv, outputShape.count == 2 {
            // An explicit output size: trim (or extend) symmetrically, the larger half after.
            for a in 0..<2 {
                let total = (size[a] - 1) * stride[a] + kernel[a] - outputShape[a]
                if total >= 0 {
                    pads[a] = total / 2
                    pads[a + 2] = total - total / 2
                    outputPadding[a] = 0
                } else {
                    pads[a] = 0
                    pads[a + 2] = 0
                    outputPadding[a] = -total
                }
                outHW[a] = outputShape[a]
            }
        }
        guard outHW.allSatisfy({ $0 > 0 }) else { throw invalid("output size \(outHW) from input \(size)") }
        if deconv, zip(outputPadding, stride).contains(where: { $0 >= $1 }) {
            throw unsupported(
                "a deconvolution whose output needs \(outputPadding) extra rows/columns with stride \(stride)")
        }
        var attributes: [ONNXWriter.Attribute] = [
            .init("kernel_shape", .ints(kernel)), .init("strides", .ints(stride)), .init("pads", .ints(pads)),
            .init("group", .int(groups)),
        ]
        if !deconv { attributes.append(.init("dilations", .ints(dilation))) }
        if outputPadding != [0, 0] { attributes.append(.init("output_padding", .ints(outputPadding))) }
        let op = deconv ? "ConvTranspose" : "Conv"
        return try onNCHW(x, output: out) { c, input, _, output in
            _ = c.node1(op, [input] + convInputs, output: output, attributes)
            return [cout, outHW[0], outHW[1]]
        }
    }

    // MARK: Pooling (120)

    /// `PoolingLayerParams`: 1 type (MAX, AVERAGE, L2), 10 kernelSize, 20 stride, 30 valid, 31 same,
    /// 32 includeLastPixel {10 paddingAmounts}, 50 avgPoolExcludePadding, 60 globalPooling.
    mutating func pooling(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let type = try p.int32(1)
        guard (0...2).contains(type) else { throw invalid("pooling type \(type)") }
        guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 3)") }
        let c = x.shape[x.shape.count - 3]
        let size = Array(x.shape.suffix(2))
        if try p.bool(60) {
            let op = ["GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"][Int(type)]
            return try onNCHW(x, output: out) { conv, input, _, output in
                _ = conv.node1(op, [input], output: output, type == 2 ? [.init("p", .int(2))] : [])
                return [c, 1, 1]
            }
        }
        let kernel = try pair(p, 10, fallback: [3, 3], what: "kernelSize")
        let stride = try pair(p, 20, fallback: [1, 1], what: "stride")
        let exclude = try p.bool(50)
        var pads = [0, 0, 0, 0]
        var outHW = [0, 0]
        var explicit = [0, 0]  // Caffe-style symmetric padding counted by AVERAGE (includeLastPixel)
        switch p.oneof([30, 31, 32]) {
        case 31?:
            let topLeft = try p.message(31, "same")!.int32(1) == 1
            for a in 0..<2 {
                let s = samePadding(input: size[a], kernel: kernel[a], stride: stride[a], topLeftHeavy: topLeft)
                outHW[a] = s.out
                pads[a] = s.before
                pads[a + 2] = s.after
            }
        case 32?:
            let amounts = try p.message(32, "includeLastPixel")!
            let pad = try amounts.repeatedCounts(10, limit: CoreMLLimits.dimension, what: "paddingAmounts")
            let padding = pad.isEmpty ? [0, 0] : pad
            guard padding.count == 2 else { throw invalid("includeLastPixel paddingAmounts \(pad)") }
            for a in 0..<2 {
                let span = size[a] + 2 * padding[a] - kernel[a]
                guard span >= 0 else { throw invalid("kernel \(kernel) larger than the padded input \(size)") }
                var n = (span + stride[a] - 1) / stride[a] + 1
                if padding[0] > 0 || padding[1] > 0, (n - 1) * stride[a] >= size[a] + padding[a] { n -= 1 }
                outHW[a] = n
                pads[a] = padding[a]
                pads[a + 2] = max(0, (n - 1) * stride[a] + kernel[a] - size[a] - padding[a])
            }
            if type == 1 && !exclude { explicit = padding }
        default:
            let b = try borders(try p.message(30, "valid")?.message(1, "paddingAmounts"))
            pads = [b.top, b.left, b.bottom, b.right]
            for a in 0..<2 {
                let span = size[a] + pads[a] + pads[a + 2] - kernel[a]
                guard span >= 0 else { throw invalid("kernel \(kernel) larger than the padded input \(size)") }
                outHW[a] = span / stride[a] + 1
            }
        }
        guard outHW.allSatisfy({ $0 > 0 }) else { throw invalid("output size \(outHW) from input \(size)") }
        let op = ["MaxPool", "AveragePool", "LpPool"][Int(type)]
        return try onNCHW(x, output: out) { conv, input, _, output in
            var source = input
            var poolPads = pads
            var inSize = size
            if explicit != [0, 0] {
                // Caffe's average divides by the window within the symmetric padding: pad those zeros
                // explicitly, and let the pooling exclude what lies beyond them.
                source = conv.node1(
                    "Pad", [input, conv.int64s([0, 0, explicit[0], explicit[1], 0, 0, explicit[0], explicit[1]])])
                poolPads = [0, 0, max(0, pads[2] - explicit[0]), max(0, pads[3] - explicit[1])]
                inSize = [size[0] + 2 * explicit[0], size[1] + 2 * explicit[1]]
            }
            var attributes: [ONNXWriter.Attribute] = [
                .init("kernel_shape", .ints(kernel)), .init("strides", .ints(stride)), .init("pads", .ints(poolPads)),
            ]
            if type == 1 { attributes.append(.init("count_include_pad", .int(exclude || explicit != [0, 0] ? 0 : 1))) }
            if type == 2 { attributes.append(.init("p", .int(2))) }
            var produced = [0, 0]
            for a in 0..<2 {
                let span: Int = inSize[a] + poolPads[a] + poolPads[a + 2] - kernel[a]
                produced[a] = span / stride[a] + 1
            }
            guard produced[0] >= outHW[0], produced[1] >= outHW[1] else {
                throw conv.unsupported(
                    "pooling padding that ONNX cannot express (output \(produced), Core ML \(outHW))")
            }
            if produced == outHW {
                _ = conv.node1(op, [source], output: output, attributes)
            } else {
                let pooled = conv.node1(op, [source], attributes)
                _ = conv.node1(
                    "Slice", [pooled, conv.int64s([0, 0]), conv.int64s(outHW), conv.int64s([2, 3])], output: output)
            }
            return [c, outHW[0], outHW[1]]
        }
    }

    // MARK: Padding (200), crop (190)

    /// `PaddingLayerParams`: 1 constant {1 value}, 2 reflection, 3 replication, 10 paddingAmounts (on the last two axes).
    mutating func padding(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        let b = try borders(try p.message(10, "paddingAmounts"))
        guard x.shape.count >= 2 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 2)") }
        let phys = physical(x.shape)
        let r = phys.count
        var begin = [Int](repeating: 0, count: r)
        var end = begin
        begin[r - 2] = b.top
        end[r - 2] = b.bottom
        begin[r - 1] = b.left
        end[r - 1] = b.right
        var shape = x.shape
        shape[shape.count - 2] += b.top + b.bottom
        shape[shape.count - 1] += b.left + b.right
        var inputs = [x.name, int64s(begin + end)]
        let mode: String
        switch p.oneof([1, 2, 3]) {
        case 2?:
            mode = "reflect"
            guard b.top < x.shape[x.shape.count - 2], b.bottom < x.shape[x.shape.count - 2],
                b.left < x.shape[x.shape.count - 1], b.right < x.shape[x.shape.count - 1]
            else {
                throw invalid("reflection padding \(b) of a \(x.shape.suffix(2)) input")
            }
        case 3?: mode = "edge"
        default:
            mode = "constant"
            inputs.append(scalar(try p.message(1, "constant")?.float(1) ?? 0))
        }
        _ = node1("Pad", inputs, output: out, [.init("mode", .string(mode))])
        return NNValue(name: out, shape: try checked(shape))
    }

    /// `CropLayerParams`: 1 cropAmounts (one input), 5 offset [H, W] (two inputs: the second's size).
    mutating func crop(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 3)") }
        let h = x.shape[x.shape.count - 2]
        let w = x.shape[x.shape.count - 1]
        var top = 0
        var left = 0
        var outH = h
        var outW = w
        if inputs.count == 2 {
            let offset = try p.repeatedCounts(5, limit: CoreMLLimits.dimension, what: "offset")
            guard offset.isEmpty || offset.count == 2 else { throw invalid("offset \(offset)") }
            top = offset.first ?? 0
            left = offset.last ?? 0
            let reference = inputs[1].shape
            guard reference.count >= 2 else { throw invalid("reference input of rank \(reference.count)") }
            outH = reference[reference.count - 2]
            outW = reference[reference.count - 1]
        } else {
            let b = try borders(try p.message(1, "cropAmounts"))
            top = b.top
            left = b.left
            outH = h - b.top - b.bottom
            outW = w - b.left - b.right
        }
        guard outH > 0, outW > 0, top + outH <= h, left + outW <= w else {
            throw invalid("crop of \([outH, outW]) at \([top, left]) from \([h, w])")
        }
        let r = physical(x.shape).count
        _ = node1(
            "Slice", [x.name, int64s([top, left]), int64s([top + outH, left + outW]), int64s([r - 2, r - 1])],
            output: out)
        var shape = x.shape
        shape[shape.count - 2] = outH
        shape[shape.count - 1] = outW
        return NNValue(name: out, shape: shape)
    }

    // MARK: Upsample (210), resize bilinear (211), crop and resize (212)

    /// `UpsampleLayerParams`: 1 scalingFactor, 7 fractionalScalingFactor, 5 mode (NN, BILINEAR),
    /// 6 linearUpsampleMode (DEFAULT, ALIGN_CORNERS_TRUE, ALIGN_CORNERS_FALSE).
    mutating func upsample(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 3)") }
        let size = Array(x.shape.suffix(2))
        let c = x.shape[x.shape.count - 3]
        let fractional = try p.repeatedFloats(7)
        let integer = try pair(p, 1, fallback: [1, 1], what: "scalingFactor")
        var outHW: [Int]
        if !fractional.isEmpty {
            guard fractional.count == 2,
                fractional.allSatisfy({ $0.isFinite && $0 > 0 && $0 < Float(CoreMLLimits.dimension) })
            else {
                throw invalid("fractionalScalingFactor \(fractional)")
            }
            outHW = (0..<2).map { Int((Double(size[$0]) * Double(fractional[$0])).rounded(.down)) }
        } else {
            outHW = (0..<2).map { size[$0] * integer[$0] }
        }
        guard outHW.allSatisfy({ $0 > 0 && $0 <= CoreMLLimits.dimension }) else {
            throw invalid("output size \(outHW)")
        }
        let bilinear = try p.int32(5) == 1
        var attributes: [ONNXWriter.Attribute]
        if bilinear {
            let mode = try p.int32(6)
            let transform = mode == 1 ? "align_corners" : mode == 2 ? "half_pixel" : "asymmetric"
            attributes = [
                .init("mode", .string("linear")), .init("coordinate_transformation_mode", .string(transform)),
            ]
        } else {
            attributes = [
                .init("mode", .string("nearest")), .init("coordinate_transformation_mode", .string("asymmetric")),
                .init("nearest_mode", .string("floor")),
            ]
        }
        return try onNCHW(x, output: out) { conv, input, nchw, output in
            _ = conv.node1(
                "Resize", [input, "", "", conv.int64s([nchw[0], c, outHW[0], outHW[1]])], output: output, attributes)
            return [c, outHW[0], outHW[1]]
        }
    }

    /// `ResizeBilinearLayerParams`: 1 targetSize, 2 mode (`SamplingMode` {1 samplingMethod}).
    mutating func resizeBilinear(_ p: ProtoMessage, _ x: NNValue, _ out: String) throws -> NNValue {
        guard x.shape.count >= 3 else { throw invalid("input of rank \(x.shape.count) (expected ≥ 3)") }
        let c = x.shape[x.shape.count - 3]
        let target = try pair(p, 1, fallback: [1, 1], what: "targetSize")
        let method = try p.message(2, "mode")?.int32(1) ?? 0
        guard (0...3).contains(method) else { throw invalid("sampling method \(method)") }
        if method == 2 {
            // UPSAMPLE_MODE: points i × X / N, clamped to X − 1: ONNX's asymmetric transform.
            return try onNCHW(x, output: out) { conv, input, nchw, output in
                _ = conv.node1(
                    "Resize", [input, "", "", conv.int64s([nchw[0], c, target[0], target[1]])], output: output,
                    [
                        .init("mode", .string("linear")),
                        .init("coordinate_transformation_mode", .string("asymmetric")),
                    ])
                return [c, target[0], target[1]]
            }
        }
        // The other methods as ONNX's tf_crop_and_resize region [start, end] (in units of X − 1):
        // STRICT_ALIGN_ENDPOINTS linspace(0, X − 1, N) (N = 1: 0); ALIGN_ENDPOINTS the same but the middle
        // for N = 1; ROI_ALIGN_MODE (i + ½) × max(1, X − 1) / N.
        var starts: [Float] = []
        var ends: [Float] = []
        for a in 0..<2 {
            let n = Float(target[a])
            switch method {
            case 0:
                starts.append(0)
                ends.append(target[a] == 1 ? 0 : 1)
            case 1:
                starts.append(0)
                ends.append(1)
            default:
                starts.append(0.5 / n)
                ends.append(target[a] == 1 ? 0.5 : (n - 0.5) / n)
            }
        }
        return try onNCHW(x, output: out) { conv, input, nchw, output in
            let roi = conv.constant([0, 0, starts[0], starts[1], 1, 1, ends[0], ends[1]], dims: [8], hint: "roi")
            _ = conv.node1(
                "Resize", [input, roi, "", conv.int64s([nchw[0], c, target[0], target[1]])], output: output,
                [
                    .init("mode", .string("linear")),
                    .init("coordinate_transformation_mode", .string("tf_crop_and_resize")),
                ])
            return [c, target[0], target[1]]
        }
    }

    /// `CropResizeLayerParams`: 1 targetSize, 2 normalizedCoordinates, 3 mode (`SamplingMode`), 4 boxIndicesMode
    /// (CORNERS_HEIGHT_FIRST, CORNERS_WIDTH_FIRST, CENTER_SIZE_HEIGHT_FIRST, CENTER_SIZE_WIDTH_FIRST), 5 spatialScale
    /// (0: 1). Input `[1, B, C, H, W]` and boxes `[N, 1, 4 or 5, 1, 1]` (a leading batch index with 5); output
    /// `[N, B, C, Ho, Wo]` (or `[N, 1, C, Ho, Wo]`). Each box is sampled on the grid its mode gives over
    /// `[start, end]` (as `resizeBilinear` over `[0, X − 1]`) with ONNX's `GridSample` (bilinear, corners aligned).
    mutating func cropResize(_ p: ProtoMessage, _ inputs: [NNValue], _ out: String) throws -> NNValue {
        let x = inputs[0]
        let roi = inputs[1]
        guard x.shape.count == 5, roi.shape.count == 5, roi.shape[1] == 1, roi.shape[3] == 1, roi.shape[4] == 1,
            roi.shape[2] == 4 || roi.shape[2] == 5
        else {
            throw invalid(
                "inputs \(x.shape) and boxes \(roi.shape) (expected [1, B, C, H, W] and [N, 1, 4 or 5, 1, 1])")
        }
        let target = try pair(p, 1, fallback: [1, 1], what: "targetSize")
        let normalised = try p.bool(2)
        let method = try p.message(3, "mode")?.int32(1) ?? 0
        let boxMode = try p.message(4, "boxIndicesMode")?.int32(1) ?? 0
        guard (0...3).contains(method), (0...3).contains(boxMode) else {
            throw invalid("sampling mode \(method), box mode \(boxMode)")
        }
        var spatialScale = try p.float(5)
        if spatialScale == 0 { spatialScale = 1 }
        let b = x.shape[1]
        let c = x.shape[2]
        let h = x.shape[3]
        let w = x.shape[4]
        let n = roi.shape[0]
        let withIndex = roi.shape[2] == 5
        let columns = roi.shape[2]
        let boxes = reshape(roi.name, [n, columns])
        func column(_ k: Int) -> String {
            node1("Slice", [boxes, int64s([k]), int64s([k + 1]), int64s([1])])
        }
        let first = withIndex ? 1 : 0
        let c0 = column(first)
        let c1 = column(first + 1)
        let c2 = column(first + 2)
        let c3 = column(first + 3)
        var y1: String
        var x1: String
        var y2: String
        var x2: String
        switch boxMode {
        case 0: (y1, x1, y2, x2) = (c0, c1, c2, c3)
        case 1: (y1, x1, y2, x2) = (c1, c0, c3, c2)
        default:
            let (cy, cx, bh, bw) = boxMode == 2 ? (c0, c1, c2, c3) : (c1, c0, c3, c2)
            let hh = node1("Mul", [bh, scalar(0.5)])
            let hw = node1("Mul", [bw, scalar(0.5)])
            (y1, x1, y2, x2) = (
                node1("Sub", [cy, hh]), node1("Sub", [cx, hw]), node1("Add", [cy, hh]), node1("Add", [cx, hw])
            )
        }
        let sy = spatialScale * (normalised ? Float(h - 1) : 1)
        let sx = spatialScale * (normalised ? Float(w - 1) : 1)
        if sy != 1 {
            y1 = node1("Mul", [y1, scalar(sy)])
            y2 = node1("Mul", [y2, scalar(sy)])
        }
        if sx != 1 {
            x1 = node1("Mul", [x1, scalar(sx)])
            x2 = node1("Mul", [x2, scalar(sx)])
        }
        // Sample positions [N, count] along one axis of size `size`, normalised to GridSample's [-1, 1].
        func grid(_ start: String, _ end: String, count: Int, size: Int) -> String {
            let t = node1("Sub", [end, start])
            let i = constant((0..<count).map(Float.init), dims: [1, count], hint: "steps")
            var offset: String
            switch method {
            case 0, 1:
                if count == 1 {
                    offset = method == 0 ? node1("Mul", [t, scalar(0)]) : node1("Mul", [t, scalar(0.5)])
                } else {
                    offset = node1("Mul", [i, node1("Div", [t, scalar(Float(count - 1))])])
                }
            case 2:
                offset = node1(
                    "Min",
                    [node1("Mul", [i, node1("Div", [node1("Add", [t, scalar(1)]), scalar(Float(count))])]), t])
            default:
                let delta = node1("Div", [node1("Max", [t, scalar(1)]), scalar(Float(count))])
                offset = node1("Min", [node1("Mul", [node1("Add", [i, scalar(0.5)]), delta]), t])
            }
            let position = node1("Add", [start, offset])
            guard size > 1 else { return node1("Mul", [position, scalar(0)]) }
            return node1("Sub", [node1("Mul", [position, scalar(2 / Float(size - 1))]), scalar(1)])
        }
        let gy = grid(y1, y2, count: target[0], size: h)
        let gx = grid(x1, x2, count: target[1], size: w)
        let shape3 = int64s([n, target[0], target[1]])
        let gridX = node1("Expand", [reshape(gx, [n, 1, target[1]]), shape3])
        let gridY = node1("Expand", [reshape(gy, [n, target[0], 1]), shape3])
        var samplingGrid = node1(
            "Concat", [node1("Unsqueeze", [gridX, int64s([3])]), node1("Unsqueeze", [gridY, int64s([3])])],
            [.init("axis", .int(3))])
        let images = rank5 ? x.name : reshape(x.name, [b, c, h, w])
        let source: String
        if withIndex {
            let index = toInt64(reshape(column(0), [n]))
            source = node1("Gather", [images, index], [.init("axis", .int(0))])
        } else {
            source = b == 1 && n == 1 ? images : node1("Tile", [images, int64s([n, 1, 1, 1])])
            if b > 1 {
                let expanded = node1(
                    "Expand",
                    [reshape(samplingGrid, [n, 1, target[0], target[1], 2]), int64s([n, b, target[0], target[1], 2])])
                samplingGrid = reshape(expanded, [n * b, target[0], target[1], 2])
            }
        }
        let shape = try checked([n, withIndex ? 1 : b, c, target[0], target[1]])
        let attributes: [ONNXWriter.Attribute] = [
            .init("mode", .string("bilinear")), .init("padding_mode", .string("border")),
            .init("align_corners", .int(1)),
        ]
        if rank5 {
            _ = node1("GridSample", [source, samplingGrid], output: out, attributes)
        } else {
            _ = reshape(node1("GridSample", [source, samplingGrid], attributes), shape, output: out)
        }
        return NNValue(name: out, shape: shape)
    }
}
