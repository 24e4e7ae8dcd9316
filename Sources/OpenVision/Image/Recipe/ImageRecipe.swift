import Foundation

/// A lazily evaluated image: a recipe of operations on source images, on an unbounded plane whose origin is
/// lower-left with y up, in pixels (Core Image's working space; Vision's orientation of coordinates). Building one
/// computes nothing and copies no pixels; `render(in:format:premultiplied:maximumPixelCount:)` evaluates it once,
/// fusing each chain of transforms and crops into a single resampling and running every other step once.
///
/// Pixels are premultiplied RGBA in the sources' own encoding (sRGB values as stored, no linearisation); outside its
/// `extent` an image is transparent. Values and sendability: recipes are immutable and safe to share between tasks.
public struct ImageRecipe: Sendable {
    let node: RecipeNode

    init(_ node: RecipeNode) { self.node = node }

    /// The part of the plane where the image may be non-transparent: `CGRect.infinite` for an image without bounds
    /// (a constant colour, a clamped image), `CGRect.null` for the empty image.
    public var extent: CGRect { node.extent }

    /// What the fourth channel of raw pixels (`rgba8`, `bgra8`) means.
    public enum Alpha: Sendable, Hashable {
        /// Alpha, with the colour already multiplied by it (Core Image's and Core Video's 32-bit layouts).
        case premultiplied
        /// Alpha, with the colour not multiplied by it.
        case straight
        /// Not alpha: the pixels are opaque.
        case ignored
    }

    /// Which channel of a mask image weighs a blend (`blended(with:background:maskChannel:)`).
    public enum MaskChannel: Int, Sendable, Hashable {
        /// The red channel (Core Image's `CIBlendWithRedMask`).
        case red = 0
        /// The green channel (Core Image's `CIBlendWithMask`; for a gray mask, its gray value).
        case green = 1
        /// The blue channel.
        case blue = 2
        /// The alpha channel (Core Image's `CIBlendWithAlphaMask`).
        case alpha = 3
    }

    // MARK: Sources

    /// The image's pixels at (0, 0, width, height), its top row at the top; opaque. No copy is made.
    public init(image: VisionImage) {
        self.init(RecipeNode(.image(image), extent: CGRect(x: 0, y: 0, width: image.width, height: image.height)))
    }

    /// Raw pixels at (0, 0, width, height), first row at the top. The bytes are shared (no copy) and read when the
    /// recipe renders. Throws `invalidArgument` for an empty size or a buffer too short for its layout.
    public init(pixels: PixelBuffer, alpha: Alpha = .premultiplied) throws(VisionError) {
        guard pixels.width > 0, pixels.height > 0 else {
            throw VisionError(.invalidArgument, "pixel buffer size \(pixels.width)×\(pixels.height) is empty")
        }
        guard pixels.width.multipliedReportingOverflow(by: pixels.height).overflow == false,
            pixels.bytesPerRow >= pixels.width * pixels.format.bytesPerPixel,
            pixels.data.count >= pixels.requiredByteCount
        else {
            throw VisionError(
                .invalidArgument,
                "pixel buffer of \(pixels.width)×\(pixels.height) \(pixels.format) with "
                    + "\(pixels.bytesPerRow) bytes per row does not fit its \(pixels.data.count) bytes")
        }
        if pixels.format == .nv12, pixels.width % 2 != 0 || pixels.height % 2 != 0 {
            throw VisionError(
                .invalidArgument, "NV12 pixels need an even width and height, not \(pixels.width)×\(pixels.height)")
        }
        let source = RecipeNode.Operation.pixels(RawPixels(pixels), alpha)
        self.init(RecipeNode(source, extent: CGRect(x: 0, y: 0, width: pixels.width, height: pixels.height)))
    }

