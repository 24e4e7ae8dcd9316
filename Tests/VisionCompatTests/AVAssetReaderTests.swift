import AVFoundation
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// `AVAssetReader` reads a video file's frames in order, as Apple's sample "Tracking Multiple Objects or Rectangles in
/// Video" does (`AVAsset(url:)`, `tracks(withMediaType: .video)`, an `AVAssetReaderTrackOutput`, `startReading()`,
/// `copyNextSampleBuffer()` until nil). Files made with ffmpeg (`testsrc`, 320 × 240, 10 fps); the frame count, rate
/// and times are ffprobe's:
/// `ffprobe -v error -count_frames -show_entries stream=nb_read_frames,r_frame_rate,width,height -of csv=p=0 t.mp4`
/// → `320,240,10/1,12`; `ffprobe -v error -show_entries frame=pts_time -of csv=p=0 t.mp4` → 0.0, 0.1, 0.2, …
@Suite(.serialized) struct AVAssetReaderTests {
    static func video(in folder: URL, frames: Int, rotation: Int? = nil) throws -> URL {
        let plain = folder.appendingPathComponent("testsrc.mp4")
        try ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-frames:v", "\(frames)", "-pix_fmt", "yuv420p",
            plain.path,
        ])
        guard let rotation else { return plain }
        // The rotation as the file's display matrix, the pixels unchanged (as a phone records upright video).
        let rotated = folder.appendingPathComponent("rotated.mp4")
        try ffmpeg(["-i", plain.path, "-metadata:s:v:0", "rotate=\(rotation)", "-c", "copy", rotated.path])
        return rotated
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    @Test(.timeLimit(.minutes(2))) func readsEveryFrameInOrder() throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVAsset(url: try Self.video(in: folder, frames: 12))
        let track = try #require(asset.tracks(withMediaType: .video).first)
        #expect(track.naturalSize == CGSize(width: 320, height: 240))
        #expect(track.nominalFrameRate == 10)
        #expect(track.preferredTransform == .identity && track.asset === asset)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: track,
            outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange]
        )
        output.alwaysCopiesSampleData = true
        #expect(reader.status == .unknown && reader.canAdd(output))
        reader.add(output)
        #expect(!reader.canAdd(output) && reader.outputs.count == 1)
        #expect(reader.startReading() && reader.status == .reading)
        #expect(!reader.startReading())
        var times: [Double] = []
        while let sample = output.copyNextSampleBuffer() {
            let pixels = try #require(CMSampleBufferGetImageBuffer(sample))
            #expect(CVPixelBufferGetWidth(pixels) == 320 && CVPixelBufferGetHeight(pixels) == 240)
            times.append(sample.presentationTimeStamp.seconds)
            #expect(sample.duration == CMTime(value: 1, timescale: 10))
        }
        #expect(times.count == 12)
        #expect(zip(times, (0..<12).map { Double($0) / 10 }).allSatisfy { abs($0 - $1) < 1e-3 }, "\(times)")
        #expect(reader.status == .completed && reader.error == nil)
        #expect(output.copyNextSampleBuffer() == nil)
    }

    /// A frame's pixels are the file's: the first frame against ffmpeg's own decoding of it
    /// (`ffmpeg -i testsrc.mp4 -frames:v 1 -f rawvideo -pix_fmt bgr24 first.bgr`), within the few levels two
    /// YUV → RGB conversions differ by; and `cancelReading()` stops the output.
    @Test(.timeLimit(.minutes(2))) func framesAreTheFilesPixels() throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.video(in: folder, frames: 2)
        let raw = folder.appendingPathComponent("first.bgr")
        try Self.ffmpeg(["-i", video.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "bgr24", raw.path])
        let reference = try Data(contentsOf: raw)
        let asset = AVURLAsset(url: video)
        #expect(asset.url == video)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        let sample = try #require(output.copyNextSampleBuffer())
        let pixels = try #require(CMSampleBufferGetImageBuffer(sample))
        let decoded = try pixels.visionImage().pixels(in: .bgr8)
        #expect(decoded.data.count == reference.count && reference.count == 320 * 240 * 3)
        let difference = zip(decoded.data, reference).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(reference.count) < 3, "mean difference \(difference)")
        reader.cancelReading()
        #expect(reader.status == .cancelled && output.copyNextSampleBuffer() == nil)
    }

    /// The object-tracking sample's loop on the reader's frames — a new `VNTrackObjectRequest` each frame, from the
    /// observation the last one returned, on one `VNSequenceRequestHandler`, which continues that observation's
    /// tracker (as Vision does) — follows a red 40 × 40 square that ffmpeg moves right by 10 px a frame
    /// (`overlay=x='20+t*100'` at 10 fps): started on the first frame at its box, it finds the square on the last
    /// (the 20th, t = 1.9 s) at x = 20 + 190 = 210 px, within 4 px. (Without continuing, each new request would start
    /// a new tracker at the box it is given and the box would never move.)
    @Test(.timeLimit(.minutes(2))) func trackingAMovingSquareOnTheReadersFrames() throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("moving.mp4")
        try Self.ffmpeg([
            "-f", "lavfi", "-i", "color=c=gray:s=320x240:r=10", "-f", "lavfi", "-i", "color=c=red:s=40x40:r=10",
            "-filter_complex", "[0][1]overlay=x='20+t*100':y=100:shortest=1", "-frames:v", "20", "-pix_fmt",
            "yuv420p", video.path,
        ])
        let asset = AVAsset(url: video)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        // Vision's lower-left normalised box of the square on the first frame (x 20…60, y 100…140 from the top).
        var observation = VNDetectedObjectObservation(
            boundingBox: CGRect(x: 20.0 / 320, y: 100.0 / 240, width: 40.0 / 320, height: 40.0 / 240))
        let handler = VNSequenceRequestHandler()
        var frames = 0
        while let sample = output.copyNextSampleBuffer(), let pixels = CMSampleBufferGetImageBuffer(sample) {
            let request = VNTrackObjectRequest(detectedObjectObservation: observation)
            request.trackingLevel = .accurate
            try handler.perform([request], on: pixels, orientation: .up)
            observation = try #require(request.results?.first)
            frames += 1
        }
        #expect(frames == 20 && reader.status == .completed)
        let x = observation.boundingBox.minX * 320
        #expect(abs(x - 210) < 4, "the square's left edge at \(x) px")
    }

    /// A file recorded rotated: the decoder turns its frames upright, so the track's size is the upright one and its
    /// transform the identity (`ffprobe -show_entries stream_side_data=rotation` → 90).
    @Test(.timeLimit(.minutes(2))) func rotatedFilesComeUpright() throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVAsset(url: try Self.video(in: folder, frames: 3, rotation: 90))
        let track = try #require(asset.tracks(withMediaType: .video).first)
        #expect(track.naturalSize == CGSize(width: 240, height: 320))
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        #expect(reader.startReading())
        var count = 0
        while let sample = output.copyNextSampleBuffer(), let pixels = CMSampleBufferGetImageBuffer(sample) {
            #expect(CVPixelBufferGetWidth(pixels) == 240 && CVPixelBufferGetHeight(pixels) == 320)
            count += 1
        }
        #expect(count == 3 && reader.status == .completed)
    }

    /// A missing file and a file that is not a video have no tracks, and a reader of them throws
    /// (`AVFoundationErrorDomain`, -11828); a reader without an output does not start; a reader takes only outputs
    /// of its own asset's tracks.
    @Test func badInput() throws {
        let folder = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("not-a-video.mp4")
        try Data("not a video".utf8).write(to: text)
        for url in [folder.appendingPathComponent("missing.mp4"), text] {
            let asset = AVAsset(url: url)
            #expect(asset.tracks(withMediaType: .video).isEmpty)
            do {
                _ = try AVAssetReader(asset: asset)
                Issue.record("a reader of \(url.lastPathComponent) was made")
            } catch {
                let error = error as NSError
                #expect(error.domain == AVFoundationErrorDomain && error.code == -11828)
            }
        }
        let video = try Self.video(in: folder, frames: 1)
        let reader = try AVAssetReader(asset: AVAsset(url: video))
        #expect(!reader.startReading() && reader.status == .failed && reader.error != nil)
        let other = try #require(AVAsset(url: video).tracks(withMediaType: .video).first)
        let second = try AVAssetReader(asset: AVAsset(url: video))
        #expect(!second.canAdd(AVAssetReaderTrackOutput(track: other, outputSettings: nil)))
    }
}
