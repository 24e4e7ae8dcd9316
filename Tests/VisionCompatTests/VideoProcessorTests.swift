import AVFoundation
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Vision's `VideoProcessor`, as Apple's "Generating thumbnails from videos" sample drives it: requests added with a
/// cadence, `startAnalysis()`, then each request's results read in turn, each observation's `timeRange` its frame's.
/// The grey video of `AVAssetImageGeneratorTests` (ten frames at 10 fps: frame n at n/10 s); each result is checked
/// against the same request performed on the frame `AVAssetImageGenerator` gives for that time.
@Suite(.serialized) struct VideoProcessorTests {
    // Ten minutes: in a full suite at load 9 it had reached the second of its four aesthetics frames at three.
    @Test(.timeLimit(.minutes(10))) func runsEachRequestOnTheFramesItsCadenceSelects() async throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (url, _) = try AVAssetImageGeneratorTests.video(in: folder)
        let processor = VideoProcessor(url)
        let aesthetics = CalculateImageAestheticsScoresRequest()
        let everyThird = try await processor.addRequest(
            aesthetics, cadence: .timeInterval(CMTime(value: 3, timescale: 10)))
        // Saliency for the other cadences: a single observation too, and cheap.
        let fivePerSecond = try await processor.addRequest(
            GenerateAttentionBasedSaliencyImageRequest(), cadence: .frameRate(5))
        let everyFrame = try await processor.addRequest(GenerateAttentionBasedSaliencyImageRequest())
        processor.startAnalysis()
        await #expect(throws: VisionError.self) { _ = try await processor.addRequest(aesthetics) }

        var scores: [CMTime: Float] = [:]
        var starts: [Double] = []
        for try await observation in everyThird {
            let range = try #require(observation.timeRange)
            #expect(abs(range.duration.seconds - 0.1) < 1e-3, "\(range)")
            starts.append(range.start.seconds)
            scores[range.start] = observation.overallScore
        }
        #expect(starts.map { ($0 * 10).rounded() } == [0, 3, 6, 9], "\(starts)")
        var fiveStarts: [Double] = []
        for try await observation in fivePerSecond {
            fiveStarts.append(try #require(observation.timeRange).start.seconds)
        }
        #expect(fiveStarts.map { ($0 * 10).rounded() } == [0, 2, 4, 6, 8], "\(fiveStarts)")
        var count = 0
        for try await observation in everyFrame {
            #expect(observation.timeRange.map { ($0.start.seconds * 10).rounded() } == Double(count))
            count += 1
        }
        #expect(count == 10)

        // The scores are those of the frames shown at those times.
        let generator = AVAssetImageGenerator(asset: AVAsset(url: url))
        for (time, score) in scores {
            let (image, _) = try await generator.image(at: time)
            let still = try await ImageRequestHandler(image: image.visionImage()).perform(aesthetics)
            #expect(abs(still.overallScore - score) < 1e-5, "\(time.seconds): \(still.overallScore) vs \(score)")
            #expect(still.timeRange == nil)
        }
    }

    /// Each observation of an array result gets its frame's time range: a white 80×60 box on black, found by
    /// `DetectRectanglesRequest` on each of 3 frames
    /// (`ffmpeg -f lavfi -i color=c=black:s=160x120:r=10 -vf drawbox=x=40:y=30:w=80:h=60:color=white:t=fill`).
    @Test(.timeLimit(.minutes(3))) func stampsEveryObservationOfAnArrayResult() async throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("box.mp4")
        try AVAssetReaderTests.ffmpeg([
            "-f", "lavfi", "-i", "color=c=black:s=160x120:r=10", "-vf",
            "drawbox=x=40:y=30:w=80:h=60:color=white:t=fill", "-frames:v", "3", "-pix_fmt", "yuv420p", url.path,
        ])
        let processor = VideoProcessor(url)
        let rectangles = try await processor.addRequest(DetectRectanglesRequest())
        processor.startAnalysis()
        var frame = 0
        for try await observations in rectangles {
            #expect(observations.count == 1)
            for observation in observations {
                #expect(observation.timeRange.map { ($0.start.seconds * 10).rounded() } == Double(frame))
                // The box: x 40…120 of 160, y 30…90 of 120 (lower-left origin: 0.25…0.75).
                #expect(
                    abs(observation.boundingBox.origin.x - 0.25) < 0.02
                        && abs(observation.boundingBox.width - 0.5) < 0.02)
            }
            frame += 1
        }
        #expect(frame == 3)
    }

    /// A cadence that selects nothing is refused; a file that is not a video ends every sequence with an error.
    @Test func badInput() async throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("not-a-video.mp4")
        try Data("not a video".utf8).write(to: url)
        let processor = VideoProcessor(url)
        await #expect(throws: VisionError.self) {
            _ = try await processor.addRequest(CalculateImageAestheticsScoresRequest(), cadence: .frameRate(0))
        }
        await #expect(throws: VisionError.self) {
            _ = try await processor.addRequest(CalculateImageAestheticsScoresRequest(), cadence: .timeInterval(.zero))
        }
        let results = try await processor.addRequest(CalculateImageAestheticsScoresRequest())
        processor.startAnalysis()
        await #expect(throws: (any Error).self) {
            for try await _ in results {}
        }
    }
}
