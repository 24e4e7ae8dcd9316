import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `DetectFaceCaptureQualityRequest` and `CalculateImageAestheticsScoresRequest`: the measures they are composed from
/// against OpenCV's Python build, scores falling with blur, darkening and size on the shared photos, utility images
/// told from photos, and bad input (blank images, faces at the border or a few pixels wide, images under 8 × 8).
/// The monotonicity figures over dlib's faces and the shared photos are `scripts/bench facequality,aesthetics`'s.
@Suite struct CaptureQualityTests {
    /// `image` blurred with a Gaussian of `sigma` pixels (edges clamped), at its own size.
    static func blurred(_ image: VisionImage, _ sigma: Double) throws -> VisionImage {
        let recipe = try #require(ImageRecipe(image: image).clampedToExtent().gaussianBlurred(sigma: sigma))
        return try recipe.renderedImage(in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
    }

    /// `image` with its colours multiplied by `k`.
    static func scaled(_ image: VisionImage, _ k: Double) throws -> VisionImage {
        let m = ColorMatrix(red: [k, 0, 0, 0], green: [0, k, 0, 0], blue: [0, 0, k, 0])
        return try ImageRecipe(image: image).applyingColorMatrix(m).renderedImage()
    }

    /// The measures of astronaut.png (a 210 × 210 JPEG despite its name; the region asked, 512 × 512, is clipped to
    /// it and measured as is) equal OpenCV's: with opencv-contrib-python-headless
    /// 4.10.0.84, g = cv2.cvtColor(cv2.imread(p), cv2.COLOR_BGR2GRAY); mean g.mean(), contrast g.std(), laplacian
    /// the mean of cv2.Laplacian(g, cv2.CV_32F, ksize=1, borderType=cv2.BORDER_REPLICATE)[1:-1, 1:-1] ** 2 and the
    /// 10th percentile of its 8 × 8 blocks' means (the floor); noise Liu, Tanaka and Okutomi's weak-texture patch
    /// estimate (7 × 7 patches, the smallest eigenvalue of their covariance, twice narrowed by gradient energy under
    /// sigma² · gammainccinv(r / 2, 1e-6) · 2 tr(D'D) / r with scipy); colourfulness Hasler–Süsstrunk on the float
    /// BGR planes (`Benchmarks/python/quality_reference.py astronaut.png`).
    @Test func measuresMatchOpenCV() throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let m = try ImageQualityMeasures(image, x: 0, y: 0, width: 512, height: 512, workWidth: nil, maxSide: 512)
        #expect(m.width == 210 && m.height == 210)
        #expect(abs(m.mean - 137.886) < 0.01)
        #expect(abs(m.contrast - 73.968) < 0.01)
        #expect(abs(m.laplacian - 954.34) < 0.1)
        #expect(abs(m.laplacianFloor - 4.797) < 0.01)
        #expect(abs(m.noise - 0.16444) < 0.001)
        #expect(abs(m.colorfulness - 30.325) < 0.01)
        // A good JPEG: hardly any 8 × 8 grid (0.046).
        #expect(m.blockiness < 0.1)
        #expect(throws: VisionError.self) {
            try ImageQualityMeasures(image, x: 206, y: 0, width: 20, height: 20, workWidth: 112)
        }
    }

    /// astronaut.png's face scores lower blurred (sigma 2, then 6), darkened (×0.5), and shrunk to a quarter; measured
    /// on the same box, as Apple's selfie sample passes the faces it found.
    @Test func faceQualityFallsWithDegradation() throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let found = try DetectFaceCaptureQualityRequest().perform(in: ImageAnalysisContext(image: image))
        #expect(found.count == 1)
        let face = try #require(found.first)
        let q0 = try #require(face.captureQuality?.score)
        #expect(q0 > 0.3 && q0 <= 1, "\(q0)")
        #expect(face.landmarks?.constellation == .points76)
        func quality(_ degraded: VisionImage) throws -> Float {
            let request = DetectFaceCaptureQualityRequest(inputFaceObservations: [face])
            let faces = try request.perform(in: ImageAnalysisContext(image: degraded))
            return try #require(faces.first?.captureQuality?.score)
        }
        let q2 = try quality(Self.blurred(image, 2))
        let q6 = try quality(Self.blurred(image, 6))
        #expect(q0 > q2 && q2 > q6, "\(q0) \(q2) \(q6)")
        let dark = try quality(Self.scaled(image, 0.5))
        #expect(dark < q0, "\(dark) vs \(q0)")
        let small = try quality(image.resized(width: 128, height: 128))
        #expect(small < q0, "\(small) vs \(q0)")
    }

    /// The request finds faces itself down to BlazeFace's 0.3: astronaut.png blurred with σ 3 and σ 8 (the faces a
    /// detector at 0.5 drops: full-range BlazeFace's best score on the σ 8 copy is 0.40) each get a score, falling
    /// with the blur; photos without a face give none (their best scores stay under 0.2). Scores: the whole image
    /// letterboxed to 192 × 192 through the converted model, as in onnxruntime:
    /// `1/(1+exp(-s.run(None, {"input_1": x})[1].max()))` → 0.939, 0.854, 0.396; dog.jpg 0.17, eagle.jpg 0.002.
    @Test func blurredFacesAreFoundAndScoredLow() throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        func found(_ image: VisionImage) throws -> [FaceObservation] {
            try DetectFaceCaptureQualityRequest().perform(in: ImageAnalysisContext(image: image))
        }
        let q0 = try #require(found(image).first?.captureQuality?.score)
        let b3 = try found(Self.blurred(image, 3))
        let b8 = try found(Self.blurred(image, 8))
        #expect(b3.count == 1 && b8.count == 1, "\(b3.count) \(b8.count)")
        let q3 = try #require(b3.first?.captureQuality?.score)
        let q8 = try #require(b8.first?.captureQuality?.score)
        #expect(q0 > q3 && q3 > q8, "\(q0) \(q3) \(q8)")
        #expect(b8.first.map { $0.confidence >= 0.3 && $0.confidence < 0.5 } == true)
        for name in ["dog.jpg", "eagle.jpg"] {
            #expect(try found(VisionImage(contentsOf: Fixtures.sharedImage(name))).isEmpty, "\(name)")
        }
    }

    /// Blank images have no faces; a box at the border is measured on its visible part; a box a few pixels wide, or
    /// outside the image, scores 0; a 10 px wide face scores below the same face large.
    @Test func faceQualityBadInput() throws {
        let blank = try Fixtures.canvas(width: 64, height: 64, gray: 128).makeImage()
        #expect(try DetectFaceCaptureQualityRequest().perform(in: ImageAnalysisContext(image: blank)).isEmpty)
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let boxes = [
            NormalizedRect(x: 0.9, y: 0.4, width: 0.3, height: 0.3),  // half outside on the right
            NormalizedRect(x: 0.5, y: 0.5, width: 0.01, height: 0.01),  // 5 px
            NormalizedRect(x: 1.5, y: 1.5, width: 0.2, height: 0.2),  // outside
        ]
        let request = DetectFaceCaptureQualityRequest(
            inputFaceObservations: boxes.map { FaceObservation(boundingBox: $0, confidence: 1) })
        let scores = try request.perform(in: ImageAnalysisContext(image: image)).map { $0.captureQuality?.score }
        #expect(scores.count == 3)
        #expect(scores[0].map { $0 >= 0 && $0 <= 1 } == true)
        #expect(scores[1] == 0 && scores[2] == 0)
        // The astronaut shrunk so that the face is about 20 px wide.
        let face = try #require(
            try DetectFaceCaptureQualityRequest().perform(in: ImageAnalysisContext(image: image)).first)
        let tiny = try image.resized(width: 40, height: 40)
        let q = try DetectFaceCaptureQualityRequest(inputFaceObservations: [face])
            .perform(in: ImageAnalysisContext(image: tiny)).first?.captureQuality?.score
        #expect(q.map { $0 < face.captureQuality!.score } == true, "\(String(describing: q))")
    }

    /// eagle.jpg scores above its blurred (sigma 4) and darkened (×0.3) copies; a rendered page is a utility image and
    /// eagle.jpg is not; a blank image has a score and is no utility image; an image under 8 × 8 pixels is refused.
    @Test func aesthetics() throws {
        let eagle = try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg"))
        let request = CalculateImageAestheticsScoresRequest()
        let original = try request.perform(in: ImageAnalysisContext(image: eagle))
        #expect(original.overallScore > -1 && original.overallScore <= 1)
        #expect(!original.isUtility)
        let soft = try request.perform(in: ImageAnalysisContext(image: Self.blurred(eagle, 4)))
        let dark = try request.perform(in: ImageAnalysisContext(image: Self.scaled(eagle, 0.3)))
        #expect(soft.overallScore < original.overallScore && dark.overallScore < original.overallScore)
        let page = try OCRScenes.page([
            ("Quarterly report", 48), ("Sales grew in every region this quarter.", 28),
            ("Two new stores opened in the north.", 28), ("Revenue 48,000 units 1,200", 28),
        ])
        #expect(try request.perform(in: ImageAnalysisContext(image: page)).isUtility)
        // One line turned 12° (no level line for the line grouper, upright or turned 90°): PP-OCR's detector finds it.
        let rot12 = try #require(OCRScenes.rendered.first { $0.name == "rot12" })
        let turned = try CalculateImageAestheticsScoresRequest.measure(rot12.make()).1
        #expect(turned.isUtility && turned.lines == 1, "\(turned)")
        let blank = try Fixtures.canvas(width: 64, height: 64, gray: 255).makeImage()
        let flat = try request.perform(in: ImageAnalysisContext(image: blank))
        #expect(!flat.isUtility && flat.overallScore < original.overallScore)
        let tiny = try Fixtures.canvas(width: 4, height: 4).makeImage()
        #expect(throws: VisionError.self) { try request.perform(in: ImageAnalysisContext(image: tiny)) }
    }
}
