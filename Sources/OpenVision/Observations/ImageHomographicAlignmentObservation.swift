import Foundation

/// The perspective warp aligning two images, as Vision's `ImageHomographicAlignmentObservation`: from
/// `HomographicImageRegistrationRequest` (the target image onto the handler's image) and
/// `TrackHomographicImageRegistrationRequest` (each frame onto the previous one).
///
/// `warpTransform` maps a point of the target image to the matching point of the reference, in pixels
/// of the analysed images with a lower-left origin and y up (Vision's convention; see `Matrix3x3` for
/// how a point maps). `openCVTransform` is the same warp in OpenCV's top-left pixel coordinates, for
/// `cv2.warpPerspective` or `VisionImage.warpedPerspective(by:width:height:)`.
public struct ImageHomographicAlignmentObservation: VisionObservation {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// The share of tracked points that fit the warp within 1 px (0...1).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// Target → reference, lower-left pixel coordinates (y up), normalised so that the last element is 1.
    public var warpTransform: Matrix3x3
    /// The height in pixels of the analysed images (relates the two coordinate conventions).
    public var imageHeight: Int

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(warpTransform: Matrix3x3, imageHeight: Int, confidence: Float = 1, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.warpTransform = warpTransform
        self.imageHeight = imageHeight
    }

    /// Target → reference in OpenCV's pixel coordinates (top-left origin, y down), normalised so that the last element is 1.
    public var openCVTransform: Matrix3x3 {
        let flip = Matrix3x3.flipY(height: imageHeight)
        let m = flip * warpTransform * flip
        let scale = m[2, 2]
        return scale == 0 ? m : Matrix3x3(rowMajor: m.rowMajor.map { $0 / scale })
    }
}
