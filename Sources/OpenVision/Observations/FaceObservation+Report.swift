import Foundation

/// Faces in the report (`faces`, with landmarks for `landmarks`).
extension AnalysisReport {
    public struct Face: Sendable, Codable, Hashable {
        public var confidence: Float
        public var box: Box
        public var roll: Double?
        public var yaw: Double?
        /// Region name → points in image coordinates (both ways); present for landmark requests.
        public var landmarks: [String: [Point]]?
    }

    /// Adds face observations, with landmarks when they carry them.
    public mutating func add(_ observations: [FaceObservation]) {
        faces = observations.map { face in
            var landmarks: [String: [Point]]?
            if let l = face.landmarks {
                let regions: [(String, FaceLandmarks2D.Region)] = [
                    ("faceContour", l.faceContour), ("leftEye", l.leftEye), ("rightEye", l.rightEye),
                    ("leftEyebrow", l.leftEyebrow), ("rightEyebrow", l.rightEyebrow), ("nose", l.nose),
                    ("noseCrest", l.noseCrest), ("medianLine", l.medianLine), ("outerLips", l.outerLips),
                    ("innerLips", l.innerLips), ("leftPupil", l.leftPupil), ("rightPupil", l.rightPupil),
                ]
                // BlazeFace's coarse landmarks leave some regions empty: those are left out.
                landmarks = Dictionary(uniqueKeysWithValues: regions.filter { $0.1.pointCount > 0 }
                    .map { ($0.0, $0.1.pointsNormalizedToImage.map(point)) })
            }
            return Face(confidence: face.confidence, box: box(face.boundingBox), roll: face.roll, yaw: face.yaw,
                        landmarks: landmarks)
        }
    }

    static func summary(_ faces: [Face]) -> [String] {
        faces.map { f in
            var line = String(format: "  face %.2f ", f.confidence) + at(f.box)
            if let roll = f.roll { line += String(format: " roll=%.1f°", roll * 180 / .pi) }
            if let landmarks = f.landmarks { line += " landmarks: \(landmarks.count) regions" }
            return line
        }
    }
}

extension FaceObservation: ReportableObservation {
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
