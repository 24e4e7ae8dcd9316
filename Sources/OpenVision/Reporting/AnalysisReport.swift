import Foundation

/// A JSON-friendly report of one image's analysis, with every box and point given both
/// normalised (0...1, lower-left origin, as Vision) and in pixels (top-left origin, as image
/// files and browsers). The schema is documented in docs/json-schema.md.
///
/// This file is the envelope (the image, its size, errors, warnings, timings and the shared value types); each
/// kind of result declares its entry beside its observation (`Observations/<Observation>+Report.swift`: the wire
/// type, how the observations fill it, and its text summary).
public struct AnalysisReport: Sendable, Codable, Hashable {
    /// A rect both ways.
    public struct Box: Sendable, Codable, Hashable {
        /// The rect normalised to 0...1 with a lower-left origin, as Vision.
        public var normalized: NormalizedRect
        /// The same rect in pixels of the upright image, top-left origin.
        public var pixels: PixelRect
    }

    /// A pixel rect, origin top-left.
    public struct PixelRect: Sendable, Codable, Hashable {
        /// Pixels of the upright image; `x`, `y` are the top-left corner.
        public var x: Double, y: Double, width: Double, height: Double
    }

    /// A point both ways.
    public struct Point: Sendable, Codable, Hashable {
        /// The point normalised to 0...1 with a lower-left origin, as Vision.
        public var normalized: NormalizedPoint
        /// The same point in pixels of the upright image, top-left origin.
        public var pixels: PixelPoint
    }

    /// A pixel point, origin top-left.
    public struct PixelPoint: Sendable, Codable, Hashable {
        /// Pixels of the upright image, from its top-left corner, y down.
        public var x: Double, y: Double
    }

    /// A named point with its confidence (a body joint or landmark).
    public struct Joint: Sendable, Codable, Hashable {
        /// The joint's or landmark's name (Vision's joint names, e.g. `left_wrist`).
        public var name: String
        /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
        public var confidence: Float
        /// Where it is, both normalised and in pixels.
        public var point: Point
    }

    /// A classification label with its confidence.
    public struct Label: Sendable, Codable, Hashable {
        /// The label's identifier (the class name).
        public var identifier: String
        /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
        public var confidence: Float
    }

    /// An image-valued result: its size and, when written (`--maps DIR`; inline in the HTTP API), its files.
    public struct Map: Sendable, Codable, Hashable {
        /// Width of the map in its own pixels (not necessarily the image's).
        public var width: Int
        /// Height of the map in its own pixels.
        public var height: Int
        /// Values per pixel (1 for masks and saliency, 2 for optical flow).
        public var channels: Int
        /// An 8-bit PNG of the values (0...1 → 0...255): a path, or a `data:` URL in the HTTP API.
        public var png: String?
        /// The exact Float32 values as a NumPy `.npy` file.
        public var npy: String?

        /// The map of `observation`, with the files written for it.
        init(_ observation: PixelBufferObservation, files: MapFiles?) {
            width = observation.width
            height = observation.height
            channels = observation.channels
            png = files?.png
            npy = files?.npy
        }
    }

    /// What was written for an image-valued result (see `MapOutput`).
    public struct MapFiles: Sendable, Hashable {
        /// The PNG's path, or a `data:` URL; nil when none was written.
        public var png: String?
        /// The `.npy` file's path, or a `data:` URL; nil when none was written.
        public var npy: String?

        /// Names what was written: `png` and `npy` paths or URLs, nil for those not written.
        public init(png: String?, npy: String?) {
            self.png = png
            self.npy = npy
        }
    }

    /// A request's failure: its `VisionError` code and message.
    public struct Failure: Sendable, Codable, Hashable {
        /// The error's code (`VisionError.Code` as text, e.g. `invalidArgument`).
        public var code: String
        /// The error's human-readable message.
        public var message: String
    }

