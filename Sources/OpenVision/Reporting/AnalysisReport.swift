import Foundation

/// A JSON-friendly report of one image's analysis, with every box and point given both
/// normalised (0...1, lower-left origin, as Vision) and in pixels (top-left origin, as image
/// files and browsers). The schema is documented in docs/json-schema.md.
public struct AnalysisReport: Sendable, Codable, Hashable {
    /// A rect both ways.
    public struct Box: Sendable, Codable, Hashable {
        public var normalized: NormalizedRect
        public var pixels: PixelRect
    }

    /// A pixel rect, origin top-left.
    public struct PixelRect: Sendable, Codable, Hashable {
        public var x: Double, y: Double, width: Double, height: Double
    }

    /// A point both ways.
    public struct Point: Sendable, Codable, Hashable {
        public var normalized: NormalizedPoint
        public var pixels: PixelPoint
    }

    /// A pixel point, origin top-left.
    public struct PixelPoint: Sendable, Codable, Hashable {
        public var x: Double, y: Double
    }

    public struct Barcode: Sendable, Codable, Hashable {
        public var symbology: String
        public var payload: String?
        public var payloadBase64: String
        public var confidence: Float
        public var isColorInverted: Bool
        public var box: Box
        /// topLeft, topRight, bottomRight, bottomLeft.
        public var corners: [Point]
    }

    public struct Rectangle: Sendable, Codable, Hashable {
        public var confidence: Float
        public var box: Box
        /// topLeft, topRight, bottomRight, bottomLeft.
        public var corners: [Point]
    }

    public struct Face: Sendable, Codable, Hashable {
        public var confidence: Float
        public var box: Box
        public var roll: Double?
        public var yaw: Double?
        /// Region name → points in image coordinates (both ways); present for landmark requests.
        public var landmarks: [String: [Point]]?
    }

    public struct TextLine: Sendable, Codable, Hashable {
        public var string: String
        public var confidence: Float
        public var box: Box
        public var words: [Word]
        /// topLeft, topRight, bottomRight, bottomLeft in reading order (a rotated quadrilateral for a
        /// rotated line on `.accurate`; the box's corners on `.fast`).
        public var corners: [Point]? = nil
    }

    public struct Word: Sendable, Codable, Hashable {
        public var string: String
        public var confidence: Float
        public var box: Box
    }

    public struct Object: Sendable, Codable, Hashable {
        public var label: String
        public var confidence: Float
        public var box: Box
        /// Labels with confidences, best first.
        public var labels: [Label]
        /// The object's track ID when the live pipeline tracks objects (`video|live --track`); absent for an
        /// object that is not (yet) a confirmed track.
        public var trackID: Int?
    }

    public struct Human: Sendable, Codable, Hashable {
        public var confidence: Float
        public var box: Box
        /// True when the box covers head and torso only.
        public var upperBodyOnly: Bool
    }

    /// One hand (`DetectHumanHandPoseRequest`).
    public struct Hand: Sendable, Codable, Hashable {
        /// The hand presence score.
        public var confidence: Float
        /// "left" or "right" (the person's own hand), or "unknown".
        public var chirality: String
        public var chiralityConfidence: Float
        /// The joints' bounding box.
        public var box: Box
        /// Vision's 21 joints, wrist first, then thumb, index, middle, ring and little finger, base to tip.
        public var joints: [Joint]
    }

    /// A named point with its confidence (a body joint or landmark).
    public struct Joint: Sendable, Codable, Hashable {
        public var name: String
        public var confidence: Float
        public var point: Point
    }

    /// One person's body pose (`DetectHumanBodyPoseRequest`).
    public struct BodyPose: Sendable, Codable, Hashable {
        /// The pose-presence score.
        public var confidence: Float
        /// Vision's 19 joints, in `HumanBodyPoseObservation.JointName` order.
        public var joints: [Joint]
        /// MediaPipe's 33 landmarks, in the model's order (`HumanBodyPoseObservation.BodyLandmark`).
        public var landmarks: [Joint]
    }

