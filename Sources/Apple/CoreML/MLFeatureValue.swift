import CoreGraphics
import CoreVideo
import Foundation
import OpenVision

/// Core ML's `MLFeatureValue`: a multi-array, an image, a string, an integer, a double or a dictionary of scores;
/// `type` says which.
open class MLFeatureValue {
    /// Core ML's image-conversion options (`MLFeatureValue.ImageOption`).
    public struct ImageOption: Hashable, RawRepresentable, Sendable {
        /// Apple's string for it.
        public let rawValue: String
        /// Wraps `rawValue`; any string is accepted, as with Apple's type.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Wraps `rawValue`; any string is accepted, as with Apple's type.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// How the image is fitted to the size: a `VNImageCropAndScaleOption` (default `.scaleFill`, a stretch).
        public static let cropAndScale = ImageOption(rawValue: "cropAndScale")
        /// A region to take first (a `CGRect` in pixels, origin upper-left).
        public static let cropRect = ImageOption(rawValue: "cropRect")
    }

    /// What kind of value this is (`.invalid` for an undefined one).
    public let type: MLFeatureType
    /// The array of a multi-array feature; nil otherwise.
    public let multiArrayValue: MLMultiArray?
    /// The image of an image feature.
    public let imageBufferValue: CVPixelBuffer?
    /// The string of a string feature; "" otherwise.
    public let stringValue: String
    /// The integer of an int64 feature; 0 otherwise.
    public let int64Value: Int64
    /// The number of a double (or int64) feature; 0 otherwise.
    public let doubleValue: Double
    /// The scores of a dictionary feature; empty otherwise.
    public let dictionaryValue: [AnyHashable: NSNumberValue]
    /// Whether the value is missing (Core ML's `undefined(type:)`).
    public var isUndefined: Bool { type == .invalid }

    init(
        type: MLFeatureType, multiArray: MLMultiArray? = nil, image: CVPixelBuffer? = nil, string: String = "",
        int64: Int64 = 0,
        double: Double = 0, dictionary: [AnyHashable: NSNumberValue] = [:]
    ) {
        self.type = type
        multiArrayValue = multiArray
        imageBufferValue = image
        stringValue = string
        int64Value = int64
        doubleValue = double
        dictionaryValue = dictionary
    }

    /// A multi-array feature.
    public convenience init(multiArray: MLMultiArray) { self.init(type: .multiArray, multiArray: multiArray) }
    /// An image feature.
    public convenience init(pixelBuffer: CVPixelBuffer) { self.init(type: .image, image: pixelBuffer) }
    /// A string feature.
    public convenience init(string: String) { self.init(type: .string, string: string) }
    /// A double feature.
    public convenience init(double: Double) { self.init(type: .double, double: double) }
    /// An int64 feature (its `doubleValue` is the same number).
    public convenience init(int64: Int64) { self.init(type: .int64, int64: int64, double: Double(int64)) }
    /// Scores by `String` or `Int64` key (Core ML's `init(dictionary:)`); other keys are `MLModelError.featureType`.
    public convenience init(dictionary value: [AnyHashable: NSNumberValue]) throws {
        if let key = value.keys.first(where: { !($0.base is String) && !($0.base is Int64) }) {
            throw MLModelError.featureType("dictionary keys must be String or Int64, not \(Swift.type(of: key.base))")
        }
        self.init(type: .dictionary, dictionary: value)
    }
    /// A missing value of `type` (Core ML's `undefined(type:)`).
    public class func undefined(type: MLFeatureType) -> MLFeatureValue { MLFeatureValue(type: .invalid) }

