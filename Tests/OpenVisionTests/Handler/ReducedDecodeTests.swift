import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Handlers decode a JPEG at 1/2, 1/4 or 1/8 scale when every request reading it (model requests)
/// needs no more; everything else keeps full resolution.
@Suite struct ReducedDecodeTests {
    static let dog = Fixtures.sharedImage("dog.jpg")  // 768 × 576

    @Test func scaleFollowsWhatTheCallerNeeds() throws {
        // Each side decodes to ceil(side / d) for the largest d in 8, 4, 2 with 1/d ≥ the scale asked for.
        for (scale, width, height) in [
            (1.0, 768, 576), (0.6, 768, 576), (0.5, 384, 288), (0.3, 384, 288), (0.25, 192, 144),
            (0.2, 192, 144), (0.125, 96, 72), (0.01, 96, 72),
        ] {
            let context = ImageRequestHandler(Self.dog).context
            let image = try context.image(for: .fullImage) { _, _ in scale }
            #expect(image.width == width && image.height == height, "scale \(scale): \(image.size)")
            #expect(try context.imageSize() == CGSize(width: 768, height: 576))
        }
        // The callback gets the region's full-resolution size in pixels.
        let context = ImageRequestHandler(Self.dog).context
        let region = NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.5)
        var asked: (Double, Double) = (0, 0)
        let crop = try context.image(for: region) { w, h in
            asked = (w, h)
            return 0.25
        }
        #expect(asked == (384, 288))
        #expect(crop.width == 96 && crop.height == 72)
        // Once the full colour image is decoded, it serves every later need.
        _ = try context.colorImage()
        #expect(try context.image(for: .fullImage) { _, _ in 0.1 }.width == 768)
        // Non-JPEG sources and decoded images always give full resolution.
        let png = try VisionImage(contentsOf: Self.dog).encoded(as: .png)
        #expect(try ImageRequestHandler(data: png).context.image(for: .fullImage) { _, _ in 0.1 }.width == 768)
    }

    @Test func exifRotationIsAppliedToTheReducedImage() throws {
        let upright = try OrientationTests.uprightScene()  // 400 × 300
        let stored = try upright.oriented(Fixtures.inverse(.right))
        let jpeg = Fixtures.jpegWithEXIF(try stored.encoded(as: .jpeg, quality: 95), orientation: .right)
        let context = ImageRequestHandler(data: jpeg).context
        #expect(try context.imageSize() == CGSize(width: 400, height: 300))
        let half = try context.image(for: .fullImage) { w, h in
            #expect(w == 400 && h == 300)
            return 0.5
        }
        #expect(half.width == 200 && half.height == 150)
        #expect(Fixtures.meanDifference(half, try upright.resized(width: 200, height: 150)) < 4)
    }

    @Test func modelRequestsAskForTheirInputScale() throws {
        let url = try #require(ModelLocator.find("efficientnet-lite0.onnx"), "run scripts/setup")
        let model = try VisionModel(contentsOf: url)  // 224 × 224, centre crop
        let request = ClassifyImageRequest(model: model)
        #expect(abs(request.minimumImageScale(width: 768, height: 576) - 224.0 / 576) < 1e-9)
        #expect(request.minimumImageScale(width: 100, height: 100) == 1)
        var fit = request
        fit.imageCropAndScaleOption = .scaleFit
        #expect(abs(fit.minimumImageScale(width: 768, height: 576) - 224.0 / 768) < 1e-9)
        #expect(DetectBarcodesRequest().minimumImageScale(width: 4000, height: 3000) == 1)
    }

    // Reference: the same pipeline in Python (opencv-python 4.10 + onnxruntime 1.31.1), decoding with
    // cv2.IMREAD_REDUCED_COLOR_2, then OpenVision's centre crop (INTER_LINEAR to 224, (x - 127) / 128, RGB):
    //   img = cv2.imdecode(np.fromfile("dog.jpg", np.uint8), cv2.IMREAD_REDUCED_COLOR_2); h, w = img.shape[:2]
    //   s = max(224 / w, 224 / h); c = 224 / s; x0, y0 = floor((w - c) / 2), floor((h - c) / 2)
    //   crop = cv2.resize(img[y0:y0 + round(c), x0:x0 + round(c)], (224, 224)); run; softmax
    //   → German shepherd 0.424, malamute 0.195, standard schnauzer 0.052
    // (full-size decode, the same way: malamute 0.382, German shepherd 0.272: the photo sits between the two)
    @Test func classifierOnAReducedDecodeMatchesPython() async throws {
        let url = try #require(ModelLocator.find("efficientnet-lite0.onnx"), "run scripts/setup")
        let request = ClassifyImageRequest(model: try VisionModel(contentsOf: url))
        let reduced = try await ImageRequestHandler(Self.dog).perform(request)
        #expect(
            reduced[0].identifier.hasPrefix("German shepherd") && abs(reduced[0].confidence - 0.424) < 0.01,
            "\(reduced.prefix(3).map { ($0.identifier, $0.confidence) })")
        #expect(reduced[1].identifier.hasPrefix("malamute") && abs(reduced[1].confidence - 0.195) < 0.01)
        let full = try await ImageRequestHandler(image: try VisionImage(contentsOf: Self.dog)).perform(request)
        #expect(
            full[0].identifier.hasPrefix("malamute") && abs(full[0].confidence - 0.382) < 0.01,
            "\(full.prefix(3).map { ($0.identifier, $0.confidence) })")
    }

    /// A camera-sized JPEG (the dog photo enlarged 4×, 3072 × 2304): the letterboxing detector needs
    /// 1/8 of it, and finds what it finds on the original photo.
    @Test func largePhotoDetectsLikeTheOriginal() async throws {
        let original = try VisionImage(contentsOf: Self.dog)
        var canvas = try ImageCanvas(width: 3072, height: 2304)
        try canvas.draw(original, at: .zero, scale: 4)
        let big = try canvas.makeImage().encoded(as: .jpeg, quality: 90)
        let onnx = try ObjectDetectionTests.convertedModel("yolo-fastest-1.1-xl")
        defer { try? FileManager.default.removeItem(at: onnx) }
        let model = try VisionModel(contentsOf: onnx)
        var request = DetectObjectsRequest(model: model)
        request.imageCropAndScaleOption = .scaleFit
        #expect(abs(request.minimumImageScale(width: 3072, height: 2304) - 320.0 / 3072) < 1e-9)
        let handler = ImageRequestHandler(data: big)
        let (onBig, timings) = try request.performWithTimings(in: handler.context)
        let onOriginal = try await ImageRequestHandler(image: original).perform(request)
        // The confident detections agree (weak duplicates near the threshold may come and go).
        let confident = { (o: [RecognizedObjectObservation]) in o.filter { $0.confidence >= 0.5 } }
        #expect(
            confident(onBig).count == confident(onOriginal).count,
            "\(onBig.map { ($0.labels[0].identifier, $0.confidence) }) vs \(onOriginal.map { ($0.labels[0].identifier, $0.confidence) })"
        )
        for b in confident(onOriginal) {
            let match =
                onBig.filter { $0.labels[0].identifier == b.labels[0].identifier }
                .map { $0.boundingBox.intersectionOverUnion(b.boundingBox) }.max() ?? 0
            #expect(match > 0.9, "\(b.labels[0].identifier): IoU \(match)")
        }
        #expect(Set(onBig.map { $0.labels[0].identifier }).isSuperset(of: ["dog", "bicycle", "car"]))
        #expect(timings.decode > .zero)
        #expect(try handler.imageSize() == CGSize(width: 3072, height: 2304))
    }

    @Test func grayRequestsBoundedByAnImageDimensionDecodeReduced() throws {
        // Gray plane at reduced scale; gray requests that need full resolution keep it.
        let context = ImageRequestHandler(Self.dog).context
        let gray = try context.lumaImage(for: .fullImage) { _, _ in 0.25 }
        #expect(gray.isGrayscale && gray.width == 192 && gray.height == 144)
        _ = try context.lumaImage()
        #expect(try context.lumaImage(for: .fullImage) { _, _ in 0.1 }.width == 768)
        // What the catalogue requests ask for on a 768 × 576 photo.
        #expect(DetectContoursRequest().minimumImageScale(width: 768, height: 576) == 512.0 / 768)
        #expect(GenerateAttentionBasedSaliencyImageRequest().minimumImageScale(width: 768, height: 576) == 68.0 / 576)
        #expect(DetectHorizonRequest().minimumImageScale(width: 4000, height: 3000) == 640.0 / 4000)
        #expect(DetectTextRectanglesRequest().minimumImageScale(width: 1000, height: 800) == 1)
        // A handler running only such requests decodes the gray plane once, at the scale all accept:
        // attention alone at 1/8 (96 × 72 keeps both sides ≥ 68 px); with contours (512 / 768) at full size.
        let handler = ImageRequestHandler(Self.dog)
        try handler.decode(for: [GenerateAttentionBasedSaliencyImageRequest()])
        #expect(try handler.context.lumaImage(for: .fullImage) { _, _ in 68.0 / 576 }.width == 96)
        let both = ImageRequestHandler(Self.dog)
        try both.decode(for: [GenerateAttentionBasedSaliencyImageRequest(), DetectContoursRequest()])
        #expect(try both.context.lumaImage(for: .fullImage) { _, _ in 68.0 / 576 }.width == 768)
    }
}
