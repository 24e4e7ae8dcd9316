import ArgumentParser
import OpenVision

/// The built-in requests the CLI can run, by name.
enum RequestKind: String, CaseIterable {
    case barcodes, rectangles, faces, landmarks, text
    case contours, horizon, saliency, objectness, textrects, document
    /// The built-in detector's cats and dogs, and people.
    case animals, humans
    /// Sequence requests (`video`, `live`): each frame against the previous one.
    case flow, registration, homography, trajectories

    /// Every name, comma-separated, for help texts.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// The request with Vision's defaults (commands adjust some, e.g. `analyze --max-rectangles`).
    var defaultRequest: any VisionRequest {
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
        case .flow: TrackOpticalFlowRequest()
        case .registration: TrackTranslationalImageRegistrationRequest()
        case .homography: TrackHomographicImageRegistrationRequest()
        case .trajectories: DetectTrajectoriesRequest(trajectoryLength: 10)
        }
    }

    /// True for the requests that compare each frame with earlier ones: a fresh instance each run, and
    /// only `video` and `live` (which feed them a sequence) accept them.
    var isSequence: Bool { [.flow, .registration, .homography, .trajectories].contains(self) }

    /// Still-image commands refuse the sequence requests with a pointer to where they work.
    static func requireStill(_ kinds: [RequestKind]) throws {
        if let kind = kinds.first(where: \.isSequence) {
            throw ValidationError("'\(kind.rawValue)' compares frames of a sequence: use `openvision video IN --requests \(kind.rawValue)`" +
                                  (kind == .flow ? " or `openvision flow A B`" : kind == .trajectories ? "" : " or `openvision register A B`"))
        }
    }

    static func parse(_ values: [String]) throws -> [RequestKind] {
        var kinds: [RequestKind] = []
        for name in values.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !name.isEmpty {
            guard let kind = RequestKind(rawValue: name) else {
                throw ValidationError("unknown request '\(name)'; choose from \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw ValidationError("no requests given") }
        return kinds
    }
}

import Foundation
