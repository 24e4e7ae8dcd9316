import Foundation

/// One person's body pose, as Vision's `HumanBodyPoseObservation`: Vision's 19 joints (normalised,
/// lower-left origin, relative to the request's region of interest), each with a confidence, and the 33
/// landmarks of the MediaPipe BlazePose model they come from.
///
/// Vision's joints are MediaPipe landmarks under Vision's names; `neck` is the midpoint of the shoulders
/// and `root` the midpoint of the hips (Vision: "the neck" and "the root of the body, between the hips"),
/// each with the smaller confidence of the two points it is made from. A point's confidence is
/// MediaPipe's visibility: the probability that it is in the image and not occluded.
public struct HumanBodyPoseObservation: RecognizedPointsObservation {
    /// Vision's body joint names (`HumanBodyPoseObservation.JointName`). "Left" is the person's left.
    public enum JointName: String, CaseIterable, Sendable, Codable, Hashable {
        /// Head joints.
        case nose, leftEye, rightEye, leftEar, rightEar
        /// Neck (between the shoulders) and arms.
        case neck, leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
        /// Root (between the hips) and legs.
        case root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle

        /// The MediaPipe landmark this joint is; nil for the derived `neck` and `root`.
        public var landmark: BodyLandmark? {
            switch self {
            case .nose: .nose
            case .leftEye: .leftEye
            case .rightEye: .rightEye
            case .leftEar: .leftEar
            case .rightEar: .rightEar
            case .leftShoulder: .leftShoulder
            case .rightShoulder: .rightShoulder
            case .leftElbow: .leftElbow
            case .rightElbow: .rightElbow
            case .leftWrist: .leftWrist
            case .rightWrist: .rightWrist
            case .leftHip: .leftHip
            case .rightHip: .rightHip
            case .leftKnee: .leftKnee
            case .rightKnee: .rightKnee
            case .leftAnkle: .leftAnkle
            case .rightAnkle: .rightAnkle
            case .neck, .root: nil
            }
        }
    }

    /// Vision's joint groups (`HumanBodyPoseObservation.JointsGroupName`).
    public enum JointsGroupName: String, CaseIterable, Sendable, Codable, Hashable {
        /// Vision's groups; `all` is every joint.
        case face, torso, leftArm, rightArm, leftLeg, rightLeg, all

        /// The joints in the group, as Vision groups them.
        public var jointNames: [JointName] {
            switch self {
            case .face: [.nose, .leftEye, .rightEye, .leftEar, .rightEar]
            case .torso: [.neck, .leftShoulder, .rightShoulder, .root, .leftHip, .rightHip]
            case .leftArm: [.leftShoulder, .leftElbow, .leftWrist]
            case .rightArm: [.rightShoulder, .rightElbow, .rightWrist]
            case .leftLeg: [.leftHip, .leftKnee, .leftAnkle]
            case .rightLeg: [.rightHip, .rightKnee, .rightAnkle]
            case .all: JointName.allCases
            }
        }
    }

    /// The 33 landmarks of MediaPipe's BlazePose (`pose_landmark_full.tflite`), in the model's order
    /// (`rawValue` is the landmark's index in `landmarks`).
    public enum BodyLandmark: Int, CaseIterable, Sendable, Codable, Hashable {
        /// Face landmarks (indices 0...10 with the mouth's).
        case nose, leftEyeInner, leftEye, leftEyeOuter, rightEyeInner, rightEye, rightEyeOuter, leftEar, rightEar
        /// Mouth corners, shoulders, elbows, wrists.
        case mouthLeft, mouthRight, leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
        /// Hand points (pinky, index, thumb) and hips.
        case leftPinky, rightPinky, leftIndex, rightIndex, leftThumb, rightThumb, leftHip, rightHip
        /// Knees, ankles, heels and feet (indices 25...32).
        case leftKnee, rightKnee, leftAnkle, rightAnkle, leftHeel, rightHeel, leftFootIndex, rightFootIndex

        /// The Swift-style name, e.g. `"leftEyeInner"` (the `identifier` of its point in `landmarks`).
        public var name: String { String(describing: self) }
    }

