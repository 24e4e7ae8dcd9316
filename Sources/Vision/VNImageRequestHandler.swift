import Foundation
import OpenVision

/// Vision's handler for one image: `perform(_:)` runs the requests synchronously, fills each one's
/// `results`, calls its completion handler, and throws the first error (after every request ran).
/// The image is decoded once, in the forms the requests need (OpenVision's `ImageRequestHandler`).
open class VNImageRequestHandler {
    let handler: ImageRequestHandler
    private var decodingError: VisionError?

    public init(cgImage image: CGImage, orientation: CGImagePropertyOrientation = .up, options: [VNImageOption: Any] = [:]) {
        do {
            handler = ImageRequestHandler(image: orientation == .up ? image : try image.oriented(orientation))
        } catch {
            handler = ImageRequestHandler(image: image)
            decodingError = error
        }
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
    }

    /// Encoded image bytes (JPEG, PNG, …).
    public init(data imageData: Data, orientation: CGImagePropertyOrientation? = nil, options: [VNImageOption: Any] = [:]) {
        handler = ImageRequestHandler(data: imageData, orientation: orientation)
    }

    /// Runs `requests` in order on this image, decoded once for all of them first (gray only when none needs colour,
    /// at the smallest JPEG scale they all accept; one colour decode for a mix), as `ImageRequestHandler` plans it.
    public func perform(_ requests: [VNRequest]) throws {
        if decodingError == nil {
            let planned = requests.filter(\.isPlannable).compactMap { $0.plannedRequest(in: handler.context) }
            // A decoding error is each request's own error below.
            if !planned.isEmpty { try? handler.decode(for: planned) }
        }
        var first: Error?
        for request in requests {
            let error: Error?
            if let decodingError {
                request.results = nil
                error = VNError(decodingError)
                request.completionHandler?(request, error)
            } else {
                error = request.run(in: handler.context)
            }
            if first == nil { first = error }
        }
        if let first { throw first }
    }
}