    /// The image file at `url` as a `pixelsWide` × `pixelsHigh` image input (Core ML's `init(imageAt:…)`), fitted by
    /// `options[.cropAndScale]` (default: stretched). Throws `MLModelError.io` for an unreadable file and
    /// `MLModelError.featureType` for a pixel format or option this module does not take.
    public convenience init(
        imageAt url: URL, pixelsWide: Int, pixelsHigh: Int, pixelFormatType: OSType,
        options: [ImageOption: Any]? = nil
    ) throws {
        let image: VisionImage
        do { image = try VisionImage(contentsOf: url) } catch {
            throw MLModelError.io("cannot read the image \(url.path): \(error.message)")
        }
        try self.init(
            cgImage: CGImage(visionImage: image), pixelsWide: pixelsWide, pixelsHigh: pixelsHigh,
            pixelFormatType: pixelFormatType, options: options)
    }

    /// `image` as a `pixelsWide` × `pixelsHigh` image input (Core ML's `init(cgImage:…)`): `options[.cropRect]` (pixels,
    /// origin upper-left) taken first, then fitted by `options[.cropAndScale]` — `.scaleFill` (default, a stretch),
    /// `.centerCrop`, `.scaleFit` (the whole image, aspect kept, centred on black), or their `…Rotate90CCW` forms (turned
    /// 90° counter-clockwise first). The pixel format may be 32ARGB, 32BGRA, 32RGBA, 24RGB or OneComponent8: the buffer
    /// is made in it (alpha 255; OneComponent8 holds the luma). Other formats and unknown
    /// keys are `MLModelError.featureType` naming them; sizes outside 1...16384 too.
    public convenience init(
        cgImage image: CGImage, pixelsWide: Int, pixelsHigh: Int, pixelFormatType: OSType,
        options: [ImageOption: Any]? = nil
    ) throws {
        let formats = [
            kCVPixelFormatType_32ARGB, kCVPixelFormatType_32BGRA, kCVPixelFormatType_32RGBA, kCVPixelFormatType_24RGB,
            kCVPixelFormatType_OneComponent8,
        ]
        guard formats.contains(pixelFormatType) else {
            throw MLModelError.featureType(
                String(
                    format: "pixel format 0x%08X is not one of 32ARGB, 32BGRA, 32RGBA, 24RGB, OneComponent8",
                    pixelFormatType))
        }
        guard (1...16384).contains(pixelsWide), (1...16384).contains(pixelsHigh) else {
            throw MLModelError.featureType("image size \(pixelsWide) × \(pixelsHigh) is outside 1...16384")
        }
        var fitting: UInt = 2
        var crop: CGRect?
        for (key, value) in options ?? [:] {
            switch key {
            case .cropAndScale:
                // A VNImageCropAndScaleOption (Vision's type) or its raw value.
                guard let raw = (value as? UInt) ?? ((value as? any RawRepresentable)?.rawValue as? UInt) else {
                    throw MLModelError.featureType(
                        "MLFeatureValue.ImageOption.cropAndScale takes a VNImageCropAndScaleOption, not \(Swift.type(of: value))"
                    )
                }
                guard [0, 1, 2, 257, 258].contains(raw) else {
                    throw MLModelError.featureType(
                        "crop and scale option \(raw) is not a VNImageCropAndScaleOption (0, 1, 2, 257, 258)")
                }
                fitting = raw
            case .cropRect:
                guard let rect = value as? CGRect else {
                    throw MLModelError.featureType(
                        "MLFeatureValue.ImageOption.cropRect takes a CGRect, not \(Swift.type(of: value))")
                }
                crop = rect
            default:
                throw MLModelError.featureType(
                    "unknown MLFeatureValue.ImageOption '\(key.rawValue)' (known: cropAndScale, cropRect)")
            }
        }
        var source: VisionImage
        do {
            source = try image.visionImage()
            if let crop {
                let bounds = CGRect(x: 0, y: 0, width: source.width, height: source.height)
                let r = crop.standardized.intersection(bounds)
                guard !r.isNull, r.width >= 1, r.height >= 1 else {
                    throw MLModelError.featureType(
                        "cropRect \(crop) is outside the \(image.width) × \(image.height) image")
                }
                source = try source.cropped(to: NormalizedRect(imageRect: r, in: bounds.size, origin: .upperLeft))
            }
            if fitting == 257 || fitting == 258 {
                source = try source.oriented(.left)  // 90° counter-clockwise
                fitting -= 256
            }
            if fitting == 1 {
                source = try Self.letterboxed(source, width: pixelsWide, height: pixelsHigh)
            }
            if fitting == 0 {
                // The centre region of the target's aspect ratio.
                let w = Double(source.width)
                let h = Double(source.height)
                let target = Double(pixelsWide) / Double(pixelsHigh)
                let (cw, ch) = w / h > target ? (h * target, h) : (w, w / target)
                source = try source.cropped(
                    to: NormalizedRect(x: (1 - cw / w) / 2, y: (1 - ch / h) / 2, width: cw / w, height: ch / h))
            }
            if source.width != pixelsWide || source.height != pixelsHigh {
                source = try source.resized(width: pixelsWide, height: pixelsHigh)
            }
        } catch let error as VisionError {
            throw MLModelError.featureType("cannot make the image input: \(error.message)")
        }
        self.init(type: .image, image: try Self.pixelBuffer(of: source, format: pixelFormatType))
    }

