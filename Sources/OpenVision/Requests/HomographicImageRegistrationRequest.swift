/// Finds the homography (perspective warp) that aligns `targetImage` with the handler's image, as
/// Vision's `HomographicImageRegistrationRequest`. Vision's algorithm is not documented; ours is classic:
/// ORB feature matches, RANSAC, then a sub-pixel refit on Lucas-Kanade-tracked corners (see
/// `ov_registration.cpp`), on the gray planes at full resolution.
///
/// The handler's image is the reference, `targetImage` the one to warp; both are cropped to
/// `regionOfInterest` and must then have the same size (`invalidArgument` otherwise: resize first).
/// Nil when either image is flat or too few features match (unrelated images).
public struct HomographicImageRegistrationRequest: CompletionHandlingRequest {
    /// The homography aligning the images; nil when either is flat or too few features match.
    public typealias Result = ImageHomographicAlignmentObservation?

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray planes.
    public var requiresColor: Bool { false }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?
    /// The image to align with the handler's image (Vision's targeted image).
    public var targetImage: VisionImage

    /// Creates the request with these options (each as documented on its property), the rest at their defaults.
    public init(targetImage: VisionImage, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.targetImage = targetImage
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let reference = try imageForRegionOfInterest(in: context)
        let target = try targetRegion(of: targetImage)
        try requireSameSize(reference, target, what: "homographic registration")
        return try OpenCVRegistration.homography(reference: reference, floating: target)
    }
}
