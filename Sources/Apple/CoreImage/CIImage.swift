import Foundation
import OpenVision

/// Options of `CIImage`'s initializers.
public struct CIImageOption: Hashable, RawRepresentable, Sendable {
    /// The key's name.
    public let rawValue: String
    /// The option named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `true`: an image file's EXIF orientation is applied (`init(contentsOf:options:)`, `init(data:options:)`);
    /// by default, as on Apple platforms, the pixels are taken as stored.
    public static let applyOrientationProperty = CIImageOption(rawValue: "kCIImageApplyOrientationProperty")
    /// The colour space (accepted: images keep the sources' own encoding here).
    public static let colorSpace = CIImageOption(rawValue: "kCIImageColorSpace")
    /// Properties to attach (accepted; `properties` is not kept here).
    public static let properties = CIImageOption(rawValue: "kCIImageProperties")
}

/// Core Image's image: a recipe for pixels (a source, and the transforms, crops and filters applied to it) that is
/// only evaluated when a `CIContext` renders it. Coordinates are Core Image's: origin lower-left, y up, in pixels;
/// outside its `extent` an image is transparent. Immutable, a reference type, as Apple's; here a thin layer over
/// OpenVision's `ImageRecipe`.
public final class CIImage: CustomStringConvertible, @unchecked Sendable {
    /// The recipe this image is (Linux only: OpenVision's lazy image, rendered by `ImageRecipe.render(in:…)`).
    public let recipe: ImageRecipe
    /// The `CGImage` the image was made from, if it was made from one (and not filtered since).
    public let cgImage: CGImage?
    /// The pixel buffer the image was made from, if it was made from one (and not filtered since).
    public let pixelBuffer: CVPixelBuffer?

    /// An image of an OpenVision recipe (Linux only).
    public init(recipe: ImageRecipe) {
        self.recipe = recipe
        cgImage = nil
        pixelBuffer = nil
    }

    private init(recipe: ImageRecipe, cgImage: CGImage?, pixelBuffer: CVPixelBuffer?) {
        self.recipe = recipe
        self.cgImage = cgImage
        self.pixelBuffer = pixelBuffer
    }

    /// A `CGImage`'s pixels at (0, 0, width, height), without copying them. 8-bit gray, RGB, and RGB with alpha
    /// (premultiplied, straight or skipped) are read; another layout gives the empty image.
    public convenience init(cgImage image: CGImage) {
        self.init(recipe: Self.recipe(of: image), cgImage: image, pixelBuffer: nil)
    }

    /// A `CGImage` (the options are accepted, see `CIImageOption`).
    public convenience init(cgImage image: CGImage, options: [CIImageOption: Any]?) {
        self.init(cgImage: image)
    }

    /// A pixel buffer's pixels at (0, 0, width, height), read when the image is rendered (no copy): 32BGRA, 32RGBA
    /// and 32ARGB (alpha premultiplied, as Core Video's), 24RGB, 24BGR, OneComponent8 (gray), NV12 (420v/420f,
    /// even sizes) and OneComponent32Float / DepthFloat32 / DisparityFloat32 (gray values, copied). Another format
    /// gives the empty image.
    public convenience init(cvPixelBuffer buffer: CVPixelBuffer) {
        self.init(recipe: Self.recipe(of: buffer), cgImage: nil, pixelBuffer: buffer)
    }

    /// A pixel buffer (the options are accepted, see `CIImageOption`).
    public convenience init(cvPixelBuffer buffer: CVPixelBuffer, options: [CIImageOption: Any]?) {
        self.init(cvPixelBuffer: buffer)
    }

    /// An image buffer (`CVImageBuffer` is `CVPixelBuffer`; see `init(cvPixelBuffer:)`).
    public convenience init(cvImageBuffer buffer: CVImageBuffer) {
        self.init(cvPixelBuffer: buffer)
    }

    /// An image buffer (the options are accepted, see `CIImageOption`).
    public convenience init(cvImageBuffer buffer: CVImageBuffer, options: [CIImageOption: Any]?) {
        self.init(cvPixelBuffer: buffer)
    }

