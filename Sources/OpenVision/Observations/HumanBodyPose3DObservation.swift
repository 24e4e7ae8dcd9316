import Foundation

/// One person's 3D body pose, as Vision's `HumanBodyPose3DObservation`: Vision's 17 joints in metres, each a
/// transform relative to the root (between the hips) and to its parent joint, the body's height, where the
/// camera is, and each joint's point in the image.
///
/// Ours comes from MediaPipe BlazePose's world landmarks (`pose_landmark_full.tflite`: metres, origin between
/// the hips, the camera's axes; kept unchanged in `worldLandmarks`). Vision's axes: x to the image's right, y up,
/// z towards the camera (MediaPipe's (x, −y, −z)); each joint's transform is a translation (the model gives
/// positions, not joint orientations: the rotation part is the identity). Joints that are MediaPipe landmarks
/// under Vision's names: shoulders, elbows, wrists, hips, knees, ankles. Derived joints: `root` the hips'
/// midpoint, `centerShoulder` the shoulders', `spine` the midpoint of root and centerShoulder, `centerHead` the
/// ears' midpoint, `topHead` centerHead moved on along centerShoulder → centerHead by half that distance (the
/// crown sits about half a neck-and-head length above the ears).
///
/// Height: without depth, Vision reports `.reference`, a body height of 1.8 m, and so do we: the skeleton is
/// scaled so that its straightened height (topHead → centerHead → centerShoulder → spine → root, plus the mean
/// of both legs' hip → knee → ankle → heel) is 1.8 m (`worldScale` is that factor). `.measured` needs LiDAR depth,
/// which we never have. The camera: a pinhole with the focal length the image's longer side in pixels and the
/// principal point at its centre; the hips' position in the camera is the least-squares translation that
/// projects the scaled skeleton onto the image landmarks (visibility ≥ 0.5).
public struct HumanBodyPose3DObservation: VisionObservation {
    /// Vision's 17 3D joint names (`HumanBodyPose3DObservation.JointName`). "Left" is the person's left.
    public enum JointName: String, CaseIterable, Sendable, Codable, Hashable {
        /// Head, shoulders, arms.
        case topHead, centerHead, centerShoulder, leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist,
            rightWrist
        /// Spine, hips (`root` between them) and legs.
        case spine, root, leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle

        /// The joint this one hangs from (nil for the root): the tree from the root up the spine to the head, out
        /// along the shoulders and arms, and down the legs.
        public var parent: JointName? {
            switch self {
            case .root: nil
            case .spine, .leftHip, .rightHip: .root
            case .centerShoulder: .spine
            case .centerHead, .leftShoulder, .rightShoulder: .centerShoulder
            case .topHead: .centerHead
            case .leftElbow: .leftShoulder
            case .rightElbow: .rightShoulder
            case .leftWrist: .leftElbow
            case .rightWrist: .rightElbow
            case .leftKnee: .leftHip
            case .rightKnee: .rightHip
            case .leftAnkle: .leftKnee
            case .rightAnkle: .rightKnee
            }
        }

        /// The MediaPipe landmark this joint is; nil for the derived joints. The 2D pose's joint of the same name
        /// says it (the derived 3D joints have no 2D twin, and `root` is derived in both).
        public var landmark: HumanBodyPoseObservation.BodyLandmark? {
            HumanBodyPoseObservation.JointName(rawValue: rawValue)?.landmark
        }
    }

    /// Vision's 3D joint groups (`HumanBodyPose3DObservation.JointsGroupName`).
    public enum JointsGroupName: String, CaseIterable, Sendable, Codable, Hashable {
        /// Vision's groups; `all` is every joint.
        case head, torso, leftArm, rightArm, leftLeg, rightLeg, all

        /// The joints in the group.
        public var jointNames: [JointName] {
            switch self {
            case .head: [.topHead, .centerHead]
            case .torso: [.centerShoulder, .leftShoulder, .rightShoulder, .spine, .root, .leftHip, .rightHip]
            case .leftArm: [.leftShoulder, .leftElbow, .leftWrist]
            case .rightArm: [.rightShoulder, .rightElbow, .rightWrist]
            case .leftLeg: [.leftHip, .leftKnee, .leftAnkle]
            case .rightLeg: [.rightHip, .rightKnee, .rightAnkle]
            case .all: JointName.allCases
            }
        }
    }

