import Foundation

/// The built-in requests `openvision analyze|video|live`, `POST /v1/analyze` and jobs can run, by name. Each kind is
/// declared once, in `descriptor`: its help, the options it reads, where its results go in the report, and how it is
/// built. The name (`rawValue`) is the one used on the command line, in the HTTP API, in job payloads and for the
/// kind's `errors` and `timingsMs` entries.
public enum RequestKind: String, CaseIterable, Sendable {
    case barcodes, rectangles, faces, landmarks, text
    case contours, horizon, saliency, objectness, textrects, document, documents
    case animals, humans
    case handpose, bodypose, personmask
    case bodypose3d, personinstances
    case featureprint
    case flow, registration, homography, trajectories

    /// The kind's declaration. `bytesPerPixel`: the growth of `openvision analyze IMAGE --requests KIND`'s peak RSS
    /// between a 2000 × 2000 and a 4000 × 4000 PNG of dog.jpg (scaled), divided by the 12 million pixels between them,
    /// a quarter added for other images and rounded up (at least 2); reproduce with `/usr/bin/time -f %M`. Measured:
    /// barcodes 4.3, rectangles 1.4, text 5.7 (half added: documents hold more; with orientation detection on, a page
    /// turned 90° measures 4.6 at .fast and 4.0 at .accurate, dog.jpg 4.1 at both), contours 1.0, horizon 1.2, saliency
    /// 1.2, objectness 1.4, textrects 1.9, document 1.3, animals 3.5, humans 3.6, handpose 4.0, bodypose 3.5,
    /// personmask 52.3 (its guided filter's float planes), faces 30.9 (dlib's HOG with one up-sampling: the image twice
    /// as large and its pyramid's features; 1000 × 1000 to 2000 × 2000, dlib takes minutes beyond), landmarks the same
    /// detector (the shape predictor's cost is per face), featureprint as a model resized to its input (classify:
    /// 8.1), bodypose3d 3.8, personinstances 15.7 (on person.jpg scaled the same way: with nobody found it makes no
    /// mask, 3.6 on dog.jpg). The sequence kinds never run on a still image: the largest rate.
    public var descriptor: RequestDescriptor {
        switch self {
        case .barcodes:
            RequestDescriptor("barcodes and their payloads (zxing-cpp)", reportKey: "barcodes", bytesPerPixel: 6) { _ in DetectBarcodesRequest() }
        case .rectangles:
            RequestDescriptor("rectangles and their corners", reportKey: "rectangles", options: [.maxRectangles], bytesPerPixel: 2) { o in
                var r = DetectRectanglesRequest()
                if let n = o.maximumRectangles { r.maximumObservations = n }
                return r
            }
        case .faces:
            RequestDescriptor("face boxes (dlib HOG, or BlazeFace with faceRevision)", reportKey: "faces", options: [.faceRevision], bytesPerPixel: 39) { o in
                DetectFaceRectanglesRequest(o.faceRevision)
            }
        case .landmarks:
            RequestDescriptor("faces with Vision's 76 landmarks (MediaPipe face mesh and iris; dlib's 68 with faceLandmarksRevision), "
                + "standing in for 'faces' when both are asked", reportKey: "faces", options: [.faceLandmarksRevision], bytesPerPixel: 39) { o in
                var r = DetectFaceLandmarksRequest(o.faceLandmarks == .points68 ? .dlib : nil)
                if o.faceLandmarks == .points65 { r.constellation = .points65 }
                return r
            }
        case .text:
            RequestDescriptor("recognised text lines and words", reportKey: "text", options: [.languages, .recognitionLevel, .textOrientation], bytesPerPixel: 9) { o in
                var r = RecognizeTextRequest()
                if let languages = o.recognitionLanguages { r.recognitionLanguages = languages }
                if let level = o.recognitionLevel { r.recognitionLevel = level }
                if let detects = o.detectsTextOrientation { r.automaticallyDetectsOrientation = detects }
                return r
            }
        case .contours:
            RequestDescriptor("contours, as a tree", reportKey: "contours", bytesPerPixel: 2) { _ in DetectContoursRequest() }
        case .horizon:
            RequestDescriptor("the horizon's angle", reportKey: "horizon", bytesPerPixel: 2) { _ in DetectHorizonRequest() }
        case .saliency:
            RequestDescriptor("attention-based saliency, a heat map and salient boxes", reportKey: "saliency", bytesPerPixel: 2) { _ in
                GenerateAttentionBasedSaliencyImageRequest()
            }
        case .objectness:
            RequestDescriptor("objectness-based saliency, a heat map and object boxes", reportKey: "objectness", bytesPerPixel: 2) { _ in
                GenerateObjectnessBasedSaliencyImageRequest()
            }
        case .textrects:
            RequestDescriptor("text regions and character boxes, without reading", reportKey: "textRectangles", bytesPerPixel: 3) { _ in
                var r = DetectTextRectanglesRequest()
                r.reportCharacterBoxes = true
                return r
            }
        case .document:
            RequestDescriptor("a document's corners", reportKey: "document", bytesPerPixel: 2) { _ in DetectDocumentSegmentationRequest() }
        case .documents:
            RequestDescriptor("a page's structure: title, paragraphs, lists, tables with their cells (PP-OCRv4, PP-Layout, SLANet-plus)",
                              reportKey: "documents", bytesPerPixel: 12) { _ in RecognizeDocumentsRequest() }
        case .animals:
            RequestDescriptor("cats and dogs (the built-in detector)", reportKey: "animals", bytesPerPixel: 5) { _ in RecognizeAnimalsRequest() }
        case .humans:
            RequestDescriptor("people's boxes, upper body (the built-in detector)", reportKey: "humans", bytesPerPixel: 5) { _ in DetectHumanRectanglesRequest() }
        case .handpose:
            RequestDescriptor("hands and their 21 joints (MediaPipe)", reportKey: "hands", options: [.maxHands], bytesPerPixel: 6) { o in
                var r = DetectHumanHandPoseRequest()
                if let n = o.maximumHandCount { r.maximumHandCount = n }
                return r
            }
        case .bodypose:
            RequestDescriptor("body poses, 19 joints and 33 landmarks per person, with bodyHands their hands (MediaPipe)", reportKey: "bodyPoses",
                              options: [.bodyHands], bytesPerPixel: 5) { o in
                var r = DetectHumanBodyPoseRequest()
                if let hands = o.detectsBodyHands { r.detectsHands = hands }
                return r
            }
        case .personmask:
            RequestDescriptor("the person segmentation mask (MediaPipe)", reportKey: "personMask", bytesPerPixel: 66) { _ in GeneratePersonSegmentationRequest() }
        case .bodypose3d:
            RequestDescriptor("3D body poses, Vision's 17 joints in metres relative to the hips, and the camera (MediaPipe world landmarks)",
                              reportKey: "bodyPoses3D", bytesPerPixel: 5) { _ in DetectHumanBodyPose3DRequest() }
        case .personinstances:
            RequestDescriptor("a mask telling up to 4 people apart, 0 background and 1…n per person (MediaPipe pose segmentation)",
                              reportKey: "personInstances", bytesPerPixel: 20) { _ in GeneratePersonInstanceMaskRequest() }
        case .featureprint:
            RequestDescriptor("a feature print, 1280 numbers to compare images by (the default classifier's features)",
                              reportKey: "featurePrint", bytesPerPixel: 11) { _ in GenerateImageFeaturePrintRequest() }
        case .flow:
            RequestDescriptor("dense optical flow from the previous frame", reportKey: "opticalFlow", bytesPerPixel: 66) { _ in TrackOpticalFlowRequest() }
        case .registration:
            RequestDescriptor("the translation aligning each frame with the previous one", reportKey: "translation", bytesPerPixel: 66) { _ in
                TrackTranslationalImageRegistrationRequest()
            }
        case .homography:
            RequestDescriptor("the homography aligning each frame with the previous one", reportKey: "homography", bytesPerPixel: 66) { _ in
                TrackHomographicImageRegistrationRequest()
            }
        case .trajectories:
            RequestDescriptor("objects moving along parabolas", reportKey: "trajectories", bytesPerPixel: 66) { _ in DetectTrajectoriesRequest(trajectoryLength: 10) }
        }
    }

