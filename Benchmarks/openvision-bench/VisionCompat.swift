// openvision-bench vn RUNS FILE...
//   Apple's API (the Vision compatibility module) against OpenVision's own requests on the same decoded
//   image, alternating run by run: per request kind and file, median ms of each side and the ratio.
import Foundation
import OpenVision
import Vision

/// One request kind: the VN* request and OpenVision's, as the VN* one builds it.
struct CompatCase {
    let name: String
    let vn: () -> VNRequest
    let native: (ImageAnalysisContext) throws -> Int
}

nonisolated(unsafe) let compatCases: [CompatCase] = [  // read-only, one thread
    CompatCase(
        name: "barcodes", vn: { VNDetectBarcodesRequest() },
        native: { try DetectBarcodesRequest().perform(in: $0).count }),
    CompatCase(
        name: "rectangles", vn: { VNDetectRectanglesRequest() },
        native: { try DetectRectanglesRequest().perform(in: $0).count }),
    CompatCase(
        name: "textrects", vn: { VNDetectTextRectanglesRequest() },
        native: { try DetectTextRectanglesRequest().perform(in: $0).count }),
    CompatCase(
        name: "contours", vn: { VNDetectContoursRequest() },
        native: { try DetectContoursRequest().perform(in: $0).contourCount }),
    CompatCase(
        name: "animals", vn: { VNRecognizeAnimalsRequest() },
        native: { try RecognizeAnimalsRequest().perform(in: $0).count }),
    CompatCase(
        name: "classify", vn: { VNClassifyImageRequest() },
        native: {
            var r = ClassifyImageRequest()
            r.maximumObservations = 0
            return try r.perform(in: $0).count
        }),
    CompatCase(
        name: "faces", vn: { VNDetectFaceRectanglesRequest() },
        native: { try DetectFaceRectanglesRequest().perform(in: $0).count }),
    CompatCase(
        name: "bodypose", vn: { VNDetectHumanBodyPoseRequest() },
        native: { try DetectHumanBodyPoseRequest().perform(in: $0).count }),
    CompatCase(
        name: "handpose", vn: { VNDetectHumanHandPoseRequest() },
        native: { try DetectHumanHandPoseRequest().perform(in: $0).count }),
    CompatCase(
        name: "personseg", vn: { VNGeneratePersonSegmentationRequest() },
        native: {
            _ = try GeneratePersonSegmentationRequest().perform(in: $0)
            return 1
        }),
    // Seed 004's path: an Apple model file through VNCoreMLModel / VNCoreMLRequest vs ClassifyImageRequest(model:).
    CompatCase(
        name: "coreml", vn: { VNCoreMLRequest(model: sharedCoreMLModel.vn) },
        native: {
            var r = ClassifyImageRequest(model: sharedCoreMLModel.native.visionModel)
            r.maximumObservations = 0
            return try r.perform(in: $0).count
        }),
]

/// The shared MobileNetLike.mlmodel (OPENVISION_SHARED or ../shared), loaded once for both sides.
nonisolated(unsafe) let sharedCoreMLModel: (vn: VNCoreMLModel, native: MLModel) = {
    let shared = ProcessInfo.processInfo.environment["OPENVISION_SHARED"] ?? "../shared"
    let model = try! MLModel(
        contentsOf: URL(fileURLWithPath: shared).appendingPathComponent("models/coreml/MobileNetLike.mlmodel"))
    return (try! VNCoreMLModel(for: model), model)
}()

func benchVisionCompat(runs: Int, files: [String]) throws {
    for path in files {
        let image = try VisionImage(contentsOf: URL(fileURLWithPath: path))
        for c in compatCases {
            var vnTimes: [Double] = []
            var nativeTimes: [Double] = []
            var counts = (0, 0)
            for i in 0...runs {  // run 0 warms up (models load)
                // Each side gets a fresh handler (decode-once state) on the same decoded image; which side goes
                // first alternates, so neither always meets warm caches.
                func vnSide() throws -> Double {
                    let t0 = clock.now
                    let request = c.vn()
                    try VNImageRequestHandler(cgImage: CGImage(visionImage: image)).perform([request])
                    let t = ms(clock.now - t0)
                    counts.0 = request.results?.count ?? 0
                    return t
                }
                func nativeSide() throws -> Double {
                    let t0 = clock.now
                    counts.1 = try c.native(ImageRequestHandler(image: image).context)
                    return ms(clock.now - t0)
                }
                let (v, n) =
                    i % 2 == 0
                    ? (try vnSide(), try nativeSide())
                    : try {
                        let n = try nativeSide()
                        return (try vnSide(), n)
                    }()
                if i > 0 {
                    vnTimes.append(v)
                    nativeTimes.append(n)
                }
            }
            emit([
                "file": URL(fileURLWithPath: path).lastPathComponent + ":" + c.name, "vn_median_ms": median(vnTimes),
                "native_median_ms": median(nativeTimes), "ratio": median(vnTimes) / max(median(nativeTimes), 1e-9),
                "vn_count": counts.0, "native_count": counts.1,
            ])
        }
    }
}