    /// One gray float value per pixel (row after row, first row at the top) at (0, 0, width, height): gray,
    /// opaque, values as given (a saliency map, a depth or segmentation mask). Throws `invalidArgument` when the
    /// count is not `width × height`.
    public init(grayValues: [Float], width: Int, height: Int) throws(VisionError) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow == false,
            grayValues.count == width * height
        else {
            throw VisionError(
                .invalidArgument, "\(grayValues.count) gray values do not make a \(width)×\(height) image")
        }
        let data = grayValues.withUnsafeBytes { Data($0) }
        let raw = RawPixels(data: data, width: width, height: height, bytesPerRow: width * 4, layout: .grayFloat32)
        self.init(RecipeNode(.pixels(raw, .ignored), extent: CGRect(x: 0, y: 0, width: width, height: height)))
    }

    /// A colour everywhere on the plane (an infinite extent; crop it to use it as a picture).
    public init(color: RGBAColor) {
        self.init(RecipeNode(.color(color), extent: .infinite))
    }

    /// The image `function` computes, pixel by pixel, from the pixels of `inputs` at the same place (each input
    /// transparent outside its extent), over `extent` (outside it the image is transparent; an infinite extent is
    /// allowed, the function then runs over whatever region is rendered). Nothing runs until the recipe renders.
    public init(pixelFunction function: PixelFunction, inputs: [ImageRecipe], extent: CGRect) {
        if extent.isNull || extent.isEmpty {
            self = .empty
            return
        }
        self.init(RecipeNode(.pixelFunction(function, inputs.map(\.node)), extent: extent))
    }

    /// The image with nothing in it (a null extent).
    public static let empty = ImageRecipe(RecipeNode(.color(.clear), extent: .null))
}

extension ImageRecipe {
    // MARK: Geometry

    /// The image moved by the homography `matrix` (a point of this image at p lands at `matrix · p`, plane
    /// coordinates). Successive transforms compose into one, so a chain costs one resampling (bilinear, the image
    /// transparent outside its extent).
    public func transformed(by matrix: Matrix3x3) -> ImageRecipe {
        if matrix == .identity || node.extent.isNull { return self }
        if case .transform(let input, let inner, let count) = node.operation {
            let combined = matrix * inner
            if combined.isIdentity { return ImageRecipe(input) }
            return ImageRecipe(
                RecipeNode(
                    .transform(input, combined, count + 1),
                    extent: combined.boundingBox(of: input.extent)))
        }
        return ImageRecipe(RecipeNode(.transform(node, matrix, 1), extent: matrix.boundingBox(of: node.extent)))
    }

    /// The image turned upright from `orientation`, as `VisionImage.oriented(_:)` turns pixels, keeping the extent's
    /// lower-left corner where it is (an exact pixel permutation: no resampling blur).
    public func oriented(_ orientation: ImageOrientation) -> ImageRecipe {
        guard !node.extent.isInfinite, !node.extent.isNull else { return self }
        return transformed(by: Self.orientationTransform(orientation, extent: node.extent))
    }

    /// The plane transform `oriented(_:)` applies to an image of `extent`.
    public static func orientationTransform(_ orientation: ImageOrientation, extent: CGRect) -> Matrix3x3 {
        let w = Double(extent.width)
        let h = Double(extent.height)
        let o: [Double] =
            switch orientation {
            case .up: [1, 0, 0, 0, 1, 0]
            case .upMirrored: [-1, 0, w, 0, 1, 0]
            case .down: [-1, 0, w, 0, -1, h]
            case .downMirrored: [1, 0, 0, 0, -1, h]
            case .leftMirrored: [0, -1, h, -1, 0, w]
            case .right: [0, 1, 0, -1, 0, w]
            case .rightMirrored: [0, 1, 0, 1, 0, 0]
            case .left: [0, -1, h, 1, 0, 0]
            }
        let x = Double(extent.minX)
        let y = Double(extent.minY)
        let toOrigin = Matrix3x3(rowMajor: [1, 0, -x, 0, 1, -y, 0, 0, 1])
        let back = Matrix3x3(rowMajor: [1, 0, x, 0, 1, y, 0, 0, 1])
        return back * Matrix3x3(rowMajor: o + [0, 0, 1]) * toOrigin
    }

    /// The image inside `rect` only (transparent elsewhere; pixels whose centres lie inside `rect`). A crop fuses
    /// with the transforms around it.
    public func cropped(to rect: CGRect) -> ImageRecipe {
        let extent = node.extent.intersection(rect)
        if extent.isNull || extent.isEmpty { return .empty }
        if node.extent == extent, !extent.isInfinite { return self }
        if case .crop(let input, let inner, let count) = node.operation {
            return ImageRecipe(RecipeNode(.crop(input, inner.intersection(rect), count + 1), extent: extent))
        }
        return ImageRecipe(RecipeNode(.crop(node, rect, 1), extent: extent))
    }

