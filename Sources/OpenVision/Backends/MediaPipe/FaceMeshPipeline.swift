import Foundation
import Synchronization

/// MediaPipe's face mesh for still images (`mp.solutions.face_mesh` with `static_image_mode=True`,
/// `refine_landmarks=False`; graphs face_landmark_front_cpu, face_detection_front_detection_to_roi, face_landmark_cpu
/// and iris_landmark_left_and_right_cpu of mediapipe 0.10.14) on the wheel's model files: BlazeFace (short range)
/// finds faces; each face's region is its box rotated so the eye line is level, squared and scaled 1.5;
/// `face_landmark.tflite` reads 468 3D points from a 192 × 192 crop of it; `iris_landmark.tflite` reads each eye's
/// iris from a 64 × 64 crop of the eye's region (mesh points 33/133 and 362/263, scaled 2.3; the subject's left eye
/// mirrored, as MediaPipe's iris graph flips it), whose first point is the pupil.
struct FaceMeshPipeline: Sendable {
    static let landmarkerName = "face_landmark.tflite"
    static let irisName = "iris_landmark.tflite"
    static let meshCount = 468
    /// face_landmark_cpu.pbtxt: the face-presence flag goes through a sigmoid and is kept at 0.5 and up
    /// (the Python solution's `min_tracking_confidence`).
    static let presenceThreshold: Float = 0.5

    /// One face: the 468 mesh points in image pixels (top-left origin; z in x's pixel scale, smaller is nearer the
    /// camera, as MediaPipe's), the pupils (iris centres, pixels), the presence score and the region read.
    struct Face: Sendable {
        var mesh: [(x: Double, y: Double, z: Double)]
        /// The subject's right pupil (on the image's left in a frontal photo) and left pupil.
        var rightPupil: (x: Double, y: Double)
        var leftPupil: (x: Double, y: Double)
        var presence: Float
        var region: MediaPipeRegion
        /// How far each pupil lies from the centre of the iris model's 4 iris-rim points (image pixels): the iris
        /// model's own disagreement about the iris centre.
        var rightPupilSpread: Double
        var leftPupilSpread: Double
        /// When `mirrorCheck` is on: the mesh read from the mirrored crop, mirrored back (image pixels; indices are
        /// the unmirrored mesh's: point i of the mirrored crop is its mirror point `FaceConstellation.mirror(i)`,
        /// only the points of the constellations are mapped).
        var mirroredMesh: [Int: (x: Double, y: Double)]?
    }

    let detector: BlazeFaceDetector
    let landmarker: VisionModel
    let iris: VisionModel

    /// The pipeline on the installed models (loaded once per process); `missingModelData` when they are not installed.
    static func installed() throws(VisionError) -> FaceMeshPipeline {
        FaceMeshPipeline(
            detector: BlazeFaceDetector(
                model: try singleThreaded(MediaPipeModels.faceShortRange), anchors: .faceShortRange),
            landmarker: try singleThreaded(landmarkerName), iris: try singleThreaded(irisName))
    }

    private static let singleThreadedModels = Mutex<[String: VisionModel]>([:])

    /// The detector, mesh and iris models run one thread per session, not on the process-wide pool: they are small
    /// (128 × 128, 192 × 192 and 64 × 64 inputs; the mesh and iris models run 3 or 4 times per face), and on the 2-core machine one thread took 3.2 and 3.0 ms per run where
    /// the shared 2-thread pool took 7.2 and 7.0 ms (`openvision-bench tflite 30`, alternating, under other builds' load).
    /// Loaded once per process, from the models folder as `MediaPipeModels.model(_:)` finds them.
    static func singleThreaded(_ name: String) throws(VisionError) -> VisionModel {
        try singleThreadedModels.withLock { models throws(VisionError) -> VisionModel in
            if let model = models[name] { return model }
            guard let url = ModelLocator.find(name) else {
                _ = try MediaPipeModels.model(name)  // its missingModelData error, naming the folders searched
                throw VisionError(.missingModelData, "the MediaPipe model \(name) is not installed; run scripts/setup")
            }
            var configuration = VisionModel.Configuration()
            configuration.threads = 1
            let model = try VisionModel(contentsOf: url, configuration: configuration)
            models[name] = model
            return model
        }
    }