    public struct Label: Sendable, Codable, Hashable {
        public var identifier: String
        public var confidence: Float
    }

    /// One raw model output (`RunModelRequest`): values only up to `maximumReportedValues`.
    public struct Output: Sendable, Codable, Hashable {
        public var name: String
        public var shape: [Int]
        /// Every value, row-major; nil when the output has more than `maximumReportedValues`.
        public var values: [Float]?
    }

    /// `DetectContoursRequest`'s tree, flattened (parents before children).
    public struct Contours: Sendable, Codable, Hashable {
        public var contourCount: Int
        public var topLevelContourCount: Int
        public var contours: [ContourEntry]
    }

    public struct ContourEntry: Sendable, Codable, Hashable {
        /// Position in the tree: [i] top level, [i, j] its j-th child, …
        public var indexPath: [Int]
        public var box: Box
        /// The outline's points, normalised only ([x, y], lower-left origin), closed.
        public var points: [[Float]]
    }

    public struct Horizon: Sendable, Codable, Hashable {
        /// Counter-clockwise as seen, in degrees, -45...45.
        public var angleDegrees: Double
        /// The same in radians (Vision's `VNHorizonObservation.angle`).
        public var angle: Double
        /// The levelling rotation about the origin: [m11, m12, m21, m22, tX, tY] (Foundation's `AffineTransform`).
        public var transform: [Double]
    }

    /// An image-valued result: its size and, when written (`--maps DIR`), the files holding it.
    public struct Map: Sendable, Codable, Hashable {
        public var width: Int
        public var height: Int
        public var channels: Int
        /// An 8-bit PNG of the values (0...1 → 0...255).
        public var png: String?
        /// The exact Float32 values as a NumPy `.npy` file.
        public var npy: String?
    }

    public struct Saliency: Sendable, Codable, Hashable {
        public var heatMap: Map
        /// Most confident first.
        public var salientObjects: [Rectangle]
    }

    public struct TextRegion: Sendable, Codable, Hashable {
        public var confidence: Float
        public var box: Box
        /// Character boxes, left to right; present when `reportCharacterBoxes` was set.
        public var characters: [Box]?
    }

    /// A translation aligning a target image (or frame) with its reference (`ImageTranslationAlignmentObservation`).
    public struct Translation: Sendable, Codable, Hashable {
        /// Pixels, lower-left origin, y up (Vision's convention).
        public var tx: Double
        public var ty: Double
        public var confidence: Float
    }

    /// A homography aligning a target image (or frame) with its reference (`ImageHomographicAlignmentObservation`).
    public struct Homography: Sendable, Codable, Hashable {
        /// Target → reference, row-major, lower-left pixel coordinates (Vision's `warpTransform`).
        public var warpTransform: [Double]
        /// The same in top-left pixel coordinates (OpenCV's, for `cv2.warpPerspective`).
        public var openCVTransform: [Double]
        public var confidence: Float
    }

    /// A dense optical-flow field: its size and files (`--maps`) and summary statistics.
    public struct Flow: Sendable, Codable, Hashable {
        /// 2 channels: dx, dy in pixels (y down).
        public var field: Map
        /// Mean displacement in pixels (y down).
        public var meanDx: Double
        public var meanDy: Double
        /// The largest displacement's length in pixels.
        public var maximumMagnitude: Double
    }

    /// An object moving along a parabola (`TrajectoryObservation`).
    public struct Trajectory: Sendable, Codable, Hashable {
        /// Stable while the trajectory is followed.
        public var id: String
        public var confidence: Float
        /// Oldest first.
        public var detectedPoints: [Point]
        public var projectedPoints: [Point]
        /// [a, b, c] of y = a·x² + b·x + c in normalised coordinates (lower-left origin).
        public var equationCoefficients: [Float]
        /// Fraction of the image width.
        public var movingAverageRadius: Double
        /// Seconds (frame times).
        public var start: Double
        public var end: Double
    }

    /// Model outputs larger than this many values are reported by name and shape only.
    public static let maximumReportedValues = 4096

    public struct Failure: Sendable, Codable, Hashable {
        public var code: String
        public var message: String
    }