    /// True for the requests that compare each frame with earlier ones (see `RequestDescriptor.isSequence`).
    public var isSequence: Bool { Self.sequenceKinds.contains(self) }

    private static let sequenceKinds = Set(allCases.filter { $0.descriptor.isSequence })

    /// The request with Vision's defaults.
    public var defaultRequest: any VisionRequest { descriptor.makeRequest() }

    /// The kinds with their one line each, "name: help; …" (help texts, the OpenAPI document).
    public static func listing(_ kinds: [RequestKind]) -> String {
        kinds.map { "\($0.rawValue): \($0.descriptor.help)" }.joined(separator: "; ")
    }

    /// The help text of a `--requests` option: every still kind (and the sequence kinds) with its one line.
    public static func help(includingSequences: Bool) -> String {
        var text = "Requests to run, comma-separated. " + listing(allCases.filter { !$0.isSequence }) + "."
        if includingSequences {
            text += " Sequence requests, comparing each analysed frame with the previous one: " + listing(allCases.filter(\.isSequence)) + "."
        }
        return text
    }

    /// Still-image callers refuse the sequence requests with a pointer to where they work
    /// (`invalidArgument`).
    public static func validateStill(_ kinds: [RequestKind]) throws(VisionError) {
        if let kind = kinds.first(where: \.isSequence) {
            throw VisionError(.invalidArgument, "'\(kind.rawValue)' compares frames of a sequence: use `openvision video IN --requests \(kind.rawValue)`" +
                              (kind == .flow ? " or `openvision flow A B`" : kind == .trajectories ? "" : " or `openvision register A B`"))
        }
    }

    /// The kinds named in `values` (each comma-separated, case-insensitive), without repeats, in order;
    /// an unknown or missing name is `invalidArgument`.
    public static func kinds(from values: [String]) throws(VisionError) -> [RequestKind] {
        var kinds: [RequestKind] = []
        for name in values.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !name.isEmpty {
            guard let kind = RequestKind(rawValue: name) else {
                throw VisionError(.invalidArgument, "unknown request '\(name.prefix(80))'; choose from \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw VisionError(.invalidArgument, "no requests given") }
        return kinds
    }
}