    /// How `bodyHeight` was found, as Vision's `EstimationTechnique`.
    public enum HeightEstimation: String, Sendable, Codable, Hashable {
        /// Vision's reference height, 1.8 m (no depth data).
        case reference
        /// Measured from depth (LiDAR); never ours.
        case measured
    }

    /// One 3D joint, as Vision's `HumanBodyRecognizedPoint3D`.
    public struct RecognizedPoint3D: Sendable, Hashable, Codable {
        /// Which joint this is.
        public let jointName: JointName
        /// The joint's position relative to the root (a translation; metres, Vision's axes).
        public let position: Matrix4x4
        /// The joint's position relative to its parent joint (the root's: relative to itself, the identity).
        public let localPosition: Matrix4x4
        /// The joint it hangs from (nil for the root).
        public var parentJoint: JointName? { jointName.parent }
        /// The joint's name (`JointName.rawValue`).
        public var identifier: String { jointName.rawValue }
    }

    /// Vision's reference body height in metres, used when there is no depth.
    public static let referenceHeight: Float = 1.8

    /// The bones drawn as a skeleton: each joint to its parent.
    public static let skeletonPairs: [(JointName, JointName)] = JointName.allCases.compactMap { j in
        j.parent.map { ($0, j) }
    }

    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// MediaPipe's pose-presence score, 0...1.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The body's height in metres (`referenceHeight` with `.reference`).
    public let bodyHeight: Float
    /// How `bodyHeight` was found: always `.reference` here (no depth data).
    public let heightEstimation: HeightEstimation
    /// The camera relative to the root, as Vision's `cameraOriginMatrix` ("a transform from the skeleton hip to
    /// the camera"): our camera's axes are the skeleton's, so it is a translation.
    public let cameraOriginMatrix: Matrix4x4
    /// MediaPipe's 33 world landmarks as the model gives them (metres, origin between the hips, x right, y down,
    /// z away from the camera; `HumanBodyPoseObservation.BodyLandmark` order), before scaling.
    public let worldLandmarks: [SIMD3<Double>]
    /// The factor taking `worldLandmarks`' metres to the joints' (`referenceHeight` over the skeleton's height).
    public let worldScale: Double
    /// The joints' positions relative to the root, in `JointName` order (metres, Vision's axes).
    let positions: [SIMD3<Float>]
    /// The joints' image points, in `JointName` order (normalised, lower-left origin).
    let imagePoints: [NormalizedPoint]

