import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `ImageSequence` (directories and printf patterns as frame sequences) and `FrameSource.images`
/// through `LiveAnalyzer`, on small PNGs whose width says which file a frame came from.
@Suite struct ImageSequenceTests {
    /// A new empty folder under the temporary directory.
    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-seq-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes a gray PNG `width` pixels wide (8 high) for each name; the width identifies the file.
    static func writeImages(_ widths: [String: Int], in dir: URL) throws {
        for (name, width) in widths {
            try ImageCanvas(width: width, height: 8, color: OverlayColor(red: 90, green: 90, blue: 90)).makeImage()
                .write(to: dir.appendingPathComponent(name))
        }
    }

    /// Widths of every frame `source` delivers, in order, and the analyzer's stats.
    static func frameWidths(_ source: FrameSource, fps: Double = 30) async throws -> ([Int], LiveStats) {
        var options = CaptureOptions()
        options.pace = .fastest
        options.imageSequenceFPS = fps
        var configuration = LiveAnalyzer.Configuration()
        configuration.dropsFrames = false
        let analyzer = LiveAnalyzer(
            source: source, options: options, requests: [DetectBarcodesRequest()], configuration: configuration)
        var widths: [Int] = []
        for try await result in analyzer { widths.append(result.image.width) }
        return (widths, analyzer.stats())
    }

    /// The error opening `source` throws.
    static func openError(_ source: String) -> VisionError? {
        do {
            _ = try ImageSequence(resolving: source)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("f2.png", "f10.png", true), ("f10.png", "f2.png", false), ("img_0009.jpg", "img_0010.jpg", true),
        ("a.png", "a1.png", true), ("f01.png", "f1.png", true), ("f1.png", "f01.png", false),
        ("b1.png", "a2.png", false), ("x9y10.png", "x9y9.png", false), ("same.png", "same.png", false),
    ])
    func naturalOrder(_ a: String, _ b: String, _ precedes: Bool) {
        #expect(ImageSequence.precedesInNaturalOrder(a, b) == precedes)
    }