    /// The image path or name.
    public var image: String
    /// Upright size in pixels.
    public var width: Int
    public var height: Int
    public var barcodes: [Barcode]?
    public var rectangles: [Rectangle]?
    public var faces: [Face]?
    public var text: [TextLine]?
    public var objects: [Object]?
    /// `RecognizeAnimalsRequest`: objects labelled `Cat` or `Dog`.
    public var animals: [Object]?
    /// `DetectHumanRectanglesRequest`.
    public var humans: [Human]?
    /// `DetectHumanHandPoseRequest`.
    public var hands: [Hand]?
    /// `DetectHumanBodyPoseRequest`: one entry per person.
    public var bodyPoses: [BodyPose]?
    /// `GeneratePersonSegmentationRequest`: the mask's size and, with `--maps`, its files.
    public var personMask: Map?
    public var classifications: [Label]?
    /// The feature print vector (`GenerateImageFeaturePrintRequest`).
    public var featurePrint: [Float]?
    /// Raw model outputs (`RunModelRequest`).
    public var outputs: [Output]?
    /// `DetectContoursRequest`.
    public var contours: Contours?
    /// `DetectHorizonRequest` (absent when there is no horizon).
    public var horizon: Horizon?
    /// `GenerateAttentionBasedSaliencyImageRequest`.
    public var saliency: Saliency?
    /// `GenerateObjectnessBasedSaliencyImageRequest`.
    public var objectness: Saliency?
    /// `DetectTextRectanglesRequest`.
    public var textRectangles: [TextRegion]?
    /// `DetectDocumentSegmentationRequest` (absent when there is no document).
    public var document: Rectangle?
    /// `TranslationalImageRegistrationRequest` / `TrackTranslationalImageRegistrationRequest` (absent when there is none).
    public var translation: Translation?
    /// `HomographicImageRegistrationRequest` / `TrackHomographicImageRegistrationRequest` (absent when there is none).
    public var homography: Homography?
    /// `GenerateOpticalFlowRequest` / `TrackOpticalFlowRequest` (absent on a sequence's first frame).
    public var opticalFlow: Flow?
    /// `DetectTrajectoriesRequest` (an empty array on frames that continue no trajectory).
    public var trajectories: [Trajectory]?
    /// For video frames: the frame index and the source's timestamp in seconds.
    public var frame: Int?
    public var timestamp: Double?
    /// Live frames: tracks started and ended and line crossings on this frame (see `AnalysisReport+Live.swift`).
    public var events: [Event]?
    /// Live frames with a counting line: the line and its totals so far.
    public var counting: Counting?
    /// Live frames with pinned labels: every anchor and its state on this frame.
    public var anchors: [PinnedLabel]?
    /// Live frames with a label classifier: its latest top classification.
    public var topLabel: Label?
    /// Request name → error, for requests that failed.
    public var errors: [String: Failure]?
    /// The decoder's warnings: the image is damaged (e.g. a truncated JPEG, its missing part gray)
    /// and results may be incomplete. Absent for a clean image.
    public var warnings: [String]?
    /// Stage name → milliseconds.
    public var timingsMs: [String: Double]?

    public init(image: String, width: Int, height: Int) {
        self.image = image
        self.width = width
        self.height = height
    }

    var size: CGSize { CGSize(width: width, height: height) }

    func box(_ r: NormalizedRect) -> Box {
        let p = r.toImageCoordinates(size, origin: .upperLeft)
        return Box(normalized: r, pixels: PixelRect(x: p.minX, y: p.minY, width: p.width, height: p.height))
    }

    func point(_ n: NormalizedPoint) -> Point {
        let p = n.toImageCoordinates(size, origin: .upperLeft)
        return Point(normalized: n, pixels: PixelPoint(x: p.x, y: p.y))
    }

    /// Adds barcode observations (relative to the full image).
    public mutating func add(_ observations: [BarcodeObservation]) {
        barcodes = observations.map {
            Barcode(symbology: $0.symbology.rawValue, payload: $0.payloadString,
                    payloadBase64: $0.payloadData.base64EncodedString(), confidence: $0.confidence,
                    isColorInverted: $0.isColorInverted, box: box($0.boundingBox), corners: $0.corners.map(point))
        }
    }

