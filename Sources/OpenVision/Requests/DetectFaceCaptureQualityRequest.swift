import Foundation

/// Measures how well each face is captured, as Vision's `DetectFaceCaptureQualityRequest`: the faces of
/// `inputFaceObservations` (or those it finds itself: BlazeFace full range, as Vision's face detector revision 3,
/// kept from a score of 0.3 so that poor captures are found and scored) come back with `captureQuality` set, 0…1,
/// higher for sharp, well-exposed, frontal, open-eyed, large faces: a score to compare captures of the same face by.
/// Apple's is a learned model; no model with usable terms is reachable, so OpenVision's is composed from measured
/// factors (`FaceCaptureQualityScorer`; docs/requests.md, "Face capture quality"): the face box's noise-compensated
/// sharpness, noise and exposure (OpenCV), its size, and MediaPipe's face mesh's head pose and eye openness. Faces
/// also get the mesh's roll, yaw, pitch and landmarks (Vision's 76 points) when the mesh model sees them. A face under
/// 8 × 8 pixels inside the image scores 0.
public struct DetectFaceCaptureQualityRequest: CompletionHandlingRequest {
    /// One `FaceObservation` per face, each with its `captureQuality`; empty when there is none.
    public typealias Result = [FaceObservation]

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// Faces to measure (boxes relative to the same region of interest); nil finds faces first.
    public var inputFaceObservations: [FaceObservation]?
    /// The face mesh reads colour.
    public var requiresColor: Bool { true }
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// BlazeFace's score above which this request measures a face it finds itself. Lower than face detection's 0.5
    /// (MediaPipe's `min_detection_confidence`): the faces this request exists to mark down — blurred, dark, turned —
    /// are those a detector is least sure of (astronaut.png's face blurred with σ 8 scores 0.40 where photos without a
    /// face stay under 0.2); the score then says how poor the capture is.
    static let detectionThreshold: Float = 0.3

    /// What `CaptureQuality.originatingRequestDescriptor` says.
    static let descriptor = "DetectFaceCaptureQualityRequest (OpenVision composed score, revision 1)"

    /// A request measuring `inputFaceObservations` (nil: finds faces first).
    public init(
        inputFaceObservations: [FaceObservation]? = nil, completionHandler: RequestCompletionHandler<Result>? = nil
    ) {
        self.inputFaceObservations = inputFaceObservations
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region is invalid, the face models are not installed or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let faces: [FaceObservation]
        if let inputFaceObservations {
            faces = inputFaceObservations
        } else {
            var detector = try BlazeFaceDetector.installed(.full)
            detector.minimumScore = Self.detectionThreshold
            faces = try detector.detect(in: image).map {
                DetectFaceRectanglesRequest.observation($0, imageWidth: image.width, imageHeight: image.height)
            }
        }
        let pipeline = try FaceMeshPipeline.installed()
        // Faces two at a time (each face's models run one thread), in order.
        return try ConcurrentWork.map(faces.count) { (i: Int) throws(VisionError) -> FaceObservation in
            var face = faces[i]
            let f = try Self.factors(of: &face, in: image, pipeline: pipeline)
            face.captureQuality = FaceObservation.CaptureQuality(
                score: Float(f?.score ?? 0), originatingRequestDescriptor: Self.descriptor)
            return face
        }
    }

    /// The quality factors of `face` in `image` (nil for a box with under 8 × 8 pixels inside the image), its pose
    /// and landmarks set from the face mesh when the mesh model sees a face there.
    static func factors(
        of face: inout FaceObservation, in image: VisionImage, pipeline: FaceMeshPipeline
    ) throws(VisionError) -> FaceCaptureQualityScorer.Factors? {
        let size = image.size
        let box = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
        let visible = box.intersection(CGRect(origin: .zero, size: size))
        guard [box.minX, box.minY, box.width, box.height].allSatisfy(\.isFinite), !visible.isNull,
            visible.width >= 8, visible.height >= 8
        else { return nil }
        let measures = try ImageQualityMeasures(
            image, x: Int(visible.minX.rounded()), y: Int(visible.minY.rounded()), width: Int(visible.width.rounded()),
            height: Int(visible.height.rounded()), workWidth: FaceCaptureQualityScorer.workWidth)
        let roll = face.roll.flatMap { $0.isFinite ? $0 : nil } ?? 0
        // The mesh is read whatever its presence score: the score weighs how sure the model is that a face is there.
        let mesh = try pipeline.face(
            in: image, region: FaceMeshPipeline.faceRegion(box: box, roll: roll), mirrorCheck: false,
            presenceThreshold: -.infinity)
        var seen: FaceCaptureQualityScorer.MeshView?
        if let mesh {
            if mesh.presence >= FaceMeshPipeline.presenceThreshold {
                DetectFaceLandmarksRequest.apply(
                    mesh, table: FaceConstellation.points76, constellation: .points76, box: box, imageSize: size,
                    to: &face)
            }
            let pose = FaceMeshPipeline.headPose(mesh.mesh)
            seen = FaceCaptureQualityScorer.MeshView(
                presence: Double(mesh.presence),
                yaw: (pose.yaw + FaceCaptureQualityScorer.noseOffsetYaw(mesh.mesh)) / 2, pitch: pose.pitch,
                eyeAspectRatio: FaceCaptureQualityScorer.eyeAspectRatio(mesh.mesh))
        }
        return FaceCaptureQualityScorer.factors(measures, width: box.width, mesh: seen)
    }

    /// The quality factors of `face` in `image` (benchmarks and calibration: `openvision-bench facequality`).
    package static func factors(of face: FaceObservation, in image: VisionImage) throws(VisionError)
        -> FaceCaptureQualityScorer.Factors?
    {
        var face = face
        return try factors(of: &face, in: image, pipeline: FaceMeshPipeline.installed())
    }
}
