import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Every VN* request gives what OpenVision's own request gives on the same image: same boxes, strings and
/// confidences (the wrapper adds nothing and loses nothing).
@Suite(.serialized) struct VNEquivalenceTests {
    static let person = try! VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))
    static let dog = try! VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))

    static func native<R: VisionRequest>(_ request: R, on image: VisionImage) throws -> R.Result {
        try request.perform(in: ImageRequestHandler(image: image).context)
    }

    static func vn(_ request: VNRequest, on image: VisionImage) throws -> [VNObservation] {
        try VNImageRequestHandler(cgImage: CGImage(visionImage: image)).perform([request])
        return request.results ?? []
    }

    /// Face capture quality and aesthetics: the VN classes give OpenVision's scores; `inputFaceObservations` are kept.
    @Test func captureQualityAndAesthetics() throws {
        let astronaut = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let faces = try Self.vn(VNDetectFaceCaptureQualityRequest(), on: astronaut) as! [VNFaceObservation]
        let nativeFaces = try Self.native(DetectFaceCaptureQualityRequest(), on: astronaut)
        #expect(faces.count == 1 && faces.map(\.faceCaptureQuality) == nativeFaces.map { $0.captureQuality?.score })
        let given = VNDetectFaceCaptureQualityRequest()
        given.inputFaceObservations = faces
        let again = try Self.vn(given, on: astronaut) as! [VNFaceObservation]
        #expect(again.map(\.boundingBox) == faces.map(\.boundingBox))
        // The faces given back carry the mesh's roll, which turns the region the mesh reads: nearly the same score.
        let pairs = zip(again.compactMap(\.faceCaptureQuality), faces.compactMap(\.faceCaptureQuality))
        #expect(again.count == 1 && pairs.allSatisfy { abs($0 - $1) < 0.05 })
        #expect(VNDetectFaceCaptureQualityRequest.supportedRevisions == IndexSet([1, 2, 3]))

        let scores =
            try Self.vn(VNCalculateImageAestheticsScoresRequest(), on: Self.dog)
            as! [VNImageAestheticsScoresObservation]
        let native = try Self.native(CalculateImageAestheticsScoresRequest(), on: Self.dog)
        #expect(scores.map(\.overallScore) == [native.overallScore] && scores.map(\.isUtility) == [native.isUtility])
    }

    @Test func detectorsAndClassifiers() throws {
        let animals = try Self.vn(VNRecognizeAnimalsRequest(), on: Self.dog) as! [VNRecognizedObjectObservation]
        let nativeAnimals = try Self.native(RecognizeAnimalsRequest(), on: Self.dog)
        #expect(animals.map(\.boundingBox) == nativeAnimals.map { $0.boundingBox.cgRect })
        #expect(animals.map { $0.labels.map(\.identifier) } == nativeAnimals.map { $0.labels.map(\.identifier) })
        #expect(animals.map(\.confidence) == nativeAnimals.map(\.confidence))

        let humans = try Self.vn(VNDetectHumanRectanglesRequest(), on: Self.person) as! [VNHumanObservation]
        let nativeHumans = try Self.native(DetectHumanRectanglesRequest(), on: Self.person)
        #expect(humans.count == 1 && humans.map(\.boundingBox) == nativeHumans.map { $0.boundingBox.cgRect })
        #expect(humans.first?.upperBodyOnly == true)

        let classes = try Self.vn(VNClassifyImageRequest(), on: Self.dog) as! [VNClassificationObservation]
        var nativeClassify = ClassifyImageRequest()
        nativeClassify.maximumObservations = 0
        nativeClassify.taxonomy = .apple
        let nativeClasses = try Self.native(nativeClassify, on: Self.dog)
        #expect(classes.count == 1303 && classes.map(\.identifier) == nativeClasses.map(\.identifier))
        #expect(classes.prefix(4).contains { $0.identifier == "dog" })
        #expect(
            try VNClassifyImageRequest.knownClassifications(forRevision: 1).map(\.identifier)
                == AppleTaxonomy.identifiers)
        #expect(try VNClassifyImageRequest().supportedIdentifiers().count == 1303)
        #expect(throws: (any Error).self) { try VNClassifyImageRequest.knownClassifications(forRevision: 3) }
        #expect(classes.map(\.confidence) == nativeClasses.map(\.confidence))

        let print = try Self.vn(VNGenerateImageFeaturePrintRequest(), on: Self.dog) as! [VNFeaturePrintObservation]
        var nativePrintRequest = GenerateImageFeaturePrintRequest()
        nativePrintRequest.imageCropAndScaleOption = .scaleFill
        #expect(print.first?.data == (try Self.native(nativePrintRequest, on: Self.dog)).data)
    }

    @Test func classicRequests() throws {
        let contours = try Self.vn(VNDetectContoursRequest(), on: Self.person) as! [VNContoursObservation]
        let nativeContours = try Self.native(DetectContoursRequest(), on: Self.person)
        #expect(contours.first?.contourCount == nativeContours.contourCount)
        #expect(
            contours.first?.topLevelContours.first?.normalizedPoints
                == nativeContours.topLevelContours.first?.normalizedPoints)

        let horizon = try Self.vn(VNDetectHorizonRequest(), on: Self.person) as! [VNHorizonObservation]
        let nativeHorizon = try Self.native(DetectHorizonRequest(), on: Self.person)
        #expect(horizon.map { Double($0.angle) } == (nativeHorizon.map { [$0.radians] } ?? []))

        for (request, native) in [
            (
                VNGenerateAttentionBasedSaliencyImageRequest() as VNRequest,
                try Self.native(GenerateAttentionBasedSaliencyImageRequest(), on: Self.dog)
            ),
            (
                VNGenerateObjectnessBasedSaliencyImageRequest(),
                try Self.native(GenerateObjectnessBasedSaliencyImageRequest(), on: Self.dog)
            ),
        ] {
            let map = try Self.vn(request, on: Self.dog) as! [VNSaliencyImageObservation]
            #expect(map.first?.values.values == native.heatMap.values)
            #expect(
                map.first?.salientObjects?.map(\.boundingBox) == native.salientObjects.map { $0.boundingBox.cgRect })
            #expect(try map.first.map { CVPixelBufferGetWidth($0.pixelBuffer) } == 68)
            #expect(
                try map.first.map { CVPixelBufferGetPixelFormatType($0.pixelBuffer) }
                    == kCVPixelFormatType_OneComponent32Float)
        }

        let textRequest = VNDetectTextRectanglesRequest()
        textRequest.reportCharacterBoxes = true
        var nativeText = DetectTextRectanglesRequest()
        nativeText.reportCharacterBoxes = true
        let text = try Self.vn(textRequest, on: Self.dog) as! [VNTextObservation]
        let nativeTextResults = try Self.native(nativeText, on: Self.dog)
        #expect(text.map(\.boundingBox) == nativeTextResults.map { $0.boundingBox.cgRect })
        #expect(text.map { $0.characterBoxes?.count } == nativeTextResults.map { $0.characterBoxes?.count })

        let document = try Self.vn(VNDetectDocumentSegmentationRequest(), on: Self.dog) as! [VNRectangleObservation]
        #expect(
            document.map(\.boundingBox)
                == [try Self.native(DetectDocumentSegmentationRequest(), on: Self.dog)].compactMap {
                    $0?.boundingBox.cgRect
                })

        let rectangles = VNDetectRectanglesRequest()
        rectangles.maximumObservations = 0
        var nativeRectangles = DetectRectanglesRequest()
        nativeRectangles.maximumObservations = 0
        let found = try Self.vn(rectangles, on: Self.dog) as! [VNRectangleObservation]
        #expect(
            found.map(\.topLeft)
                == (try Self.native(nativeRectangles, on: Self.dog)).map { CGPoint(x: $0.topLeft.x, y: $0.topLeft.y) })
    }

    @Test func pairAndSequenceRequests() throws {
        // The dog photo shifted right by 6 px: the translation as OpenVision's.
        let shifted = try Self.dog.warpedPerspective(
            by: Matrix3x3(rowMajor: [1, 0, 6, 0, 1, 0, 0, 0, 1]),
            width: Self.dog.width, height: Self.dog.height, origin: .upperLeft)
        let translation =
            try Self.vn(
                VNTranslationalImageRegistrationRequest(targetedCGImage: CGImage(visionImage: shifted)), on: Self.dog)
            as! [VNImageTranslationAlignmentObservation]
        let nativeTranslation = try #require(
            try Self.native(TranslationalImageRegistrationRequest(targetImage: shifted), on: Self.dog))
        #expect(translation.first.map { Double($0.alignmentTransform.tx) } == nativeTranslation.tx)
        #expect(translation.first.map { Double($0.alignmentTransform.ty) } == nativeTranslation.ty)

        let flow =
            try Self.vn(VNGenerateOpticalFlowRequest(targetedCGImage: CGImage(visionImage: shifted)), on: Self.dog)
            as! [VNPixelBufferObservation]
        #expect(
            flow.first?.values.values
                == (try Self.native(GenerateOpticalFlowRequest(targetImage: shifted), on: Self.dog)).values)

        // The tracking request on a sequence handler: nothing on the first frame, the shift on the second.
        let sequence = VNSequenceRequestHandler()
        let track = VNTrackTranslationalImageRegistrationRequest()
        try sequence.perform([track], on: CGImage(visionImage: Self.dog))
        #expect(track.results?.isEmpty == true)
        try sequence.perform([track], on: CGImage(visionImage: shifted))
        let tracked = try #require(track.results?.first as? VNImageTranslationAlignmentObservation)
        #expect(abs(tracked.alignmentTransform.tx) > 5)
    }

    @Test func errorsAreVisionErrorsAndReachTheCompletionHandler() throws {
        let request = VNDetectRectanglesRequest()
        request.regionOfInterest = CGRect(x: 0.5, y: 0.5, width: 1, height: 1)  // outside the image
        var reported: Error?
        request.completionHandler = { _, error in reported = error }
        #expect(throws: VNError.self) {
            try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.dog)).perform([request])
        }
        #expect((reported as? VNError)?.code == .invalidArgument)
        #expect(request.results == nil)
        // A file that is not an image.
        let handler = VNImageRequestHandler(data: Data("not an image".utf8))
        do {
            try handler.perform([VNDetectBarcodesRequest()])
            Issue.record("expected an error")
        } catch let error as VNError {
            #expect(error.code == .invalidImage && error.domain == VNErrorDomain)
        }
    }
}
