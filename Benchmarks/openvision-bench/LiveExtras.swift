import Foundation
import OpenVision

// `live-extras MODEL CLASSIFIER SHARED_IMAGES DIR`: what tracking, counting, pinned labels and the corner
// classifier add per analysed frame in the live pipeline (LiveResult.postAnalysis, medians over every frame
// after the first 10), at 640 × 480, every frame analysed. DIR receives two generated frame folders:
// `crossing` (a person and a dog from the shared photos walking past each other, back and forth, 300 frames;
// Yolo-Fastest finds them) and `pan` (a pan over dog.jpg, 300 frames; anchors need texture to track).

private func writeFrames(_ dir: URL, count: Int, _ frame: (Int) throws -> VisionImage) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for i in 0..<count {
        let url = dir.appendingPathComponent(String(format: "f%04d.jpg", i))
        if !FileManager.default.fileExists(atPath: url.path) { try frame(i).write(to: url, quality: 92) }
    }
}

/// Median post-analysis (and analysis) milliseconds of one run over `dir`.
private func run(
    _ dir: URL, requests: [any VisionRequest], configure: (inout LiveAnalyzer.Configuration) -> Void,
    anchors: Int = 0
) async throws -> (post: Double, analysis: Double, frames: Int, postMean: Double) {
    var options = CaptureOptions()
    options.pace = .fastest
    var configuration = LiveAnalyzer.Configuration()
    configuration.dropsFrames = false
    configure(&configuration)
    let analyzer = LiveAnalyzer(
        source: .images(dir.path), options: options, requests: requests, configuration: configuration)
    var post: [Double] = []
    var analysis: [Double] = []
    for try await result in analyzer {
        if result.frameIndex == 0 {
            // Spread the anchors over a grid of the first frame (tracked from the second frame on).
            let side = Int(Double(anchors).squareRoot().rounded(.up))
            for i in 0..<anchors {
                let point = CGPoint(
                    x: 0.2 + 0.6 * Double(i % side) / Double(max(1, side - 1)),
                    y: 0.2 + 0.6 * Double(i / side) / Double(max(1, side - 1)))
                _ = try analyzer.pinLabel(at: point, label: "a\(i)")
            }
        }
        guard result.frameIndex >= 10 else { continue }
        post.append(ms(result.postAnalysis))
        analysis.append(ms(result.analysis))
    }
    return (median(post), median(analysis), post.count + 10, post.reduce(0, +) / Double(max(1, post.count)))
}

func benchLiveExtras(model: String, classifier: String, images: URL, dir: URL) async throws {
    let person = try VisionImage(contentsOf: images.appendingPathComponent("person.jpg"))
        .cropped(to: NormalizedRect(x: 172.0 / 640, y: 1 - 390.0 / 424, width: 108.0 / 640, height: 310.0 / 424))
        .resized(width: 80, height: 230)
    let photo = try VisionImage(contentsOf: images.appendingPathComponent("dog.jpg"))
    let dog = try photo.cropped(
        to: NormalizedRect(x: 104.0 / 768, y: 1 - 545.0 / 576, width: 292.0 / 768, height: 367.0 / 576)
    )
    .resized(width: 220, height: 276)
    let crossing = dir.appendingPathComponent("crossing")
    let pan = dir.appendingPathComponent("pan")
    try writeFrames(crossing, count: 300) { i in
        let t = i % 80 < 40 ? i % 40 : 39 - i % 40  // back and forth
        var canvas = try ImageCanvas(width: 640, height: 480, color: OverlayColor(red: 128, green: 128, blue: 128))
        try canvas.draw(dog, at: CGPoint(x: 10 + 10 * t, y: 200))
        try canvas.draw(person, at: CGPoint(x: 540 - 12 * t, y: 0))
        return canvas.makeImage()
    }
    try writeFrames(pan, count: 300) { i in
        let t = (2 * i) % 768
        let offset = Double(t <= 384 ? t : 768 - t)
        return try photo.cropped(to: NormalizedRect(x: offset / 768, y: 0.25, width: 0.5, height: 0.5)).resized(
            width: 640, height: 480)
    }
    var detector = DetectObjectsRequest(model: try loadModel(model, backend: .automatic))
    detector.confidenceThreshold = 0.25
    let line = try LineCounter(from: CGPoint(x: 0.5, y: 0), to: CGPoint(x: 0.5, y: 1))

    let plain = try await run(crossing, requests: [detector]) { _ in }
    emit([
        "case": "detector only (Yolo-Fastest 1.1)", "frames": plain.frames, "analysis_median_ms": plain.analysis,
        "post_median_ms": plain.post,
    ])
    let tracked = try await run(crossing, requests: [detector]) { $0.tracking = ObjectTracker.Configuration() }
    emit(["case": "+ tracking (ByteTrack)", "frames": tracked.frames, "post_median_ms": tracked.post])
    let counted = try await run(crossing, requests: [detector]) { $0.lineCounter = line }
    emit(["case": "+ tracking + counting line", "frames": counted.frames, "post_median_ms": counted.post])
    for n in [0, 1, 10, 50] {
        let pinned = try await run(pan, requests: [NoOpRequest()], configure: { _ in }, anchors: n)
        emit(["case": "pinned labels: \(n)", "frames": pinned.frames, "post_median_ms": pinned.post])
    }
    let model = try loadModel(classifier, backend: .onnxRuntime)
    for every in [1, 5] {
        let classified = try await run(pan, requests: [NoOpRequest()]) {
            $0.labelClassifier = ClassifyImageRequest(model: model)
            $0.labelClassifierInterval = every
        }
        emit([
            "case": "corner classifier (EfficientNet-Lite0) every \(every) frame(s)", "frames": classified.frames,
            "post_median_ms": classified.post, "post_mean_ms": classified.postMean,
        ])
    }
}
