/// Upsampling, resizing and crop-and-resize of the last two axes.
extension MILLowering {
    /// Where output sample `i` of `count` falls on an input axis of `size` (MIL's sampling modes,
    /// coremltools iOS15 image_resizing.resize_bilinear; NeuralNetwork.proto SamplingMode).
    static func gridPoint(_ i: Int, count: Int, size: Int, mode: String) -> Double {
        let x = Double(size)
        let n = Double(count)
        let k = Double(i)
        let p: Double
        switch mode {
        case "STRICT_ALIGN_CORNERS", "ALIGN_CORNERS":
            if count == 1 { p = mode == "ALIGN_CORNERS" ? (x - 1) / 2 : 0 } else { p = k * (x - 1) / (n - 1) }
        case "OFFSET_CORNERS":
            let delta = max(1, x - 1) / n
            p = 0.5 * delta + k * delta
        case "UNALIGN_CORNERS":
            let spacing = x / n
            p = k * spacing + 0.5 * spacing - 0.5
        default:  // DEFAULT
            p = count == 1 ? 0 : k * (x - x / n) / (n - 1)
        }
        return min(x - 1, max(0, p))
    }

    /// Bilinear resampling of the last two axes by two matrix products with interpolation matrices
    /// built here (for the sampling modes ONNX's Resize has no coordinate transform for).
    mutating func resizeByMatrices(_ x: String, inH: Int, inW: Int, outH: Int, outW: Int, mode: String) throws -> String
    {
        guard inH > 0, inW > 0, outH > 0, outW > 0 else {
            throw invalid("resize between \(inH)×\(inW) and \(outH)×\(outW)")
        }
        _ = try generated(outH.multipliedReportingOverflow(by: inH).overflow ? Int.max : outH * inH)
        _ = try generated(outW.multipliedReportingOverflow(by: inW).overflow ? Int.max : outW * inW)
        func matrix(_ outCount: Int, _ inCount: Int) -> [Float] {
            var m = [Float](repeating: 0, count: outCount * inCount)
            for i in 0..<outCount {
                let p = Self.gridPoint(i, count: outCount, size: inCount, mode: mode)
                let lo = Int(p.rounded(.down))
                let hi = min(lo + 1, inCount - 1)
                let f = Float(p - Double(lo))
                m[i * inCount + lo] += 1 - f
                m[i * inCount + hi] += f
            }
            return m
        }
        let ah = floatConstant(matrix(outH, inH), dims: [outH, inH])
        var aw = matrix(outW, inW)
        // Transposed: [inW, outW].
        var awt = [Float](repeating: 0, count: aw.count)
        for i in 0..<outW { for j in 0..<inW { awt[j * outW + i] = aw[i * inW + j] } }
        aw = awt
        let rows = node("MatMul", [ah, x])
        return node("MatMul", [rows, floatConstant(aw, dims: [inW, outW])])
    }

    /// ONNX Resize of the last two axes of `x` (rank ≥ 3) to `outH`×`outW` (known) or by scale factors.
    mutating func resizeNode(
        _ op: MILOperation, _ x: MILLowered, mode: String, coordinate: String,
        outH: Int?, outW: Int?, scaleH: Float, scaleW: Float
    ) throws -> String {
        let r = try rank(x)
        guard r >= 3 else { throw unsupported("rank \(r) input") }
        var name = try tensor(x, as: .float)
        var attributes: [ONNXWriter.Attribute] = [
            .init("mode", .string(mode)), .init("coordinate_transformation_mode", .string(coordinate)),
        ]
        if mode == "nearest" { attributes.append(.init("nearest_mode", .string("floor"))) }
        // ONNX Runtime's linear Resize wants 4-D NCHW: rank 3 gets a leading axis, rank > 4 is merged.
        let shape = info(x).shape
        var restore: [Int64]?
        if r == 3 {
            name = node("Unsqueeze", [name, int64Constant([0])])
        } else if r > 4 {
            guard let s = shape, let h = s[r - 2], let w = s[r - 1] else {
                throw unsupported("rank \(r) with unknown sizes")
            }
            name = node("Reshape", [name, int64Constant([-1, 1, Int64(h), Int64(w)])])
            guard let declared = outputType(op).shape, declared.allSatisfy({ $0 != nil }) else {
                throw unsupported("rank \(r) with an unknown output shape")
            }
            restore = declared.map { Int64($0!) }
        }
        let resized: String
        if let outH, let outW {
            // Known output size: `sizes` (the scale is then out/in, as MIL recomputes it).
            let sizes: String
            if r == 4, let s = shape, let n = s[0], let c = s[1] {
                sizes = int64Constant([Int64(n), Int64(c), Int64(outH), Int64(outW)])
            } else if r == 3, let s = shape, let c = s[0] {
                sizes = int64Constant([1, Int64(c), Int64(outH), Int64(outW)])
            } else if r > 4 {
                sizes = node(
                    "Concat",
                    [
                        node("Slice", [node("Shape", [name]), int64Constant([0]), int64Constant([2])]),
                        int64Constant([Int64(outH), Int64(outW)]),
                    ], [.init("axis", .int(0))])
            } else {
                let lead = node("Slice", [node("Shape", [name]), int64Constant([0]), int64Constant([2])])
                sizes = node("Concat", [lead, int64Constant([Int64(outH), Int64(outW)])], [.init("axis", .int(0))])
            }
            resized = node("Resize", [name, "", "", sizes], attributes)
        } else {
            resized = node("Resize", [name, "", floatConstant([1, 1, scaleH, scaleW], dims: [4])], attributes)
        }
        if r == 3 { return node("Squeeze", [resized, int64Constant([0])]) }
        if let restore { return node("Reshape", [resized, int64Constant(restore)]) }
        return resized
    }