    /// An image file (JPEG, PNG, WebP, BMP, TIFF) decoded now, its pixels as stored (EXIF orientation applied only
    /// with `.applyOrientationProperty`); nil when it cannot be read or decoded.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]? = nil) {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
        self.init(data: data, options: options)
    }

    /// Encoded image bytes (see `init(contentsOf:options:)`); nil when they cannot be decoded.
    public convenience init?(data: Data, options: [CIImageOption: Any]? = nil) {
        let applyOrientation = options?[.applyOrientationProperty] as? Bool ?? false
        guard let image = try? VisionImage(data: data, orientation: applyOrientation ? nil : .up) else { return nil }
        self.init(recipe: ImageRecipe(image: image))
    }

    /// The colour everywhere (an infinite extent: crop it to use it as a picture).
    public convenience init(color: CIColor) {
        self.init(recipe: ImageRecipe(color: color.rgbaColor))
    }

    /// The image with nothing in it (a null extent).
    public static func empty() -> CIImage { CIImage(recipe: .empty) }

    /// Opaque black everywhere.
    public static var black: CIImage { CIImage(color: .black) }
    /// Opaque white everywhere.
    public static var white: CIImage { CIImage(color: .white) }
    /// Transparent everywhere.
    public static var clear: CIImage { CIImage(color: .clear) }

    /// The part of the plane where the image may be non-transparent: `CGRect.infinite` for an unbounded image,
    /// `CGRect.null` for the empty one.
    public var extent: CGRect { recipe.extent }

    /// "CIImage" and the extent.
    public var description: String { "CIImage \(extent)" }

    // MARK: Geometry

    /// The image moved by `matrix` (a point at p lands at `p.applying(matrix)`); successive transforms fuse into one
    /// resampling (bilinear) when rendered.
    public func transformed(by matrix: CGAffineTransform) -> CIImage {
        CIImage(recipe: recipe.transformed(by: Self.matrix(matrix)))
    }

    /// The image moved by `matrix` (`highQualityDownsample` is accepted: resampling is always bilinear here).
    public func transformed(by matrix: CGAffineTransform, highQualityDownsample: Bool) -> CIImage {
        transformed(by: matrix)
    }

    /// The image inside `rect` only (pixels whose centres lie in it); transparent elsewhere.
    public func cropped(to rect: CGRect) -> CIImage { CIImage(recipe: recipe.cropped(to: rect)) }

    /// The image turned upright from `orientation` (an exact pixel permutation), its extent's origin kept.
    public func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        CIImage(recipe: recipe.oriented(orientation))
    }

    /// The image turned upright from the EXIF orientation `orientation` (1...8); another value leaves it as it is.
    public func oriented(forExifOrientation orientation: Int32) -> CIImage {
        guard orientation >= 1, let o = CGImagePropertyOrientation(rawValue: UInt32(orientation)) else { return self }
        return oriented(o)
    }

    /// The transform `oriented(forExifOrientation:)` applies to this image.
    public func orientationTransform(forExifOrientation orientation: Int32) -> CGAffineTransform {
        guard orientation >= 1, let o = CGImagePropertyOrientation(rawValue: UInt32(orientation)) else {
            return .identity
        }
        return orientationTransform(for: o)
    }

    /// The transform `oriented(_:)` applies to this image (identity for an unbounded one).
    public func orientationTransform(for orientation: CGImagePropertyOrientation) -> CGAffineTransform {
        guard !extent.isInfinite, !extent.isNull else { return .identity }
        let m = ImageRecipe.orientationTransform(orientation, extent: extent)
        return CGAffineTransform(
            a: CGFloat(m[0, 0]), b: CGFloat(m[1, 0]), c: CGFloat(m[0, 1]), d: CGFloat(m[1, 1]),
            tx: CGFloat(m[0, 2]), ty: CGFloat(m[1, 2]))
    }

    /// The image with its edge pixels repeated outward without end (an infinite extent).
    public func clampedToExtent() -> CIImage { CIImage(recipe: recipe.clampedToExtent()) }

    // MARK: Compositing and filters

    /// This image over `dest` (source-over).
    public func composited(over dest: CIImage) -> CIImage { CIImage(recipe: recipe.composited(over: dest.recipe)) }

    /// The image with alpha 1 inside `rect` (its colour as if over black), nothing outside.
    public func settingAlphaOne(in rect: CGRect) -> CIImage { CIImage(recipe: recipe.settingAlphaOne(in: rect)) }

    /// A Gaussian blur of standard deviation `sigma` (the extent grows by 3 sigma on each side).
    public func applyingGaussianBlur(sigma: Double) -> CIImage {
        CIImage(recipe: recipe.gaussianBlurred(sigma: sigma) ?? .empty)
    }

    /// The filter named `filterName` applied with this image as `inputImage` and `params` for its other inputs.
    /// An unknown filter, or a parameter of the wrong type, gives the empty image.
    public func applyingFilter(_ filterName: String, parameters params: [String: Any]) -> CIImage {
        guard let filter = CIFilter(name: filterName) else { return .empty() }
        filter.setValue(self, forKey: kCIInputImageKey)
        for (key, value) in params { filter.setValue(value, forKey: key) }
        return filter.outputImage ?? .empty()
    }

    /// The filter named `filterName` applied with its default parameters.
    public func applyingFilter(_ filterName: String) -> CIImage { applyingFilter(filterName, parameters: [:]) }

    // MARK: Sources

    /// A Core Graphics transform as a plane homography.
    static func matrix(_ t: CGAffineTransform) -> Matrix3x3 {
        Matrix3x3(rowMajor: [Double(t.a), Double(t.c), Double(t.tx), Double(t.b), Double(t.d), Double(t.ty), 0, 0, 1])
    }

    /// A `CGImage`'s pixels as a recipe: an OpenVision image as it is; provider bytes in their layout.
    private static func recipe(of image: CGImage) -> ImageRecipe {
        let alphaInfo = image.alphaInfo
        let opaque = [.none, .noneSkipFirst, .noneSkipLast].contains(alphaInfo)
        if opaque, let vision = try? image.visionImage() { return ImageRecipe(image: vision) }
        guard image.bitsPerComponent == 8, image.bitsPerPixel == 32, let data = image.dataProvider?.data as Data?
        else { return (try? image.visionImage()).map { ImageRecipe(image: $0) } ?? .empty }
        let first = [.first, .premultipliedFirst].contains(alphaInfo)
        let format: PixelFormat
        switch (image.byteOrderInfo, first) {
        case (.order32Little, true): format = .bgra8
        case (.orderDefault, true), (.order32Big, true): format = .argb8
        case (.orderDefault, false), (.order32Big, false): format = .rgba8
        default: return .empty
        }
        let alpha: ImageRecipe.Alpha =
            [.premultipliedFirst, .premultipliedLast].contains(alphaInfo)
            ? .premultiplied : .straight
        let pixels = PixelBuffer(
            data: data, width: image.width, height: image.height, format: format,
            bytesPerRow: image.bytesPerRow)
        return (try? ImageRecipe(pixels: pixels, alpha: alpha)) ?? .empty
    }

    /// A pixel buffer's pixels as a recipe: the OpenVision image it still is, or its memory (kept alive by the
    /// recipe and read when it renders).
    private static func recipe(of buffer: CVPixelBuffer) -> ImageRecipe {
        if let image = buffer.unwrittenSourceImage { return ImageRecipe(image: image) }
        let type = CVPixelBufferGetPixelFormatType(buffer)
        let width = CVPixelBufferGetWidth(buffer)
        let height = CVPixelBufferGetHeight(buffer)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return .empty }
        let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
        let format: PixelFormat
        var alpha = ImageRecipe.Alpha.ignored
        switch type {
        case kCVPixelFormatType_32BGRA:
            format = .bgra8
            alpha = .premultiplied
        case kCVPixelFormatType_32RGBA:
            format = .rgba8
            alpha = .premultiplied
        case kCVPixelFormatType_32ARGB:
            format = .argb8
            alpha = .premultiplied
        case kCVPixelFormatType_24RGB: format = .rgb8
        case kCVPixelFormatType_24BGR: format = .bgr8
        case kCVPixelFormatType_OneComponent8: format = .gray8
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            format = .nv12
        case kCVPixelFormatType_OneComponent32Float, kCVPixelFormatType_DepthFloat32,
            kCVPixelFormatType_DisparityFloat32:
            var values = [Float](repeating: 0, count: width * height)
            values.withUnsafeMutableBytes { out in
                for row in 0..<height {
                    (out.baseAddress! + row * width * 4).copyMemory(
                        from: base + row * bytesPerRow,
                        byteCount: width * 4)
                }
            }
            return (try? ImageRecipe(grayValues: values, width: width, height: height)) ?? .empty
        default:
            return .empty
        }
        let data = Data(
            bytesNoCopy: base, count: CVPixelBufferGetDataSize(buffer),
            deallocator: .custom { _, _ in withExtendedLifetime(buffer) {} })
        let pixels = PixelBuffer(data: data, width: width, height: height, format: format, bytesPerRow: bytesPerRow)
        return (try? ImageRecipe(pixels: pixels, alpha: alpha)) ?? .empty
    }
}
