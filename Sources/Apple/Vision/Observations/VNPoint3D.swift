import Foundation
import OpenVision

/// A point in 3D space, as Vision's `VNPoint3D`: a transform (`position`, metres) whose translation is the point.
open class VNPoint3D {
    /// A transform in metres whose translation (`columns.3`) is the point.
    public let position: simd_float4x4

    /// A point at `position`'s translation.
    public init(position: simd_float4x4) { self.position = position }
}

/// A named 3D point, as Vision's `VNRecognizedPoint3D`.
open class VNRecognizedPoint3D: VNPoint3D {
    /// The point's key (a joint name's raw value).
    public let identifier: VNRecognizedPointKey

    init(identifier: VNRecognizedPointKey, position: simd_float4x4) {
        self.identifier = identifier
        super.init(position: position)
    }
}

/// A 3D body joint, as Vision's `VNHumanBodyRecognizedPoint3D`: its position relative to the root (`position`) and
/// to its parent joint (`localPosition`), and the parent's name.
open class VNHumanBodyRecognizedPoint3D: VNRecognizedPoint3D {
    /// The joint's position relative to its parent joint (metres; the identity for the root).
    public let localPosition: simd_float4x4
    /// The parent joint (the root's own name for the root, which has none).
    public let parentJoint: VNHumanBodyPose3DObservation.JointName

    init(_ p: HumanBodyPose3DObservation.RecognizedPoint3D) {
        localPosition = simd_float4x4(p.localPosition)
        parentJoint = VNHumanBodyPose3DObservation.JointName(p.parentJoint ?? p.jointName)
        super.init(identifier: VNRecognizedPointKey(rawValue: p.identifier), position: simd_float4x4(p.position))
    }
}
