import Foundation

/// A line of recognised text, as Vision's `RecognizedTextObservation`: its box and corners
/// (normalised, lower-left origin, relative to the region of interest) and candidate strings.
public struct RecognizedTextObservation: VisionObservation, QuadrilateralProviding {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The observation's bounding box, normalised with a lower-left origin, relative to the
    /// request's region of interest.
    public var boundingBox: NormalizedRect
    /// The top-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var topLeft: NormalizedPoint
    /// The top-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var topRight: NormalizedPoint
    /// The bottom-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var bottomRight: NormalizedPoint
    /// The bottom-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var bottomLeft: NormalizedPoint
    /// Candidates, best first. Both levels (Tesseract, PP-OCR) yield one candidate per line.
    public var candidates: [RecognizedText]
    /// How the page this line was read on is turned, as found by `RecognizeTextRequest`'s
    /// `automaticallyDetectsOrientation`: `.up` (as given, and always when detection is off), `.left` (its text
    /// turned 90° clockwise), `.down` (upside down) or `.right` (90° counter-clockwise) — EXIF's meaning, the
    /// orientation to give `ImageRequestHandler` to see the page upright. The line was read upright; its box and
    /// corners stay relative to the image as given (the corners in the text's reading order).
    public var textOrientation: ImageOrientation = .up

    /// A line in `boundingBox` read as `candidates`, best first; its confidence is the first candidate's (0 if none).
    public init(boundingBox: NormalizedRect, candidates: [RecognizedText], uuid: UUID = UUID()) {
        self.uuid = uuid
        self.boundingBox = boundingBox
        self.candidates = candidates
        self.confidence = candidates.first?.confidence ?? 0
        topLeft = NormalizedPoint(x: boundingBox.minX, y: boundingBox.maxY)
        topRight = NormalizedPoint(x: boundingBox.maxX, y: boundingBox.maxY)
        bottomRight = NormalizedPoint(x: boundingBox.maxX, y: boundingBox.minY)
        bottomLeft = NormalizedPoint(x: boundingBox.minX, y: boundingBox.minY)
    }

    /// A line with its own corners (a rotated line has a rotated quadrilateral; `topLeft` is the
    /// text's top-left in reading orientation); `boundingBox` is the box around them.
    public init(
        topLeft: NormalizedPoint, topRight: NormalizedPoint, bottomRight: NormalizedPoint, bottomLeft: NormalizedPoint,
        candidates: [RecognizedText], uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.boundingBox = NormalizedRect(boundingPoints: [topLeft, topRight, bottomRight, bottomLeft])
        self.candidates = candidates
        self.confidence = candidates.first?.confidence ?? 0
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// Up to `maxCandidateCount` candidates, most confident first.
    public func topCandidates(_ maxCandidateCount: Int) -> [RecognizedText] {
        Array(candidates.prefix(max(0, maxCandidateCount)))
    }
}

/// One candidate string for a line, with the box of every character so that any substring
/// can be located, as Vision's `RecognizedText`.
public struct RecognizedText: Sendable, Hashable, Codable {
    /// The text, words separated by single spaces.
    public var string: String
    /// Confidence 0...1.
    public var confidence: Float
    /// The box of each `Character` of `string` (a space gets the gap between its words).
    public var characterBoxes: [NormalizedRect]
    /// The words, with their boxes and confidences.
    public var words: [RecognizedWord]

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(string: String, confidence: Float, characterBoxes: [NormalizedRect], words: [RecognizedWord]) {
        self.string = string
        self.confidence = confidence
        self.characterBoxes = characterBoxes
        self.words = words
    }

    /// The box around the characters in `range` of `string` (a word, a substring, one character),
    /// or nil for an empty or foreign range.
    public func boundingBox(for range: Range<String.Index>) -> RectangleObservation? {
        guard range.lowerBound >= string.startIndex, range.upperBound <= string.endIndex, !range.isEmpty else {
            return nil
        }
        let start = string.distance(from: string.startIndex, to: range.lowerBound)
        let end = string.distance(from: string.startIndex, to: range.upperBound)
        let boxes = characterBoxes[max(0, start)..<min(end, characterBoxes.count)]
        guard let first = boxes.first else { return nil }
        return RectangleObservation(
            boundingBox: boxes.dropFirst().reduce(first) { $0.union($1) }, confidence: confidence)
    }
}

/// A recognised word.
public struct RecognizedWord: Sendable, Hashable, Codable {
    /// The word's text.
    public var string: String
    /// How confident the detector is, 0...1 (1 where the algorithm gives no score).
    public var confidence: Float
    /// The observation's bounding box, normalised with a lower-left origin, relative to the
    /// request's region of interest.
    public var boundingBox: NormalizedRect
}