    /// The image with its edge pixels repeated outward without end (an infinite extent). An image already
    /// unbounded is returned as it is.
    public func clampedToExtent() -> ImageRecipe {
        if node.extent.isInfinite || node.extent.isNull { return self }
        return ImageRecipe(RecipeNode(.clamp(node), extent: .infinite))
    }

    /// Maps this image's corners onto four points (Core Image's `CIPerspectiveTransform`): its top-left corner lands
    /// at `topLeft`, and so on. An image without bounds, or corners three of which are collinear, give nil.
    public func perspectiveTransformed(
        topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint,
        bottomRight: CGPoint
    ) -> ImageRecipe? {
        let e = node.extent
        guard !e.isInfinite, !e.isNull else { return nil }
        let corners = [
            CGPoint(x: e.minX, y: e.maxY), CGPoint(x: e.maxX, y: e.maxY), CGPoint(x: e.minX, y: e.minY),
            CGPoint(x: e.maxX, y: e.minY),
        ]
        guard let h = Matrix3x3.perspective(from: corners, to: [topLeft, topRight, bottomLeft, bottomRight]) else {
            return nil
        }
        return transformed(by: h)
    }

    /// The quadrilateral with these corners straightened into an upright rectangle (Core Image's
    /// `CIPerspectiveCorrection`: a document scanner's crop). The rectangle is `width × height` at the origin, its
    /// width the longer of the top and bottom edges and its height the longer of the left and right edges (rounded,
    /// at least 1); with `crop` false the rest of the image comes along, transformed the same way. Nil when three of
    /// the corners are collinear.
    public func perspectiveCorrected(
        topLeft: CGPoint, topRight: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint,
        crop: Bool = true
    ) -> ImageRecipe? {
        func distance(_ a: CGPoint, _ b: CGPoint) -> Double { Double(hypot(a.x - b.x, a.y - b.y)) }
        let width = max(1, max(distance(topLeft, topRight), distance(bottomLeft, bottomRight)).rounded())
        let height = max(1, max(distance(topLeft, bottomLeft), distance(topRight, bottomRight)).rounded())
        guard width.isFinite, height.isFinite,
            let h = Matrix3x3.perspective(
                from: [topLeft, topRight, bottomLeft, bottomRight],
                to: [
                    CGPoint(x: 0, y: height), CGPoint(x: width, y: height),
                    CGPoint(x: 0, y: 0), CGPoint(x: width, y: 0),
                ])
        else { return nil }
        let moved = transformed(by: h)
        return crop ? moved.cropped(to: CGRect(x: 0, y: 0, width: width, height: height)) : moved
    }

    /// The image resampled by `scale` (and `scale × aspectRatio` horizontally) about the plane's origin with a
    /// Lanczos-3 kernel, antialiased when shrinking (Core Image's `CILanczosScaleTransform`). Non-positive or
    /// non-finite factors give nil.
    public func lanczosScaled(by scale: Double, aspectRatio: Double = 1) -> ImageRecipe? {
        let sx = scale * aspectRatio
        let sy = scale
        guard sx > 0, sy > 0, sx.isFinite, sy.isFinite else { return nil }
        if sx == 1, sy == 1 { return self }
        let e = node.extent
        let extent =
            e.isInfinite || e.isNull
            ? e
            : CGRect(x: e.minX * sx, y: e.minY * sy, width: e.width * sx, height: e.height * sy)
        return ImageRecipe(RecipeNode(.lanczos(node, sx, sy), extent: extent))
    }

    // MARK: Colour

    /// Every pixel's straight colour mapped by `matrix` (Core Image's `CIColorMatrix`); successive colour maps that
    /// compose exactly become one pass.
    public func applyingColorMatrix(_ matrix: ColorMatrix) -> ImageRecipe {
        if matrix == .identity || node.extent.isNull { return self }
        // Exact when the first keeps alpha (no unpremultiply between them loses anything) and, for transparent
        // pixels, when the second keeps alpha too or the first adds no colour.
        if case .colorMatrix(let input, let inner, let count) = node.operation,
            inner.keepsAlpha, matrix.keepsAlpha || (inner.bias.x == 0 && inner.bias.y == 0 && inner.bias.z == 0)
        {
            return ImageRecipe(
                RecipeNode(
                    .colorMatrix(input, matrix.concatenating(after: inner), count + 1),
                    extent: node.extent))
        }
        return ImageRecipe(RecipeNode(.colorMatrix(node, matrix, 1), extent: node.extent))
    }