    mutating func resize(_ op: MILOperation) throws {
        let x = try required(op, "x")
        let r = try rank(x)
        let declared = outputType(op).shape
        let outH = declared.flatMap { $0.count >= 2 ? $0[$0.count - 2] : nil } ?? nil
        let outW = declared.flatMap { $0.last } ?? nil
        let inShape = info(x).shape
        let inH = inShape.flatMap { $0.count >= 2 ? $0[$0.count - 2] : nil } ?? nil
        let inW = inShape.flatMap { $0.last } ?? nil
        var bilinear = true
        var sampling = "DEFAULT"
        var scaleH: Float = 1
        var scaleW: Float = 1
        var targetH = outH
        var targetW = outW
        switch op.type {
        case "upsample_nearest_neighbor":
            bilinear = false
            scaleH = try float(op, "scale_factor_height", default: 1)
            scaleW = try float(op, "scale_factor_width", default: 1)
        case "resize_nearest_neighbor":
            bilinear = false
            targetH = try int(op, "target_size_height")
            targetW = try int(op, "target_size_width")
        case "upsample_bilinear":
            scaleH = try float(op, "scale_factor_height", default: 1)
            scaleW = try float(op, "scale_factor_width", default: 1)
            let align = try bool(op, "align_corners", default: true)
            let halfPixel = try bool(op, "half_pixel_centers", default: !align)
            sampling = align ? "STRICT_ALIGN_CORNERS" : (halfPixel ? "UNALIGN_CORNERS" : "DEFAULT")
            if let inH, targetH == nil { targetH = Int(try integer((Float(inH) * scaleH).rounded(.down))) }
            if let inW, targetW == nil { targetW = Int(try integer((Float(inW) * scaleW).rounded(.down))) }
        case "resize_bilinear":
            targetH = try int(op, "target_size_height", default: 1)
            targetW = try int(op, "target_size_width", default: 1)
            sampling = try string(op, "sampling_mode", default: "DEFAULT")
        default:  // resize (iOS 17)
            guard let outH, outW != nil, r >= 2 else {
                throw unsupported("resize to a size unknown at conversion time")
            }
            let resizedDims = try int(op, "resized_dims")
            guard resizedDims <= 2, let inShape, inShape.count == r else {
                throw unsupported("resize of \(resizedDims) axes")
            }
            if resizedDims < 2 && inH != outH { throw unsupported("resize of \(resizedDims) axes") }
            let interpolation = try string(op, "interpolation_mode", default: "LINEAR")
            bilinear = interpolation == "LINEAR"
            sampling = try string(op, "sampling_mode", default: "DEFAULT")
            if !bilinear && sampling != "DEFAULT" {
                throw unsupported("nearest-neighbour resize with sampling mode \(sampling)")
            }
        }
        if !bilinear {
            let result = try resizeNode(
                op, x, mode: "nearest", coordinate: "asymmetric", outH: targetH, outW: targetW,
                scaleH: scaleH, scaleW: scaleW)
            return try define(op, 0, result)
        }
        let coordinate: String?
        switch sampling {
        case "STRICT_ALIGN_CORNERS": coordinate = "align_corners"
        case "ALIGN_CORNERS": coordinate = (targetH == 1 || targetW == 1) ? nil : "align_corners"
        case "UNALIGN_CORNERS": coordinate = "half_pixel"
        case "DEFAULT": coordinate = (targetH == 1 || targetW == 1) ? nil : "asymmetric"
        case "OFFSET_CORNERS": coordinate = nil
        default: throw unsupported("sampling mode '\(sampling)'")
        }
        if let coordinate {
            let result = try resizeNode(
                op, x, mode: "linear", coordinate: coordinate, outH: targetH, outW: targetW,
                scaleH: scaleH, scaleW: scaleW)
            return try define(op, 0, result)
        }
        guard let inH, let inW, let targetH, let targetW else {
            throw unsupported("sampling mode '\(sampling)' with unknown sizes")
        }
        try define(
            op, 0,
            try resizeByMatrices(
                try tensor(x, as: .float), inH: inH, inW: inW, outH: targetH, outW: targetW, mode: sampling))
    }

