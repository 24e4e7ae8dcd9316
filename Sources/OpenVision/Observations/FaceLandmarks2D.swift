import Foundation

/// Facial landmarks as Vision's `FaceObservation.Landmarks2D`: named regions whose points are
/// normalised to the face's bounding box (0...1, lower-left origin). Left and right are the
/// subject's own (the subject's left eye appears on the image's right in a frontal photo).
/// Produced from MediaPipe's face mesh in Vision's 76- or 65-point constellation (`DetectFaceLandmarksRequest`
/// revision 3, the default; see `FaceConstellation` for which mesh point is which), from dlib's 68-point model
/// (revisions 1 and 2; `allPoints` holds the 68 points in dlib's order), or coarse, from BlazeFace's 6 keypoints
/// (`DetectFaceRectanglesRequest`'s BlazeFace revisions; see `init(blazeFaceKeypoints:faceBoundingBox:confidence:)`).
public struct FaceLandmarks2D: Sendable, Hashable, Codable {
    /// How a region's points connect.
    public enum PointsClassification: String, Sendable, Hashable, Codable {
        /// Isolated points (pupils, all points).
        case disconnected
        /// A polyline (contour, eyebrows, nose crest, median line).
        case openPath
        /// A closed loop (eyes, lips, nose).
        case closedPath
    }

    /// One landmark region.
    public struct Region: Sendable, Hashable, Codable {
        /// Points normalised to the face bounding box, lower-left origin.
        public var normalizedPoints: [NormalizedPoint]
        /// Whether the points are separate, an open polyline or a closed loop.
        public var pointsClassification: PointsClassification
        /// The face box the points are relative to (normalised in the analysed image).
        public var faceBoundingBox: NormalizedRect
        /// Per point, an estimate of its error as a share of the face box's width (Vision's
        /// `precisionEstimatesPerPoint`); nil where the model gives none (dlib, BlazeFace). For the face mesh: how far
        /// the point moves when the model reads the mirrored crop; for a pupil, how far the iris model's iris centre lies
        /// from the centre of its iris-rim points (see `DetectFaceLandmarksRequest.estimatesPrecision`).
        public var precisionEstimatesPerPoint: [Float]?

        /// Creates the value from its fields, each as documented on its property (no validation).
        public init(
            normalizedPoints: [NormalizedPoint], pointsClassification: PointsClassification,
            faceBoundingBox: NormalizedRect,
            precisionEstimatesPerPoint: [Float]? = nil
        ) {
            self.normalizedPoints = normalizedPoints
            self.pointsClassification = pointsClassification
            self.faceBoundingBox = faceBoundingBox
            self.precisionEstimatesPerPoint = precisionEstimatesPerPoint
        }

        /// Number of points.
        public var pointCount: Int { normalizedPoints.count }

        /// The points normalised to the analysed image (0...1, lower-left origin).
        public var pointsNormalizedToImage: [NormalizedPoint] {
            normalizedPoints.map {
                NormalizedPoint(
                    x: faceBoundingBox.x + $0.x * faceBoundingBox.width,
                    y: faceBoundingBox.y + $0.y * faceBoundingBox.height)
            }
        }

        /// The points in pixels of an image of `imageSize`, as `VNImagePointForFaceLandmarkPoint`.
        public func pointsInImage(imageSize: CGSize, origin: CoordinateOrigin = .lowerLeft) -> [CGPoint] {
            pointsNormalizedToImage.map { $0.toImageCoordinates(imageSize, origin: origin) }
        }
    }

    /// Vision's constellations: how many points `allPoints` holds.
    public enum Constellation: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        /// dlib's 68 points (revisions 1 and 2).
        case points68 = 68
        /// Vision's 65-point constellation (`VNRequestFaceLandmarksConstellation.constellation65Points`).
        case points65 = 65
        /// Vision's 76-point constellation (`constellation76Points`), revision 3's default.
        case points76 = 76
        /// BlazeFace's 6 keypoints (coarse).
        case points6 = 6