    /// Adds rectangle observations.
    public mutating func add(_ observations: [RectangleObservation]) {
        rectangles = observations.map {
            Rectangle(confidence: $0.confidence, box: box($0.boundingBox), corners: $0.corners.map(point))
        }
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

    /// Adds recognised text lines (best candidate).
    public mutating func add(_ observations: [RecognizedTextObservation]) {
        text = observations.compactMap { line in
            guard let best = line.candidates.first else { return nil }
            return TextLine(string: best.string, confidence: best.confidence, box: box(line.boundingBox),
                            words: best.words.map { Word(string: $0.string, confidence: $0.confidence, box: box($0.boundingBox)) },
                            corners: line.corners.map(point))
        }
    }

    /// Adds detected objects.
    public mutating func add(_ observations: [RecognizedObjectObservation]) {
        objects = observations.map { o in
            Object(label: o.labels.first?.identifier ?? "?", confidence: o.confidence, box: box(o.boundingBox),
                   labels: o.labels.map { Label(identifier: $0.identifier, confidence: $0.confidence) })
        }
    }

    /// Adds animals (`RecognizeAnimalsRequest`) under `animals`.
    public mutating func addAnimals(_ observations: [RecognizedObjectObservation]) {
        var other = AnalysisReport(image: image, width: width, height: height)
        other.add(observations)
        animals = other.objects
    }

    /// Adds people (`DetectHumanRectanglesRequest`).
    public mutating func add(_ observations: [HumanObservation]) {
        humans = observations.map { Human(confidence: $0.confidence, box: box($0.boundingBox), upperBodyOnly: $0.upperBodyOnly) }
    }

    /// Adds hands (`DetectHumanHandPoseRequest`).
    public mutating func add(_ observations: [HumanHandPoseObservation]) {
        hands = observations.map { hand in
            Hand(confidence: hand.confidence, chirality: hand.chirality.rawValue, chiralityConfidence: hand.chiralityConfidence,
                 box: box(hand.boundingBox), joints: hand.joints.map { joint in
                     Joint(name: joint.identifier, confidence: joint.confidence, point: point(joint.location))
                 })
        }
    }

    /// Adds body poses.
    public mutating func add(_ observations: [HumanBodyPoseObservation]) {
        bodyPoses = observations.map { pose in
            BodyPose(confidence: pose.confidence,
                     joints: HumanBodyPoseObservation.JointName.allCases.map {
                         let p = pose.recognizedPoint($0)
                         return Joint(name: p.identifier, confidence: p.confidence, point: point(p.location))
                     },
                     landmarks: pose.landmarks.map { Joint(name: $0.identifier, confidence: $0.confidence, point: point($0.location)) })
        }
    }

    /// Adds a person-segmentation mask's size (its files are added by whoever writes them).
    public mutating func add(personMask observation: PixelBufferObservation) {
        personMask = Map(width: observation.width, height: observation.height, channels: observation.channels)
    }

    /// Adds classifications.
    public mutating func add(_ observations: [ClassificationObservation]) {
        classifications = observations.map { Label(identifier: $0.identifier, confidence: $0.confidence) }
    }

    /// Adds a feature print.
    public mutating func add(_ observation: FeaturePrintObservation) {
        featurePrint = observation.data
    }

    /// Adds raw model outputs.
    public mutating func add(_ observations: [FeatureValueObservation]) {
        outputs = observations.map {
            Output(name: $0.featureName, shape: $0.shape, values: $0.values.count <= Self.maximumReportedValues ? $0.values : nil)
        }
    }

    /// Adds a contour tree.
    public mutating func add(_ observation: ContoursObservation) {
        contours = Contours(contourCount: observation.contourCount, topLevelContourCount: observation.topLevelContourCount,
                            contours: observation.allContours.map {
                                ContourEntry(indexPath: Array($0.indexPath), box: box($0.boundingBox),
                                             points: $0.normalizedPoints.map { [$0.x, $0.y] })
                            })
    }

    /// Adds a horizon.
    public mutating func add(_ observation: HorizonObservation) {
        let t = observation.transform
        horizon = Horizon(angleDegrees: observation.angle.converted(to: .degrees).value, angle: observation.radians,
                          transform: [t.m11, t.m12, t.m21, t.m22, t.tX, t.tY])
    }

    /// Adds a saliency result, under `objectness` when its heat map's feature name says so, else `saliency`.
    public mutating func add(_ observation: SaliencyImageObservation) {
        let m = observation.heatMap
        let entry = Saliency(heatMap: Map(width: m.width, height: m.height, channels: m.channels),
                             salientObjects: observation.salientObjects.map {
                                 Rectangle(confidence: $0.confidence, box: box($0.boundingBox), corners: $0.corners.map(point))
                             })
        if m.featureName == SaliencyImageObservation.objectnessFeatureName { objectness = entry } else { saliency = entry }
    }

    /// Adds text regions.
    public mutating func add(_ observations: [TextObservation]) {
        textRectangles = observations.map {
            TextRegion(confidence: $0.confidence, box: box($0.boundingBox), characters: $0.characterBoxes?.map { box($0.boundingBox) })
        }
    }

    /// Adds a document's quadrilateral.
    public mutating func add(_ observation: DetectedDocumentObservation) {
        document = Rectangle(confidence: observation.confidence, box: box(observation.boundingBox), corners: observation.corners.map(point))
    }

    /// Adds a translation.
    public mutating func add(_ observation: ImageTranslationAlignmentObservation) {
        translation = Translation(tx: observation.tx, ty: observation.ty, confidence: observation.confidence)
    }

    /// Adds a homography.
    public mutating func add(_ observation: ImageHomographicAlignmentObservation) {
        homography = Homography(warpTransform: observation.warpTransform.rowMajor, openCVTransform: observation.openCVTransform.rowMajor,
                                confidence: observation.confidence)
    }

    /// Adds an optical-flow field (a 2-channel pixel buffer) with its mean and largest displacement.
    public mutating func add(flow observation: PixelBufferObservation) {
        let stats = observation.flowStatistics
        opticalFlow = Flow(field: Map(width: observation.width, height: observation.height, channels: observation.channels),
                           meanDx: stats.meanDx, meanDy: stats.meanDy, maximumMagnitude: stats.maximumMagnitude)
    }

    /// Adds trajectories.
    public mutating func add(_ observations: [TrajectoryObservation]) {
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        trajectories = observations.map {
            Trajectory(id: $0.uuid.uuidString, confidence: $0.confidence, detectedPoints: $0.detectedPoints.map(point),
                       projectedPoints: $0.projectedPoints.map(point),
                       equationCoefficients: [$0.equationCoefficients.x, $0.equationCoefficients.y, $0.equationCoefficients.z],
                       movingAverageRadius: $0.movingAverageRadius, start: seconds($0.timeRange.lowerBound),
                       end: seconds($0.timeRange.upperBound))
        }
    }

    /// Adds one request's outcome: its results (relative to its region of interest, as returned)
    /// or, under `name` (default: the request's `reportName`), its error.
    public mutating func add(_ outcome: VisionRequestOutcome, name: String? = nil) {
        switch outcome.result {
        case .failure(let error): addFailure(name ?? outcome.request.reportName, error)
        case .success(let value): Self.addResults(value, of: outcome.request, to: &self)
        }
    }

    /// The request's own way of reporting its results (`VisionRequest.addResults`), with its type opened.
    private static func addResults<R: VisionRequest>(_ value: any Sendable, of request: R, to report: inout AnalysisReport) {
        guard let results = value as? R.Result else { return }
        request.addResults(results, to: &report)
    }

    /// Records a failed request.
    public mutating func addFailure(_ request: String, _ error: VisionError) {
        errors = (errors ?? [:]).merging([request: Failure(code: error.code.description, message: error.message)]) { $1 }
    }
}
