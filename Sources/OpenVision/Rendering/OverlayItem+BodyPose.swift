import Foundation

extension OverlayItem {
    /// Joints below this confidence are not drawn (MediaPipe's drawing utilities use the same 0.5 on visibility).
    public static let minimumDrawnJointConfidence: Float = 0.5

    /// A body pose's skeleton: Vision's joint pairs as green lines (left side) and orange lines (right side and
    /// the middle), and each joint as a red dot; joints below `minimumDrawnJointConfidence` are left out.
    public static func items(for pose: HumanBodyPoseObservation) -> [OverlayItem] {
        var items: [OverlayItem] = []
        for (a, b) in HumanBodyPoseObservation.skeletonPairs {
            let p = pose.recognizedPoint(a)
            let q = pose.recognizedPoint(b)
            guard p.confidence >= minimumDrawnJointConfidence, q.confidence >= minimumDrawnJointConfidence else {
                continue
            }
            let left = a.rawValue.hasPrefix("left") || b.rawValue.hasPrefix("left")
            items.append(
                OverlayItem(
                    shape: .polygon([p.location, q.location], closed: false), color: left ? .green : .orange,
                    lineWidth: 3))
        }
        // One item per joint: the live viewer draws a one-point item as a dot (and several as a line).
        for joint in HumanBodyPoseObservation.JointName.allCases.map(pose.recognizedPoint)
        where joint.confidence >= minimumDrawnJointConfidence {
            items.append(OverlayItem(shape: .points([joint.location]), color: .red, lineWidth: 4))
        }
        return items
    }
}
