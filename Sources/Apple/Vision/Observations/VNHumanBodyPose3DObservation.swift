import Foundation
import OpenVision

/// One person's 3D body pose, as Vision's `VNHumanBodyPose3DObservation`: 17 joints by `JointName` (metres relative
/// to the root, Vision's axes), in groups by `JointsGroupName`, the body height, the camera, and each joint's point in
/// the image (OpenVision's `HumanBodyPose3DObservation`, from MediaPipe BlazePose's world landmarks).
open class VNHumanBodyPose3DObservation: VNObservation {
    /// Vision's 3D body joints (`VNHumanBodyPose3DObservation.JointName`).
    public struct JointName: Hashable, RawRepresentable, Sendable {
        /// The point key Vision uses for this joint.
        public let rawValue: VNRecognizedPointKey
        /// Wraps a key; a key this observation does not know finds no points.
        public init(rawValue: VNRecognizedPointKey) { self.rawValue = rawValue }
        init(_ native: HumanBodyPose3DObservation.JointName) {
            rawValue = VNRecognizedPointKey(rawValue: native.rawValue)
        }
        var native: HumanBodyPose3DObservation.JointName? {
            HumanBodyPose3DObservation.JointName(rawValue: rawValue.rawValue)
        }

        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let topHead = JointName(.topHead), centerHead = JointName(.centerHead),
            centerShoulder = JointName(.centerShoulder)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let leftShoulder = JointName(.leftShoulder), rightShoulder = JointName(.rightShoulder)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let leftElbow = JointName(.leftElbow), rightElbow = JointName(.rightElbow)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let leftWrist = JointName(.leftWrist), rightWrist = JointName(.rightWrist)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let spine = JointName(.spine), root = JointName(.root)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let leftHip = JointName(.leftHip), rightHip = JointName(.rightHip)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let leftKnee = JointName(.leftKnee), rightKnee = JointName(.rightKnee)
        /// Vision's joint names on this line, each the OpenVision `HumanBodyPose3DObservation.JointName` of the same
        /// name.
        public static let leftAnkle = JointName(.leftAnkle), rightAnkle = JointName(.rightAnkle)
    }

    /// Vision's 3D joint groups (`VNHumanBodyPose3DObservation.JointsGroupName`).
    public struct JointsGroupName: Hashable, RawRepresentable, Sendable {
        /// The group key Vision uses for this group.
        public let rawValue: VNRecognizedPointGroupKey
        /// Wraps a key; a key this observation does not know finds no points.
        public init(rawValue: VNRecognizedPointGroupKey) { self.rawValue = rawValue }
        init(_ native: HumanBodyPose3DObservation.JointsGroupName) {
            rawValue = native == .all ? .all : VNRecognizedPointGroupKey(rawValue: native.rawValue)
        }

        /// Vision's joint groups on this line, each the OpenVision `HumanBodyPose3DObservation.JointsGroupName` of the
        /// same name.
        public static let head = JointsGroupName(.head), torso = JointsGroupName(.torso)
        /// Vision's joint groups on this line, each the OpenVision `HumanBodyPose3DObservation.JointsGroupName` of the
        /// same name.
        public static let leftArm = JointsGroupName(.leftArm), rightArm = JointsGroupName(.rightArm)
        /// Vision's joint groups on this line, each the OpenVision `HumanBodyPose3DObservation.JointsGroupName` of the
        /// same name.
        public static let leftLeg = JointsGroupName(.leftLeg), rightLeg = JointsGroupName(.rightLeg),
            all = JointsGroupName(.all)
    }

    /// How `bodyHeight` was found, as Vision's `HeightEstimation`.
    public enum HeightEstimation: Int, Sendable {
        /// Vision's reference height, 1.8 m (no depth data): always ours.
        case reference = 0
        /// Measured with LiDAR depth.
        case measured = 1
    }

    /// The OpenVision observation (with MediaPipe's world landmarks).
    public let native: HumanBodyPose3DObservation

    init(_ o: HumanBodyPose3DObservation) {
        native = o
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The body's height in metres.
    public var bodyHeight: Float { native.bodyHeight }
    /// Always `.reference` here (Vision's 1.8 m; there is no depth data).
    public var heightEstimation: HeightEstimation { native.heightEstimation == .measured ? .measured : .reference }
    /// The camera relative to the root ("a transform from the skeleton hip to the camera").
    public var cameraOriginMatrix: simd_float4x4 { simd_float4x4(native.cameraOriginMatrix) }

    /// Every joint this observation has (all 17).
    public var availableJointNames: [JointName] { HumanBodyPose3DObservation.JointName.allCases.map(JointName.init) }
    /// Every joint group.
    public var availableJointsGroupNames: [JointsGroupName] {
        HumanBodyPose3DObservation.JointsGroupName.allCases.map(JointsGroupName.init)
    }

    /// The joint `jointName`; `VNError.invalidArgument` for a name that is not one of the 17.
    public func recognizedPoint(_ jointName: JointName) throws -> VNHumanBodyRecognizedPoint3D {
        VNHumanBodyRecognizedPoint3D(native.recognizedPoint(try Self.joint(jointName)))
    }

    /// The joints of `jointsGroupName`, by name; `VNError.invalidArgument` for an unknown group.
    public func recognizedPoints(_ jointsGroupName: JointsGroupName) throws -> [JointName: VNHumanBodyRecognizedPoint3D]
    {
        guard
            let group =
                (jointsGroupName.rawValue == .all
                    ? .all : HumanBodyPose3DObservation.JointsGroupName(rawValue: jointsGroupName.rawValue.rawValue))
        else {
            throw VNError(.invalidArgument, "'\(jointsGroupName.rawValue)' is not a 3D body joint group")
        }
        return Dictionary(
            uniqueKeysWithValues: native.recognizedPoints(group).map {
                (JointName($0.key), VNHumanBodyRecognizedPoint3D($0.value))
            })
    }

    /// The joint's point in the image (normalised, lower-left origin).
    public func pointInImage(_ jointName: JointName) throws -> VNPoint {
        let p = native.pointInImage(try Self.joint(jointName))
        return VNPoint(x: p.x, y: p.y)
    }

    /// The joint's position relative to the camera, written to `modelPositionOut` (call with `&matrix`).
    public func getCameraRelativePosition(_ modelPositionOut: inout simd_float4x4, for jointName: JointName) throws {
        modelPositionOut = simd_float4x4(native.cameraRelativePosition(try Self.joint(jointName)))
    }

    /// The joint `jointName` hangs from (nil for the root).
    public func parentJointName(_ jointName: JointName) -> JointName? {
        jointName.native?.parent.map(JointName.init)
    }

    static func joint(_ name: JointName) throws -> HumanBodyPose3DObservation.JointName {
        guard let joint = name.native else {
            throw VNError(.invalidArgument, "'\(name.rawValue)' is not a 3D body joint")
        }
        return joint
    }
}
