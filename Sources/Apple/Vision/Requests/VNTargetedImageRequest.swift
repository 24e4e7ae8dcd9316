import CoreMedia
import CoreVideo
import ImageIO
import OpenVision

/// A request comparing the handler's image with a target image (Vision's `VNTargetedImageRequest`). A target that
/// cannot be read (a pixel format OpenVision does not read, a sample buffer without an image) is each perform's
/// error.
open class VNTargetedImageRequest: VNImageBasedRequest {
    /// The target, upright, or why it could not be read.
    private let target: Result<VisionImage, VisionError>

    /// A target made by `image`, turned upright by `orientation`.
    init(
        target image: () throws(VisionError) -> VisionImage, orientation: CGImagePropertyOrientation,
        completionHandler: CompletionHandler?
    ) {
        do {
            let upright = try image()
            target = .success(orientation == .up ? upright : try upright.oriented(orientation))
        } catch {
            target = .failure(error)
        }
        super.init(completionHandler: completionHandler)
    }

    /// The target image, upright.
    var targetedImage: VisionImage {
        get throws(VisionError) { try target.get() }
    }

    /// A `CGImage` target shown with `orientation`.
    public convenience init(
        targetedCGImage: CGImage, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            target: { () throws(VisionError) in try targetedCGImage.visionImage() }, orientation: orientation,
            completionHandler: completionHandler)
    }

    /// A `CGImage` target, upright.
    public convenience init(
        targetedCGImage: CGImage, options: [VNImageOption: Any] = [:],
        completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            targetedCGImage: targetedCGImage, orientation: .up, options: options,
            completionHandler: completionHandler)
    }

    /// A pixel-buffer target shown with `orientation`.
    public convenience init(
        targetedCVPixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            target: { () throws(VisionError) in try targetedCVPixelBuffer.visionImage() },
            orientation: orientation, completionHandler: completionHandler)
    }

    /// A pixel-buffer target, upright.
    public convenience init(
        targetedCVPixelBuffer: CVPixelBuffer, options: [VNImageOption: Any] = [:],
        completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            targetedCVPixelBuffer: targetedCVPixelBuffer, orientation: .up, options: options,
            completionHandler: completionHandler)
    }

    /// A sample buffer's image as the target, shown with `orientation`.
    public convenience init(
        targetedCMSampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            target: { () throws(VisionError) in
                guard let buffer = CMSampleBufferGetImageBuffer(targetedCMSampleBuffer) else {
                    throw VisionError(.invalidArgument, "the targeted sample buffer has no image buffer")
                }
                return try buffer.visionImage()
            }, orientation: orientation, completionHandler: completionHandler)
    }

    /// A sample buffer's image as the target, upright.
    public convenience init(
        targetedCMSampleBuffer: CMSampleBuffer, options: [VNImageOption: Any] = [:],
        completionHandler: CompletionHandler? = nil
    ) {
        self.init(
            targetedCMSampleBuffer: targetedCMSampleBuffer, orientation: .up, options: options,
            completionHandler: completionHandler)
    }
}
