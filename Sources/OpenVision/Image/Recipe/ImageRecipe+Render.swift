internal import CNative
import Foundation

extension ImageRecipe {
    /// Evaluates the recipe over `rect` (outward-rounded to whole pixels) into pixels of `format`, first row at the
    /// top: 8-bit values rounded and clamped; `premultiplied` false divides colour by alpha in the 4-channel
    /// formats; formats without alpha get the colour over black; `gray8` takes the red channel. Outside the extent
    /// the pixels are transparent. Throws `invalidArgument` for an empty or unbounded rect or for `nv12`,
    /// `imageTooLarge` when `rect` or an intermediate step needs more than `maximumPixelCount` pixels.
    public func render(
        in rect: CGRect, format: PixelFormat = .rgba8, premultiplied: Bool = true,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount
    ) throws(VisionError) -> PixelBuffer {
        try renderReporting(
            in: rect, format: format, premultiplied: premultiplied,
            maximumPixelCount: maximumPixelCount
        ).pixels
    }

    /// `render(in:format:premultiplied:maximumPixelCount:)`, with the native passes it ran (one line each: the
    /// fused resamplings with how many operations each carried, colour matrices, blurs, …; nothing is computed
    /// twice or ahead). For tests and benchmarks.
    package func renderReporting(
        in rect: CGRect, format: PixelFormat = .rgba8, premultiplied: Bool = true,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount
    )
        throws(VisionError) -> (pixels: PixelBuffer, passes: [String])
    {
        let region = try Self.region(rect, maximumPixelCount: maximumPixelCount)
        let nativeFormat: ov_layer_pixels_format =
            switch format {
            case .rgb8: OV_LAYER_PIXELS_RGB8
            case .bgr8: OV_LAYER_PIXELS_BGR8
            case .rgba8: OV_LAYER_PIXELS_RGBA8
            case .bgra8: OV_LAYER_PIXELS_BGRA8
            case .argb8: OV_LAYER_PIXELS_ARGB8
            case .gray8: OV_LAYER_PIXELS_GRAY8
            case .nv12:
                throw VisionError(.invalidArgument, "recipes render to RGB, BGR, RGBA, BGRA or gray pixels, not NV12")
            }
        let renderer = RecipeRenderer(maximumPixelCount: maximumPixelCount)
        let layer = try renderer.run(renderer.plan(renderer.step(for: node), rect: region))
        let bytesPerRow = region.width * format.bytesPerPixel
        var data = Data(count: bytesPerRow * region.height)
        if let layer {
            let status = data.withUnsafeMutableBytes {
                ov_layer_export(
                    layer.handle, region.native, $0.baseAddress, bytesPerRow, Int32(nativeFormat.rawValue),
                    premultiplied ? 1 : 0)
            }
            try NativeError.check(status, "export rendered pixels")
        }
        let pixels = PixelBuffer(
            data: data, width: region.width, height: region.height, format: format,
            bytesPerRow: bytesPerRow)
        return (pixels, renderer.passes)
    }

    /// Evaluates the recipe over `rect` (default: the extent, which must then be bounded) as an opaque image: the
    /// colour over black, alpha dropped. When the result is a source image's own pixels (an unfiltered image, a
    /// whole-pixel crop of one) they are shared, not copied. Errors as `render(in:format:premultiplied:maximumPixelCount:)`.
    public func renderedImage(
        in rect: CGRect? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount
    ) throws(VisionError) -> VisionImage {
        try renderedImageReporting(in: rect, maximumPixelCount: maximumPixelCount).image
    }

    /// `renderedImage(in:maximumPixelCount:)` with the native passes it ran, and whether the image shares the pixels
    /// of a source image (no copy). For tests and benchmarks.
    package func renderedImageReporting(
        in rect: CGRect? = nil,
        maximumPixelCount: Int = VisionImage.defaultMaximumPixelCount
    )
        throws(VisionError) -> (image: VisionImage, passes: [String], sharesSource: Bool)
    {
        let region = try Self.region(rect ?? extent, maximumPixelCount: maximumPixelCount)
        if case .image(let image) = node.operation,
            region == PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        {
            return (image, [], true)
        }
        let renderer = RecipeRenderer(maximumPixelCount: maximumPixelCount)
        let layer = try renderer.run(renderer.plan(renderer.step(for: node), rect: region))
        var out: OpaquePointer?
        if let layer {
            try NativeError.check(ov_layer_to_image(layer.handle, region.native, &out), "rendered image")
        } else {
            try NativeError.check(
                ov_image_create_filled(Int32(region.width), Int32(region.height), 0, 0, 0, &out),
                "rendered image")
        }
        let image = VisionImage(owning: out!)
        let shares = layer.map { layer in sourceImages.contains { layer.sharesPixels(with: $0) } } ?? false
        return (image, renderer.passes, shares)
    }

    /// The source images the recipe reads.
    var sourceImages: [VisionImage] {
        var found: [VisionImage] = []
        var seen = Set<ObjectIdentifier>()
        func walk(_ n: RecipeNode) {
            guard seen.insert(ObjectIdentifier(n)).inserted else { return }
            switch n.operation {
            case .image(let image): found.append(image)
            case .pixels, .color: break
            case .transform(let a, _, _), .crop(let a, _, _), .clamp(let a), .colorMatrix(let a, _, _),
                .gaussianBlur(let a, _), .lanczos(let a, _, _):
                walk(a)
            case .sourceOver(let a, let b):
                walk(a)
                walk(b)
            case .blend(let a, let b, let m, _):
                walk(a)
                b.map(walk)
                walk(m)
            case .pixelFunction(_, let inputs):
                inputs.forEach(walk)
            }
        }
        walk(node)
        return found
    }

    /// `rect` as whole pixels, checked: bounded, not empty, within `maximumPixelCount`.
    private static func region(_ rect: CGRect, maximumPixelCount: Int) throws(VisionError) -> PixelRect {
        guard !rect.isNull, !rect.isInfinite, rect.minX.isFinite, rect.minY.isFinite, rect.width.isFinite,
            rect.height.isFinite
        else {
            throw VisionError(
                .invalidArgument, "cannot render an unbounded or null region \(rect); crop the image first")
        }
        let bound = CGFloat(PixelRect.bound / 2)
        guard abs(rect.minX) < bound, abs(rect.minY) < bound, rect.width < bound, rect.height < bound else {
            throw VisionError(.invalidArgument, "the region \(rect) lies too far out on the plane")
        }
        let region = PixelRect(covering: rect)
        guard !region.isEmpty else { throw VisionError(.invalidArgument, "the region \(rect) is empty") }
        guard region.pixelCount <= maximumPixelCount else {
            throw VisionError(
                .imageTooLarge,
                "the region \(region) has \(region.pixelCount) pixels, more than the limit "
                    + "of \(maximumPixelCount)")
        }
        return region
    }
}