    @Test func directoryKeepsImageFilesInNaturalOrder() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeImages(["f10.png": 40, "f2.png": 20, "f1.png": 10, "f3.PNG": 30, ".hidden.png": 99], in: dir)
        try Data("not an image\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let files = try ImageSequence.imageFiles(inDirectory: dir.path)
        #expect(files.map(\.lastPathComponent) == ["f1.png", "f2.png", "f3.PNG", "f10.png"])

        let (widths, stats) = try await Self.frameWidths(.images(dir.path), fps: 12)
        #expect(widths == [10, 20, 30, 40])
        let info = try #require(stats.captureInfo)
        #expect(
            info.frameCount == 4 && info.fps == 12 && info.backend == "images" && info.width == 10 && info.height == 8)
        #expect(stats.state == .ended && stats.framesCaptured == 4)
    }

    @Test func patternTakesEveryMatchingNumberAcrossGaps() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // printf("img_%04d.png", n) makes img_0001, img_0003, img_0010 and img_12345; not img_003,
        // img_00005 (too many zeros), img_0002.jpg or other.png.
        try Self.writeImages(
            [
                "img_0010.png": 30, "img_0001.png": 10, "img_0003.png": 20, "img_12345.png": 40,
                "img_003.png": 91, "img_00005.png": 92, "img_0002.jpg": 93, "other.png": 94,
            ], in: dir)
        let pattern = dir.appendingPathComponent("img_%04d.png").path
        let sequence = try ImageSequence(resolving: pattern)
        #expect(
            sequence.files.map(\.lastPathComponent) == [
                "img_0001.png", "img_0003.png", "img_0010.png", "img_12345.png",
            ])
        let (widths, stats) = try await Self.frameWidths(FrameSource(parsing: pattern))
        #expect(widths == [10, 20, 30, 40])
        #expect(stats.captureInfo?.frameCount == 4 && stats.captureInfo?.backend == "images")

        // %d: no padding, so f01 is not f1; %% is a literal percent sign.
        try Self.writeImages(
            ["f1.png": 11, "f01.png": 95, "f12.png": 13, "f2.png": 12, "50%_7.png": 17, "50%_6.png": 16], in: dir)
        let plain = try ImageSequence(resolving: dir.appendingPathComponent("f%d.png").path)
        #expect(plain.files.map(\.lastPathComponent) == ["f1.png", "f2.png", "f12.png"])
        let percent = try ImageSequence(resolving: dir.appendingPathComponent("50%%_%d.png").path)
        #expect(percent.files.map(\.lastPathComponent) == ["50%_6.png", "50%_7.png"])
    }

    @Test func patternMatchingNothingOrMalformedSaysSo() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeImages(["img_1.png": 10], in: dir)
        let nothing = try #require(Self.openError(dir.appendingPathComponent("img_%04d.png").path))
        #expect(nothing.code == .fileNotFound)
        #expect(
            nothing.message.contains("no file in \(dir.path) matches the pattern")
                && nothing.message.contains("img_0000.png"),
            "\(nothing)")
        let noDirectory = try #require(Self.openError(dir.appendingPathComponent("missing/img_%04d.png").path))
        #expect(
            noDirectory.code == .fileNotFound && noDirectory.message.contains("no such directory: \(dir.path)/missing"),
            "\(noDirectory)")
        for malformed in ["img_%s.png", "img_%d_%d.png", "img_%-4d.png", "img_%"] {
            let error = try #require(Self.openError(dir.appendingPathComponent(malformed).path), "\(malformed)")
            #expect(
                error.code == .invalidArgument && error.message.contains("unsupported image sequence pattern"),
                "\(error)")
        }
    }

    @Test func directoryWithoutImagesMissingOrAFileSaysWhich() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("text\n".utf8).write(to: dir.appendingPathComponent("readme.txt"))
        try Self.writeImages([".hidden.png": 10], in: dir)
        let empty = try #require(Self.openError(dir.path))
        #expect(empty.code == .fileNotFound)
        #expect(
            empty.message == "no image files in \(dir.path) (looked for .jpg, .jpeg, .png, .webp, .bmp, .tif, .tiff)")

        let missing = try #require(Self.openError(dir.appendingPathComponent("nope").path))
        #expect(missing.code == .fileNotFound && missing.message == "no such directory: \(dir.path)/nope")

        let file = dir.appendingPathComponent("readme.txt").path
        let notDirectory = try #require(Self.openError(file))
        #expect(
            notDirectory.code == .invalidArgument
                && notDirectory.message.hasPrefix("\(file) is a file, not a directory"))

        // The same errors end a LiveAnalyzer at open, before any frame.
        do {
            _ = try await Self.frameWidths(.images(dir.path))
            Issue.record("a folder without images must fail")
        } catch let error as VisionError {
            #expect(error.code == .fileNotFound && error.message.contains("no image files in"))
        }
    }

    @Test(.enabled(if: Fixtures.canMakeUnreadableDirectory, "root outside a container: no directory it cannot read"))
    func unreadableDirectoryIsAnIOErrorThatSaysWhy() throws {
        let path = try Fixtures.unreadableDirectory()
        defer { Fixtures.discard(unreadableDirectory: path) }
        let error = try #require(Self.openError(path))
        #expect(error.code == .ioError)
        #expect(error.message == "cannot read directory \(path): \(String(cString: strerror(EACCES)))", "\(error)")
    }

    @Test func aFileThatFailsToDecodeEndsTheSequenceWithItsError() async throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.writeImages(["f1.png": 10, "f3.png": 30], in: dir)
        let png = try ImageCanvas(width: 20, height: 8, color: OverlayColor(red: 0, green: 0, blue: 0)).makeImage()
            .encoded(as: .png)
        try png.prefix(png.count / 2).write(to: dir.appendingPathComponent("f2.png"))
        var widths: [Int] = []
        var options = CaptureOptions()
        options.pace = .fastest
        let analyzer = LiveAnalyzer(source: .images(dir.path), options: options, requests: [DetectBarcodesRequest()])
        do {
            for try await result in analyzer { widths.append(result.image.width) }
            Issue.record("the truncated frame must end the sequence with an error")
        } catch let error as VisionError {
            #expect(error.code == .invalidImage, "\(error)")
            #expect(
                error.message.hasPrefix("frame 1 of image sequence \(dir.path): ") && error.message.contains("f2.png"),
                "\(error)")
        }
        #expect(widths == [10])
        #expect(analyzer.stats().state == .failed && analyzer.stats().framesCaptured == 1)
    }
}