    /// A 3D pose from MediaPipe's 33 world landmarks and the 33 image landmarks (normalised, lower-left origin, with
    /// their visibility) of an image `width` × `height` pixels. Throws `invalidArgument` for other counts.
    public init(
        worldLandmarks: [SIMD3<Double>], imageLandmarks: [RecognizedPoint], imageWidth: Int, imageHeight: Int,
        confidence: Float, uuid: UUID = UUID()
    ) throws(VisionError) {
        let n = HumanBodyPoseObservation.BodyLandmark.allCases.count
        guard worldLandmarks.count == n, imageLandmarks.count == n else {
            throw VisionError(
                .invalidArgument,
                "a 3D body pose is made of \(n) world and \(n) image landmarks, not "
                    + "\(worldLandmarks.count) and \(imageLandmarks.count)")
        }
        guard imageWidth > 0, imageHeight > 0 else {
            throw VisionError(.invalidArgument, "image size \(imageWidth)×\(imageHeight) is empty")
        }
        self.uuid = uuid
        self.confidence = confidence
        self.worldLandmarks = worldLandmarks
        typealias L = HumanBodyPoseObservation.BodyLandmark
        func w(_ l: L) -> SIMD3<Double> { worldLandmarks[l.rawValue] }
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        // The joints in MediaPipe's axes (unscaled).
        let root = (w(.leftHip) + w(.rightHip)) / 2
        let centerShoulder = (w(.leftShoulder) + w(.rightShoulder)) / 2
        let centerHead = (w(.leftEar) + w(.rightEar)) / 2
        let topHead = centerHead + (centerHead - centerShoulder) * 0.5
        let spine = (root + centerShoulder) / 2
        var world: [SIMD3<Double>] = JointName.allCases.map { j in
            if let l = j.landmark { return w(l) }
            switch j {
            case .topHead: return topHead
            case .centerHead: return centerHead
            case .centerShoulder: return centerShoulder
            case .spine: return spine
            default: return root
            }
        }
        let legs =
            (length(w(.leftHip) - w(.leftKnee)) + length(w(.leftKnee) - w(.leftAnkle))
                + length(w(.leftAnkle) - w(.leftHeel))
                + length(w(.rightHip) - w(.rightKnee)) + length(w(.rightKnee) - w(.rightAnkle))
                + length(w(.rightAnkle) - w(.rightHeel))) / 2
        let height =
            length(topHead - centerHead) + length(centerHead - centerShoulder) + length(centerShoulder - spine)
            + length(spine - root) + legs
        let scale = height.isFinite && height > 1e-3 ? Double(Self.referenceHeight) / height : 1
        worldScale = scale
        bodyHeight = Self.referenceHeight
        heightEstimation = .reference
        world = world.map { ($0 - root) * scale }
        positions = world.map { SIMD3(Float($0.x), Float(-$0.y), Float(-$0.z)) }

        // The camera: the translation t (root in camera coordinates, MediaPipe's axes) projecting the scaled
        // skeleton onto the image landmarks through a pinhole (focal length f, principal point at the centre).
        let f = Double(max(imageWidth, imageHeight))
        let cx = Double(imageWidth) / 2
        let cy = Double(imageHeight) / 2
        let pixels = imageLandmarks.map { $0.pixelLocation(width: imageWidth, height: imageHeight) }
        let scaled = worldLandmarks.map { ($0 - root) * scale }
        var used = (0..<n).filter { imageLandmarks[$0].confidence >= 0.5 }
        if used.count < 4 { used = Array(0..<n) }
        let t = Self.cameraTranslation(
            points: used.map { scaled[$0] }, pixels: used.map { pixels[$0] }, f: f, cx: cx, cy: cy)
        cameraOriginMatrix = .translation(SIMD3(Float(-t.x), Float(t.y), Float(t.z)))

        // Image points: landmarks, midpoints of landmarks, and topHead projected, offset as centerHead's projection is.
        func px(_ l: L) -> (x: Double, y: Double) { pixels[l.rawValue] }
        func mid(_ a: L, _ b: L) -> (x: Double, y: Double) { ((px(a).x + px(b).x) / 2, (px(a).y + px(b).y) / 2) }
        func project(_ p: SIMD3<Double>) -> (x: Double, y: Double) {
            let z = max(p.z + t.z, 1e-6)
            return (f * (p.x + t.x) / z + cx, f * (p.y + t.y) / z + cy)
        }
        let rootPx = mid(.leftHip, .rightHip)
        let shoulderPx = mid(.leftShoulder, .rightShoulder)
        let headPx = mid(.leftEar, .rightEar)
        let topPx: (x: Double, y: Double) = {
            let a = project((topHead - root) * scale)
            let b = project((centerHead - root) * scale)
            let top = (x: headPx.x + a.x - b.x, y: headPx.y + a.y - b.y)
            return top.x.isFinite && top.y.isFinite ? top : headPx
        }()
        let toNormalized = PixelToNormalized(width: imageWidth, height: imageHeight)
        imagePoints = JointName.allCases.map { j in
            let p: (x: Double, y: Double)
            if let l = j.landmark {
                p = px(l)
            } else {
                switch j {
                case .topHead: p = topPx
                case .centerHead: p = headPx
                case .centerShoulder: p = shoulderPx
                case .spine: p = ((rootPx.x + shoulderPx.x) / 2, (rootPx.y + shoulderPx.y) / 2)
                default: p = rootPx
                }
            }
            return toNormalized.point(p.x, p.y)
        }
    }

