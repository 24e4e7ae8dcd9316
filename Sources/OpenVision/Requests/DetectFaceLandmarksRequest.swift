import Foundation

/// Finds facial landmarks, as Vision's `DetectFaceLandmarksRequest`: for the faces given in
/// `inputFaceObservations`, or for the faces it finds itself when none are given. Two models, chosen with
/// `revision` as Vision's revisions:
/// - `.faceMesh` (revision 3, the default as Vision's): MediaPipe's face mesh (`face_landmark.tflite`, 468 3D points)
///   and iris model (`iris_landmark.tflite`, the pupils) on BlazeFace's faces, as `mp.solutions.face_mesh` runs them
///   (`FaceMeshPipeline`), in Vision's 76- or 65-point `constellation` (`FaceConstellation`); rotated and profile
///   faces too. Faces get `roll`, `yaw` and `pitch` from the mesh's 3D points and each region
///   `precisionEstimatesPerPoint`.
/// - `.dlib` (revisions 1 and 2 in Vision's numbering): dlib's 68-point shape predictor (Debian's `libdlib-data`) on
///   dlib's HOG frontal faces; roll and yaw from the points.
public struct DetectFaceLandmarksRequest: CompletionHandlingRequest {
    /// One `FaceObservation` per finding; empty when there is none.
    public typealias Result = [FaceObservation]

    /// The landmark models, as Vision's numbered revisions.
    public enum Revision: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// dlib's 68-point predictor on dlib HOG faces (what Vision's revisions 1 and 2 run here).
        case dlib = 2
        /// MediaPipe's face mesh and iris models: Vision's 76 (or 65) points.
        case faceMesh = 3

        /// Vision's default: revision 3.
        public static let defaultRevision: Revision = .faceMesh

        /// The CLI's name: "dlib68" or "mesh76".
        public var description: String {
            switch self {
            case .dlib: "dlib68"
            case .faceMesh: "mesh76"
            }
        }

