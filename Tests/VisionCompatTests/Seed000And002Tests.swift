import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Seed 001's lower-left → upper-left layer transform: x = minX, y = H − maxY.
func layerRect(_ objectBounds: CGRect, screenHeight: CGFloat) -> CGRect {
    CGRect(
        x: objectBounds.minX, y: screenHeight - objectBounds.maxY, width: objectBounds.width,
        height: objectBounds.height)
}

@Suite(.serialized) struct Seed000And002Tests {
    static let models = Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco")

    /// Seed 000 (Recognizing Objects in Live Capture): a Darknet YOLO through VNCoreMLModel / VNCoreMLRequest,
    /// results parsed as the seed does. Linux: the model URL is the Darknet .cfg (weights beside it).
    @Test func seed000DetectorThroughCoreMLRequest() throws {
        let modelURL = Self.models.appendingPathComponent("yolo-fastest-1.1-xl.cfg")
        let bufferSize = CGSize(width: 768, height: 576)
        var drawn: [(String, VNConfidence, CGRect)] = []
        func drawVisionRequestResults(_ results: [Any]) {
            for observation in results where observation is VNRecognizedObjectObservation {
                guard let objectObservation = observation as? VNRecognizedObjectObservation else {
                    continue
                }
                // Select only the label with the highest confidence.
                let topLabelObservation = objectObservation.labels[0]
                let objectBounds = VNImageRectForNormalizedRect(
                    objectObservation.boundingBox, Int(bufferSize.width), Int(bufferSize.height))
                drawn.append((topLabelObservation.identifier, topLabelObservation.confidence, objectBounds))
            }
        }

        let visionModel = try VNCoreMLModel(for: MLModel(contentsOf: modelURL))
        let objectRecognition = VNCoreMLRequest(
            model: visionModel,
            completionHandler: { (request, error) in
                // Linux: no main queue to hop to in a test; the seed dispatches UI updates to it.
                if let results = request.results {
                    drawVisionRequestResults(results)
                }
            })
        // Linux: the seed sets no crop option (Vision's default, centre crop); stretch is how this Darknet model was trained.
        objectRecognition.imageCropAndScaleOption = .scaleFill
        // Linux: a camera frame
        let frame = CVPixelBuffer(visionImage: try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg")))
        let exifOrientation = CGImagePropertyOrientation.up
        let imageRequestHandler = VNImageRequestHandler(
            cvPixelBuffer: frame, orientation: exifOrientation, options: [:])
        try imageRequestHandler.perform([objectRecognition])

        // The README's dog.jpg table (Python OpenCV DNN): dog 0.96 x=114 y=188 w=272 h=347 (top-left origin).
        #expect(drawn.map(\.0) == ["dog", "bicycle", "car", "truck"])
        let dog = try #require(drawn.first)
        let layer = layerRect(dog.2, screenHeight: bufferSize.height)
        #expect(
            abs(layer.minX - 114) < 2 && abs(layer.minY - 188) < 2 && abs(layer.width - 272) < 2
                && abs(layer.height - 347) < 2)
        #expect(abs(dog.1 - 0.96) < 0.01)
    }

