import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

@testable import OpenVision

/// The rest of Vision's request surface as Apple's code uses it: typed `results`, revisions, the pointer form of
/// `computeDistance(_:to:)`, the sample-buffer handler and `[String: Any]` options.
@Suite struct VNRequestSurfaceTests {
    static let person = try! VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))
    static let dog = try! VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))

    @Test func resultsAreTypedOnEachRequestAndUntypedThroughVNRequest() throws {
        let faces = VNDetectFaceRectanglesRequest()
        faces.revision = VNDetectFaceRectanglesRequestRevision2  // BlazeFace: fast in debug builds (HOG is dlib at -O0)
        let pose = VNDetectHumanBodyPoseRequest()
        let text = VNDetectTextRectanglesRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([faces, pose, text])
        // The declared types (compile-time: these lines are the test).
        let typedFaces: [VNFaceObservation]? = faces.results
        let typedPoses: [VNHumanBodyPoseObservation]? = pose.results
        let typedText: [VNTextObservation]? = text.results
        #expect(typedFaces != nil && typedPoses?.count == 1 && typedText != nil)
        #expect(try pose.results?.first?.recognizedPoint(.nose).confidence ?? 0 > 0.3)
        // Through VNRequest, as completion handlers see them: the same objects.
        let untyped: [VNRequest] = [faces, pose]
        #expect(untyped[0].results?.count == typedFaces?.count && untyped[1].results?.first === typedPoses?.first)
        #expect((untyped[1].results as? [VNHumanBodyPoseObservation])?.count == 1)
        // nil before a perform.
        #expect(VNDetectBarcodesRequest().results == nil)
        // A Core ML request's results stay untyped, as Apple's.
        let generic: [VNObservation]? = VNCoreMLRequest(
            model: try VNCoreMLModel(
                for: MLModel(contentsOf: Fixtures.shared.appendingPathComponent("models/coreml/MobileNetLike.mlmodel")))
        ).results
        #expect(generic == nil)
    }

    @Test func revisionsHaveApplesConstantsAndDefaults() throws {
        #expect(VNDetectFaceRectanglesRequest.supportedRevisions == IndexSet([1, 2, 3]))
        // Face rectangles default to Apple's revision 3 (BlazeFace full range here; docs/porting.md).
        #expect(VNDetectFaceRectanglesRequest.defaultRevision == VNDetectFaceRectanglesRequestRevision3)
        #expect(VNDetectFaceRectanglesRequest().revision == 3 && VNDetectFaceRectanglesRequest.currentRevision == 3)
        #expect(VNRecognizeTextRequest().revision == VNRecognizeTextRequestRevision3)
        #expect(VNDetectBarcodesRequest.currentRevision == VNDetectBarcodesRequestRevision4)
        #expect(
            VNDetectHumanBodyPoseRequest.supportedRevisions == IndexSet(integer: VNDetectHumanBodyPoseRequestRevision1))
        #expect(VNGenerateImageFeaturePrintRequest().revision == VNGenerateImageFeaturePrintRequestRevision2)
        // Face rectangles' revisions are distinct detectors: 1 dlib HOG, 2/3 BlazeFace short and full range
        // (OpenVision's revisions; 3, the default, is held by Seed000And002Tests).
        for revision in 2...3 {
            let request = VNDetectFaceRectanglesRequest()
            request.revision = revision
            try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([request])
            let native = try DetectFaceRectanglesRequest(.init(rawValue: revision)!).perform(
                in: ImageRequestHandler(image: Self.person).context)
            #expect(request.results?.map(\.boundingBox) == native.map { $0.boundingBox.cgRect }, "revision \(revision)")
        }
        // A revision the class does not have: Vision's unsupportedRevision, also to the completion handler.
        var handlerError: Error?
        let request = VNDetectHumanBodyPoseRequest { _, error in handlerError = error }
        request.revision = 2
        #expect { try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([request]) } throws: {
            error in
            (error as? VNError)?.code == .unsupportedRevision && "\(error)".contains("revision 2")
        }
        #expect((handlerError as? VNError)?.code == .unsupportedRevision && request.results == nil)
    }

    @Test func computeDistanceWritesThroughItsPointer() throws {
        let a = VNGenerateImageFeaturePrintRequest()
        let b = VNGenerateImageFeaturePrintRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.dog)).perform([a])
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person)).perform([b])
        let dogPrint = try #require(a.results?.first)
        let personPrint = try #require(b.results?.first)
        var distance = Float(-1)
        try dogPrint.computeDistance(&distance, to: personPrint)
        #expect(distance == (try dogPrint.computeDistance(to: personPrint)) && distance > 0)
        var same = Float(-1)
        try dogPrint.computeDistance(&same, to: dogPrint)
        #expect(same == 0)
    }

    @Test func sampleBufferHandlerRunsOnFrames() throws {
        let frame = CMSampleBuffer(frame: Frame(index: 0, captureTime: .now, sourceTimestamp: 0, image: Self.dog))
        let fromFrame = VNRecognizeAnimalsRequest()
        let fromImage = VNRecognizeAnimalsRequest()
        try VNImageRequestHandler(cmSampleBuffer: frame, orientation: .up, options: [:]).perform([fromFrame])
        try VNImageRequestHandler(cvPixelBuffer: CMSampleBufferGetImageBuffer(frame)!, options: [:]).perform([fromImage]
        )
        #expect(
            fromFrame.results?.map(\.boundingBox) == fromImage.results?.map(\.boundingBox)
                && fromFrame.results?.isEmpty == false)
        let sequence = VNSequenceRequestHandler()
        let tracked = VNRecognizeAnimalsRequest()
        try sequence.perform([tracked], on: frame)
        #expect(tracked.results?.map(\.boundingBox) == fromImage.results?.map(\.boundingBox))
    }

    @Test func optionDictionaries() throws {
        // [String: Any] with Vision's keys, as older code passes them; and [VNImageOption: Any].
        let strings: [String: Any] = ["VNImageOptionCameraIntrinsics": [1.0, 0, 0, 0, 1, 0, 0, 0, 1]]
        let request = VNDetectHumanRectanglesRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person), options: strings).perform([request])
        #expect(request.results?.count == 1)
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.person), options: [.properties: [String: Any]()])
            .perform([request])
        #expect(request.results?.count == 1)
        // An unknown key: Vision's invalidOption when performed, naming the key, for every request.
        for handler in [
            VNImageRequestHandler(
                cgImage: CGImage(visionImage: Self.person), options: ["VNImageOptionColourSpace": 1] as [String: Any]),
            VNImageRequestHandler(
                url: Fixtures.sharedImage("person.jpg"), options: [VNImageOption(rawValue: "bogus"): 1]),
        ] {
            #expect { try handler.perform([request]) } throws: { error in
                (error as? VNError)?.code == .invalidOption
                    && (error as? VNError)?.message.contains("unknown image option") == true
            }
            #expect(request.results == nil)
        }
    }
}
