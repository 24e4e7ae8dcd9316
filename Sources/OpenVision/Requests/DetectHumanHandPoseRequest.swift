import Foundation

/// Finds hands and their 21 joints, as Vision's `DetectHumanHandPoseRequest`, with MediaPipe's hand models
/// (palm detection, then hand landmarks in a rotated region around each palm; `palm_detection_*.tflite` and
/// `hand_landmark_*.tflite` from the mediapipe 0.10.14 wheel, installed by scripts/setup). The same pipeline
/// and thresholds as `mp.solutions.hands(static_image_mode=True)`. No hand: an empty array.
public struct DetectHumanHandPoseRequest: CompletionHandlingRequest {
    /// One `HumanHandPoseObservation` per finding; empty when there is none.
    public typealias Result = [HumanHandPoseObservation]

    /// Which MediaPipe models run.
    public enum ModelComplexity: String, Sendable, Hashable, Codable, CaseIterable {
        /// palm_detection_lite + hand_landmark_lite (`model_complexity=0`): faster.
        case lite
        /// palm_detection_full + hand_landmark_full (`model_complexity=1`, MediaPipe's default and ours).
        case full
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// The most hands to report, best palm first. Default 2, as Vision.
    public var maximumHandCount: Int = 2
    /// Default `.full`.
    public var modelComplexity: ModelComplexity = .full
    /// Palms scoring below this are ignored (MediaPipe's `min_detection_confidence`). Default 0.5.
    public var minimumPalmConfidence: Float = 0.5
    /// Hands whose presence score is below this are dropped (MediaPipe's `min_tracking_confidence` for still
    /// images). Default 0.5.
    public var minimumHandConfidence: Float = 0.5
    /// The chirality is `.unknown` when the handedness probability is within this of 0.5. Default 0 (always
    /// left or right, as MediaPipe).
    public var chiralityMargin: Float = 0
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// Creates the request with its default options; `completionHandler` is called after each run.
    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard maximumHandCount >= 0 else {
            throw VisionError(.invalidArgument, "maximumHandCount must not be negative (got \(maximumHandCount))")
        }
        for (name, value) in [
            ("minimumPalmConfidence", minimumPalmConfidence), ("minimumHandConfidence", minimumHandConfidence),
        ]
        where !(0...1).contains(value) {
            throw VisionError(.invalidArgument, "\(name) must be within 0...1 (got \(value))")
        }
        guard (0...0.5).contains(chiralityMargin) else {
            throw VisionError(.invalidArgument, "chiralityMargin must be within 0...0.5 (got \(chiralityMargin))")
        }
        var pipeline = try HandPosePipeline.installed(full: modelComplexity == .full)
        pipeline.minimumPalmScore = minimumPalmConfidence
        pipeline.minimumPresence = minimumHandConfidence
        let image = try imageForRegionOfInterest(in: context)
        return try pipeline.hands(in: image, maximumCount: maximumHandCount).map(observation)
    }

    private func observation(_ hand: HandPosePipeline.Hand) -> HumanHandPoseObservation {
        let joints = zip(HumanHandPoseObservation.JointName.allCases, hand.landmarks).map { name, p in
            RecognizedPoint(
                identifier: name.rawValue, location: NormalizedPoint(x: p.x, y: 1 - p.y), confidence: hand.presence)
        }
        // MediaPipe's "Left" is a left hand in a mirrored image: the person's right hand in an unmirrored one.
        let right = hand.leftProbability
        let chirality: HumanHandPoseObservation.Chirality
        if abs(right - 0.5) <= chiralityMargin && chiralityMargin > 0 {
            chirality = .unknown
        } else {
            chirality = right >= 0.5 ? .right : .left
        }
        return HumanHandPoseObservation(
            joints: joints, depths: hand.landmarks.map(\.z), confidence: hand.presence,
            chirality: chirality, chiralityConfidence: max(right, 1 - right))
    }
}