        /// "76", "65", "68", "6".
        public var description: String { String(rawValue) }
    }

    /// Confidence of the landmark fit, 0...1.
    public var confidence: Float
    /// Which constellation `allPoints` is.
    public var constellation: Constellation
    /// Every point of the constellation, in the model's order.
    public var allPoints: Region
    /// The jaw line, ear to ear (an open path); empty when the constellation has none.
    public var faceContour: Region
    /// The person's left eye outline (a closed path; the right one in the image when facing the camera).
    public var leftEye: Region
    /// The person's right eye outline (a closed path).
    public var rightEye: Region
    /// The person's left eyebrow (an open path); empty when the constellation has none.
    public var leftEyebrow: Region
    /// The person's right eyebrow (an open path); empty when the constellation has none.
    public var rightEyebrow: Region
    /// The nose's outline (a closed path); empty when the constellation has none.
    public var nose: Region
    /// The nose's ridge, top to tip (an open path); empty when the constellation has none.
    public var noseCrest: Region
    /// The face's vertical centre line (an open path); empty when the constellation has none.
    public var medianLine: Region
    /// The lips' outer outline (a closed path).
    public var outerLips: Region
    /// The lips' inner outline (a closed path); empty when the constellation has none.
    public var innerLips: Region
    /// The person's left pupil (one point: the eye's centre, or the iris model's where it runs).
    public var leftPupil: Region
    /// The person's right pupil (one point: the eye's centre, or the iris model's where it runs).
    public var rightPupil: Region

    /// Builds the regions from dlib's 68 points, given normalised to the face box.
    init(dlib68 points: [NormalizedPoint], faceBoundingBox box: NormalizedRect, confidence: Float) {
        precondition(points.count == 68, "dlib's model gives 68 points")
        func region(_ indices: [Int], _ kind: PointsClassification) -> Region {
            Region(normalizedPoints: indices.map { points[$0] }, pointsClassification: kind, faceBoundingBox: box)
        }
        func centre(_ indices: ClosedRange<Int>) -> Region {
            let xs = indices.map { points[$0].x }
            let ys = indices.map { points[$0].y }
            let p = NormalizedPoint(x: xs.reduce(0, +) / Double(xs.count), y: ys.reduce(0, +) / Double(ys.count))
            return Region(normalizedPoints: [p], pointsClassification: .disconnected, faceBoundingBox: box)
        }
        self.confidence = confidence
        constellation = .points68
        allPoints = region(Array(0..<68), .disconnected)
        faceContour = region(Array(0...16), .openPath)
        // dlib's 17...21 and 36...41 lie on the image's left: the subject's right.
        rightEyebrow = region(Array(17...21), .openPath)
        leftEyebrow = region(Array(22...26), .openPath)
        rightEye = region(Array(36...41), .closedPath)
        leftEye = region(Array(42...47), .closedPath)
        noseCrest = region(Array(27...30), .openPath)
        nose = region([27, 31, 32, 33, 34, 35], .closedPath)
        medianLine = region([27, 28, 29, 30, 33, 51, 62, 66, 57, 8], .openPath)
        outerLips = region(Array(48...59), .closedPath)
        innerLips = region(Array(60...67), .closedPath)
        rightPupil = centre(36...41)
        leftPupil = centre(42...47)
    }

    /// Coarse landmarks from BlazeFace's 6 keypoints, given normalised to the face box in the model's order:
    /// the subject's right eye, left eye, nose tip, mouth centre, right ear tragion, left ear tragion.
    /// `allPoints` holds the 6; `rightPupil`/`rightEye` and `leftPupil`/`leftEye` are the eye centres, `nose`
    /// the nose tip, `outerLips` the mouth centre, `medianLine` nose tip → mouth centre, `faceContour` the two
    /// ear tragions (right, left); the other regions are empty.
    public init(blazeFaceKeypoints points: [NormalizedPoint], faceBoundingBox box: NormalizedRect, confidence: Float) {
        func region(_ indices: [Int], _ kind: PointsClassification) -> Region {
            Region(
                normalizedPoints: indices.filter { $0 < points.count }.map { points[$0] }, pointsClassification: kind,
                faceBoundingBox: box)
        }
        let empty = Region(normalizedPoints: [], pointsClassification: .disconnected, faceBoundingBox: box)
        self.confidence = confidence
        constellation = .points6
        allPoints = region(Array(0..<points.count), .disconnected)
        rightEye = region([0], .disconnected)
        leftEye = region([1], .disconnected)
        rightPupil = rightEye
        leftPupil = leftEye
        nose = region([2], .disconnected)
        outerLips = region([3], .disconnected)
        medianLine = region([2, 3], .openPath)
        faceContour = region([4, 5], .disconnected)
        leftEyebrow = empty
        rightEyebrow = empty
        noseCrest = empty
        innerLips = empty
    }

    /// Vision's 76- or 65-point constellation from the face mesh: `point(i)` gives mesh point `i` (or a pupil:
    /// `FaceConstellation.pupilRight` / `pupilLeft`) normalised to the face box, lower-left origin, and `precision(i)`
    /// its error estimate (a share of the face box's width).
    init(
        meshTable t: FaceConstellation.Table, constellation: Constellation, faceBoundingBox box: NormalizedRect,
        confidence: Float,
        point: (Int) -> NormalizedPoint, precision: ((Int) -> Float)?
    ) {
        func region(_ indices: [Int], _ kind: PointsClassification) -> Region {
            Region(
                normalizedPoints: indices.map(point), pointsClassification: kind, faceBoundingBox: box,
                precisionEstimatesPerPoint: precision.map { p in indices.map(p) })
        }
        self.confidence = confidence
        self.constellation = constellation
        allPoints = region(t.all, .disconnected)
        faceContour = region(t.faceContour, .openPath)
        rightEye = region(t.rightEye, .closedPath)
        leftEye = region(t.leftEye, .closedPath)
        rightEyebrow = region(t.rightEyebrow, .openPath)
        leftEyebrow = region(t.leftEyebrow, .openPath)
        nose = region(t.nose, .closedPath)
        noseCrest = region(t.noseCrest, .openPath)
        medianLine = region(t.medianLine, .openPath)
        outerLips = region(t.outerLips, .closedPath)
        innerLips = region(t.innerLips, .closedPath)
        rightPupil = region([FaceConstellation.pupilRight], .disconnected)
        leftPupil = region([FaceConstellation.pupilLeft], .disconnected)
    }
}