    /// `image` copied into a new pixel buffer of `format` (32ARGB, 32BGRA, 32RGBA, 24RGB or OneComponent8).
    static func pixelBuffer(of image: VisionImage, format: OSType) throws -> CVPixelBuffer {
        let layout: PixelFormat =
            switch format {
            case kCVPixelFormatType_32ARGB: .argb8
            case kCVPixelFormatType_32BGRA: .bgra8
            case kCVPixelFormatType_32RGBA: .rgba8
            case kCVPixelFormatType_24RGB: .rgb8
            default: .gray8
            }
        var made: CVPixelBuffer?
        guard
            CVPixelBufferCreate(kCFAllocatorDefault, image.width, image.height, format, nil, &made) == kCVReturnSuccess,
            let buffer = made
        else {
            throw MLModelError.featureType("cannot make a \(image.width) × \(image.height) pixel buffer")
        }
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, []) }
        do {
            try image.copyPixels(
                into: UnsafeMutableRawBufferPointer(
                    start: CVPixelBufferGetBaseAddress(buffer),
                    count: CVPixelBufferGetDataSize(buffer)),
                format: layout, bytesPerRow: CVPixelBufferGetBytesPerRow(buffer))
        } catch {
            throw MLModelError.featureType("cannot make the image input: \(error.message)")
        }
        return buffer
    }

    /// `image` scaled to fit `width` × `height` with its aspect ratio kept, centred, the rest black (Vision's `.scaleFit`):
    /// the size and place model inputs get (`InputMapping.fitting(…, mode: .scaleFit)`).
    static func letterboxed(_ image: VisionImage, width: Int, height: Int) throws(VisionError) -> VisionImage {
        let fit = InputMapping.fitting(width: image.width, height: image.height, into: width, height, mode: .scaleFit)
        let w = min(width, Int((Double(image.width) * fit.scaleX).rounded()))
        let h = min(height, Int((Double(image.height) * fit.scaleY).rounded()))
        let fitted = try image.resized(width: w, height: h)
        let rows = fitted.rgbData()
        var canvas = Data(count: width * height * 3)
        let (x0, y0) = (Int(fit.offsetX), Int(fit.offsetY))
        canvas.withUnsafeMutableBytes { out in
            rows.withUnsafeBytes { src in
                for y in 0..<h {
                    let from = src.baseAddress! + y * w * 3
                    let to = out.baseAddress! + ((y0 + y) * width + x0) * 3
                    to.copyMemory(from: from, byteCount: w * 3)
                }
            }
        }
        return try VisionImage(pixels: PixelBuffer(data: canvas, width: width, height: height, format: .rgb8))
    }
}

/// A number in a feature dictionary (Core ML uses `NSNumber`).
public typealias NSNumberValue = Double
