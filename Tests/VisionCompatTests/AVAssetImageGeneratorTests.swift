import AVFoundation
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// `AVAssetImageGenerator` makes the frame shown at a requested time, as Apple's "Generating thumbnails from videos"
/// sample uses it (`image(at:)` on the top-rated frames' times), and `AVAsset.load(.duration)`. The video: ten 64×48
/// frames at 10 fps, frame n a flat grey of luma 16 + 20n, made with
/// `ffmpeg -f lavfi -i color=c=black:s=64x48:r=10 -vf "geq=lum='16+N*20':cb=128:cr=128" -frames:v 10 -pix_fmt yuv420p`;
/// each frame's expected grey is ffmpeg's own decoding (`ffmpeg -i v.mp4 -f rawvideo -pix_fmt gray frames.raw`, the
/// mean of each 64×48 block), so a wrong frame (20 levels away) cannot pass.
@Suite(.serialized) struct AVAssetImageGeneratorTests {
    static func video(in folder: URL) throws -> (url: URL, greys: [Double]) {
        let url = folder.appendingPathComponent("greys.mp4")
        try AVAssetReaderTests.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=64x48:r=10", "-vf", "geq=lum='16+N*20':cb=128:cr=128",
            "-frames:v", "10", "-pix_fmt", "yuv420p", url.path,
        ])
        let raw = folder.appendingPathComponent("frames.raw")
        try AVAssetReaderTests.ffmpeg(["-i", url.path, "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
        let bytes = [UInt8](try Data(contentsOf: raw))
        try #require(bytes.count == 10 * 64 * 48)
        let greys = (0..<10).map { frame in
            Double(bytes[(frame * 64 * 48)..<((frame + 1) * 64 * 48)].reduce(0) { $0 + Int($1) }) / Double(64 * 48)
        }
        return (url, greys)
    }

    /// The mean grey of an image (its red, green and blue alike for these frames).
    static func grey(_ image: CGImage) throws -> Double {
        let data = try image.visionImage().rgbData()
        return Double(data.reduce(0) { $0 + Int($1) }) / Double(data.count)
    }

    @Test(.timeLimit(.minutes(2))) func makesTheFrameShownAtTheTime() async throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (url, greys) = try Self.video(in: folder)
        let asset = AVURLAsset(url: url)
        #expect(try await asset.load(.duration) == CMTime(value: 600, timescale: 600))
        #expect(try await asset.load(.tracks).count == 1)
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        #expect(generator.requestedTimeToleranceBefore == .positiveInfinity && generator.maximumSize == .zero)
        // 0.35 s shows frame 3 (0.3 s … 0.4 s).
        let (image, actual) = try await generator.image(at: CMTime(value: 35, timescale: 100))
        #expect(image.width == 64 && image.height == 48)
        #expect(abs(actual.seconds - 0.3) < 1e-3, "\(actual.seconds)")
        let grey = try Self.grey(image)
        #expect(abs(grey - greys[3]) < 3, "\(grey) vs \(greys)")
        // Zero tolerances: the same frame, reported at the requested time.
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        var exact = CMTime.invalid
        let same = try generator.copyCGImage(at: CMTime(value: 35, timescale: 100), actualTime: &exact)
        let sameGrey = try Self.grey(same)
        #expect(abs(exact.seconds - 0.35) < 1e-3 && abs(sameGrey - greys[3]) < 3)
        // A time less than a millisecond before a frame (a presentation time rounded down to a timescale) is that
        // frame's: 599/6000 s is frame 1 (0.1 s).
        let rounded = try generator.copyCGImage(at: CMTime(value: 599, timescale: 6000), actualTime: nil)
        let roundedGrey = try Self.grey(rounded)
        #expect(abs(roundedGrey - greys[1]) < 3, "\(roundedGrey) vs \(greys)")
        // Scaled down to fit, aspect ratio kept.
        generator.maximumSize = CGSize(width: 32, height: 32)
        let small = try generator.copyCGImage(at: .zero, actualTime: nil)
        #expect(small.width == 32 && small.height == 24)
        let smallGrey = try Self.grey(small)
        #expect(abs(smallGrey - greys[0]) < 3)
    }

    /// `images(for:)`: one element per time, in the order given, from one pass over the file.
    @Test(.timeLimit(.minutes(2))) func makesImagesForManyTimesInTheirOrder() async throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (url, greys) = try Self.video(in: folder)
        let generator = AVAssetImageGenerator(asset: AVAsset(url: url))
        let times = [0.95, 0.1, 0.55, 5.0].map { CMTime(seconds: $0, preferredTimescale: 600) }
        var seen: [(requested: Double, actual: Double, grey: Double)] = []
        for await element in generator.images(for: times) {
            seen.append((element.requestedTime.seconds, try element.actualTime.seconds, try Self.grey(element.image)))
        }
        #expect(seen.map(\.requested) == [0.95, 0.1, 0.55, 5.0])
        // After the end, the last frame (it stays shown).
        let frames = [9, 1, 5, 9]
        for (index, frame) in frames.enumerated() {
            #expect(abs(seen[index].actual - Double(frame) / 10) < 1e-3, "\(seen[index])")
            #expect(abs(seen[index].grey - greys[frame]) < 3, "\(seen[index]) vs \(greys[frame])")
        }
    }

    /// A file that is not a video: a zero duration, no tracks, and an error in `AVFoundationErrorDomain` for each
    /// image, as Apple's.
    @Test func aFileThatIsNotAVideoGivesErrors() async throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("not-a-video.mp4")
        try Data("not a video".utf8).write(to: url)
        let asset = AVAsset(url: url)
        #expect(try await asset.load(.duration) == .zero)
        let generator = AVAssetImageGenerator(asset: asset)
        #expect(throws: NSError.self) { try generator.copyCGImage(at: .zero, actualTime: nil) }
        do {
            _ = try await generator.image(at: .zero)
            Issue.record("an image from a file that is not a video")
        } catch {
            #expect((error as NSError).domain == AVFoundationErrorDomain)
        }
        var failures = 0
        for await element in generator.images(for: [.zero, CMTime(value: 1, timescale: 1)]) {
            #expect(throws: NSError.self) { try element.image }
            failures += 1
        }
        #expect(failures == 2)
    }
}
