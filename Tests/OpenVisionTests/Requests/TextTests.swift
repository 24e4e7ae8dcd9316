import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct TextTests {
    /// White page with `lines` set in DejaVu Sans: (text, baseline y, pixel height), left margin 40 px.
    static func page(width: Int = 1000, height: Int, _ lines: [(String, Int, Int)]) throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: width, height: height)
        for (text, baseline, size) in lines {
            try Fixtures.drawText(text, on: &canvas, x: 40, y: baseline, height: size)
        }
        return canvas.makeImage()
    }

    @Test func readsALineWithWordAndCharacterBoxes() async throws {
        let image = try Self.page(height: 160, [("Linux reads printed text", 100, 48)])
        let lines = try await ImageRequestHandler(image: image).perform(RecognizeTextRequest())
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        let best = try #require(line.topCandidates(1).first)
        #expect(best.string == "Linux reads printed text")
        #expect(best.confidence > 0.8)
        #expect(best.words.map(\.string) == ["Linux", "reads", "printed", "text"])
        // The line sits between y = 100 - 48 and the baseline (lower-left origin: 1 - y/160).
        let box = line.boundingBox.toImageCoordinates(image.size, origin: .upperLeft)
        #expect(box.minX > 30 && box.minX < 50 && box.minY > 45 && box.maxY < 115, "\(box)")
        // Substring boxes: "reads" lies right of "Linux" and inside the line.
        let readsRange = try #require(best.string.range(of: "reads"))
        let openRange = try #require(best.string.range(of: "Linux"))
        let oRange = try #require(best.string.range(of: "L"))
        let reads = try #require(best.boundingBox(for: readsRange)).boundingBox
        let open = try #require(best.boundingBox(for: openRange)).boundingBox
        #expect(reads.minX > open.maxX && reads.maxX < line.boundingBox.maxX + 0.01)
        #expect(line.boundingBox.intersection(reads) != nil)
        // One box per character, and a single character's box is narrower than its word's.
        #expect(best.characterBoxes.count == best.string.count)
        let o = try #require(best.boundingBox(for: oRange)).boundingBox
        #expect(o.width < open.width / 5)
    }

    @Test func readsLinesInOrder() async throws {
        let image = try Self.page(
            height: 300,
            [
                ("Invoice 2026-11-22", 70, 36), ("Total due 42.50 EUR", 140, 36),
                ("Thank you for your order", 210, 36),
            ])
        let lines = try await ImageRequestHandler(image: image).perform(RecognizeTextRequest())
        #expect(
            lines.compactMap { $0.topCandidates(1).first?.string } == [
                "Invoice 2026-11-22", "Total due 42.50 EUR",
                "Thank you for your order",
            ])
        // Top to bottom means decreasing y in Vision's lower-left coordinates.
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0.boundingBox.midY > $1.boundingBox.midY })
    }

    @Test func minimumTextHeightDropsSmallLines() async throws {
        let image = try Self.page(height: 300, [("SMALL PRINT HERE", 60, 20), ("BIG HEADLINE", 200, 64)])
        var request = RecognizeTextRequest()
        #expect(try await ImageRequestHandler(image: image).perform(request).count == 2)
        request.minimumTextHeight = 0.12  // 36 px of 300
        let lines = try await ImageRequestHandler(image: image).perform(request)
        #expect(lines.compactMap { $0.topCandidates(1).first?.string } == ["BIG HEADLINE"])
    }

    @Test func regionOfInterest() async throws {
        let image = try Self.page(height: 300, [("first line", 80, 40), ("second line", 200, 40)])
        var request = RecognizeTextRequest()
        request.regionOfInterest = NormalizedRect(x: 0, y: 0, width: 1, height: 0.5)  // the lower half
        let lines = try await ImageRequestHandler(image: image).perform(request)
        #expect(lines.compactMap { $0.topCandidates(1).first?.string } == ["second line"])
        let full = try #require(lines.first).boundingBox.toFullImage(fromRegionOfInterest: request.regionOfInterest)
        #expect(full.maxY < 0.5)
    }

    @Test(arguments: [ImageOrientation.right, .left, .down])
    func sidewaysTextWithOrientation(_ orientation: ImageOrientation) async throws {
        let upright = try Self.page(width: 700, height: 160, [("Camera mounted sideways", 100, 44)])
        let stored = try upright.oriented(Fixtures.inverse(orientation))
        // With the orientation given, the text is read upright.
        let handler = ImageRequestHandler(data: try stored.encoded(as: .png), orientation: orientation)
        let fixed = try await handler.perform(RecognizeTextRequest())
        #expect(fixed.compactMap { $0.topCandidates(1).first?.string } == ["Camera mounted sideways"])
        #expect(try #require(fixed.first).boundingBox.width > 0.5, "the line runs across the upright image")
    }

    @Test func languages() async throws {
        #expect(RecognizeTextRequest.supportedRecognitionLanguages().contains("eng"))
        let image = try Self.page(height: 160, [("language codes", 100, 44)])
        for codes in [["en-US"], ["eng"], ["en"]] {
            var request = RecognizeTextRequest()
            request.recognitionLanguages = codes
            let lines = try await ImageRequestHandler(image: image).perform(request)
            #expect(lines.first?.topCandidates(1).first?.string == "language codes", "\(codes)")
        }
    }

    @Test func unknownLanguageIsATypedError() async throws {
        var request = RecognizeTextRequest()
        request.recognitionLanguages = ["xyz"]
        do {
            _ = try await ImageRequestHandler(image: try Fixtures.canvas(width: 100, height: 50).makeImage()).perform(
                request)
            Issue.record("expected an error")
        } catch let error as VisionError {
            #expect(error.code == .unsupportedLanguage)
            #expect(error.message.contains("xyz") && error.message.contains("eng"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func blankImageHasNoText() async throws {
        let lines = try await ImageRequestHandler(image: try Fixtures.canvas(width: 400, height: 300).makeImage())
            .perform(RecognizeTextRequest())
        #expect(lines.isEmpty)
    }
}
