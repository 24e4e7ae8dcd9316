internal import CNative
import Foundation

/// Evaluates a recipe once: each chain of transforms and crops above a source becomes one resampling (one native
/// warp, or a view), every other operation one step; each step's region of interest is the union of what its
/// consumers read; steps then run once each, inputs first, and a step's pixels are dropped when its last consumer
/// has read them.
final class RecipeRenderer {
    /// A fused chain of transforms and crops: sample the base through `inverse` (output plane → base plane).
    struct Resampling {
        var inverse: Matrix3x3
        /// The base is only its part inside this rectangle (in the base's plane; a crop just above a source).
        var inputCrop: PixelRect?
        /// The base's edges repeat outward (a clamp).
        var clamp: Bool
        /// Output pixels outside this rectangle are transparent (crops on the output's pixel grid).
        var clip: PixelRect?
        /// How many recipe operations (transforms, crops, clamps) this one resampling carries out.
        var operations: Int
    }

    /// One materialisation: a native call making a layer.
    final class Step {
        enum Work {
            case sampleImage(VisionImage, Resampling)
            case samplePixels(RawPixels, ImageRecipe.Alpha, Resampling)
            case fill(RGBAColor, clip: PixelRect?)
            case sampleStep(Step, Resampling)
            case colorMatrix(Step, ColorMatrix, Int)
            case blur(Step, Double)
            case lanczos(Step, Double, Double)
            case sourceOver(Step, Step)
            case blend(Step, Step?, Step, ImageRecipe.MaskChannel)
            case pixelFunction(PixelFunction, [Step])
        }

        let work: Work
        /// The pixels the step may make: its node's extent, outward-rounded (bounded).
        let extent: PixelRect
        var roi: PixelRect?
        var consumers = 0
        var layer: NativeLayer?

        init(_ work: Work, extent: PixelRect) {
            self.work = work
            self.extent = extent
        }

        var inputs: [Step] {
            switch work {
            case .sampleImage, .samplePixels, .fill: []
            case .sampleStep(let s, _), .colorMatrix(let s, _, _), .blur(let s, _), .lanczos(let s, _, _): [s]
            case .sourceOver(let a, let b): [a, b]
            case .blend(let a, let b, let m, _): [a] + (b.map { [$0] } ?? []) + [m]
            case .pixelFunction(_, let inputs): inputs
            }
        }
    }

    private var steps: [ObjectIdentifier: Step] = [:]
    /// What ran, one line per native pass (render reports and tests).
    private(set) var passes: [String] = []
    private let maximumPixelCount: Int

    init(maximumPixelCount: Int) { self.maximumPixelCount = maximumPixelCount }

    // MARK: Planning

    func step(for node: RecipeNode) -> Step {
        let key = ObjectIdentifier(node)
        if let known = steps[key] { return known }
        let extent = PixelRect(covering: node.extent)
        let made: Step
        switch node.operation {
        case .image, .pixels, .color, .transform, .crop, .clamp:
            made = resamplingStep(node)
        case .colorMatrix(let input, let matrix, let count):
            made = Step(.colorMatrix(step(for: input), matrix, count), extent: extent)
        case .gaussianBlur(let input, let sigma):
            made = Step(.blur(step(for: input), sigma), extent: extent)
        case .lanczos(let input, let sx, let sy):
            made = Step(.lanczos(step(for: input), sx, sy), extent: extent)
        case .sourceOver(let a, let b):
            made = Step(.sourceOver(step(for: a), step(for: b)), extent: extent)
        case .blend(let a, let b, let mask, let channel):
            made = Step(.blend(step(for: a), b.map(step(for:)), step(for: mask), channel), extent: extent)
        case .pixelFunction(let function, let inputs):
            made = Step(.pixelFunction(function, inputs.map(step(for:))), extent: extent)
        }
        steps[key] = made
        return made
    }