    /// `crop`: rows / columns cut from the last two axes.
    mutating func crop(_ op: MILOperation) throws {
        let x = try required(op, "x")
        guard let h = try ints(op, "crop_height"), let w = try ints(op, "crop_width"), h.count == 2, w.count == 2 else {
            throw invalid("crop_height and crop_width must be two constants each")
        }
        let ends = [h[1], w[1]].map { $0 == 0 ? Int64.max : -Int64($0) }
        try emitOutput(
            op, "Slice",
            [tensor(x), int64Constant([Int64(h[0]), Int64(w[0])]), int64Constant(ends), int64Constant([-2, -1])])
    }

    /// `crop_resize` in the ALIGN_CORNERS / STRICT_ALIGN_CORNERS sampling (TensorFlow's CropAndResize):
    /// each box sampled bilinearly on a target_height × target_width grid from its first to its last
    /// row / column; grid points outside the image take `pad_value`.
    mutating func cropResize(_ op: MILOperation) throws {
        let x = try required(op, "x")
        guard let xs = info(x).shape, xs.count == 4, let H = xs[2], let W = xs[3] else {
            throw unsupported("crop_resize needs an input of known height and width")
        }
        let th = try int(op, "target_height", default: 1)
        let tw = try int(op, "target_width", default: 1)
        guard th > 0, tw > 0, th <= 1 << 16, tw <= 1 << 16 else { throw invalid("target size \(th)×\(tw)") }
        let sampling = try string(op, "sampling_mode", default: "DEFAULT")
        guard sampling == "ALIGN_CORNERS" || sampling == "STRICT_ALIGN_CORNERS" else {
            throw unsupported("crop_resize sampling mode '\(sampling)'")
        }
        let normalized = try bool(op, "normalized_coordinates", default: false)
        let spatialScale = try float(op, "spatial_scale", default: 1)
        let coordinateMode = try string(op, "box_coordinate_mode", default: "CORNERS_HEIGHT_FIRST")
        let padValue = try float(op, "pad_value", default: 0)
        let iOS17 = op.inputs["boxes"] != nil
        // Boxes [N, 4] and image indices [N].
        var boxes: String
        var indices: String
        var n: Int?
        if iOS17 {
            let b = try required(op, "boxes")
            boxes = try tensor(b, as: .float)
            n = info(b).shape?.first ?? nil
            if let bi = try argument(op, "box_indices") {
                indices = try tensor(bi, as: .int64)
            } else {
                guard let n else { throw unsupported("crop_resize without box_indices and an unknown box count") }
                indices = int64Constant((0..<Int64(n)).map { $0 })
            }
        } else {
            let roi = try required(op, "roi")
            guard let rs = info(roi).shape, rs.count == 5, let width = rs[2], width == 4 || width == 5 else {
                throw unsupported("roi of shape \(info(roi).shape.map { "\($0)" } ?? "?")")
            }
            n = rs[0]
            let flat = node("Reshape", [try tensor(roi, as: .float), int64Constant([-1, Int64(width)])])
            if width == 5 {
                indices = node(
                    "Cast",
                    [
                        node(
                            "Squeeze",
                            [
                                node("Slice", [flat, int64Constant([0]), int64Constant([1]), int64Constant([1])]),
                                int64Constant([1]),
                            ])
                    ], [.init("to", .int(7))])
                boxes = node("Slice", [flat, int64Constant([1]), int64Constant([5]), int64Constant([1])])
            } else {
                guard let b = xs[0], b == 1 else { throw unsupported("4-value roi on a batch of more than one image") }
                boxes = flat
                guard let n else { throw unsupported("unknown box count") }
                indices = int64Constant([Int64](repeating: 0, count: n))
            }
        }
        func column(_ k: Int64) -> String {
            node("Slice", [boxes, int64Constant([k]), int64Constant([k + 1]), int64Constant([1])])  // [N, 1]
        }
        let c = (0..<4).map { column(Int64($0)) }
        var y1: String
        var x1: String
        var y2: String
        var x2: String
        switch coordinateMode {
        case "CORNERS_HEIGHT_FIRST": (y1, x1, y2, x2) = (c[0], c[1], c[2], c[3])
        case "CORNERS_WIDTH_FIRST": (x1, y1, x2, y2) = (c[0], c[1], c[2], c[3])
        case "CENTER_SIZE_HEIGHT_FIRST", "CENTER_SIZE_WIDTH_FIRST":
            let (yc, xc, h, w) =
                coordinateMode == "CENTER_SIZE_HEIGHT_FIRST" ? (c[0], c[1], c[2], c[3]) : (c[1], c[0], c[3], c[2])
            let hh = node("Mul", [h, scalar(0.5)])
            let hw = node("Mul", [w, scalar(0.5)])
            (y1, y2, x1, x2) = (
                node("Sub", [yc, hh]), node("Add", [yc, hh]), node("Sub", [xc, hw]), node("Add", [xc, hw])
            )
        default: throw unsupported("box_coordinate_mode '\(coordinateMode)'")
        }
        let scaleY = spatialScale * (normalized ? Float(H - 1) : 1)
        let scaleX = spatialScale * (normalized ? Float(W - 1) : 1)
        if scaleY != 1 {
            y1 = node("Mul", [y1, scalar(scaleY)])
            y2 = node("Mul", [y2, scalar(scaleY)])
        }
        if scaleX != 1 {
            x1 = node("Mul", [x1, scalar(scaleX)])
            x2 = node("Mul", [x2, scalar(scaleX)])
        }
        // Sample positions: [N, th] rows and [N, tw] columns in pixels.
        func steps(_ count: Int) -> [Float] {
            count == 1 ? [sampling == "ALIGN_CORNERS" ? 0.5 : 0] : (0..<count).map { Float($0) / Float(count - 1) }
        }
        let ys = node("Add", [y1, node("Mul", [node("Sub", [y2, y1]), floatConstant(steps(th), dims: [1, th])])])
        let xsPix = node("Add", [x1, node("Mul", [node("Sub", [x2, x1]), floatConstant(steps(tw), dims: [1, tw])])])
        // GridSample's normalized coordinates (align_corners: −1 is the first pixel, 1 the last).
        func normalize(_ v: String, _ size: Int) -> String {
            size > 1
                ? node("Sub", [node("Mul", [v, scalar(2 / Float(size - 1))]), scalar(1)]) : node("Mul", [v, scalar(0)])
        }
        let gy = node("Unsqueeze", [normalize(ys, H), int64Constant([2, 3])])  // [N, th, 1, 1]
        let gx = node("Unsqueeze", [normalize(xsPix, W), int64Constant([1, 3])])  // [N, 1, tw, 1]
        let gridShape = node(
            "Concat",
            [
                node("Slice", [node("Shape", [gy]), int64Constant([0]), int64Constant([1])]),
                int64Constant([Int64(th), Int64(tw), 1]),
            ], [.init("axis", .int(0))])
        let grid = node(
            "Concat", [node("Expand", [gx, gridShape]), node("Expand", [gy, gridShape])], [.init("axis", .int(3))])
        let images = node("Gather", [try tensor(x, as: .float), indices], [.init("axis", .int(0))])
        let sampled = node(
            "GridSample", [images, grid],
            [
                .init("mode", .string("bilinear")), .init("padding_mode", .string("border")),
                .init("align_corners", .int(1)),
            ])
        // Points outside the image take pad_value.
        func inside(_ v: String, _ size: Int) -> String {
            node("And", [node("GreaterOrEqual", [v, scalar(0)]), node("LessOrEqual", [v, scalar(Float(size - 1))])])
        }
        let insideY = node("Unsqueeze", [inside(ys, H), int64Constant([1, 3])])  // [N, 1, th, 1]
        let insideX = node("Unsqueeze", [inside(xsPix, W), int64Constant([1, 2])])  // [N, 1, 1, tw]
        var result = node("Where", [node("And", [insideY, insideX]), sampled, scalar(padValue)])
        if !iOS17 { result = node("Unsqueeze", [result, int64Constant([1])]) }
        try define(op, 0, result)
    }
}
