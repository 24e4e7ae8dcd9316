import Foundation

/// Finds facial landmarks, as Vision's `DetectFaceLandmarksRequest`: for the faces given in
/// `inputFaceObservations`, or for the faces it finds itself when none are given. Uses dlib's
/// 68-point shape predictor (Debian's `libdlib-data`), loaded once per process.
public struct DetectFaceLandmarksRequest: CompletionHandlingRequest {
    public typealias Result = [FaceObservation]
    public var reportName: String { "landmarks" }

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// Faces to fit (boxes relative to the same region of interest); nil finds faces first.
    public var inputFaceObservations: [FaceObservation]?
    /// Up-samplings for the face detector when it runs (see `DetectFaceRectanglesRequest.upsampling`).
    public var upsampling: Int = 1
    /// The dlib shape-predictor file; nil uses `OPENVISION_FACE_LANDMARKS_MODEL` or Debian's
    /// `/usr/share/dlib/shape_predictor_68_face_landmarks.dat`.
    public var modelURL: URL?
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(inputFaceObservations: [FaceObservation]? = nil,
                completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.inputFaceObservations = inputFaceObservations
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let predictor = try ShapePredictor.shared(path: modelURL?.path ?? ShapePredictor.configuredPath)
        guard predictor.parts == 68 else {
            throw VisionError(.invalidModel, "the landmark model predicts \(predictor.parts) points; a 68-point model is required")
        }
        let faces: [FaceObservation]
        if let inputFaceObservations {
            faces = inputFaceObservations
        } else {
            faces = try DlibFaceDetector.detect(in: image, upsampling: upsampling)
        }
        let size = image.size
        var results: [FaceObservation] = []
        for face in faces {
            let box = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
            let pixels = try predictor.predict(in: image, x: box.minX, y: box.minY, width: box.width, height: box.height)
            let bw = max(box.width, 1), bh = max(box.height, 1)
            // Normalise to the face box, lower-left origin, as Vision does.
            let normalized = pixels.map { NormalizedPoint(x: ($0.0 - box.minX) / bw, y: 1 - ($0.1 - box.minY) / bh) }
            let landmarks = FaceLandmarks2D(dlib68: normalized, faceBoundingBox: face.boundingBox, confidence: face.confidence)
            var result = face
            result.landmarks = landmarks
            // Pose from pixel positions (y down): roll from the eye line, yaw from the nose's
            // horizontal position between the face's contour sides.
            func mean(_ r: ClosedRange<Int>) -> (Double, Double) {
                (r.map { pixels[$0].0 }.reduce(0, +) / Double(r.count), r.map { pixels[$0].1 }.reduce(0, +) / Double(r.count))
            }
            let imageLeftEye = mean(36...41), imageRightEye = mean(42...47)
            result.roll = atan2(-(imageRightEye.1 - imageLeftEye.1), imageRightEye.0 - imageLeftEye.0)
            let noseX = pixels[30].0, leftX = pixels[0].0, rightX = pixels[16].0
            let span = rightX - leftX
            if span > 1 {
                let offset = ((noseX - leftX) - (rightX - noseX)) / span
                result.yaw = asin(max(-1, min(1, offset)))
            }
            results.append(result)
        }
        return results
    }
}