    /// A BlazeFace detection (image pixels) → its face region: face_detection_front_detection_to_roi.pbtxt
    /// (`DetectionsToRectsCalculator` with the eye keypoints 0 → 1 levelled, `RectTransformationCalculator` scale 1.5,
    /// square on the long side).
    static func faceRegion(detection: MediaPipeDetection) -> MediaPipeRegion {
        MediaPipeRegion(detection: detection, start: 0, end: 1, targetAngle: 0).transformed(
            scaleX: 1.5, scaleY: 1.5, squareLong: true)
    }

    /// A given face box (image pixels, top-left origin) and roll (radians, counter-clockwise as seen) → the region the
    /// mesh model reads, as `faceRegion(detection:)` builds it from BlazeFace's box.
    static func faceRegion(box: CGRect, roll: Double) -> MediaPipeRegion {
        MediaPipeRegion(
            centerX: box.midX, centerY: box.midY, width: box.width, height: box.height,
            rotation: MediaPipeRegion.normalizedRadians(-roll)
        ).transformed(scaleX: 1.5, scaleY: 1.5, squareLong: true)
    }

    /// Faces BlazeFace finds in `image` and in its tiles (`BlazeFaceDetector.detectTiled`: faces in group photos are
    /// too small for the whole image at 128 × 128), best first, as detections in image pixels.
    func detectFaces(in image: VisionImage) throws(VisionError) -> [MediaPipeDetection] {
        let (w, h) = (Double(image.width), Double(image.height))
        return try detector.detectTiled(in: image).map { $0.projected { x, y in (x * w, y * h) } }
    }

    /// The mesh in `region`, or nil when the model's presence score is under `presenceThreshold` (no face there).
    /// `mirrorCheck` also reads the mirrored crop (and the eyes the other way round) for `Face.mirroredMesh`.
    func face(
        in image: VisionImage, region: MediaPipeRegion, mirrorCheck: Bool,
        presenceThreshold: Float = FaceMeshPipeline.presenceThreshold
    ) throws(VisionError) -> Face? {
        let (w, h, nhwc) = try MediaPipeTensorInput.inputGeometry(of: landmarker)
        let m = MediaPipeTensorInput.inverseAffine(region.cropTransform(outputWidth: w, outputHeight: h).rowMajor)
        let name = landmarker.modelDescription.inputs.first?.name ?? "input"
        let input = try MediaPipeTensorInput.warp(
            image, tensorToImage: m, width: w, height: h, nhwc: nhwc, range: 0...1,
            borderReplicate: true, inputName: name)
        // With `mirrorCheck`, the crop mirrored (tensor column u ← w − 1 − u) is read beside it, and later mirrored
        // back (x → w − x). The two reads run at once, as the two eyes do below: each model runs on one thread.
        let mirroredInput =
            mirrorCheck
            ? try MediaPipeTensorInput.warp(
                image, tensorToImage: Self.mirrored(m, width: w), width: w, height: h, nhwc: nhwc, range: 0...1,
                borderReplicate: true, inputName: name) : nil
        let (read, mirroredRead) = try ConcurrentWork.pair(
            { () throws(VisionError) in try readMesh(input, threshold: presenceThreshold) },
            { () throws(VisionError) -> ([Float], Float)? in
                guard let mirroredInput else { return nil }
                return try readMesh(mirroredInput, threshold: -.infinity)
            })
        guard let (raw, presence) = read else { return nil }
        let n = Self.meshCount
        let (sx, sy) = (Double(w), Double(h))
        // TensorsToLandmarksCalculator (input pixels → 0...1, z by the input width) and LandmarkProjectionCalculator
        // (onto the image; z times the region's width).
        var mesh: [(x: Double, y: Double, z: Double)] = []
        mesh.reserveCapacity(n)
        for i in 0..<n {
            let p = region.project(x: Double(raw[3 * i]) / sx, y: Double(raw[3 * i + 1]) / sy)
            mesh.append((p.x, p.y, Double(raw[3 * i + 2]) / sx * region.width))
        }
        let points = mesh
        let (right, left) = try ConcurrentWork.pair(
            { () throws(VisionError) in try pupil(in: image, mesh: points, from: 33, to: 133, mirrored: false) },
            { () throws(VisionError) in try pupil(in: image, mesh: points, from: 362, to: 263, mirrored: true) })
        var face = Face(
            mesh: mesh, rightPupil: (right.x, right.y), leftPupil: (left.x, left.y), presence: presence, region: region,
            rightPupilSpread: right.spread, leftPupilSpread: left.spread)
        if let (mraw, _) = mirroredRead {
            var points: [Int: (x: Double, y: Double)] = [:]
            for i in FaceConstellation.usedMeshIndices {
                let j = FaceConstellation.mirror(i)
                points[i] = region.project(x: 1 - Double(mraw[3 * j]) / sx, y: Double(mraw[3 * j + 1]) / sy)
            }
            face.mirroredMesh = points
        }
        return face
    }