    /// Walks down from `top` through transforms and crops, composing them, to what is sampled.
    private func resamplingStep(_ top: RecipeNode) -> Step {
        let extent = PixelRect(covering: top.extent)
        var forward = Matrix3x3.identity  // the current node's plane → the output plane
        var onGrid = true  // `forward` maps pixels onto pixels
        var clip: PixelRect?
        var inputCrop: PixelRect?
        var operations = 0
        var node = top
        func resampling(clamp: Bool) -> Resampling {
            Resampling(
                inverse: forward.inverse ?? .identity, inputCrop: inputCrop, clamp: clamp, clip: clip,
                operations: operations)
        }
        while true {
            switch node.operation {
            case .transform(let input, let matrix, let count):
                forward = forward * matrix
                onGrid = onGrid && matrix.preservesPixelGrid
                operations += count
                node = input
                continue
            case .crop(let input, let rect, let count):
                if onGrid {
                    // On the output's grid a crop is a clip of the output pixels.
                    let mapped = PixelRect(centresIn: forward.boundingBox(of: rect))
                    clip = clip.map { $0.intersection(mapped) } ?? mapped
                    operations += count
                    node = input
                    continue
                }
                switch input.operation {
                case .image, .pixels:
                    // Just above a source, a crop is a view of part of it.
                    inputCrop = PixelRect(centresIn: rect)
                    operations += count
                    node = input
                    continue
                default:
                    break
                }
            case .clamp(let input):
                operations += 1
                switch input.operation {
                case .image(let image):
                    return Step(.sampleImage(image, resampling(clamp: true)), extent: extent)
                case .pixels(let raw, let alpha):
                    return Step(.samplePixels(raw, alpha, resampling(clamp: true)), extent: extent)
                case .crop(let source, let rect, let count) where source.isSource:
                    inputCrop = PixelRect(centresIn: rect)
                    operations += count
                    switch source.operation {
                    case .image(let image): return Step(.sampleImage(image, resampling(clamp: true)), extent: extent)
                    case .pixels(let raw, let alpha):
                        return Step(.samplePixels(raw, alpha, resampling(clamp: true)), extent: extent)
                    default: break
                    }
                default:
                    break
                }
                return Step(.sampleStep(step(for: input), resampling(clamp: true)), extent: extent)
            case .image(let image):
                return Step(.sampleImage(image, resampling(clamp: false)), extent: extent)
            case .pixels(let raw, let alpha):
                return Step(.samplePixels(raw, alpha, resampling(clamp: false)), extent: extent)
            case .color(let color):
                // Every transform of an unbounded colour is the same colour (the only bounded one is the empty image).
                return Step(.fill(color, clip: clip), extent: extent)
            default:
                break
            }
            // Anything else is made on its own and then resampled (or used as it is). `top` itself always fuses: it
            // is a transform, a crop on the output's grid, a clamp, a source or a colour.
            return Step(.sampleStep(step(for: node), resampling(clamp: false)), extent: extent)
        }
    }

    /// Orders the steps under `root` inputs first, counts each one's consumers, and gives each the union of the
    /// regions its consumers read, starting from `rect` at the root.
    func plan(_ root: Step, rect: PixelRect) -> [Step] {
        var order: [Step] = []
        var seen = Set<ObjectIdentifier>()
        func visit(_ s: Step) {
            guard seen.insert(ObjectIdentifier(s)).inserted else { return }
            for input in s.inputs { visit(input) }
            order.append(s)
        }
        visit(root)
        for s in order { for input in s.inputs { input.consumers += 1 } }
        root.roi = rect
        for s in order.reversed() {
            guard let roi = s.roi?.intersection(s.extent), !roi.isEmpty else { continue }
            for (input, needed) in Self.inputRegions(of: s, roi: roi) {
                let part = needed.isEmpty ? needed : needed.intersection(input.extent)
                guard !part.isEmpty else { continue }
                input.roi = input.roi.map { $0.union(part) } ?? part
            }
        }
        return order
    }