    /// Seed 002 (Detecting Objects in Still Images): the rectangle, face, landmark, text and barcode requests
    /// configured as the seed configures them, bundled into one handler.
    @Test func seed002StillImageRequests() throws {
        // A mock gift card: the astronaut's portrait, a QR code and a line of text. Small, because dlib's HOG
        // face scan (header templates compiled into our C++) is slow in debug builds.
        var canvas = try Fixtures.canvas(width: 460, height: 320)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "GIFT-CARD-0042", symbology: .qr, moduleSize: 4), on: &canvas, x: 300, y: 20
        )
        try Fixtures.paste(
            try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png")), on: &canvas, x: 20, y: 20)
        try Fixtures.drawText("OPEN VISION", on: &canvas, x: 30, y: 300, height: 40)
        let scene = canvas.makeImage()
        let image = CGImage(visionImage: scene)  // Linux: the CGImage of an OpenVision image

        var rects: [VNRectangleObservation] = []
        var faces: [VNFaceObservation] = []
        var landmarks: [VNFaceObservation] = []
        var texts: [VNTextObservation] = []
        var codes: [VNBarcodeObservation] = []
        lazy var rectangleDetectionRequest: VNDetectRectanglesRequest = {
            let rectDetectRequest = VNDetectRectanglesRequest(completionHandler: { request, _ in
                rects = request.results as? [VNRectangleObservation] ?? []
            })
            // Customize & configure the request to detect only certain rectangles.
            rectDetectRequest.maximumObservations = 8  // Vision currently supports up to 16.
            rectDetectRequest.minimumConfidence = 0.6  // Be confident.
            rectDetectRequest.minimumAspectRatio = 0.3  // height / width
            return rectDetectRequest
        }()
        lazy var faceDetectionRequest = VNDetectFaceRectanglesRequest(completionHandler: { request, _ in
            faces = request.results as? [VNFaceObservation] ?? []
        })
        lazy var faceLandmarkRequest = VNDetectFaceLandmarksRequest(completionHandler: { request, _ in
            landmarks = request.results as? [VNFaceObservation] ?? []
        })
        lazy var textDetectionRequest: VNDetectTextRectanglesRequest = {
            let textDetectRequest = VNDetectTextRectanglesRequest(completionHandler: { request, _ in
                texts = request.results as? [VNTextObservation] ?? []
            })
            // Tell Vision to report bounding box around each character.
            textDetectRequest.reportCharacterBoxes = true
            return textDetectRequest
        }()
        lazy var barcodeDetectionRequest: VNDetectBarcodesRequest = {
            let barcodeDetectRequest = VNDetectBarcodesRequest(completionHandler: { request, _ in
                codes = request.results as? [VNBarcodeObservation] ?? []
            })
            // Restrict detection to most common symbologies.
            barcodeDetectRequest.symbologies = [.qr, .aztec, .upce]
            return barcodeDetectRequest
        }()

        let requests: [VNRequest] = [
            rectangleDetectionRequest, faceDetectionRequest, faceLandmarkRequest,
            textDetectionRequest, barcodeDetectionRequest,
        ]
        // Create a request handler.
        let imageRequestHandler = VNImageRequestHandler(cgImage: image, orientation: .up, options: [:])
        try imageRequestHandler.perform(requests)

        // Each equals OpenVision's own request on the same image.
        let handler = ImageRequestHandler(image: scene)
        var nativeRects = DetectRectanglesRequest()
        nativeRects.maximumObservations = 8
        nativeRects.minimumConfidence = 0.6
        nativeRects.minimumAspectRatio = 0.3
        #expect(rects.map(\.boundingBox) == (try nativeRects.perform(in: handler.context)).map(\.boundingBox.cgRect))
        #expect(faces.count == 1 && landmarks.count == 1)
        // Revision 3 (Apple's default): BlazeFace full range here.
        #expect(
            faces.map(\.boundingBox)
                == (try DetectFaceRectanglesRequest(.blazeFaceFullRange).perform(in: handler.context)).map(
                    \.boundingBox.cgRect))
        // Revision 3 (Apple's default): Vision's 76 points, 8 per eye and 14 on the outer lips.
        #expect(
            landmarks.first?.landmarks?.leftEye?.pointCount == 8
                && landmarks.first?.landmarks?.outerLips?.pointCount == 14)
        #expect(landmarks.first?.landmarks?.allPoints?.pointCount == 76)
        #expect(codes.map(\.payloadStringValue) == ["GIFT-CARD-0042"] && codes.first?.symbology == .qr)
        // The text line "OPEN VISION": a region with its 10 character boxes.
        #expect(
            texts.contains { ($0.characterBoxes?.count ?? 0) == 10 }, "\(texts.map { $0.characterBoxes?.count ?? -1 })")

        // The drawing math: the face box in layer (top-left) coordinates sits on the pasted astronaut (20...230),
        // around the astronaut's own face (57, 57, 89 × 90 in astronaut.png by HOG, README), shifted by 20: BlazeFace's
        // box (revision 3) holds it and is not much larger (71, 66, 109 × 109 here).
        let faceBox = layerRect(
            VNImageRectForNormalizedRect(faces[0].boundingBox, image.width, image.height),
            screenHeight: CGFloat(image.height))
        #expect(
            faceBox.contains(CGRect(x: 77, y: 77, width: 89, height: 90).insetBy(dx: 8, dy: 8))
                && faceBox.width < 89 * 1.3, "\(faceBox)")
    }
}

extension NormalizedRect {
    var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
}