    /// The least-squares translation t with f (X + t).x / (X + t).z + cx = u (and the same for y, v) for each point,
    /// solved linearly (f tx − (u − cx) tz = (u − cx) Z − f X); when that fails (a singular system, the skeleton
    /// behind the camera), the root straight ahead at the depth giving the skeleton its image size.
    static func cameraTranslation(
        points: [SIMD3<Double>], pixels: [(x: Double, y: Double)], f: Double, cx: Double, cy: Double
    )
        -> SIMD3<Double>
    {
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        var b = [0.0, 0, 0]
        for (p, q) in zip(points, pixels) {
            let du = q.x - cx
            let dv = q.y - cy
            for (row, rhs) in [([f, 0, -du], du * p.z - f * p.x), ([0, f, -dv], dv * p.z - f * p.y)] {
                for i in 0..<3 {
                    for j in 0..<3 { a[i][j] += row[i] * row[j] }
                    b[i] += row[i] * rhs
                }
            }
        }
        if let t = solve3(a, b), t.z > 0.1, t.x.isFinite, t.y.isFinite, t.z.isFinite { return SIMD3(t.x, t.y, t.z) }
        let xs = points.map(\.x)
        let us = pixels.map(\.x)
        let worldSpan = max((xs.max() ?? 0) - (xs.min() ?? 0), 1e-3)
        let pixelSpan = max((us.max() ?? 0) - (us.min() ?? 0), 1)
        return SIMD3(0, 0, f * worldSpan / pixelSpan)
    }

    /// `a` x = `b` by Cramer's rule; nil when singular.
    static func solve3(_ a: [[Double]], _ b: [Double]) -> SIMD3<Double>? {
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(a)
        guard d.isFinite, abs(d) > 1e-12 else { return nil }
        var r = [0.0, 0, 0]
        for c in 0..<3 {
            var m = a
            for i in 0..<3 { m[i][c] = b[i] }
            r[c] = det(m) / d
        }
        return SIMD3(r[0], r[1], r[2])
    }

    /// Every joint this observation reports: Vision's 17.
    public var availableJointNames: [JointName] { JointName.allCases }

    /// Every joint group: Vision's seven.
    public var availableJointsGroupNames: [JointsGroupName] { JointsGroupName.allCases }

    /// The joint `name`, as Vision's `recognizedPoint(_:)`.
    public func recognizedPoint(_ name: JointName) -> RecognizedPoint3D {
        let p = position(name)
        let local = name.parent.map { p - position($0) } ?? .zero
        return RecognizedPoint3D(jointName: name, position: .translation(p), localPosition: .translation(local))
    }

    /// The joints of a group, by name, as Vision's `recognizedPoints(_:)`.
    public func recognizedPoints(_ group: JointsGroupName) -> [JointName: RecognizedPoint3D] {
        Dictionary(uniqueKeysWithValues: group.jointNames.map { ($0, recognizedPoint($0)) })
    }

    /// The joint's position relative to the root (metres, Vision's axes).
    public func position(_ name: JointName) -> SIMD3<Float> { positions[JointName.allCases.firstIndex(of: name)!] }

    /// The joint's point in the image (normalised, lower-left origin, relative to the request's region of
    /// interest), as Vision's `pointInImage(_:)`.
    public func pointInImage(_ name: JointName) -> NormalizedPoint {
        imagePoints[JointName.allCases.firstIndex(of: name)!]
    }

    /// The joint's position relative to the camera, as Vision's `getCameraRelativePosition(_:for:)`: its position
    /// minus the camera's (the camera looks down −z).
    public func cameraRelativePosition(_ name: JointName) -> Matrix4x4 {
        .translation(position(name) - cameraOriginMatrix.translation)
    }

    /// The parent of `name`, as Vision's `parentJointName(_:)`.
    public func parentJointName(_ name: JointName) -> JointName? { name.parent }
}
