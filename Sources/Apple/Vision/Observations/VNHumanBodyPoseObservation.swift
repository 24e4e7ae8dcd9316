import Foundation
import OpenVision

/// One person's body pose, as Vision's `VNHumanBodyPoseObservation`: 19 joints by `JointName`, in groups by
/// `JointsGroupName` (OpenVision's `HumanBodyPoseObservation`, MediaPipe's BlazePose).
open class VNHumanBodyPoseObservation: VNRecognizedPointsObservation {
    /// Vision's body joints (`VNHumanBodyPoseObservation.JointName`).
    public struct JointName: Hashable, RawRepresentable, Sendable {
        /// The point key Vision uses for this joint.
        public let rawValue: VNRecognizedPointKey
        /// Wraps a key; a key this observation does not know finds no points.
        public init(rawValue: VNRecognizedPointKey) { self.rawValue = rawValue }
        init(_ native: HumanBodyPoseObservation.JointName) {
            rawValue = VNRecognizedPointKey(rawValue: native.rawValue)
        }

        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let nose = JointName(.nose), leftEye = JointName(.leftEye), rightEye = JointName(.rightEye)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftEar = JointName(.leftEar), rightEar = JointName(.rightEar)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftShoulder = JointName(.leftShoulder), rightShoulder = JointName(.rightShoulder),
            neck = JointName(.neck)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftElbow = JointName(.leftElbow), rightElbow = JointName(.rightElbow)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftWrist = JointName(.leftWrist), rightWrist = JointName(.rightWrist)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftHip = JointName(.leftHip), rightHip = JointName(.rightHip), root = JointName(.root)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftKnee = JointName(.leftKnee), rightKnee = JointName(.rightKnee)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPoseObservation.JointName` of the same
        /// name.
        public static let leftAnkle = JointName(.leftAnkle), rightAnkle = JointName(.rightAnkle)
    }

    /// Vision's joint groups (`VNHumanBodyPoseObservation.JointsGroupName`).
    public struct JointsGroupName: Hashable, RawRepresentable, Sendable {
        /// The group key Vision uses for this group.
        public let rawValue: VNRecognizedPointGroupKey
        /// Wraps a key; a key this observation does not know finds no points.
        public init(rawValue: VNRecognizedPointGroupKey) { self.rawValue = rawValue }
        init(_ native: HumanBodyPoseObservation.JointsGroupName) {
            rawValue = native == .all ? .all : VNRecognizedPointGroupKey(rawValue: native.rawValue)
        }

        /// Vision's joint groups on this line, each the OpenVision `HumanBodyPoseObservation.JointsGroupName` of the
        /// same name.
        public static let face = JointsGroupName(.face), torso = JointsGroupName(.torso)
        /// Vision's joint groups on this line, each the OpenVision `HumanBodyPoseObservation.JointsGroupName` of the
        /// same name.
        public static let leftArm = JointsGroupName(.leftArm), rightArm = JointsGroupName(.rightArm)
        /// Vision's joint groups on this line, each the OpenVision `HumanBodyPoseObservation.JointsGroupName` of the
        /// same name.
        public static let leftLeg = JointsGroupName(.leftLeg), rightLeg = JointsGroupName(.rightLeg),
            all = JointsGroupName(.all)
    }

    /// The OpenVision observation (with MediaPipe's 33 landmarks).
    public let native: HumanBodyPoseObservation

    init(_ o: HumanBodyPoseObservation) {
        native = o
        let joints = HumanBodyPoseObservation.JointName.allCases.map { o.recognizedPoint($0) }
        super.init(
            uuid: o.uuid, confidence: o.confidence, points: joints,
            groups: HumanBodyPoseObservation.JointsGroupName.allCases.map {
                (JointsGroupName($0).rawValue, $0.jointNames.map { VNRecognizedPointKey(rawValue: $0.rawValue) })
            },
            keypointKeys: Self.keypointOrder.map { VNRecognizedPointKey(rawValue: $0.rawValue) })
    }

    /// `keypointsMultiArray()`'s 18 joints: OpenPose's COCO order, as Create ML's action classifiers read them.
    static let keypointOrder: [HumanBodyPoseObservation.JointName] = [
        .nose, .neck, .rightShoulder, .rightElbow, .rightWrist, .leftShoulder, .leftElbow, .leftWrist,
        .rightHip, .rightKnee, .rightAnkle, .leftHip, .leftKnee, .leftAnkle, .rightEye, .leftEye, .rightEar, .leftEar,
    ]

    /// Every joint this observation has (all 19).
    public var availableJointNames: [JointName] { HumanBodyPoseObservation.JointName.allCases.map(JointName.init) }
    /// Every joint group.
    public var availableJointsGroupNames: [JointsGroupName] {
        HumanBodyPoseObservation.JointsGroupName.allCases.map(JointsGroupName.init)
    }

    /// The joint `jointName`.
    public func recognizedPoint(_ jointName: JointName) throws -> VNRecognizedPoint {
        try recognizedPoint(forKey: jointName.rawValue)
    }

    /// The joints of `jointsGroupName`, by name.
    public func recognizedPoints(_ jointsGroupName: JointsGroupName) throws -> [JointName: VNRecognizedPoint] {
        Dictionary(
            uniqueKeysWithValues: try recognizedPoints(forGroupKey: jointsGroupName.rawValue).map {
                (JointName(rawValue: $0.key), $0.value)
            })
    }
}
