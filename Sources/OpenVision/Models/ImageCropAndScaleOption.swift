/// How an image is fitted to a model's input size, as Vision's `VNImageCropAndScaleOption`.
/// Results are always mapped back to the original image.
public enum ImageCropAndScaleOption: String, Sendable, Hashable, Codable, CaseIterable {
    /// Keep the aspect ratio, fill the input, crop what overflows around the centre.
    case centerCrop
    /// Keep the aspect ratio, fit the whole image, pad the rest (letterbox).
    case scaleFit
    /// Stretch the image to the input size.
    case scaleFill
}
