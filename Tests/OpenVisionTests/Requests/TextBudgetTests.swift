import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Issue 37, rows 7 and 10: text within its budget. A tall strip is letterboxed for PP-OCR as a flat one is (a
/// 32 × 2000 strip became a 46368 × 736 detector input, 2.2 GB) and read in place; orientation detection on a large
/// page judges its central megapixel and still finds a turned page; a cancelled recognition (serve's timeout)
/// stops instead of running to its end.
@Suite struct TextBudgetTests {
    /// "OPENVISION" on a 700 × 70 strip, stored turned 90°: a 70 × 700 image, ten times taller than wide.
    @Test func aTallStripIsLetterboxedAndReadInPlace() async throws {
        var canvas = try Fixtures.canvas(width: 700, height: 70)
        try Fixtures.drawText("OPENVISION", on: &canvas, x: 20, y: 55, height: 44)
        let strip = try canvas.makeImage().oriented(.right)
        #expect(strip.width == 70 && strip.height == 700)
        var request = RecognizeTextRequest()
        request.recognitionLevel = .accurate
        let lines = try await ImageRequestHandler(image: strip).perform(request)
        #expect(lines.compactMap { $0.topCandidates(1).first?.string } == ["OPENVISION"], "\(lines)")
        // The line's box is on the strip (the letterbox's bands taken off): across it, and along the word, which is
        // about 275 px of the 700 (0.39; the same word drawn flat reads at w=275 h=41 px) from 20 px below the top.
        let box = try #require(lines.first).boundingBox
        #expect(box.minX >= 0 && box.maxX <= 1 && box.width > 0.5, "\(box)")
        #expect(box.height > 0.3 && box.height < 0.5 && box.maxY > 0.9, "\(box)")
    }

    /// Twenty-four lines on a 1600 × 1300 page (two megapixels) stored upside down: `.fast` judges the turn on the
    /// page's central megapixel, then reads the whole page upright, as it reads the upright page.
    @Test func aLargeTurnedPageIsStillFound() async throws {
        let lines = (0..<24).map { "Line \($0) of a large page read upright after all" }
        let upright = try OCRScenes.page(lines.map { ($0, 36) }, width: 1600)
        #expect(upright.width * upright.height > 1024 * 1024)
        var request = RecognizeTextRequest()
        request.recognitionLevel = .fast
        let reference = try await ImageRequestHandler(image: upright).perform(request)
        let turned = try await ImageRequestHandler(image: try upright.oriented(.down)).perform(request)
        #expect(
            turned.compactMap { $0.topCandidates(1).first?.string }
                == reference.compactMap { $0.topCandidates(1).first?.string })
        #expect(turned.allSatisfy { $0.textOrientation == .down }, "\(turned.map(\.textOrientation))")
    }

    /// A page that takes Tesseract a minute (9-pixel letters over an A4 page at 300 dpi), cancelled once under way:
    /// the request fails with `cancelled` (the recognition asked its flag at the next word) instead of finishing.
    @Test func aCancelledRecognitionStops() async throws {
        var canvas = try Fixtures.canvas(width: 2480, height: 3508)
        var generator = SplitMix(seed: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for row in 0..<280 {
            let words = (0..<120).map { _ in
                String((0..<(2 + Int(generator.next() * 8))).map { _ in letters[Int(generator.next() * 52)] })
            }
            try Fixtures.drawText(words.joined(separator: " "), on: &canvas, x: 10, y: 20 + row * 12, height: 9)
        }
        let page = canvas.makeImage()
        var request = RecognizeTextRequest()
        request.automaticallyDetectsOrientation = false
        let task = Task { try await ImageRequestHandler(image: page).perform(request) }
        try await Task.sleep(for: .seconds(3))
        task.cancel()
        let result = await task.result
        switch result {
        case .success(let lines): Issue.record("not cancelled: \(lines.count) lines read to the end")
        case .failure(let error): #expect((error as? VisionError)?.code == .cancelled, "\(error)")
        }
    }
}
