import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Pages at any angle (`RecognizeTextRequest.automaticallyDetectsOrientation`, on by default): a page stored turned
/// 90°, 180° or 270° is read as the upright page is, its lines report the orientation found (EXIF's meaning: the
/// orientation that shows the page upright), and their boxes stay in the stored image's coordinates: the upright
/// read's boxes turned the same way. `.fast` finds the turn with Tesseract's OSD, `.accurate` by a vote of PP-OCR's
/// line classifier. The reference is the upright page itself, read by the same level.
@Suite struct TextOrientationTests {
    static let lines = [
        "Pages arrive in every orientation", "Scanners feed them upside down",
        "Phones are held sideways", "Read them upright all the same",
    ]

    static func upright() throws -> VisionImage { try OCRScenes.page(lines.map { ($0, 40) }, width: 1000) }

    /// `r` (normalised, lower-left origin) of an image whose content is then turned `degrees` clockwise.
    static func turned(_ r: NormalizedRect, clockwise degrees: Int) -> NormalizedRect {
        switch degrees {
        case 90: NormalizedRect(x: r.minY, y: 1 - r.maxX, width: r.height, height: r.width)
        case 180: NormalizedRect(x: 1 - r.maxX, y: 1 - r.maxY, width: r.width, height: r.height)
        case 270: NormalizedRect(x: 1 - r.maxY, y: r.minX, width: r.height, height: r.width)
        default: r
        }
    }

    static func read(_ image: VisionImage, _ level: RecognizeTextRequest.RecognitionLevel, detect: Bool = true)
        async throws
        -> [RecognizedTextObservation]
    {
        var request = RecognizeTextRequest()
        request.recognitionLevel = level
        request.automaticallyDetectsOrientation = detect
        return try await ImageRequestHandler(image: image).perform(request)
    }

    @Test(arguments: [RecognizeTextRequest.RecognitionLevel.fast, .accurate])
    func turnedPagesReadAsUpright(_ level: RecognizeTextRequest.RecognitionLevel) async throws {
        let page = try Self.upright()
        let reference = try await Self.read(page, level)
        #expect(reference.compactMap { $0.topCandidates(1).first?.string } == Self.lines)
        #expect(reference.allSatisfy { $0.textOrientation == .up })
        for (orientation, degrees) in [(ImageOrientation.left, 90), (.down, 180), (.right, 270)] {
            let stored = try page.oriented(Fixtures.inverse(orientation))  // content turned `degrees` clockwise
            let lines = try await Self.read(stored, level)
            #expect(lines.compactMap { $0.topCandidates(1).first?.string } == Self.lines, "\(level) \(degrees)°")
            #expect(
                lines.allSatisfy { $0.textOrientation == orientation },
                "\(level) \(degrees)°: \(lines.map(\.textOrientation))")
            for (line, upright) in zip(lines, reference) {
                let expected = Self.turned(upright.boundingBox, clockwise: degrees)
                let box = line.boundingBox
                #expect(
                    abs(box.minX - expected.minX) < 0.02 && abs(box.minY - expected.minY) < 0.02
                        && abs(box.maxX - expected.maxX) < 0.02 && abs(box.maxY - expected.maxY) < 0.02,
                    "\(level) \(degrees)°: \(box) vs \(expected)")
                // The corners in reading order: the text's top-left is the upright top-left, turned.
                let topLeft = Self.turned(
                    NormalizedRect(x: upright.topLeft.x, y: upright.topLeft.y, width: 0, height: 0), clockwise: degrees)
                #expect(
                    abs(line.topLeft.x - topLeft.minX) < 0.03 && abs(line.topLeft.y - topLeft.minY) < 0.03,
                    "\(level) \(degrees)°: top-left \(line.topLeft) vs \(topLeft)")
            }
        }
    }

    /// The `.accurate` tests' upright rendered scenes (one to three lines: too little text for Tesseract's OSD) read
    /// the same at every turn, at both levels. Measured before the fallbacks (Benchmarks/python/text_orientation.py on
    /// `openvision-bench make-ocr-set`'s scenes): `.fast` CER 0.82-0.92 on the one-line scenes turned 180° and 270°,
    /// `.accurate` 0.83 on mono-30 turned 270°.
    @Test(arguments: [RecognizeTextRequest.RecognitionLevel.fast, .accurate])
    func shortScenesReadAtEveryTurn(_ level: RecognizeTextRequest.RecognitionLevel) async throws {
        for scene in OCRScenes.rendered
        where ["sans-40", "serif-32", "mono-30", "bold-64", "oblique-20"].contains(scene.name) {
            let upright = try scene.make()
            for orientation in [ImageOrientation.left, .down, .right] {
                let stored = try upright.oriented(Fixtures.inverse(orientation))
                let lines = try await Self.read(stored, level)
                #expect(
                    lines.compactMap { $0.topCandidates(1).first?.string } == scene.lines,
                    "\(level) \(scene.name) \(orientation)")
            }
        }
    }

    /// Off, the page is read as given: upside down it does not read as the upright page, and says `.up`.
    @Test(arguments: [RecognizeTextRequest.RecognitionLevel.fast, .accurate])
    func detectionOffReadsAsGiven(_ level: RecognizeTextRequest.RecognitionLevel) async throws {
        let stored = try Self.upright().oriented(.down)
        let lines = try await Self.read(stored, level, detect: false)
        #expect(lines.compactMap { $0.topCandidates(1).first?.string } != Self.lines)
        #expect(lines.allSatisfy { $0.textOrientation == .up })
    }

    /// The JSON report carries the turn found (`orientationDegrees`, absent for an upright page).
    @Test func reportCarriesTheOrientation() async throws {
        let stored = try Self.upright().oriented(.right)  // content turned 90° clockwise: .left, 90
        let handler = ImageRequestHandler(image: stored)
        let lines = try await handler.perform(RecognizeTextRequest())
        var report = try AnalysisReport(image: "page.png", handler: handler)
        report.add(lines)
        #expect(report.text?.map(\.orientationDegrees) == Array(repeating: 90, count: Self.lines.count))
        let upright = ImageRequestHandler(image: try Self.upright())
        var plain = try AnalysisReport(image: "page.png", handler: upright)
        plain.add(try await upright.perform(RecognizeTextRequest()))
        #expect(plain.text?.allSatisfy { $0.orientationDegrees == nil } == true)
    }
}