    /// The image with every alpha 1 inside `rect` (its colour as if over black) and nothing outside.
    public func settingAlphaOne(in rect: CGRect) -> ImageRecipe {
        composited(over: ImageRecipe(color: .black).cropped(to: rect)).cropped(to: rect)
    }

    // MARK: Filters

    /// A Gaussian blur of standard deviation `sigma` pixels (Core Image's `CIGaussianBlur` radius, and
    /// `applyingGaussianBlur(sigma:)`); the extent grows by `ceil(3 sigma)` on each side, the edges fading into the
    /// transparent outside. `sigma` 0 returns the image; a negative or non-finite one gives nil.
    public func gaussianBlurred(sigma: Double) -> ImageRecipe? {
        guard sigma >= 0, sigma.isFinite else { return nil }
        if sigma == 0 || node.extent.isNull { return self }
        let grow = CGFloat((3 * sigma).rounded(.up))
        let e = node.extent
        let extent = e.isInfinite ? e : e.insetBy(dx: -grow, dy: -grow)
        return ImageRecipe(RecipeNode(.gaussianBlur(node, sigma), extent: extent))
    }

    // MARK: Compositing

    /// This image over `background` (Porter-Duff source-over: `self + background · (1 − self.alpha)`).
    public func composited(over background: ImageRecipe) -> ImageRecipe {
        if background.node.extent.isNull { return self }
        if node.extent.isNull { return background }
        return ImageRecipe(RecipeNode(.sourceOver(node, background.node), extent: node.extent.union(background.extent)))
    }

    /// Interpolates between `background` (mask 0) and this image (mask 1) by `maskChannel` of `mask`
    /// (Core Image's blend-with-mask filters); outside the mask's extent the mask is 0. A nil background is
    /// transparent.
    public func blended(with mask: ImageRecipe, background: ImageRecipe?, maskChannel: MaskChannel) -> ImageRecipe {
        let foregroundPart = node.extent.intersection(mask.extent)
        let extent = background.map { foregroundPart.union($0.extent) } ?? foregroundPart
        if extent.isNull || extent.isEmpty { return .empty }
        return ImageRecipe(RecipeNode(.blend(node, background?.node, mask.node, maskChannel), extent: extent))
    }
}

/// Raw pixel bytes a recipe reads when it renders (a `PixelBuffer`, or the float gray values of
/// `ImageRecipe(grayValues:width:height:)`).
struct RawPixels: Sendable {
    enum Layout: Sendable {
        case pixelFormat(PixelFormat)
        case grayFloat32
    }
    let data: Data
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let layout: Layout

    init(data: Data, width: Int, height: Int, bytesPerRow: Int, layout: Layout) {
        self.data = data
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.layout = layout
    }

    init(_ pixels: PixelBuffer) {
        self.init(
            data: pixels.data, width: pixels.width, height: pixels.height, bytesPerRow: pixels.bytesPerRow,
            layout: .pixelFormat(pixels.format))
    }
}

/// One operation of a recipe and its extent; immutable and shared between the recipes built on it.
final class RecipeNode: Sendable {
    enum Operation: Sendable {
        case image(VisionImage)
        case pixels(RawPixels, ImageRecipe.Alpha)
        case color(RGBAColor)
        /// Forward map: a point of the input at p lands at `matrix · p`; the count of transforms composed into it.
        case transform(RecipeNode, Matrix3x3, Int)
        /// The crop rectangle and the count of crops intersected into it.
        case crop(RecipeNode, CGRect, Int)
        case clamp(RecipeNode)
        /// The matrix and the count of colour matrices composed into it.
        case colorMatrix(RecipeNode, ColorMatrix, Int)
        case gaussianBlur(RecipeNode, Double)
        case lanczos(RecipeNode, Double, Double)
        case sourceOver(RecipeNode, RecipeNode)
        case blend(RecipeNode, RecipeNode?, RecipeNode, ImageRecipe.MaskChannel)
        case pixelFunction(PixelFunction, [RecipeNode])
    }

    let operation: Operation
    let extent: CGRect

    init(_ operation: Operation, extent: CGRect) {
        self.operation = operation
        self.extent = extent
    }
}
