/// Finds people's 3D body poses, as Vision's `DetectHumanBodyPose3DRequest`: one `HumanBodyPose3DObservation`
/// per person (Vision's 17 joints in metres relative to the hips, the camera's position, each joint's image
/// point), best detection first; an image without people gives an empty array.
///
/// Ours is the body pose pipeline of `DetectHumanBodyPoseRequest` (MediaPipe's `pose_detection.tflite` then
/// `pose_landmark_full.tflite`, as `mp.solutions.pose` in static-image mode) reading the landmark model's world
/// landmarks as well; see `HumanBodyPose3DObservation` for the joints, the height and the camera. Throws
/// `missingModelData` when the models are not installed.
public struct DetectHumanBodyPose3DRequest: CompletionHandlingRequest {
    /// One `HumanBodyPose3DObservation` per finding; empty when there is none.
    public typealias Result = [HumanBodyPose3DObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// The most people to read. Default 1: Vision's request reports the most prominent person (and MediaPipe's
    /// solution reads one).
    public var maximumBodyCount = 1
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard maximumBodyCount >= 1 else {
            throw VisionError(.invalidArgument, "maximumBodyCount must be at least 1, not \(maximumBodyCount)")
        }
        let image = try imageForRegionOfInterest(in: context)
        let pipeline = try BlazePosePipeline.installed()
        return try pipeline.estimates(in: image, maximumCount: maximumBodyCount).map { e throws(VisionError) in
            let pose = try BlazePosePipeline.observation(e, image: image)
            return try HumanBodyPose3DObservation(
                worldLandmarks: e.world, imageLandmarks: pose.landmarks, imageWidth: image.width,
                imageHeight: image.height, confidence: e.presence)
        }
    }
}