    /// What each input of `step` must provide for the step to make `roi`.
    private static func inputRegions(of step: Step, roi: PixelRect) -> [(Step, PixelRect)] {
        switch step.work {
        case .sampleImage, .samplePixels, .fill:
            return []
        case .sampleStep(let input, let r):
            let visible = r.clip.map { roi.intersection($0) } ?? roi
            guard !visible.isEmpty else { return [] }
            var needed = sampledRegion(of: visible, inverse: r.inverse) ?? input.extent
            if let crop = r.inputCrop { needed = needed.intersection(crop) }
            if r.clamp { needed = needed.projected(into: input.extent) }
            return [(input, needed)]
        case .colorMatrix(let input, _, _):
            return [(input, roi)]
        case .blur(let input, let sigma):
            return [(input, roi.insetBy(-Int((3 * sigma).rounded(.up))))]
        case .lanczos(let input, let sx, let sy):
            let mx = Int((3 * max(1, 1 / sx)).rounded(.up)) + 2
            let my = Int((3 * max(1, 1 / sy)).rounded(.up)) + 2
            let x0 = Int((Double(roi.x) / sx).rounded(.down)) - mx
            let x1 = Int((Double(roi.maxX) / sx).rounded(.up)) + mx
            let y0 = Int((Double(roi.y) / sy).rounded(.down)) - my
            let y1 = Int((Double(roi.maxY) / sy).rounded(.up)) + my
            return [(input, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))]
        case .sourceOver(let a, let b):
            return [(a, roi), (b, roi)]
        case .blend(let a, let b, let mask, _):
            return [(a, roi), (mask, roi)] + (b.map { [($0, roi)] } ?? [])
        case .pixelFunction(_, let inputs):
            // A pixel reads the inputs' pixels at the same place only.
            return inputs.map { ($0, roi) }
        }
    }

    /// The input pixels a resampling of `roi` through `inverse` reads (with two pixels to spare for the
    /// interpolation), or nil when part of `roi` maps to infinity.
    private static func sampledRegion(of roi: PixelRect, inverse: Matrix3x3) -> PixelRect? {
        let box = inverse.boundingBox(of: roi.cgRect)
        guard !box.isInfinite, !box.isNull else { return nil }
        // A whole-pixel move reads exactly the pixels it moves.
        return PixelRect(covering: box).insetBy(inverse.isWholePixelTranslation ? 0 : -2)
    }

    // MARK: Running

    /// Runs every step of `order` (from `plan`) once and returns the root's layer (nil: nothing in the region).
    func run(_ order: [Step]) throws(VisionError) -> NativeLayer? {
        var remaining = Dictionary(uniqueKeysWithValues: order.map { (ObjectIdentifier($0), $0.consumers) })
        for s in order {
            s.layer = try make(s)
            for input in s.inputs {
                let key = ObjectIdentifier(input)
                remaining[key, default: 1] -= 1
                if remaining[key] == 0 { input.layer = nil }
            }
        }
        return order.last?.layer
    }

    private func make(_ step: Step) throws(VisionError) -> NativeLayer? {
        guard let roi = step.roi?.intersection(step.extent), !roi.isEmpty else { return nil }
        guard roi.pixelCount <= maximumPixelCount else {
            throw VisionError(
                .imageTooLarge,
                "rendering needs \(roi) (\(roi.pixelCount) pixels), more than the limit "
                    + "of \(maximumPixelCount); render a smaller region or raise maximumPixelCount")
        }
        var out: OpaquePointer?
        let status: ov_status
        let what: String
        switch step.work {
        case .sampleImage(let image, let r):
            var s = Self.sampling(r, rect: roi)
            status = ov_layer_sample_image(image.handle, &s, &out)
            what = "resample image \(roi.size) (\(r.operations) operations)"
        case .samplePixels(let raw, let alpha, let r):
            var s = Self.sampling(r, rect: roi)
            status = raw.data.withUnsafeBytes { bytes in
                var pixels = ov_layer_pixels(
                    data: bytes.baseAddress, width: Int32(raw.width), height: Int32(raw.height),
                    stride: raw.bytesPerRow, format: raw.nativeFormat, alpha: alpha.native)
                return ov_layer_sample_pixels(&pixels, &s, &out)
            }
            what = "resample pixels \(roi.size) (\(r.operations) operations)"
        case .fill(let color, let clip):
            if var rect = clip?.native {
                status = ov_layer_fill(color.premultiplied, roi.native, &rect, &out)
            } else {
                status = ov_layer_fill(color.premultiplied, roi.native, nil, &out)
            }
            what = "fill \(roi.size)"
        case .sampleStep(let input, let r):
            guard let layer = input.layer else { return nil }
            // A crop of a step's pixels (no transform, or none left after composing) that they already fit in
            // costs nothing: the layer is used as it is.
            if r.inverse.isIdentity, !r.clamp, r.inputCrop == nil, layer.rect.intersection(roi) == layer.rect,
                r.clip.map({ layer.rect.intersection($0) == layer.rect }) ?? true
            {
                return try layer.shared()
            }
            var s = Self.sampling(r, rect: roi)
            status = ov_layer_sample_layer(layer.handle, &s, &out)
            what = "resample \(roi.size) (\(r.operations) operations)"
        case .colorMatrix(let input, let matrix, let count):
            guard let layer = input.layer else { return nil }
            // In place when this step is the input's only consumer; else on a second handle (copied on write).
            let target = input.consumers > 1 ? try layer.shared() : layer
            try NativeError.check(ov_layer_apply_color_matrix(target.handle, matrix.rowMajor, 1), "colour matrix")
            passes.append("color matrix \(target.rect.size) (\(count) operations)")
            return target
        case .blur(let input, let sigma):
            guard let layer = input.layer else { return nil }
            // The blur reads the region within 3 sigma of both the output and the input's pixels.
            let radius = Int((3 * sigma).rounded(.up))
            let read = roi.insetBy(-radius).intersection(layer.rect.insetBy(-radius))
            guard read.pixelCount <= maximumPixelCount else {
                throw VisionError(
                    .imageTooLarge,
                    "a Gaussian blur of sigma \(sigma) over \(roi) reads \(read.pixelCount) "
                        + "pixels, more than the limit of \(maximumPixelCount)")
            }
            status = ov_layer_gaussian_blur(layer.handle, sigma, roi.native, &out)
            what = "gaussian blur \(roi.size)"
        case .lanczos(let input, let sx, let sy):
            guard let layer = input.layer else { return nil }
            status = ov_layer_lanczos_scale(layer.handle, sx, sy, roi.native, &out)
            what = "lanczos scale \(roi.size)"
        case .sourceOver(let a, let b):
            guard let fg = a.layer else { return try b.layer?.shared() }
            guard let bg = b.layer else { return try fg.shared() }
            status = ov_layer_source_over(fg.handle, bg.handle, roi.native, &out)
            what = "source over \(roi.size)"
        case .blend(let a, let b, let m, let channel):
            guard let mask = m.layer else { return try b?.layer?.shared() }
            status = ov_layer_blend_with_mask(
                a.layer?.handle, b?.layer?.handle, mask.handle, Int32(channel.rawValue),
                roi.native, &out)
            what = "blend with mask \(roi.size)"
        case .pixelFunction(let function, let inputs):
            return try runPixelFunction(function, inputs: inputs, roi: roi)
        }
        try NativeError.check(status, what)
        passes.append(what)
        return NativeLayer(owning: out!)
    }

    /// Runs a per-pixel function over `roi`: each input's pixels there as float RGBA (transparent where it has
    /// none), the function on blocks of them, its results as a float layer.
    private func runPixelFunction(_ function: PixelFunction, inputs: [Step], roi: PixelRect) throws(VisionError)
        -> NativeLayer
    {
        let count = roi.pixelCount * 4
        var planes: [[Float]] = []
        for input in inputs {
            var values = [Float](repeating: 0, count: count)
            if let layer = input.layer {
                let status = values.withUnsafeMutableBytes {
                    ov_layer_export(
                        layer.handle, roi.native, $0.baseAddress, roi.width * 16,
                        Int32(OV_LAYER_PIXELS_RGBAF32.rawValue), 1)
                }
                try NativeError.check(status, "read pixels for \(function.name)")
            }
            planes.append(values)
        }
        var output = [Float](repeating: 0, count: count)
        function.run(inputs: planes, rect: roi, into: &output)
        var out: OpaquePointer?
        let status = output.withUnsafeBufferPointer {
            ov_layer_create_rgbaf($0.baseAddress, roi.width * 16, roi.native, &out)
        }
        try NativeError.check(status, "pixel function \(function.name)")
        passes.append("pixel function \(function.name) \(roi.size)")
        return NativeLayer(owning: out!)
    }

    private static func sampling(_ r: Resampling, rect: PixelRect) -> ov_layer_sampling {
        var s = ov_layer_sampling()
        let m = r.inverse.rowMajor
        withUnsafeMutableBytes(of: &s.inverse) { raw in
            let d = raw.bindMemory(to: Double.self)
            for i in 0..<9 { d[i] = m[i] }
        }
        if let crop = r.inputCrop {
            s.has_input_crop = 1
            s.input_crop = crop.native
        }
        s.edge = Int32(r.clamp ? OV_EDGE_CLAMP : OV_EDGE_TRANSPARENT)
        s.interpolation = Int32(OV_SAMPLE_LINEAR)
        s.rect = rect.native
        if let clip = r.clip {
            s.has_clip = 1
            s.clip = clip.native
        }
        return s
    }
}

