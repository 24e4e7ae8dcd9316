import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision detect` without `--model` (the built-in detector) and `analyze --requests animals,humans`.
@Suite struct BuiltInDetectorCLITests {
    @Test func detectWithoutAModel() async throws {
        let result = try await CLIProcess.run(["detect", Fixtures.sharedImage("dog.jpg").path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        // Python onnxruntime on the bundled model (BuiltInDetectorTests): dog, bicycle, car, truck.
        #expect(report.objects?.map(\.label) == ["dog", "bicycle", "car", "truck"])
        let dog = try #require(report.objects?.first)
        #expect(
            abs(dog.box.pixels.x - 114) < 2 && abs(dog.box.pixels.y - 188) < 2 && abs(dog.box.pixels.width - 272) < 2)
    }

    @Test func animalsAndHumansInAnalyze() async throws {
        let result = try await CLIProcess.run([
            "analyze", "--requests", "animals,humans", Fixtures.sharedImage("person.jpg").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        #expect(report.animals?.map(\.label) == ["Dog"])
        #expect(report.objects == nil)
        let human = try #require(report.humans?.first)
        #expect(report.humans?.count == 1 && human.upperBodyOnly)
        #expect(abs(human.box.pixels.y - 103) < 2 && abs(human.box.pixels.height - 143) < 3)

        let text = try await CLIProcess.run([
            "analyze", "--requests", "animals", "--format", "text", Fixtures.sharedImage("dog.jpg").path,
        ])
        #expect(text.stdout.contains("animal Dog 0.96"), "\(text.stdout)")
    }
}
