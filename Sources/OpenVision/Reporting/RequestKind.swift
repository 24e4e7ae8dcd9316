import Foundation

/// The built-in requests `openvision analyze` (and `POST /v1/analyze`) can run, by name.
public enum RequestKind: String, CaseIterable, Sendable {
    case barcodes, rectangles, faces, landmarks, text
    case contours, horizon, saliency, objectness, textrects, document
    /// The built-in detector's cats and dogs, and people.
    case animals, humans
    /// Hands and their 21 joints (MediaPipe's hand models).
    case handpose
    /// People's body poses and the person mask (MediaPipe's models).
    case bodypose, personmask
    /// Sequence requests (`video`, `live`): each frame against the previous one.
    case flow, registration, homography, trajectories

    /// Every name, comma-separated, for help texts.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The request with Vision's defaults (commands adjust some, e.g. `analyze --max-rectangles`).
    public var defaultRequest: any VisionRequest {
        switch self {
        case .barcodes: DetectBarcodesRequest()
        case .rectangles: DetectRectanglesRequest()
        case .faces: DetectFaceRectanglesRequest()
        case .landmarks: DetectFaceLandmarksRequest()
        case .text: RecognizeTextRequest()
        case .contours: DetectContoursRequest()
        case .horizon: DetectHorizonRequest()
        case .saliency: GenerateAttentionBasedSaliencyImageRequest()
        case .objectness: GenerateObjectnessBasedSaliencyImageRequest()
        case .textrects: {
            var r = DetectTextRectanglesRequest()
            r.reportCharacterBoxes = true
            return r
        }()
        case .document: DetectDocumentSegmentationRequest()
        case .animals: RecognizeAnimalsRequest()
        case .humans: DetectHumanRectanglesRequest()
        case .handpose: DetectHumanHandPoseRequest()
        case .bodypose: DetectHumanBodyPoseRequest()
        case .personmask: GeneratePersonSegmentationRequest()
        case .flow: TrackOpticalFlowRequest()
        case .registration: TrackTranslationalImageRegistrationRequest()
        case .homography: TrackHomographicImageRegistrationRequest()
        case .trajectories: DetectTrajectoriesRequest(trajectoryLength: 10)
        }
    }

    /// True for the requests that compare each frame with earlier ones: a fresh instance each run, and
    /// only `video` and `live` (which feed them a sequence) accept them.
    public var isSequence: Bool { [.flow, .registration, .homography, .trajectories].contains(self) }

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
                throw VisionError(.invalidArgument, "unknown request '\(name)'; choose from \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw VisionError(.invalidArgument, "no requests given") }
        return kinds
    }
}
