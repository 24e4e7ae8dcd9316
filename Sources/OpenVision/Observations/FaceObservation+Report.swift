import Foundation

/// Faces in the report (`faces`, with landmarks for `landmarks`).
extension AnalysisReport {
    /// One face (`DetectFaceRectanglesRequest`, `DetectFaceLandmarksRequest`).
    public struct Face: Sendable, Codable, Hashable {
        /// The observation's confidence, 0...1.
        public var confidence: Float
        /// The bounding box, normalised and in pixels.
        public var box: Box
        /// Radians, counter-clockwise positive as seen; absent when not estimated.
        public var roll: Double?
        /// Radians, positive when the face turns towards the image's right; absent when not estimated.
        public var yaw: Double?
        /// Radians, positive when the face looks up (the face mesh's landmarks only).
        public var pitch: Double?
        /// Region name → points in image coordinates (both ways); present for landmark requests.
        public var landmarks: [String: [Point]]?
        /// How many points the landmarks hold (`FaceLandmarks2D.Constellation`): 76 or 65 (the face mesh, Vision's
        /// revision 3), 68 (dlib, revision 2), 6 (BlazeFace's keypoints).
        public var constellation: Int?
        /// The landmark request's revision (`DetectFaceLandmarksRequest.Revision`): 3 (face mesh) or 2 (dlib); nil for
        /// BlazeFace's keypoints.
        public var revision: Int?
        /// Region name → each point's precision estimate (a share of the face box's width), when the model gives them.
        public var precision: [String: [Float]]?
        /// `DetectFaceCaptureQualityRequest`'s capture quality, 0…1; absent from the other face requests.
        public var captureQuality: Float?
    }

    /// Adds face observations, with landmarks when they carry them.
    public mutating func add(_ observations: [FaceObservation]) {
        faces = observations.map { face in
            var landmarks: [String: [Point]]?
            var precision: [String: [Float]]?
            if let l = face.landmarks {
                let regions: [(String, FaceLandmarks2D.Region)] = [
                    ("faceContour", l.faceContour), ("leftEye", l.leftEye), ("rightEye", l.rightEye),
                    ("leftEyebrow", l.leftEyebrow), ("rightEyebrow", l.rightEyebrow), ("nose", l.nose),
                    ("noseCrest", l.noseCrest), ("medianLine", l.medianLine), ("outerLips", l.outerLips),
                    ("innerLips", l.innerLips), ("leftPupil", l.leftPupil), ("rightPupil", l.rightPupil),
                ]
                // BlazeFace's coarse landmarks leave some regions empty: those are left out.
                landmarks = Dictionary(
                    uniqueKeysWithValues: regions.filter { $0.1.pointCount > 0 }
                        .map { ($0.0, $0.1.pointsNormalizedToImage.map(point)) })
                let estimates = regions.compactMap { name, region in
                    region.precisionEstimatesPerPoint.map { (name, $0) }
                }
                precision = estimates.isEmpty ? nil : Dictionary(uniqueKeysWithValues: estimates)
            }
            let constellation = face.landmarks?.constellation
            let revision: Int? =
                switch constellation {
                case .points76, .points65: DetectFaceLandmarksRequest.Revision.faceMesh.rawValue
                case .points68: DetectFaceLandmarksRequest.Revision.dlib.rawValue
                case .points6, nil: nil
                }
            return Face(
                confidence: face.confidence, box: box(face.boundingBox), roll: face.roll, yaw: face.yaw,
                pitch: face.pitch,
                landmarks: landmarks, constellation: constellation?.rawValue, revision: revision, precision: precision,
                captureQuality: face.captureQuality?.score)
        }
    }

    static func summary(_ faces: [Face]) -> [String] {
        faces.map { f in
            var line = String(format: "  face %.2f ", f.confidence) + at(f.box)
            if let roll = f.roll { line += String(format: " roll=%.1f°", roll * 180 / .pi) }
            if let q = f.captureQuality { line += String(format: " quality=%.2f", q) }
            if let landmarks = f.landmarks {
                line += " landmarks: \(landmarks.count) regions"
                if let c = f.constellation { line += ", \(c) points" }
            }
            return line
        }
    }
}

extension FaceObservation: ReportableObservation {
    /// Appends these observations to `report`'s entries for this kind of result.
    public static func add(_ observations: [Self], to report: inout AnalysisReport) { report.add(observations) }
    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { OverlayItem.items(for: self) }
}
