import Foundation

/// The options of the built-in requests (`RequestKind`), as `openvision analyze|video|live`, `POST /v1/analyze`
/// and job payloads give them. Every option is declared once in `RequestOption.all` (its name, help, values and
/// validation); each front end reads it from there. nil leaves the request's own default.
public struct RequestOptions: Sendable, Hashable {
    /// `maxRectangles`: `DetectRectanglesRequest.maximumObservations` (0 = no limit).
    public var maximumRectangles: Int?
    /// `languages`: `RecognizeTextRequest.recognitionLanguages` (e.g. ["en-US", "de"]).
    public var recognitionLanguages: [String]?
    /// `recognitionLevel`: `RecognizeTextRequest.recognitionLevel`.
    public var recognitionLevel: RecognizeTextRequest.RecognitionLevel?
    /// `faceRevision`: the face detector of `faces` (`DetectFaceRectanglesRequest.Revision`).
    public var faceRevision: DetectFaceRectanglesRequest.Revision?
    /// `maxHands`: `DetectHumanHandPoseRequest.maximumHandCount`.
    public var maximumHandCount: Int?
    /// `faceLandmarksRevision`: the points of `landmarks`: `.points76` / `.points65` (the face mesh, revision 3, in
    /// Vision's constellations) or `.points68` (dlib, revision 2).
    public var faceLandmarks: FaceLandmarks2D.Constellation?
    /// `textOrientation`: `RecognizeTextRequest.automaticallyDetectsOrientation` (`auto` true, `up` false).
    public var detectsTextOrientation: Bool?
    /// `bodyHands`: `DetectHumanBodyPoseRequest.detectsHands`.
    public var detectsBodyHands: Bool?

    public init() {}

    /// `base` with name → text pairs (HTTP query parameters, job payloads) applied, each parsed and validated as
    /// `RequestOption.all` declares; an unknown name or a bad value is `invalidArgument`.
    public init(values: [String: String], base: RequestOptions = RequestOptions()) throws(VisionError) {
        self = base
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { try set(name, to: value) }
    }

    /// Sets the option called `name` from its text form (`invalidArgument` for an unknown name or a bad value).
    public mutating func set(_ name: String, to value: String) throws(VisionError) {
        guard let option = RequestOption.named(name) else {
            throw VisionError(.invalidArgument, "unknown option '\(name)'; choose from \(RequestOption.all.map(\.name).joined(separator: ", "))")
        }
        try option.apply(value, &self)
    }

    /// The options that are set, as name → text (what `init(values:)` reads back).
    public var values: [String: String] {
        var values: [String: String] = [:]
        for option in RequestOption.all { if let text = option.read(self) { values[option.name] = text } }
        return values
    }
}

/// One option of the built-in requests: its name (the HTTP query parameter and job-payload key; the CLI flag is
/// its kebab-case form), one line of help, the values it takes, and how it is parsed and checked. Declared once
/// here; the CLI, the HTTP API, the OpenAPI document, job payloads and `--help` derive from it.
public struct RequestOption: Sendable {
    /// "maxRectangles": the query parameter and job-payload key.
    public let name: String
    /// One line for help texts and the OpenAPI document.
    public let help: String
    /// What a value must be, for error messages ("an integer in 0...1000").
    public let valueDescription: String
    /// The allowed values of an enumerated option, else nil.
    public let allowedValues: [String]?
    /// The OpenAPI type of a value: "integer" or "string".
    public let schemaType: String
    /// The allowed range of an integer option, else nil.
    public let range: ClosedRange<Int>?
    let apply: @Sendable (String, inout RequestOptions) throws(VisionError) -> Void
    let read: @Sendable (RequestOptions) -> String?

    /// The CLI flag: the name in kebab case ("max-rectangles").
    public var flag: String {
        name.reduce(into: "") { text, c in
            if c.isUppercase { text += "-" + c.lowercased() } else { text.append(c) }
        }
    }

    /// The declared option called `name` (or spelled as its flag), if any.
    public static func named(_ name: String) -> RequestOption? {
        all.first { $0.name == name || $0.flag == name }
    }

    static func invalid(_ name: String, _ value: String, _ expected: String) -> VisionError {
        VisionError(.invalidArgument, "\(name)='\(value.prefix(80))' must be \(expected)")
    }

    static func integer(_ name: String, help: String, range: ClosedRange<Int>,
                        _ keyPath: WritableKeyPath<RequestOptions, Int?> & Sendable) -> RequestOption {
        let expected = "an integer in \(range.lowerBound)...\(range.upperBound)"
        return RequestOption(name: name, help: help, valueDescription: expected, allowedValues: nil, schemaType: "integer", range: range,
                             apply: { text, options throws(VisionError) in
                                 guard let n = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(n) else {
                                     throw invalid(name, text, expected)
                                 }
                                 options[keyPath: keyPath] = n
                             }, read: { $0[keyPath: keyPath].map(String.init) })
    }

