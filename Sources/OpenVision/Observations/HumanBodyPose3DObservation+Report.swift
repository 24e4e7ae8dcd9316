import Foundation

/// 3D body poses in the report (`bodyPoses3D`).
extension AnalysisReport {
    /// One person's 3D body pose (`DetectHumanBodyPose3DRequest`).
    public struct BodyPose3D: Sendable, Codable, Hashable {
        /// One 3D joint.
        public struct Joint3D: Sendable, Codable, Hashable {
            /// The joint's name (`HumanBodyPose3DObservation.JointName.rawValue`).
            public var name: String
            /// The parent joint's name (absent for the root).
            public var parent: String?
            /// Metres relative to the root: x right, y up, z towards the camera.
            public var position: [Float]
            /// Metres relative to the parent joint.
            public var localPosition: [Float]
            /// The joint's point in the image.
            public var point: Point
        }

        /// The pose-presence score.
        public var confidence: Float
        /// Metres; "reference" (1.8 m, no depth) or "measured".
        public var bodyHeight: Float
        /// How `bodyHeight` was found: "reference" (1.8 m, no depth) or "measured".
        public var heightEstimation: String
        /// The camera's position relative to the root, metres (the translation of `cameraOriginMatrix`).
        public var cameraPosition: [Float]
        /// Vision's 17 joints, in `HumanBodyPose3DObservation.JointName` order.
        public var joints: [Joint3D]
    }

    /// Adds 3D body poses.
    public mutating func add(_ observations: [HumanBodyPose3DObservation]) {
        bodyPoses3D = observations.map { pose in
            func xyz(_ v: SIMD3<Float>) -> [Float] { [v.x, v.y, v.z] }
            return BodyPose3D(
                confidence: pose.confidence, bodyHeight: pose.bodyHeight,
                heightEstimation: pose.heightEstimation.rawValue,
                cameraPosition: xyz(pose.cameraOriginMatrix.translation),
                joints: HumanBodyPose3DObservation.JointName.allCases.map { j in
                    let p = pose.recognizedPoint(j)
                    return BodyPose3D.Joint3D(
                        name: j.rawValue, parent: j.parent?.rawValue, position: xyz(p.position.translation),
                        localPosition: xyz(p.localPosition.translation), point: point(pose.pointInImage(j)))
                })
        }
    }

    static func summary(_ poses: [BodyPose3D]) -> [String] {
        poses.map { pose in
            var line = String(
                format: "  body pose 3D %.2f: height %.2f m (%@), camera %.2f m away", pose.confidence, pose.bodyHeight,
                pose.heightEstimation, (pose.cameraPosition.map { $0 * $0 }.reduce(0, +)).squareRoot())
            for name in ["topHead", "leftWrist", "rightWrist"] {
                if let j = pose.joints.first(where: { $0.name == name }), j.position.count == 3 {
                    line += String(format: " %@=(%.2f,%.2f,%.2f)", name, j.position[0], j.position[1], j.position[2])
                }
            }
            return [line]
        }.flatMap { $0 }
    }
}

extension HumanBodyPose3DObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// The skeleton projected into the image (`pointInImage`): each joint to its parent, and the joints as dots.
    public var overlayItems: [OverlayItem] {
        var items = Self.skeletonPairs.map { a, b in
            let left = a.rawValue.hasPrefix("left") || b.rawValue.hasPrefix("left")
            return OverlayItem(
                shape: .polygon([pointInImage(a), pointInImage(b)], closed: false), color: left ? .cyan : .purple,
                lineWidth: 3)
        }
        for j in JointName.allCases {
            items.append(OverlayItem(shape: .points([pointInImage(j)]), color: .yellow, lineWidth: 4))
        }
        items.append(
            OverlayItem(
                shape: .points([pointInImage(.topHead)]), color: .yellow,
                label: String(format: "3D pose %.2f, %.1f m", confidence, bodyHeight), lineWidth: 4))
        return items
    }
}
