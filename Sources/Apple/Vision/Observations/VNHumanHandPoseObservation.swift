import Foundation
import OpenVision

/// Which hand, as Vision's `VNChirality`.
public enum VNChirality: Int, Sendable {
    /// The hand could not be told.
    case unknown = 0
    /// The person's left hand.
    case left = -1
    /// The person's right hand.
    case right = 1
}

/// One hand's pose, as Vision's `VNHumanHandPoseObservation`: 21 joints by `JointName`, groups by finger, and
/// `chirality` (OpenVision's `HumanHandPoseObservation`, MediaPipe's hand models).
open class VNHumanHandPoseObservation: VNRecognizedPointsObservation {
    /// Vision's hand joints (`VNHumanHandPoseObservation.JointName`).
    public struct JointName: Hashable, RawRepresentable, Sendable {
        /// The point key Vision uses for this joint.
        public let rawValue: VNRecognizedPointKey
        /// Wraps a key; a key this observation does not know finds no points.
        public init(rawValue: VNRecognizedPointKey) { self.rawValue = rawValue }
        init(_ native: HumanHandPoseObservation.JointName) {
            rawValue = VNRecognizedPointKey(rawValue: native.rawValue)
        }

        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let wrist = JointName(.wrist)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let thumbCMC = JointName(.thumbCMC), thumbMP = JointName(.thumbMP), thumbIP = JointName(.thumbIP),
            thumbTip = JointName(.thumbTip)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let indexMCP = JointName(.indexMCP), indexPIP = JointName(.indexPIP),
            indexDIP = JointName(.indexDIP), indexTip = JointName(.indexTip)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let middleMCP = JointName(.middleMCP), middlePIP = JointName(.middlePIP),
            middleDIP = JointName(.middleDIP)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let middleTip = JointName(.middleTip)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let ringMCP = JointName(.ringMCP), ringPIP = JointName(.ringPIP), ringDIP = JointName(.ringDIP),
            ringTip = JointName(.ringTip)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let littleMCP = JointName(.littleMCP), littlePIP = JointName(.littlePIP),
            littleDIP = JointName(.littleDIP)
        /// Vision's joint names on this line, each the OpenVision `HumanHandPoseObservation.JointName` of the same
        /// name.
        public static let littleTip = JointName(.littleTip)
    }

    /// Vision's finger groups (`VNHumanHandPoseObservation.JointsGroupName`).
    public struct JointsGroupName: Hashable, RawRepresentable, Sendable {
        /// The group key Vision uses for this group.
        public let rawValue: VNRecognizedPointGroupKey
        /// Wraps a key; a key this observation does not know finds no points.
        public init(rawValue: VNRecognizedPointGroupKey) { self.rawValue = rawValue }
        init(_ native: HumanHandPoseObservation.JointsGroupName) {
            rawValue = native == .all ? .all : VNRecognizedPointGroupKey(rawValue: native.rawValue)
        }

        /// Vision's joint groups on this line, each the OpenVision `HumanHandPoseObservation.JointsGroupName` of the
        /// same name.
        public static let thumb = JointsGroupName(.thumb), indexFinger = JointsGroupName(.indexFinger)
        /// Vision's joint groups on this line, each the OpenVision `HumanHandPoseObservation.JointsGroupName` of the
        /// same name.
        public static let middleFinger = JointsGroupName(.middleFinger), ringFinger = JointsGroupName(.ringFinger)
        /// Vision's joint groups on this line, each the OpenVision `HumanHandPoseObservation.JointsGroupName` of the
        /// same name.
        public static let littleFinger = JointsGroupName(.littleFinger), all = JointsGroupName(.all)
    }

    /// The OpenVision observation.
    public let native: HumanHandPoseObservation
    /// The person's left or right hand.
    public let chirality: VNChirality

    init(_ o: HumanHandPoseObservation) {
        native = o
        chirality =
            switch o.chirality {
            case .left: .left
            case .right: .right
            case .unknown: .unknown
            }
        super.init(
            uuid: o.uuid, confidence: o.confidence, points: o.joints,
            groups: HumanHandPoseObservation.JointsGroupName.allCases.map {
                (JointsGroupName($0).rawValue, $0.jointNames.map { VNRecognizedPointKey(rawValue: $0.rawValue) })
            })
    }

    /// Every joint this observation has (all 21).
    public var availableJointNames: [JointName] { HumanHandPoseObservation.JointName.allCases.map(JointName.init) }
    /// Every joint group.
    public var availableJointsGroupNames: [JointsGroupName] {
        HumanHandPoseObservation.JointsGroupName.allCases.map(JointsGroupName.init)
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