    /// The joints drawn as a skeleton, as Vision's samples connect them: face, shoulders and arms from the
    /// neck, hips and legs from the root, neck to root.
    public static let skeletonPairs: [(JointName, JointName)] = [
        (.leftEar, .leftEye), (.leftEye, .nose), (.nose, .rightEye), (.rightEye, .rightEar), (.nose, .neck),
        (.neck, .leftShoulder), (.leftShoulder, .leftElbow), (.leftElbow, .leftWrist),
        (.neck, .rightShoulder), (.rightShoulder, .rightElbow), (.rightElbow, .rightWrist),
        (.neck, .root), (.root, .leftHip), (.leftHip, .leftKnee), (.leftKnee, .leftAnkle),
        (.root, .rightHip), (.rightHip, .rightKnee), (.rightKnee, .rightAnkle),
    ]

    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// MediaPipe's pose-presence score for this person, 0...1.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The 33 MediaPipe landmarks in `BodyLandmark` order (identifier: `BodyLandmark.name`).
    public let landmarks: [RecognizedPoint]
    /// The person detector's box (MediaPipe's pose detector boxes the face), normalised, lower-left origin.
    public let detectionBox: NormalizedRect
    /// The person's left hand, when the request's `detectsHands` is on and the hand was found (Vision's `leftHand`).
    public var leftHand: HumanHandPoseObservation?
    /// The person's right hand, likewise (Vision's `rightHand`).
    public var rightHand: HumanHandPoseObservation?

    /// Wraps 33 landmarks in `BodyLandmark` order. Throws `invalidArgument` for another count.
    public init(landmarks: [RecognizedPoint], confidence: Float, detectionBox: NormalizedRect, uuid: UUID = UUID())
        throws(VisionError)
    {
        guard landmarks.count == BodyLandmark.allCases.count else {
            throw VisionError(
                .invalidArgument, "a body pose has \(BodyLandmark.allCases.count) landmarks, not \(landmarks.count)")
        }
        self.uuid = uuid
        self.confidence = confidence
        self.landmarks = landmarks
        self.detectionBox = detectionBox
    }

    /// Every joint this observation can report: all of Vision's 19.
    public var availableJointNames: [JointName] { JointName.allCases }

    /// Every joint group: Vision's seven.
    public var availableJointsGroupNames: [JointsGroupName] { JointsGroupName.allCases }

    /// The landmark `landmark` of the 33.
    public func landmark(_ landmark: BodyLandmark) -> RecognizedPoint { landmarks[landmark.rawValue] }

    /// The joint `name`, as Vision's `recognizedPoint(_:)` (its identifier is the joint's name).
    public func recognizedPoint(_ name: JointName) -> RecognizedPoint {
        if let l = name.landmark {
            let p = landmarks[l.rawValue]
            return RecognizedPoint(identifier: name.rawValue, location: p.location, confidence: p.confidence)
        }
        let (a, b) =
            name == .neck
            ? (landmark(.leftShoulder), landmark(.rightShoulder)) : (landmark(.leftHip), landmark(.rightHip))
        return RecognizedPoint(
            identifier: name.rawValue,
            location: NormalizedPoint(x: (a.location.x + b.location.x) / 2, y: (a.location.y + b.location.y) / 2),
            confidence: min(a.confidence, b.confidence))
    }

    /// The joints of a group, by name, as Vision's `recognizedPoints(_:)`.
    public func recognizedPoints(_ group: JointsGroupName) -> [JointName: RecognizedPoint] {
        Dictionary(uniqueKeysWithValues: group.jointNames.map { ($0, recognizedPoint($0)) })
    }

    /// Every joint by its name (`JointName.rawValue`).
    public var allRecognizedPoints: [String: RecognizedPoint] {
        Dictionary(uniqueKeysWithValues: JointName.allCases.map { ($0.rawValue, recognizedPoint($0)) })
    }

    /// The raw values of every joint name, as the keys of `allRecognizedPoints`.
    public var availableKeys: [String] { JointName.allCases.map(\.rawValue) }
}
