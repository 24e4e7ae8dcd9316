import Foundation
import OpenVision

/// Vision's handler for one image: `perform(_:)` runs the requests synchronously, fills each one's
/// `results`, calls its completion handler, and throws the first error (after every request ran).
/// The image is decoded once, in the forms the requests need (OpenVision's `ImageRequestHandler`).
open class VNImageRequestHandler {
    let handler: ImageRequestHandler
    /// An error every request gets when performed: the image could not be oriented, or an option is unknown.
    private var setupError: VNError?

    public init(cgImage image: CGImage, orientation: CGImagePropertyOrientation = .up, options: [VNImageOption: Any] = [:]) {
        do {
            handler = ImageRequestHandler(image: orientation == .up ? image : try image.oriented(orientation))
        } catch {
            handler = ImageRequestHandler(image: image)
            setupError = VNError(error)
        }
        setupError = setupError ?? Self.check(options)
    }

    /// Options as an `[String: Any]` dictionary (Vision's keys' raw values, `"VNImageOptionCameraIntrinsics"`, …).
    public convenience init<Key: StringProtocol>(cgImage image: CGImage, orientation: CGImagePropertyOrientation = .up, options: [Key: Any]) {
        self.init(cgImage: image, orientation: orientation, options: Self.imageOptions(options))
    }

    /// A captured frame (Core Media's sample buffer; `LiveAnalyzer`'s and `FrameSource`'s `Frame`), for the frames of
    /// a camera, a video file or a stream as `captureOutput(_:didOutput:from:)` receives them.
    public convenience init(cmSampleBuffer sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation = .up,
                            options: [VNImageOption: Any] = [:]) {
        self.init(cgImage: sampleBuffer.image, orientation: orientation, options: options)
    }

    public convenience init(cmSampleBuffer sampleBuffer: CMSampleBuffer, options: [VNImageOption: Any] = [:]) {
        self.init(cgImage: sampleBuffer.image, orientation: .up, options: options)
    }

    /// The options Vision defines (none change results here); another key is `VNError.invalidOption` when performed.
    static func check(_ options: [VNImageOption: Any]) -> VNError? {
        let known: Set<VNImageOption> = [.properties, .cameraIntrinsics, .ciContext]
        guard let unknown = options.keys.map(\.rawValue).sorted().first(where: { !known.contains(VNImageOption(rawValue: $0)) }) else { return nil }
        return VNError(.invalidOption, "unknown image option '\(unknown)' (Vision's are \(known.map(\.rawValue).sorted().joined(separator: ", ")))")
    }

    static func imageOptions<Key: StringProtocol>(_ options: [Key: Any]) -> [VNImageOption: Any] {
        Dictionary(options.map { (VNImageOption(rawValue: String($0.key)), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    public convenience init(cgImage image: CGImage, options: [VNImageOption: Any] = [:]) {
        self.init(cgImage: image, orientation: .up, options: options)
    }

    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation = .up,
                            options: [VNImageOption: Any] = [:]) {
        self.init(cgImage: pixelBuffer, orientation: orientation, options: options)
    }

    public convenience init(cvPixelBuffer pixelBuffer: CVPixelBuffer, options: [VNImageOption: Any] = [:]) {
        self.init(cgImage: pixelBuffer, orientation: .up, options: options)
    }

    /// An image file; decoded on first use (its EXIF orientation applied unless `orientation` is given).
    public init(url imageURL: URL, orientation: CGImagePropertyOrientation? = nil, options: [VNImageOption: Any] = [:]) {
        handler = ImageRequestHandler(imageURL, orientation: orientation)
        setupError = Self.check(options)
    }

    public convenience init<Key: StringProtocol>(url imageURL: URL, orientation: CGImagePropertyOrientation? = nil, options: [Key: Any]) {
        self.init(url: imageURL, orientation: orientation, options: Self.imageOptions(options))
    }

    /// Encoded image bytes (JPEG, PNG, …).
    public init(data imageData: Data, orientation: CGImagePropertyOrientation? = nil, options: [VNImageOption: Any] = [:]) {
        handler = ImageRequestHandler(data: imageData, orientation: orientation)
        setupError = Self.check(options)
    }

    public convenience init<Key: StringProtocol>(data imageData: Data, orientation: CGImagePropertyOrientation? = nil, options: [Key: Any]) {
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
