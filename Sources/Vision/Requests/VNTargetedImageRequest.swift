import OpenVision

/// A request comparing the handler's image with a target image (Vision's `VNTargetedImageRequest`).
open class VNTargetedImageRequest: VNImageBasedRequest {
    public let targetedImage: CGImage

    public init(targetedCGImage: CGImage, orientation: CGImagePropertyOrientation = .up, options: [VNImageOption: Any] = [:],
                completionHandler: CompletionHandler? = nil) {
        targetedImage = orientation == .up ? targetedCGImage : ((try? targetedCGImage.oriented(orientation)) ?? targetedCGImage)
        super.init(completionHandler: completionHandler)
    }

    public convenience init(targetedCVPixelBuffer: CVPixelBuffer, options: [VNImageOption: Any] = [:],
                            completionHandler: CompletionHandler? = nil) {
        self.init(targetedCGImage: targetedCVPixelBuffer, options: options, completionHandler: completionHandler)
    }
}
