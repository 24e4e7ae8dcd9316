import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The DocC article "Getting Started" and the README's main job, run as written on the shared photos.
@Suite struct GettingStartedDocumentationTests {
    @Test func firstRequestAndPixelCoordinates() async throws {
        let handler = ImageRequestHandler(Fixtures.sharedImage("astronaut.png"))
        let (faces, lines) = try await handler.perform(DetectFaceLandmarksRequest(), RecognizeTextRequest())
        #expect(faces.count == 1)
        #expect(lines.isEmpty)
        #expect(faces.first?.landmarks?.allPoints.pointCount == 76)
        let size = try handler.imageSize()
        let pixels = try #require(faces.first).boundingBox.toImageCoordinates(size, origin: .upperLeft)
        // The README's main job: `openvision analyze astronaut.png --format text` prints
        // "face 0.93 at x=55 y=52 w=103 h=103" (pixels, top-left origin).
        #expect(abs(pixels.minX - 55) <= 2 && abs(pixels.minY - 52) <= 2)
        #expect(abs(pixels.width - 103) <= 2 && abs(pixels.height - 103) <= 2)
        // The same box in Vision's lower-left convention starts 210 - 52 - 103 = 55 px from the bottom.
        let lowerLeft = try #require(faces.first).boundingBox.toImageCoordinates(size)
        #expect(abs(lowerLeft.minY - 55) <= 2)
    }

    @Test func anExplicitOrientationTurnsTheImageUpright() async throws {
        // dog.jpg is 768 × 576 as stored; `.right` says it is stored turned, so it is analysed as 576 × 768.
        let sideways = ImageRequestHandler(Fixtures.sharedImage("dog.jpg"), orientation: .right)
        #expect(try sideways.imageSize() == CGSize(width: 576, height: 768))
        _ = try await sideways.perform(RecognizeTextRequest())
    }

    @Test func aMissingFileIsFileNotFound() async {
        do {
            let handler = ImageRequestHandler(URL(fileURLWithPath: "/nonexistent/missing.png"))
            _ = try await handler.perform(DetectBarcodesRequest())
            Issue.record("expected fileNotFound")
        } catch {
            #expect(error.code == .fileNotFound)
        }
    }

    @Test func stillAnalysisReportsWhatServeAndJobsStore() async throws {
        let analysis = try StillAnalysis(kinds: RequestKind.kinds(from: ["barcodes", "faces"]))
        let handler = ImageRequestHandler(Fixtures.sharedImage("astronaut.png"))
        let run = try await analysis.run(on: handler, image: "photo.jpg")
        let json = try JSONEncoder().encode(run.report)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((object["faces"] as? [Any])?.count == 1)
        #expect((object["barcodes"] as? [Any])?.isEmpty == true)
        #expect(object["image"] as? String == "photo.jpg")
    }
}
