import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Image folders and printf patterns on the command line: `live` reads them as frame sequences,
/// `analyze` lists folders the same way (ImageSequence), and a folder that gives no images says why.
@Suite struct ImageSequenceCLITests {
    /// Copies shared photos into `dir` under new names; returns each photo's width by name.
    static func copy(_ photos: [String: String], to dir: URL) throws -> [String: Int] {
        var widths: [String: Int] = [:]
        for (name, photo) in photos {
            try FileManager.default.copyItem(at: Fixtures.sharedImage(photo), to: dir.appendingPathComponent(name))
            widths[name] = try VisionImage(contentsOf: Fixtures.sharedImage(photo)).width
        }
        return widths
    }

    /// A folder with shot_0001, shot_0002 and shot_0007.jpg (a gap), and files the pattern shot_%04d.jpg
    /// does not match; returns the widths of the three frames in order.
    static func makeShots(in dir: URL) throws -> [Int] {
        let widths = try copy(
            [
                "shot_0001.jpg": "dog.jpg", "shot_0002.jpg": "eagle.jpg", "shot_0007.jpg": "giraffe.jpg",
                "shot_7.jpg": "horses.jpg", "shot_0003.png": "astronaut.png",
            ], to: dir)
        return ["shot_0001.jpg", "shot_0002.jpg", "shot_0007.jpg"].compactMap { widths[$0] }
    }

    @Test func videoAnalysesEveryFileOfAPatternInNumberOrder() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let widths = try Self.makeShots(in: dir)
        let jsonl = dir.appendingPathComponent("frames.jsonl")
        let result = try await CLIProcess.run([
            "video", dir.appendingPathComponent("shot_%04d.jpg").path,
            "--requests", "barcodes", "--jsonl", jsonl.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3, "one JSON line per matching file: \(lines.count)")
        let reports = try lines.map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        #expect(reports.map(\.frame) == [0, 1, 2])
        #expect(reports.map(\.width) == widths)
    }

    @Test func liveReadsAPatternToItsEnd() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let widths = try Self.makeShots(in: dir)
        let jsonl = dir.appendingPathComponent("frames.jsonl")
        let result = try await CLIProcess.run([
            "live", "--source", dir.appendingPathComponent("shot_%04d.jpg").path,
            "--requests", "barcodes", "--jsonl", jsonl.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Live paces the files at 30 fps and may drop a frame while one is analysed; all three are captured.
        #expect(result.stderr.contains("[ended] captured 3 ("), "\(result.stderr)")
        let reports = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        #expect((1...3).contains(reports.count) && reports.last?.frame == 2, "the newest frame is analysed last")
        #expect(
            reports.allSatisfy { report in
                report.frame.flatMap { widths.indices.contains($0) ? widths[$0] : nil } == report.width
            })
    }

    @Test func analyzeListsAFolderInNaturalOrder() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.copy(["p10.jpg": "dog.jpg", "p2.jpg": "eagle.jpg", "p1.jpg": "giraffe.jpg"], to: dir)
        let result = try await CLIProcess.run(["analyze", dir.path, "-r", "barcodes"])
        #expect(result.status == 0, "\(result.stderr)")
        let images = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)).image
        }
        #expect(images == ["p1.jpg", "p2.jpg", "p10.jpg"].map { dir.appendingPathComponent($0).path })
    }

    @Test func aFolderWithoutImagesIsReportedAndTheOtherInputsRun() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("text\n".utf8).write(to: empty.appendingPathComponent("notes.txt"))
        let result = try await CLIProcess.run([
            "analyze", empty.path, Fixtures.sharedImage("dog.jpg").path, "-r", "barcodes",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "openvision: error: no image files in \(empty.path) (looked for .jpg, .jpeg, .png, .webp, .bmp, .tif, .tiff) [fileNotFound]"
            ),
            "\(result.stderr)")
        // dog.jpg is still analysed (one image: one pretty-printed object).
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(result.stdout.utf8))
        #expect(report.image == Fixtures.sharedImage("dog.jpg").path && report.width == 768)
    }

    @Test(.enabled(if: Fixtures.canMakeUnreadableDirectory, "root outside a container: no directory it cannot read"))
    func anUnreadableFolderSaysItCannotBeRead() async throws {
        let path = try Fixtures.unreadableDirectory()
        defer { Fixtures.discard(unreadableDirectory: path) }
        let result = try await CLIProcess.run(["analyze", path, "-r", "barcodes"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "openvision: error: cannot read directory \(path): \(String(cString: strerror(EACCES))) [ioError]"),
            "\(result.stderr)")
        let live = try await CLIProcess.run(["live", "--source", path, "-r", "barcodes"])
        #expect(live.status == 1 && live.stderr.contains("cannot read directory \(path)"), "\(live.stderr)")
    }
}
