import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision register`, `flow` and `video --requests flow,registration,trajectories`, run as a user would.
@Suite struct MotionCLITests {
    /// dog.jpg with its content moved by (dx, dy) pixels (y down), written as PNG.
    static func shiftedDog(dx: Double, dy: Double, in dir: URL) throws -> URL {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let url = dir.appendingPathComponent("shifted.png")
        try image.warpedPerspective(
            by: Matrix3x3(rowMajor: [1, 0, dx, 0, 1, dy, 0, 0, 1]), width: image.width, height: image.height,
            origin: .upperLeft
        ).write(to: url)
        return url
    }

    @Test func registerPrintsTheTranslationAndWritesTheAlignedImage() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = try Self.shiftedDog(dx: 6, dy: 4, in: dir)
        let aligned = dir.appendingPathComponent("aligned.png")
        let run = try await CLIProcess.run([
            "register", Fixtures.sharedImage("dog.jpg").path, target.path, "-o", aligned.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(run.stdout.utf8))
        let t = try #require(report.translation)
        #expect(abs(t.tx - -6) < 0.5 && abs(t.ty - 4) < 0.5, "\(t)")
        #expect(try VisionImage(contentsOf: aligned).width == 768)

        let homographic = try await CLIProcess.run([
            "register", Fixtures.sharedImage("dog.jpg").path, target.path, "--homographic",
        ])
        #expect(homographic.status == 0, "\(homographic.stderr)")
        let h = try #require(
            try JSONDecoder().decode(AnalysisReport.self, from: Data(homographic.stdout.utf8)).homography)
        #expect(abs(h.openCVTransform[2] - -6) < 0.5 && abs(h.openCVTransform[5] - -4) < 0.5, "\(h.openCVTransform)")

        let text = try await CLIProcess.run([
            "register", Fixtures.sharedImage("dog.jpg").path, target.path, "--format", "text",
        ])
        #expect(text.status == 0, "\(text.stderr)")
        let numbers = text.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap {
            word -> (String, Double)? in
            let parts = word.split(separator: "=")
            guard parts.count == 2, let value = Double(parts[1]) else { return nil }
            return (String(parts[0]), value)
        }
        let tx = numbers.first { $0.0 == "tx" }?.1
        let ty = numbers.first { $0.0 == "ty" }?.1
        #expect(
            text.stdout.contains("translation") && abs((tx ?? 0) - -6) < 0.5 && abs((ty ?? 0) - 4) < 0.5,
            "\(text.stdout)")
        let json = try await CLIProcess.run([
            "register", Fixtures.sharedImage("dog.jpg").path, target.path, "--format", "json",
        ])
        #expect(try JSONDecoder().decode(AnalysisReport.self, from: Data(json.stdout.utf8)).translation != nil)
    }

    @Test func registerRefusesDifferentSizes() async throws {
        let run = try await CLIProcess.run([
            "register", Fixtures.sharedImage("dog.jpg").path, Fixtures.sharedImage("giraffe.jpg").path,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("same size"))
    }

    @Test func flowWritesTheColourWheelAndTheField() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = try Self.shiftedDog(dx: 5, dy: -3, in: dir)
        let png = dir.appendingPathComponent("flow.png")
        let npy = dir.appendingPathComponent("flow.npy")
        let run = try await CLIProcess.run([
            "flow", Fixtures.sharedImage("dog.jpg").path, target.path, "--out", png.path,
            "--npy", npy.path, "--accuracy", "high",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let flow = try #require(try JSONDecoder().decode(AnalysisReport.self, from: Data(run.stdout.utf8)).opticalFlow)
        #expect(abs(flow.meanDx - 5) < 0.2 && abs(flow.meanDy - -3) < 0.2, "\(flow)")
        #expect(flow.field.png == png.path && flow.field.channels == 2)
        #expect(try VisionImage(contentsOf: png).width == 768)
        // 768 × 576 × 2 Float32 after the .npy header.
        #expect(try Data(contentsOf: npy).count > 768 * 576 * 8)
        let bad = try await CLIProcess.run([
            "flow", Fixtures.sharedImage("dog.jpg").path, target.path, "--accuracy", "best",
        ])
        #expect(bad.status != 0 && bad.stderr.contains("unknown accuracy"))
    }

    @Test func videoRunsTheSequenceRequests() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A camera panning over the photo by 3 px per frame to the right.
        let base = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg")).resized(width: 384, height: 288)
        for i in 0..<6 {
            try base.warpedPerspective(
                by: Matrix3x3(rowMajor: [1, 0, 3 * Double(i), 0, 1, 0, 0, 0, 1]), width: 384, height: 288,
                origin: .upperLeft
            ).write(to: dir.appendingPathComponent(String(format: "f%02d.png", i)))
        }
        let jsonl = dir.appendingPathComponent("out.jsonl")
        let run = try await CLIProcess.run([
            "video", dir.path, "--requests", "registration,flow,trajectories", "--jsonl", jsonl.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        let reports = try lines.map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        #expect(reports[0].translation == nil && reports[0].opticalFlow == nil)
        for report in reports.dropFirst() {
            let t = try #require(report.translation)
            #expect(abs(t.tx - -3) < 0.5 && abs(t.ty) < 0.5, "\(t)")
            #expect(abs((report.opticalFlow?.meanDx ?? 0) - 3) < 0.3)
        }
        let analyze = try await CLIProcess.run(["analyze", Fixtures.sharedImage("dog.jpg").path, "--requests", "flow"])
        #expect(analyze.status != 0 && analyze.stderr.contains("compares frames"))
    }
}
