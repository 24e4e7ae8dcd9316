import Foundation
import Testing
import Vision

#if canImport(AppleThumbnails)
    @testable import AppleThumbnails
#endif

/// Corpus files that analyse a video file (not a capture stream), run on videos made with ffmpeg.
@Suite struct VideoSampleTests {
    #if canImport(AppleThumbnails)
        /// "Generating thumbnails from videos" (Apple's Swift API: `VideoProcessor` with two requests at a cadence,
        /// `AVAssetImageGenerator.image(at:)`): a 1 s, 10 fps video of two shots, dog.jpg for five frames then
        /// eagle.jpg for five, made with
        /// `ffmpeg -loop 1 -framerate 10 -t 0.5 -i dog.jpg -loop 1 -framerate 10 -t 0.5 -i eagle.jpg -filter_complex
        /// "[0:v]scale=320:240,setsar=1[a];[1:v]scale=320:240,setsar=1[b];[a][b]concat=n=2:v=1:a=0[v]" -map "[v]"
        /// -r 10 -c:v libx264 -pix_fmt yuv420p` (ffprobe: 10 frames at 0.0, 0.1, … 0.9 s). The sample's cadence
        /// (duration / 100) takes every frame; its similarity rule keeps one frame per shot; each thumbnail is the
        /// frame it names (its feature print that frame's), with that frame's aesthetics score.
        @Test(.timeLimit(.minutes(5))) func thumbnailsOfATwoShotVideo() async throws {
            let folder = try Corpus.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let video = folder.appendingPathComponent("two-shots.mp4")
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = [
                "-v", "error", "-y", "-loop", "1", "-framerate", "10", "-t", "0.5", "-i", Corpus.image("dog.jpg").path,
                "-loop", "1", "-framerate", "10", "-t", "0.5", "-i", Corpus.image("eagle.jpg").path,
                "-filter_complex",
                "[0:v]scale=320:240,setsar=1[a];[1:v]scale=320:240,setsar=1[b];[a][b]concat=n=2:v=1:a=0[v]",
                "-map", "[v]", "-r", "10", "-c:v", "libx264", "-pix_fmt", "yuv420p", video.path,
            ]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            try #require(ffmpeg.terminationStatus == 0)

            var progress: [Float] = []
            let thumbnails = await processVideo(for: video, progression: { progress.append($0) })
            // The progress the view would show: each frame's start over the duration.
            #expect(progress.map { ($0 * 10).rounded() } == (0..<10).map(Float.init), "\(progress)")
            #expect(thumbnails.count == 2, "\(thumbnails.map { ($0.frame.time.seconds, $0.frame.score) })")
            // Best first, one from each shot.
            #expect(zip(thumbnails, thumbnails.dropFirst()).allSatisfy { $0.frame.score >= $1.frame.score })
            #expect(Set(thumbnails.map { $0.frame.time.seconds < 0.5 }) == [true, false])
            for thumbnail in thumbnails {
                #expect(thumbnail.image.width == 320 && thumbnail.image.height == 240)
                let image = try thumbnail.image.visionImage()
                let handler = ImageRequestHandler(image: image)
                let featurePrint = try await handler.perform(GenerateImageFeaturePrintRequest())
                #expect(try featurePrint.distance(to: thumbnail.frame.observation) < 1e-4)
                let score = try await handler.perform(CalculateImageAestheticsScoresRequest()).overallScore
                #expect(abs(score - thumbnail.frame.score) < 1e-4, "\(score) vs \(thumbnail.frame.score)")
            }
        }
    #endif
}
