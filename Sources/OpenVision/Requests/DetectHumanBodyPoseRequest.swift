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
    /// One `HumanBodyPoseObservation` per finding; empty when there is none.
    public typealias Result = [HumanBodyPoseObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// The most people to read (each costs one landmark-model run). Default 4; 1 is MediaPipe's solution.
    public var maximumBodyCount = 4
    /// Also read each person's hands (`leftHand`, `rightHand` on the observations), as Vision's `detectsHands` (iOS 18).
    /// Default false. Ours reads them as MediaPipe Holistic does (hand_landmarks_from_pose): a region per hand from the
    /// pose's wrist, index and pinky landmarks when the wrist's visibility is at least 0.1, and the hand landmark
    /// model of `DetectHumanHandPoseRequest` (`hand_landmark_full.tflite`) in it, read a second time in the region of
    /// the landmarks found (as the hand tracking graphs make the next frame's region) where Holistic refines the first
    /// region with `hand_recrop.tflite`, which the setup does not install. Two hand landmark runs per visible hand.
    public var detectsHands = false
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
        let pipeline = try BlazePosePipeline.installed()
        let image = try imageForRegionOfInterest(in: context)
        guard detectsHands else { return try pipeline.poses(in: image, maximumCount: maximumBodyCount) }
        let handPipeline = try HandPosePipeline.installed(full: true)
        return try pipeline.estimates(in: image, maximumCount: maximumBodyCount).map { e throws(VisionError) in
            var pose = try BlazePosePipeline.observation(e, image: image)
            let hands = try BlazePosePipeline.hands(of: e, in: image, with: handPipeline)
            pose.leftHand = hands.left.map { HumanHandPoseObservation(bodyHand: $0, chirality: .left) }
            pose.rightHand = hands.right.map { HumanHandPoseObservation(bodyHand: $0, chirality: .right) }
            return pose
        }
    }
}