        /// The revision named `name` (its `description`, its Swift case name, its number or "revisionN"; Vision's
        /// revision 1 is dlib too), case-insensitive.
        public init?(name: String) {
            switch name.lowercased() {
            case "dlib68", "dlib", "1", "2", "revision1", "revision2": self = .dlib
            case "mesh76", "facemesh", "mesh", "3", "revision3": self = .faceMesh
            default: return nil
            }
        }
    }

    /// The part of the image to analyse, normalised with a lower-left origin; the whole image by
    /// default. Results are relative to it.
    public var regionOfInterest: NormalizedRect = .fullImage
    /// The model. Default `Revision.defaultRevision` (the face mesh).
    public var revision: Revision
    /// The face mesh's constellation: `.points76` (the default, as Vision's revision 3) or `.points65`. dlib gives
    /// `.points68` whatever this says.
    public var constellation: FaceLandmarks2D.Constellation = .points76
    /// Face mesh only: estimate each point's precision (`FaceLandmarks2D.Region.precisionEstimatesPerPoint`): how far
    /// each mesh point moves when the model reads the mirrored crop (one more mesh model run per face), and for the
    /// pupils how far the iris model's iris centre lies from the centre of its 4 iris-rim points; both as a share of the
    /// face box's width. Default true.
    public var estimatesPrecision: Bool = true
    /// The face mesh reads colour; dlib only the gray plane.
    public var requiresColor: Bool { revision == .faceMesh }
    /// Faces to fit (boxes relative to the same region of interest); nil finds faces first.
    public var inputFaceObservations: [FaceObservation]?
    /// dlib only: up-samplings for the HOG face detector when it runs (see `DetectFaceRectanglesRequest.upsampling`).
    public var upsampling: Int = 1
    /// dlib only: the shape-predictor file; nil uses `OPENVISION_FACE_LANDMARKS_MODEL` or Debian's
    /// `/usr/share/dlib/shape_predictor_68_face_landmarks.dat`.
    public var modelURL: URL?
    /// Called with the results (or the error) after a handler runs this request; nil for none.
    public var completionHandler: RequestCompletionHandler<Result>?

    /// A request for `revision` (nil: the default revision) fitting `inputFaceObservations` (nil: finds faces first).
    public init(
        _ revision: Revision? = nil, inputFaceObservations: [FaceObservation]? = nil,
        completionHandler: RequestCompletionHandler<Result>? = nil
    ) {
        self.revision = revision ?? .defaultRevision
        self.inputFaceObservations = inputFaceObservations
        self.completionHandler = completionHandler
    }

    /// Runs the request on the handler's image within `regionOfInterest`; throws a `VisionError`
    /// when the region or the options are invalid or the image cannot be analysed.
    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        switch revision {
        case .dlib: try performDlib(in: context)
        case .faceMesh: try performFaceMesh(in: context)
        }
    }

    private func performFaceMesh(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let table: FaceConstellation.Table
        switch constellation {
        case .points76: table = FaceConstellation.points76
        case .points65: table = FaceConstellation.points65
        case .points68, .points6:
            throw VisionError(
                .invalidArgument, "the face mesh gives Vision's 76- or 65-point constellation, not \(constellation)")
        }
        let image = try imageForRegionOfInterest(in: context)
        let pipeline = try FaceMeshPipeline.installed()
        let size = image.size
        var results: [FaceObservation] = []
        if let inputFaceObservations {
            // Faces two at a time (each face's models run one thread), in order.
            let (constellation, mirrorCheck) = (constellation, estimatesPrecision)
            results = try ConcurrentWork.map(inputFaceObservations.count) {
                (i: Int) throws(VisionError) -> FaceObservation in
                var face = inputFaceObservations[i]
                let box = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
                // A box without area or with non-finite values gets no landmarks (the observation comes back as given).
                guard box.width >= 1, box.height >= 1,
                    [box.minX, box.minY, box.width, box.height].allSatisfy(\.isFinite)
                else { return face }
                let roll = face.roll.flatMap { $0.isFinite ? $0 : nil } ?? 0
                let region = FaceMeshPipeline.faceRegion(box: box, roll: roll)
                if let mesh = try pipeline.face(in: image, region: region, mirrorCheck: mirrorCheck) {
                    Self.apply(mesh, table: table, constellation: constellation, box: box, imageSize: size, to: &face)
                }
                return face
            }
        } else {
            let (w, h) = (Double(image.width), Double(image.height))
            for (d, mesh) in try pipeline.faces(in: image, maximumCount: Int.max, mirrorCheck: estimatesPrecision) {
                let box = CGRect(x: d.xMin, y: d.yMin, width: d.xMax - d.xMin, height: d.yMax - d.yMin)
                var face = FaceObservation(
                    boundingBox: NormalizedRect(
                        x: box.minX / w, y: 1 - box.maxY / h, width: box.width / w,
                        height: box.height / h), confidence: d.score)
                Self.apply(mesh, table: table, constellation: constellation, box: box, imageSize: size, to: &face)
                results.append(face)
            }
        }
        return results
    }

    /// The constellation and head pose of `mesh` on `face`, whose box is `box` (pixels, top-left origin).
    static func apply(
        _ mesh: FaceMeshPipeline.Face, table: FaceConstellation.Table, constellation: FaceLandmarks2D.Constellation,
        box: CGRect, imageSize: CGSize, to face: inout FaceObservation
    ) {
        let bw = max(box.width, 1)
        let bh = max(box.height, 1)
        func pixel(_ i: Int) -> (x: Double, y: Double) {
            switch i {
            case FaceConstellation.pupilRight: mesh.rightPupil
            case FaceConstellation.pupilLeft: mesh.leftPupil
            default: (mesh.mesh[i].x, mesh.mesh[i].y)
            }
        }
        // Normalised to the face box, lower-left origin, as Vision does.
        func point(_ i: Int) -> NormalizedPoint {
            let p = pixel(i)
            return NormalizedPoint(x: (p.x - box.minX) / bw, y: 1 - (p.y - box.minY) / bh)
        }
        var precision: ((Int) -> Float)?
        if let mirrored = mesh.mirroredMesh {
            // As a share of the face box's width: how far each mesh point moves between the crop and its mirror image;
            // for the pupils, how far the iris model's iris centre lies from the centre of its iris-rim points.
            precision = { i in
                switch i {
                case FaceConstellation.pupilRight: return Float(mesh.rightPupilSpread / bw)
                case FaceConstellation.pupilLeft: return Float(mesh.leftPupilSpread / bw)
                default:
                    guard let q = mirrored[i] else { return 0 }
                    let p = pixel(i)
                    return Float(hypot(p.x - q.x, p.y - q.y) / bw)
                }
            }
        }
        face.landmarks = FaceLandmarks2D(
            meshTable: table, constellation: constellation, faceBoundingBox: face.boundingBox,
            confidence: mesh.presence,
            point: point, precision: precision)
        let pose = FaceMeshPipeline.headPose(mesh.mesh)
        face.roll = pose.roll
        face.yaw = pose.yaw
        face.pitch = pose.pitch
    }

    private func performDlib(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        let image = try imageForRegionOfInterest(in: context)
        let predictor = try ShapePredictor.shared(path: modelURL?.path ?? ShapePredictor.configuredPath)
        guard predictor.parts == 68 else {
            throw VisionError(
                .invalidModel, "the landmark model predicts \(predictor.parts) points; a 68-point model is required")
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
            let pixels = try predictor.predict(
                in: image, x: box.minX, y: box.minY, width: box.width, height: box.height)
            let bw = max(box.width, 1)
            let bh = max(box.height, 1)
            // Normalise to the face box, lower-left origin, as Vision does.
            let normalized = pixels.map { NormalizedPoint(x: ($0.0 - box.minX) / bw, y: 1 - ($0.1 - box.minY) / bh) }
            let landmarks = FaceLandmarks2D(
                dlib68: normalized, faceBoundingBox: face.boundingBox, confidence: face.confidence)
            var result = face
            result.landmarks = landmarks
            // Pose from pixel positions (y down): roll from the eye line, yaw from the nose's
            // horizontal position between the face's contour sides.
            func mean(_ r: ClosedRange<Int>) -> (Double, Double) {
                (
                    r.map { pixels[$0].0 }.reduce(0, +) / Double(r.count),
                    r.map { pixels[$0].1 }.reduce(0, +) / Double(r.count)
                )
            }
            let imageLeftEye = mean(36...41)
            let imageRightEye = mean(42...47)
            result.roll = atan2(-(imageRightEye.1 - imageLeftEye.1), imageRightEye.0 - imageLeftEye.0)
            let noseX = pixels[30].0
            let leftX = pixels[0].0
            let rightX = pixels[16].0
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
