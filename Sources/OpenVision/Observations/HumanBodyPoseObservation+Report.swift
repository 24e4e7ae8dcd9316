import Foundation

/// Body poses in the report (`bodyPoses`).
extension AnalysisReport {
    /// One person's body pose (`DetectHumanBodyPoseRequest`).
    public struct BodyPose: Sendable, Codable, Hashable {
        /// The pose-presence score.
        public var confidence: Float
        /// Vision's 19 joints, in `HumanBodyPoseObservation.JointName` order.
        public var joints: [Joint]
        /// MediaPipe's 33 landmarks, in the model's order (`HumanBodyPoseObservation.BodyLandmark`).
        public var landmarks: [Joint]
        /// The person's hands (`detectsHands`), when found.
        public var leftHand: Hand?
        /// The person's right hand (`detectsHands`), when found.
        public var rightHand: Hand?
    }

    /// Adds body poses.
    public mutating func add(_ observations: [HumanBodyPoseObservation]) {
        bodyPoses = observations.map { pose in
            BodyPose(
                confidence: pose.confidence,
                joints: HumanBodyPoseObservation.JointName.allCases.map {
                    let p = pose.recognizedPoint($0)
                    return Joint(name: p.identifier, confidence: p.confidence, point: point(p.location))
                },
                landmarks: pose.landmarks.map {
                    Joint(name: $0.identifier, confidence: $0.confidence, point: point($0.location))
                },
                leftHand: pose.leftHand.map(handEntry), rightHand: pose.rightHand.map(handEntry))
        }
    }

    static func summary(_ poses: [BodyPose]) -> [String] {
        poses.map { pose in
            let seen = pose.joints.filter { $0.confidence >= 0.5 }
            var line = String(format: "  body pose %.2f: %d/%d joints", pose.confidence, seen.count, pose.joints.count)
            for name in ["nose", "neck", "root"] {
                if let j = pose.joints.first(where: { $0.name == name }) {
                    line += String(format: " %@=(%.0f,%.0f)", name, j.point.pixels.x, j.point.pixels.y)
                }
            }
            for (side, hand) in [("left", pose.leftHand), ("right", pose.rightHand)] {
                if let wrist = hand?.joints.first {
                    line += String(format: " %@Hand=(%.0f,%.0f)", side, wrist.point.pixels.x, wrist.point.pixels.y)
                }
            }
            return line
        }
    }
}

extension HumanBodyPoseObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] {
        OverlayItem.items(for: self) + [leftHand, rightHand].compactMap { $0 }.flatMap { OverlayItem.items(for: $0) }
    }
}
