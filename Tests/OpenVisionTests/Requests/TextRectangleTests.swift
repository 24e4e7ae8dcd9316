import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct TextRectangleTests {
    static let lines = ["OPEN VISION 2026", "CONTOURS AND LINES", "HORIZON 45 DEGREES"]
    static let baselines = [120, 260, 400]

    /// 900 × 480 white with `lines` in DejaVu Sans, 48 px, dark.
    static func page(light: Bool = false) throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: 900, height: 480, gray: light ? 30 : 250)
        for (text, y) in zip(lines, baselines) {
            try Fixtures.drawText(text, on: &canvas, x: 60, y: y, height: 48, gray: light ? 240 : 10)
        }
        return canvas.makeImage()
    }

    @Test(arguments: [false, true])
    func oneBoxPerLineAndOnePerGlyph(_ light: Bool) async throws {
        var request = DetectTextRectanglesRequest()
        request.reportCharacterBoxes = true
        let found = try await ImageRequestHandler(image: try Self.page(light: light)).perform(request)
        #expect(found.count == Self.lines.count, "\(found.map(\.boundingBox))")
        for (observation, (text, baseline)) in zip(found, zip(Self.lines, Self.baselines)) {
            let box = observation.boundingBox.toImageCoordinates(CGSize(width: 900, height: 480), origin: .upperLeft)
            // The line's box ends at (or just below) its baseline and starts at the text's left edge.
            #expect(abs(box.maxY - Double(baseline)) < 6 && abs(box.minX - 60) < 10, "\(text): \(box)")
            let glyphs = text.filter { !$0.isWhitespace }.count
            #expect(
                observation.characterBoxes?.count == glyphs, "\(text): \(observation.characterBoxes?.count ?? 0) boxes")
            let xs = (observation.characterBoxes ?? []).map(\.boundingBox.minX)
            #expect(xs == xs.sorted())
        }
    }

    @Test func characterBoxesOnlyWhenAsked() async throws {
        let found = try await ImageRequestHandler(image: try Self.page()).perform(DetectTextRectanglesRequest())
        #expect(!found.isEmpty && found.allSatisfy { $0.characterBoxes == nil })
    }

    @Test func flatImageHasNoText() async throws {
        let flat = try Fixtures.canvas(width: 300, height: 200, gray: 128).makeImage()
        #expect(try await ImageRequestHandler(image: flat).perform(DetectTextRectanglesRequest()).isEmpty)
    }

    /// The same OpenCV calls (adaptiveThreshold both ways, connectedComponentsWithStats) and grouping from
    /// Python give the same lines and characters on the shared photos:
    /// Benchmarks/python/bench_catalogue.py 1 textrects person.jpg horses.jpg → payloads ["13", "45"], ["18", "65"]
    /// (lines, characters; on these photos, which hold no text, they are texture: the classic detector's
    /// false positives, which Vision's network would not report).
    @Test func matchesTheOpenCVPipelineFromPythonOnPhotos() async throws {
        var request = DetectTextRectanglesRequest()
        request.reportCharacterBoxes = true
        for (name, lines, characters) in [("person.jpg", 13, 45), ("horses.jpg", 18, 65)] {
            let found = try await request.perform(on: Fixtures.sharedImage(name))
            #expect(
                found.count == lines && found.reduce(0) { $0 + ($1.characterBoxes?.count ?? 0) } == characters,
                "\(name)")
        }
    }
}
