/// Finds people's body poses, as Vision's `DetectHumanBodyPoseRequest`: one `HumanBodyPoseObservation`
/// per person (Vision's 19 joints, the 33 MediaPipe landmarks), best detection first; an image without
/// people gives an empty array.
///
/// Ours is MediaPipe's BlazePose pipeline on the files of the `mediapipe==0.10.14` wheel (installed by
/// scripts/setup): `pose_detection.tflite` then `pose_landmark_full.tflite` on the rotated body region,
/// as `mp.solutions.pose` runs them in static-image mode (detection score ≥ 0.5, pose presence ≥ 0.5). Unlike
/// MediaPipe's single-person solution it reads every detected person, up to `maximumBodyCount`.
/// Throws `missingModelData` when the models are not installed.
public struct DetectHumanBodyPoseRequest: CompletionHandlingRequest {
    public typealias Result = [HumanBodyPoseObservation]
    public var reportName: String { "bodypose" }

    public var regionOfInterest: NormalizedRect = .fullImage
    /// The most people to read (each costs one landmark-model run). Default 4; 1 is MediaPipe's solution.
    public var maximumBodyCount = 4
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard maximumBodyCount >= 1 else {
            throw VisionError(.invalidArgument, "maximumBodyCount must be at least 1, not \(maximumBodyCount)")
        }
        let pipeline = try BlazePosePipeline.installed()
        return try pipeline.poses(in: try imageForRegionOfInterest(in: context), maximumCount: maximumBodyCount)
    }
}
