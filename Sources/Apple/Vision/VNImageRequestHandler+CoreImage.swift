import CoreImage
import ImageIO
import OpenVision

extension VNImageRequestHandler {
    /// A Core Image image, rendered once over its extent (which must be bounded; an unbounded or empty one is every
    /// request's error) and turned upright from `orientation`. An unfiltered image of a `CGImage` or of an OpenVision
    /// image's pixel buffer is not copied.
    public convenience init(
        ciImage image: CIImage, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:]
    ) {
        self.init(
            image: { () throws(VisionError) in try image.recipe.renderedImage() }, orientation: orientation,
            options: options)
    }

    /// A Core Image image, upright (see `init(ciImage:orientation:options:)`).
    public convenience init(ciImage image: CIImage, options: [VNImageOption: Any] = [:]) {
        self.init(ciImage: image, orientation: .up, options: options)
    }
}

extension VNSequenceRequestHandler {
    /// The next frame as a Core Image image (see `VNImageRequestHandler(ciImage:orientation:options:)`).
    public func perform(
        _ requests: [VNRequest], on image: CIImage,
        orientation: CGImagePropertyOrientation = .up
    ) throws {
        try VNImageRequestHandler(ciImage: image, orientation: orientation).perform(requests)
    }
}

extension VNTargetedImageRequest {
    /// A Core Image target shown with `orientation`, rendered once over its extent.
    public convenience init(
        targetedCIImage: CIImage, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            target: { () throws(VisionError) in try targetedCIImage.recipe.renderedImage() },
            orientation: orientation, completionHandler: completionHandler)
    }

    /// A Core Image target, upright.
    public convenience init(
        targetedCIImage: CIImage, options: [VNImageOption: Any] = [:],
        completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            targetedCIImage: targetedCIImage, orientation: .up, options: options,
            completionHandler: completionHandler)
    }
}
