import CoreGraphics
import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import OpenVision

/// Vision's handler for one image: `perform(_:)` runs the requests synchronously, fills each one's
/// `results`, calls its completion handler, and throws the first error (after every request ran).
/// The image is decoded once, in the forms the requests need (OpenVision's `ImageRequestHandler`).
open class VNImageRequestHandler {
    let handler: ImageRequestHandler
    /// An error every request gets when performed: the image could not be oriented, or an option is unknown.
    private var setupError: VNError?

    /// A `CGImage`, seen as `orientation` says; an unknown key in `options` fails every request (`invalidOption`).
    public convenience init(
        cgImage image: CGImage, orientation: CGImagePropertyOrientation = .up,
        options: [VNImageOption: Any] = [:]
    ) {
        self.init(
            image: { () throws(VisionError) in try image.visionImage() }, orientation: orientation,
            options: options)
    }

    /// An OpenVision image made by `image` (no copy for one a `CGImage` or `CVPixelBuffer` was made from), turned
    /// upright; a failure is every request's error when performed.
    init(
        image: () throws(VisionError) -> VisionImage, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any]
    ) {
        do {
            let image = try image()
            handler = ImageRequestHandler(image: orientation == .up ? image : try image.oriented(orientation))
        } catch {
            handler = ImageRequestHandler(data: Data())
            setupError = VNError(error)
        }
        setupError = setupError ?? Self.check(options)
    }

    /// Options as an `[String: Any]` dictionary (Vision's keys' raw values, `"VNImageOptionCameraIntrinsics"`, …).
    public convenience init<Key: StringProtocol>(
        cgImage image: CGImage, orientation: CGImagePropertyOrientation = .up, options: [Key: Any]
    ) {
        self.init(cgImage: image, orientation: orientation, options: Self.imageOptions(options))
    }

    /// A captured frame's image buffer (Core Media's sample buffer; `CMSampleBuffer(frame:)` makes one of an
    /// OpenVision `Frame`), for the frames of a camera, a video file or a stream as `captureOutput(_:didOutput:from:)`
    /// receives them. A sample buffer without an image buffer is every request's `invalidArgument` error.
    public convenience init(
        cmSampleBuffer sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation = .up,
        options: [VNImageOption: Any] = [:]
    ) {
        self.init(
            image: { () throws(VisionError) in
                guard let buffer = CMSampleBufferGetImageBuffer(sampleBuffer) else {
                    throw VisionError(.invalidArgument, "the sample buffer has no image buffer")
                }
                return try buffer.visionImage()
            }, orientation: orientation, options: options)
    }

    /// A captured frame's image buffer, upright (see `init(cmSampleBuffer:orientation:options:)`).
    public convenience init(cmSampleBuffer sampleBuffer: CMSampleBuffer, options: [VNImageOption: Any] = [:]) {
        self.init(cmSampleBuffer: sampleBuffer, orientation: .up, options: options)
    }

    /// The options Vision defines (none change results here); another key is `VNError.invalidOption` when performed.
    static func check(_ options: [VNImageOption: Any]) -> VNError? {
        let known: Set<VNImageOption> = [.properties, .cameraIntrinsics, .ciContext]
        guard
            let unknown = options.keys.map(\.rawValue).sorted().first(where: {
                !known.contains(VNImageOption(rawValue: $0))
            })
        else { return nil }
        return VNError(
            .invalidOption,
            "unknown image option '\(unknown)' (Vision's are \(known.map(\.rawValue).sorted().joined(separator: ", ")))"
        )
    }

    static func imageOptions<Key: StringProtocol>(_ options: [Key: Any]) -> [VNImageOption: Any] {
        Dictionary(options.map { (VNImageOption(rawValue: String($0.key)), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// A `CGImage`, upright (see `init(cgImage:orientation:options:)`).
    public convenience init(cgImage image: CGImage, options: [VNImageOption: Any] = [:]) {
        self.init(cgImage: image, orientation: .up, options: options)
    }

    /// A pixel buffer (32BGRA, 32RGBA, 32ARGB, 24RGB, 24BGR, OneComponent8 or NV12; another format is every
    /// request's error); no copy for one made from an OpenVision image and not written since.
    public convenience init(
        cvPixelBuffer pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation = .up,
        options: [VNImageOption: Any] = [:]
    ) {
        self.init(
            image: { () throws(VisionError) in try pixelBuffer.visionImage() }, orientation: orientation,
            options: options)
    }

    /// A pixel buffer, upright (see `init(cvPixelBuffer:orientation:options:)`).
    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, options: [VNImageOption: Any] = [:]) {
        self.init(cvPixelBuffer: pixelBuffer, orientation: .up, options: options)
    }

    /// An image file; decoded on first use (its EXIF orientation applied unless `orientation` is given).
    public init(url imageURL: URL, orientation: CGImagePropertyOrientation? = nil, options: [VNImageOption: Any] = [:])
    {
        handler = ImageRequestHandler(imageURL, orientation: orientation)
        setupError = Self.check(options)
    }

    /// An image file, with options keyed by strings (see `init(url:orientation:options:)`).
    public convenience init<Key: StringProtocol>(
        url imageURL: URL, orientation: CGImagePropertyOrientation? = nil, options: [Key: Any]
    ) {
        self.init(url: imageURL, orientation: orientation, options: Self.imageOptions(options))
    }

    /// Encoded image bytes (JPEG, PNG, …).
    public init(
        data imageData: Data, orientation: CGImagePropertyOrientation? = nil, options: [VNImageOption: Any] = [:]
    ) {
        handler = ImageRequestHandler(data: imageData, orientation: orientation)
        setupError = Self.check(options)
    }

    /// Encoded image bytes, with options keyed by strings (see `init(data:orientation:options:)`).
    public convenience init<Key: StringProtocol>(
        data imageData: Data, orientation: CGImagePropertyOrientation? = nil, options: [Key: Any]
    ) {
        self.init(data: imageData, orientation: orientation, options: Self.imageOptions(options))
    }

    /// Runs `requests` in order on this image, decoded once for all of them first (gray only when none needs colour,
    /// at the smallest JPEG scale they all accept; one colour decode for a mix), as `ImageRequestHandler` plans it.
    public func perform(_ requests: [VNRequest]) throws {
        if setupError == nil {
            let planned = requests.filter(\.isPlannable).compactMap { $0.plannedRequest(in: handler.context) }
            // A decoding error is each request's own error below.
            if !planned.isEmpty { try? handler.decode(for: planned) }
        }
        var first: Error?
        for request in requests {
            let error: Error?
            if let setupError {
                request.storedResults = nil
                error = setupError
                request.completionHandler?(request, error)
            } else {
                error = request.run(in: handler.context)
            }
            if first == nil { first = error }
        }
        if let first { throw first }
    }
}
