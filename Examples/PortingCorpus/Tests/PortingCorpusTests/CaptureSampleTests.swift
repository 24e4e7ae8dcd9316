import AVFoundation
import Foundation
import Testing
import Vision

#if canImport(AppleFacetrack)
    @testable import AppleFacetrack
#endif
#if canImport(AppleHandpose)
    @testable import AppleHandpose
#endif
#if canImport(ApplePhonenumbers)
    @testable import ApplePhonenumbers
#endif

/// Apple's capture samples run on video files made with ffmpeg: each view controller's
/// `captureOutput(_:didOutput:from:)` is the published one, called by `CaptureDelegateBridge` with the file's frames
/// on the queue the sample gives its video data output. What the sample would draw is read where its UI-only edit
/// left it (the test subclasses override the methods that would update the screen).
@Suite(.serialized) struct CaptureSampleTests {
    #if canImport(AppleHandpose)
        /// "Detecting Hand Poses with Vision": the thumb and index tips the sample hands to its gesture processor
        /// (AVFoundation's coordinates: x, 1 − y) are those OpenVision's hand pose finds on the same image.
        @Test(.timeLimit(.minutes(5))) func handPoseOnAVideoFile() async throws {
            final class Recorder: AppleHandpose.CameraViewController, @unchecked Sendable {
                var tips: [(CGPoint?, CGPoint?)] = []
                override func processPoints(thumbTip: CGPoint?, indexTip: CGPoint?) {
                    tips.append((thumbTip, indexTip))
                    super.processPoints(thumbTip: thumbTip, indexTip: indexTip)
                }
            }
            let folder = try Corpus.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let still = Corpus.root.appendingPathComponent("Tests/Fixtures/MediaPipe/hand-single.jpg")
            let video = try Corpus.video(of: still, frames: 4, in: folder)
            let controller = Recorder()
            controller.viewDidLoad()
            let output = AVCaptureVideoDataOutput()
            output.alwaysDiscardsLateVideoFrames = false
            output.setSampleBufferDelegate(controller, queue: DispatchQueue(label: "CameraFeedDataOutput"))
            let bridge = CaptureDelegateBridge(source: .file(video), output: output)
            try await bridge.run()
            #expect(bridge.deliveredFrames == 4 && bridge.droppedFrames == 0)
            #expect(controller.tips.count == 4)

            let hands = try await ImageRequestHandler(still).perform(DetectHumanHandPoseRequest())
            let hand = try #require(hands.first)
            let thumb = hand.recognizedPoint(.thumbTip).location
            let index = hand.recognizedPoint(.indexTip).location
            for (thumbTip, indexTip) in controller.tips {
                let t = try #require(thumbTip)
                let i = try #require(indexTip)
                #expect(abs(t.x - thumb.x) < 0.02 && abs(t.y - (1 - thumb.y)) < 0.02, "thumb \(t) vs \(thumb)")
                #expect(abs(i.x - index.x) < 0.02 && abs(i.y - (1 - index.y)) < 0.02, "index \(i) vs \(index)")
            }
        }
    #endif

    #if canImport(ApplePhonenumbers)
        /// "Extracting phone numbers from text in images": a number held in the sample's region of interest, filmed by a
        /// phone held upright (its sensor turned 90°: the sample reads it with `.right`), becomes the sample's stable
        /// number after the ten sightings its `StringTracker` asks for.
        @Test(.timeLimit(.minutes(5))) func phoneNumberOnAVideoFile() async throws {
            final class Recorder: ApplePhonenumbers.VisionViewController, @unchecked Sendable {
                var shown: [String] = []
                override func showString(string: String) { shown.append(string) }
            }
            let folder = try Corpus.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Upright 720 × 1280; the region of interest is the centre 576 × 108 px (0.8 × 0.15 / (1280 / 720)).
            let still = try Corpus.textImage(
                ["408-555-0123"], width: 720, height: 1280, pixelHeight: 44,
                origin: CGPoint(x: 200, y: 620), in: folder, name: "number.png")
            let video = try Corpus.video(of: still, frames: 14, filter: "transpose=2", in: folder)
            let controller = Recorder()
            controller.viewDidLoad()
            controller.bufferAspectRatio = 1280.0 / 720.0
            controller.calculateRegionOfInterest()
            #expect(controller.textOrientation == .right)
            controller.videoDataOutput.alwaysDiscardsLateVideoFrames = false
            controller.videoDataOutput.setSampleBufferDelegate(controller, queue: controller.videoDataOutputQueue)
            let bridge = CaptureDelegateBridge(source: .file(video), output: controller.videoDataOutput)
            try await bridge.run()
            #expect(bridge.deliveredFrames == 14)
            #expect(controller.shown == ["4085550123"])
        }
    #endif

    // The face-tracking sample builds with the Apple modules' NSLog, which takes an NSError for `%@` (Linux
    // Foundation's NSError is not a `CVarArg`); it is in the corpus additions, not yet in shared/.
    #if canImport(AppleFacetrack)
        /// "Tracking the User's Face in Real Time": the face found on the first frame is tracked on the next ones and its
        /// rectangle and landmarks drawn (the paths the sample's shape layers would show, at the frame's size). The front
        /// camera's frames are transposed, as the sample reads them (`.leftMirrored`).
        @Test(.timeLimit(.minutes(5))) func faceTrackingOnAVideoFile() async throws {
            let folder = try Corpus.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // The astronaut's portrait (210 × 210): its face is found (person.jpg's, a small far face, is not).
            let still = Corpus.image("astronaut.png")
            let video = try Corpus.video(of: still, frames: 6, filter: "transpose=0", in: folder)
            let controller = AppleFacetrack.ViewController()
            controller.viewDidLoad()
            let upright = try VisionImage(contentsOf: still)
            controller.captureDeviceResolution = CGSize(width: upright.height, height: upright.width)
            let output = AVCaptureVideoDataOutput()
            output.alwaysDiscardsLateVideoFrames = false
            output.setSampleBufferDelegate(
                controller, queue: DispatchQueue(label: "com.example.apple-samplecode.VisionFaceTrack"))
            let bridge = CaptureDelegateBridge(source: .file(video), output: output)
            try await bridge.run()
            // The main queue has the sample's drawing and its new tracking requests: let it run.
            await MainActor.run {}
            #expect(bridge.deliveredFrames == 6)
            let faceBox = try #require(controller.detectedFaceRectanglePath?.boundingBox)
            // The face is the middle of the portrait: its box (in the frame's pixels, lower-left origin) contains the
            // image's centre and covers between a tenth and two thirds of it.
            #expect(faceBox.contains(CGPoint(x: 105, y: 105)), "\(faceBox)")
            #expect(faceBox.width > 40 && faceBox.width < 170 && faceBox.height > 40 && faceBox.height < 170)
            #expect(controller.detectedFaceLandmarksPath.map { !$0.isEmpty } == true)
        }
    #endif
}