    static func choice<T: Sendable>(_ name: String, help: String, values: [(String, T)],
                                    _ keyPath: WritableKeyPath<RequestOptions, T?> & Sendable,
                                    parse: @escaping @Sendable (String) -> T?, describe: @escaping @Sendable (T) -> String) -> RequestOption {
        let names = values.map(\.0)
        let expected = "one of " + names.joined(separator: ", ")
        return RequestOption(name: name, help: help, valueDescription: expected, allowedValues: names, schemaType: "string", range: nil,
                             apply: { text, options throws(VisionError) in
                                 guard let value = parse(text.trimmingCharacters(in: .whitespaces)) else { throw invalid(name, text, expected) }
                                 options[keyPath: keyPath] = value
                             }, read: { $0[keyPath: keyPath].map(describe) })
    }

    /// `maxRectangles`.
    public static let maxRectangles = integer(
        "maxRectangles", help: "Most rectangles 'rectangles' reports (0 = no limit; default 16 for still images, 1 in video and live as Vision's).",
        range: 0...1000, \.maximumRectangles)

    /// `languages`: comma- or plus-separated codes, each letters, digits, '-' or '_'.
    public static let languages = RequestOption(
        name: "languages", help: "Text recognition languages, comma-separated (e.g. en-US,de or eng+deu).",
        valueDescription: "1 to 16 language codes (letters, digits, - or _), separated by , or +", allowedValues: nil, schemaType: "string",
        range: nil, apply: { text, options throws(VisionError) in
            let codes = text.split(whereSeparator: { $0 == "," || $0 == "+" }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let valid = (1...16).contains(codes.count) && codes.allSatisfy { code in
                code.count <= 32 && code.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_" }
            }
            guard valid else { throw invalid("languages", text, "1 to 16 language codes (letters, digits, - or _), separated by , or +") }
            options.recognitionLanguages = codes
        }, read: { $0.recognitionLanguages?.joined(separator: ",") })

    /// `recognitionLevel`.
    public static let recognitionLevel = choice(
        "recognitionLevel", help: "Text recognition level: fast (Tesseract, the default) or accurate (PP-OCRv4 on ONNX Runtime: photos, rotated text; en-US and zh-Hans).",
        values: RecognizeTextRequest.RecognitionLevel.allCases.map { ($0.rawValue, $0) }, \.recognitionLevel,
        parse: { RecognizeTextRequest.RecognitionLevel(rawValue: $0.lowercased()) }, describe: \.rawValue)

    /// `faceRevision`.
    public static let faceRevision = choice(
        "faceRevision", help: "Face detector for 'faces': hog (dlib), blazeface-short or blazeface-full (MediaPipe BlazeFace; default \(DetectFaceRectanglesRequest.Revision.defaultRevision)).",
        values: DetectFaceRectanglesRequest.Revision.allCases.map { ($0.description, $0) }, \.faceRevision,
        parse: { DetectFaceRectanglesRequest.Revision(name: $0) }, describe: \.description)

    /// `faceLandmarksRevision`.
    public static let faceLandmarksRevision = choice(
        "faceLandmarksRevision", help: "Face landmarks for 'landmarks': mesh76 (the default, as Vision's revision 3: MediaPipe's face mesh and iris in "
            + "Vision's 76-point constellation), mesh65 (its 65-point constellation) or dlib68 (dlib's 68 points on HOG faces).",
        values: [("mesh76", FaceLandmarks2D.Constellation.points76), ("mesh65", .points65), ("dlib68", .points68)], \.faceLandmarks,
        parse: { ["mesh76": .points76, "mesh65": .points65, "dlib68": .points68][$0.lowercased()] }, describe: { c in
            switch c {
            case .points68, .points6: "dlib68"
            case .points65: "mesh65"
            case .points76: "mesh76"
            }
        })

    /// `maxHands`.
    public static let maxHands = integer("maxHands", help: "Most hands 'handpose' reports (default 2).", range: 0...100, \.maximumHandCount)

    /// `textOrientation`.
    public static let textOrientation = choice(
        "textOrientation", help: "Text pages: auto (the default) finds a page turned 90, 180 or 270 degrees and reads it upright; up reads the page as given.",
        values: [("auto", true), ("up", false)], \.detectsTextOrientation,
        parse: { ["auto": true, "up": false][$0.lowercased()] }, describe: { $0 ? "auto" : "up" })

    /// `bodyHands`.
    public static let bodyHands = choice(
        "bodyHands", help: "Hands on body poses for 'bodypose' (DetectHumanBodyPoseRequest.detectsHands): on reads each person's hands from the regions their wrists give, off (the default) does not.",
        values: [("on", true), ("off", false)], \.detectsBodyHands,
        parse: { ["on": true, "off": false][$0.lowercased()] }, describe: { $0 ? "on" : "off" })

    /// Every option, in help order.
    public static let all: [RequestOption] = [maxRectangles, languages, recognitionLevel, textOrientation, faceRevision, faceLandmarksRevision,
                                              maxHands, bodyHands]
}