extension RecipeNode {
    /// An image or raw pixels: what a chain of transforms bottoms out in.
    var isSource: Bool {
        switch operation {
        case .image, .pixels: true
        default: false
        }
    }
}

extension RawPixels {
    var nativeFormat: Int32 {
        let format: ov_layer_pixels_format =
            switch layout {
            case .grayFloat32: OV_LAYER_PIXELS_GRAYF32
            case .pixelFormat(.rgb8): OV_LAYER_PIXELS_RGB8
            case .pixelFormat(.bgr8): OV_LAYER_PIXELS_BGR8
            case .pixelFormat(.rgba8): OV_LAYER_PIXELS_RGBA8
            case .pixelFormat(.bgra8): OV_LAYER_PIXELS_BGRA8
            case .pixelFormat(.argb8): OV_LAYER_PIXELS_ARGB8
            case .pixelFormat(.gray8): OV_LAYER_PIXELS_GRAY8
            case .pixelFormat(.nv12): OV_LAYER_PIXELS_NV12
            }
        return Int32(format.rawValue)
    }
}

extension ImageRecipe.Alpha {
    var native: Int32 {
        switch self {
        case .premultiplied: Int32(OV_ALPHA_PREMULTIPLIED)
        case .straight: Int32(OV_ALPHA_STRAIGHT)
        case .ignored: Int32(OV_ALPHA_IGNORED)
        }
    }
}