    /// The mesh model's raw points (input pixels, 468 × 3) and presence, or nil below `threshold`.
    private func readMesh(_ input: Tensor, threshold: Float = presenceThreshold) throws(VisionError) -> (
        [Float], Float
    )? {
        let outputs = try landmarker.backend.run([input])
        let n = Self.meshCount
        guard let points = outputs.first(where: { $0.count == n * 3 }),
            let flag = outputs.first(where: { $0.count == 1 })
        else {
            throw VisionError(
                .invalidModel,
                "\(landmarker.url.lastPathComponent) is not MediaPipe's face mesh model: outputs "
                    + "\(outputs.map { "\($0.shape)" }.joined(separator: ", ")); expected \(n * 3) landmark values and a face flag"
            )
        }
        let presence = 1 / (1 + exp(-flag.scalars[0]))
        guard presence >= threshold else { return nil }
        return (points.scalars, presence)
    }

    /// `tensorToImage` with the tensor's columns mirrored (column u reads what column `width − 1 − u` read).
    static func mirrored(_ m: [Double], width: Int) -> [Double] {
        let c = Double(width - 1)
        return [-m[0], m[1], m[0] * c + m[2], -m[3], m[4], m[3] * c + m[5], 0, 0, 1]
    }

    /// The eye region of iris_landmark_landmarks_to_roi.pbtxt from the mesh points `a` → `b` (image pixels):
    /// `LandmarksToDetectionCalculator` (their box), `DetectionsToRectsCalculator` (rotated so a → b is level),
    /// `RectTransformationCalculator` (scale 2.3, square on the long side).
    static func eyeRegion(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> MediaPipeRegion {
        let d = MediaPipeDetection(
            xMin: min(a.x, b.x), yMin: min(a.y, b.y), xMax: max(a.x, b.x), yMax: max(a.y, b.y),
            keypoints: [a, b], score: 1)
        return MediaPipeRegion(detection: d, start: 0, end: 1, targetAngle: 0).transformed(
            scaleX: 2.3, scaleY: 2.3, squareLong: true)
    }

    /// The pupil (the iris model's first iris point, image pixels) of the eye from mesh point `a` to `b`, read from
    /// the eye's crop, mirrored when `mirrored` (iris_landmark_cpu.pbtxt flips the subject's left eye so that both
    /// eyes look like the subject's right one; the points are flipped back), and its distance (pixels) from the centre
    /// of the model's 4 iris-rim points.
    func pupil(
        in image: VisionImage, mesh: [(x: Double, y: Double, z: Double)], from a: Int, to b: Int,
        mirrored: Bool
    ) throws(VisionError) -> (x: Double, y: Double, spread: Double) {
        let region = Self.eyeRegion((mesh[a].x, mesh[a].y), (mesh[b].x, mesh[b].y))
        let (w, h, nhwc) = try MediaPipeTensorInput.inputGeometry(of: iris)
        var m = MediaPipeTensorInput.inverseAffine(region.cropTransform(outputWidth: w, outputHeight: h).rowMajor)
        if mirrored { m = Self.mirrored(m, width: w) }
        let input = try MediaPipeTensorInput.warp(
            image, tensorToImage: m, width: w, height: h, nhwc: nhwc, range: 0...1,
            borderReplicate: true, inputName: iris.modelDescription.inputs.first?.name ?? "input")
        let outputs = try iris.backend.run([input])
        // iris_landmark.tflite: eye contour [1, 213] (71 × 3) and iris [1, 15] (5 × 3: centre, then 4 rim points).
        guard let points = outputs.first(where: { $0.count == 15 }) else {
            throw VisionError(
                .invalidModel,
                "\(iris.url.lastPathComponent) is not MediaPipe's iris model: outputs "
                    + "\(outputs.map { "\($0.shape)" }.joined(separator: ", ")); expected a 15-value iris output")
        }
        func point(_ k: Int) -> (x: Double, y: Double) {
            let x = Double(points.scalars[3 * k]) / Double(w)
            let y = Double(points.scalars[3 * k + 1]) / Double(h)
            return region.project(x: mirrored ? 1 - x : x, y: y)
        }
        let centre = point(0)
        let rim = (1...4).map(point)
        let rimX = rim.map(\.x).reduce(0, +) / 4
        let rimY = rim.map(\.y).reduce(0, +) / 4
        return (centre.x, centre.y, hypot(centre.x - rimX, centre.y - rimY))
    }

    /// Faces in `image` (BlazeFace's, each read once; regions overlapping an earlier one by IoU > 0.5 dropped, as
    /// `AssociationNormRectCalculator`), at most `maximumCount`, with their detections.
    func faces(in image: VisionImage, maximumCount: Int, mirrorCheck: Bool) throws(VisionError) -> [(
        MediaPipeDetection, Face
    )] {
        var kept: [(MediaPipeDetection, MediaPipeRegion)] = []
        for d in try detectFaces(in: image) {
            let region = Self.faceRegion(detection: d)
            kept.removeAll { $0.1.iou(region) > 0.5 }
            kept.append((d, region))
        }
        // Faces two at a time on two cores: each face's own runs (the mesh and its mirror, the two eyes) then mostly
        // run one after the other, with no wait between them for the slower of a pair.
        let regions = Array(kept.prefix(maximumCount))
        let meshes = try ConcurrentWork.map(regions.count) { (i: Int) throws(VisionError) -> Face? in
            try face(in: image, region: regions[i].1, mirrorCheck: mirrorCheck)
        }
        return zip(regions, meshes).compactMap { r, face in face.map { (r.0, $0) } }
    }

    /// The head's pose from the mesh's 3D points (image pixels, y down, z in x's scale and smaller nearer): the face's
    /// left–right axis is the sum of five mirror pairs' vectors (outer and inner eye corners, cheeks at the ears' level,
    /// mouth corners, the contour at the temples: 33→263, 133→362, 234→454, 61→291, 127→356), its up axis the chin →
    /// forehead vector (152 → 10) made orthogonal to it, its forward axis their cross product (out of the face). In a
    /// frame with x right, y up and z towards the camera: `roll` is the left–right axis's angle in the image plane
    /// (counter-clockwise positive as seen), `yaw` the forward axis's turn about the vertical (positive when the face
    /// turns towards the image's right, i.e. the subject's left), `pitch` its elevation (positive when the face looks
    /// up). A frontal, upright face gives 0, 0, 0 (in MediaPipe's canonical face model, canonical_face_model.obj, the
    /// chin → forehead line is within 1° of the vertical and the pairs are exact mirror images). Radians.
    static func headPose(_ mesh: [(x: Double, y: Double, z: Double)]) -> (roll: Double, yaw: Double, pitch: Double) {
        func v(_ i: Int) -> SIMD3<Double> { SIMD3(mesh[i].x, -mesh[i].y, -mesh[i].z) }
        var x = SIMD3<Double>(repeating: 0)
        for (right, left) in [(33, 263), (133, 362), (234, 454), (61, 291), (127, 356)] { x += v(left) - v(right) }
        func normalized(_ a: SIMD3<Double>) -> SIMD3<Double> {
            let n = (a * a).sum().squareRoot()
            return n > 0 ? a / n : SIMD3(0, 0, 0)
        }
        x = normalized(x)
        var y = v(10) - v(152)
        y = normalized(y - (y * x).sum() * x)
        let z = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        return (atan2(x.y, x.x), atan2(z.x, z.z), atan2(z.y, (z.x * z.x + z.z * z.z).squareRoot()))
    }
}
