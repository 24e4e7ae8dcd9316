import Foundation

/// Finds faces, as Vision's `DetectFaceRectanglesRequest`. Two detectors, chosen with `revision` in the
/// style of Vision's revisions:
/// - `.hog` (revision 1): dlib's HOG frontal face detector. Frontal faces only; faces smaller than about
///   80 pixels are found only with `upsampling` > 0. Reads the gray plane.
/// - `.blazeFaceShortRange` (revision 2) and `.blazeFaceFullRange` (revision 3): MediaPipe's BlazeFace CNN
///   (`face_detection_short_range.tflite`, 128 × 128 input, faces within about 2 m of a phone camera, and
///   `face_detection_full_range_sparse.tflite`, 192 × 192, smaller faces up to about 5 m), as
///   `mp.solutions.face_detection` runs them; rotated and profile faces too. Each face carries the model's
///   6 keypoints as coarse `landmarks` (see `FaceLandmarks2D.init(blazeFaceKeypoints:faceBoundingBox:confidence:)`).
///
/// The default is `Revision.defaultRevision`, chosen from recall and precision on faces with known boxes
/// (docs/requests.md, "Hands and faces").
public struct DetectFaceRectanglesRequest: CompletionHandlingRequest {
    /// One `FaceObservation` per finding; empty when there is none.
    public typealias Result = [FaceObservation]

    /// The face detectors, as Vision's numbered revisions.
    public enum Revision: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// dlib's HOG frontal face detector.
        case hog = 1
        /// MediaPipe BlazeFace, short range (128 × 128).
        case blazeFaceShortRange = 2
        /// MediaPipe BlazeFace, full range (192 × 192, sparse).
        case blazeFaceFullRange = 3

        /// The revision new requests use: HOG, which found more of the faces of the face set with known boxes than
        /// BlazeFace (recall 0.53 vs 0.49 full range and 0.42 short range, precision 1.0 / 1.0 / 0.96;
        /// docs/requests.md, "Hands and faces"): BlazeFace is the better choice for large faces and faces turned 45°
        /// or more.
        public static let defaultRevision: Revision = .hog

        /// Every revision this build supports.
        public static var supportedRevisions: [Revision] { allCases }

        /// The CLI's name: "hog", "blazeface-short", "blazeface-full".
        public var description: String {
            switch self {
            case .hog: "hog"
            case .blazeFaceShortRange: "blazeface-short"
            case .blazeFaceFullRange: "blazeface-full"
            }
        }

        /// The Swift case name ("blazeFaceFullRange").
        public var caseName: String {
            switch self {
            case .hog: "hog"
            case .blazeFaceShortRange: "blazeFaceShortRange"
            case .blazeFaceFullRange: "blazeFaceFullRange"
            }
        }

        /// The revision named `name` (its `description`, its Swift case name or its number), case-insensitive.
        public init?(name: String) {
            let n = name.lowercased()
            guard
                let r = Revision.allCases.first(where: {
                    $0.description == n || String($0.rawValue) == n
                        || $0.caseName.lowercased() == n || "revision\($0.rawValue)" == n
                })
            else { return nil }
            self = r
        }
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// The detector. Default `Revision.defaultRevision`.
    public var revision: Revision
    /// True for BlazeFace (it reads colour); false for HOG, which reads only the gray plane.
    public var requiresColor: Bool { revision != .hog }
    /// HOG only: image pyramid up-samplings before detection: 0 is fastest and finds faces of ~80 px and
    /// up; 1 (the default) finds faces of ~40 px at about 4× the time on large images.
    public var upsampling: Int = 1
    /// Observations less confident than this are dropped. Default 0 (the detector's own threshold applies:
    /// dlib's, or BlazeFace's 0.5 as MediaPipe's `min_detection_confidence`).
    public var minimumConfidence: Float = 0
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// A request for `revision` (nil: the default revision).
    public init(_ revision: Revision? = nil, completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.revision = revision ?? .defaultRevision
        self.completionHandler = completionHandler
    }

    /// 1 for HOG; BlazeFace keeps the region's longer side at least 4× its input (128 or 192 px),
    /// so a JPEG may be decoded at 1/2...1/8 scale.
    public func minimumImageScale(width: Double, height: Double) -> Double {
        // BlazeFace samples the image down to 128 or 192 pixels: a JPEG decoded at 1/2...1/8 scale loses nothing
        // while its longer side stays at least 4× the input's.
        switch revision {
        case .hog: 1
        case .blazeFaceShortRange: min(1, 4 * 128 / max(width, height, 1))
        case .blazeFaceFullRange: min(1, 4 * 192 / max(width, height, 1))
        }
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        guard minimumConfidence.isFinite else {
            throw VisionError(.invalidArgument, "minimumConfidence must be finite")
        }
        let image = try imageForRegionOfInterest(in: context)
        let faces: [FaceObservation]
        switch revision {
        case .hog:
            faces = try DlibFaceDetector.detect(in: image, upsampling: upsampling)
        case .blazeFaceShortRange, .blazeFaceFullRange:
            var detector = try BlazeFaceDetector.installed(revision == .blazeFaceShortRange ? .short : .full)
            detector.minimumScore = max(0.5, minimumConfidence)
            faces = try detector.detect(in: image).map {
                Self.observation($0, imageWidth: image.width, imageHeight: image.height)
            }
        }
        return faces.filter { $0.confidence >= minimumConfidence }
    }

    /// A BlazeFace detection (normalised, top-left origin) as a face observation with coarse landmarks and a roll
    /// from the eye line.
    static func observation(_ d: MediaPipeDetection, imageWidth: Int, imageHeight: Int) -> FaceObservation {
        let (width, height) = (d.xMax - d.xMin, d.yMax - d.yMin)
        let box = NormalizedRect(x: d.xMin, y: 1 - d.yMax, width: width, height: height)
        let points = d.keypoints.map { p -> NormalizedPoint in
            NormalizedPoint(x: width > 0 ? (p.x - d.xMin) / width : 0, y: height > 0 ? (d.yMax - p.y) / height : 0)
        }
        var face = FaceObservation(boundingBox: box, confidence: d.score)
        face.landmarks = FaceLandmarks2D(blazeFaceKeypoints: points, faceBoundingBox: box, confidence: d.score)
        if d.keypoints.count >= 2 {
            // Keypoint 0 is the subject's right eye (on the image's left in a frontal photo); y is down here.
            let right = d.keypoints[0]
            let left = d.keypoints[1]
            face.roll = atan2(-(left.y - right.y) * Double(imageHeight), (left.x - right.x) * Double(imageWidth))
        }
        return face
    }
}