    /// The image path or name.
    public var image: String
    /// Upright size in pixels.
    public var width: Int
    /// Upright height in pixels.
    public var height: Int
    /// `DetectBarcodesRequest`; absent when the request did not run.
    public var barcodes: [Barcode]?
    /// `DetectRectanglesRequest`; absent when the request did not run.
    public var rectangles: [Rectangle]?
    /// `DetectFaceRectanglesRequest` / `DetectFaceLandmarksRequest`; absent when neither ran.
    public var faces: [Face]?
    /// `RecognizeTextRequest`: one entry per line of text; absent when the request did not run.
    public var text: [TextLine]?
    /// `DetectObjectsRequest`; absent when the request did not run.
    public var objects: [Object]?
    /// `RecognizeAnimalsRequest`: objects labelled `Cat` or `Dog`.
    public var animals: [Object]?
    /// `DetectHumanRectanglesRequest`.
    public var humans: [Human]?
    /// `DetectHumanHandPoseRequest`.
    public var hands: [Hand]?
    /// `DetectHumanBodyPoseRequest`: one entry per person.
    public var bodyPoses: [BodyPose]?
    /// `DetectHumanBodyPose3DRequest`: one entry per person.
    public var bodyPoses3D: [BodyPose3D]?
    /// `GeneratePersonInstanceMaskRequest`: the instance mask's size, its people and, with `--maps`, its files.
    public var personInstances: PersonInstances?
    /// `GenerateForegroundInstanceMaskRequest`: the salient objects' instance mask, as `personInstances` is reported.
    public var foregroundInstances: PersonInstances?
    /// `CalculateImageAestheticsScoresRequest`: the overall score and whether the image is a utility image.
    public var aesthetics: Aesthetics?
    /// `GeneratePersonSegmentationRequest`: the mask's size and, with `--maps`, its files.
    public var personMask: Map?
    /// `ClassifyImageRequest`: one label per class; absent when the request did not run.
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
    /// `RecognizeDocumentsRequest`: the document on the page (none for a page without text, tables or barcodes).
    public var documents: [Document]?
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
    /// The frame's timestamp in the source, in seconds (video frames only).
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

    /// An empty report for the image named `image`, `width` × `height` pixels upright.
    public init(image: String, width: Int, height: Int) {
        self.image = image
        self.width = width
        self.height = height
    }

    /// The report of the image `handler` analysed, named `image`: its upright size (from the file's header when
    /// only a reduced decode was needed) and the decoder's warnings so far (read it after performing).
    public init(image: String, handler: ImageRequestHandler) throws(VisionError) {
        let size = try handler.imageSize()
        self.init(image: image, width: Int(size.width), height: Int(size.height))
        let warnings = handler.decoderWarnings()
        self.warnings = warnings.isEmpty ? nil : warnings
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

    /// Model outputs larger than this many values are reported by name and shape only.
    public static let maximumReportedValues = 4096

    /// Adds one request's outcome: its results (relative to its region of interest, as returned) or, under `name`
    /// (default: the request's `reportName`), its error.
    public mutating func add(_ outcome: VisionRequestOutcome, name: String? = nil) {
        if let reportable = outcome.reportable {
            reportable.add(to: &self)
        } else if let error = outcome.error {
            addFailure(name ?? outcome.request.reportName, error)
        }
    }

    /// Adds one request's outcome (see `add(_:name:)`), writing its image-valued parts through `maps` first and
    /// recording what was written.
    public mutating func add(_ outcome: VisionRequestOutcome, name: String? = nil, writingMapsTo maps: any MapOutput)
        throws(VisionError)
    {
        let name = name ?? outcome.request.reportName
        guard let reportable = outcome.reportable else { return add(outcome, name: name) }
        var files: [String: MapFiles] = [:]
        for (mapName, map) in reportable.maps { files[mapName] = try maps.write(map, request: name, name: mapName) }
        reportable.add(to: &self, files: files)
    }

    /// Records a failed request.
    public mutating func addFailure(_ request: String, _ error: VisionError) {
        errors = (errors ?? [:]).merging([request: Failure(code: error.code.description, message: error.message)]) {
            $1
        }
    }

    /// The report as the CLI prints it: JSON with sorted keys and unescaped slashes, pretty-printed
    /// (for one image) or on one line.
    public func jsonData(pretty: Bool) throws(VisionError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(self) } catch {
            throw VisionError(.internalError, "encoding the report as JSON failed: \(error)")
        }
    }
}
