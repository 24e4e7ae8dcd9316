// openvision-bench: timing harness for scripts/bench. Prints one JSON object per line.
//
//   openvision-bench make-barcode-set DIR          writes generated barcode scenes (PNG + JPEG)
//   openvision-bench make-text-set DIR             writes rendered text images (PNG)
//   openvision-bench vn RUNS FILE...                       VN* (Vision compatibility module) vs OpenVision's requests (VisionCompat.swift)
//   openvision-bench pixelbuffer RUNS                      CVPixelBuffer base-address access vs a frame copy (AppleModules.swift)
//   openvision-bench coreimage RUNS                        CIPerspectiveCorrection vs cv::warpPerspective, a chain's passes (CoreImage.swift)
//   openvision-bench make-ocr-set DIR              the .accurate tests' scenes (OCRScenes): PNGs + truth.json
//   openvision-bench ocr RUNS fast|accurate FILE...  per file: median ms (file → lines, warm engine), lines with corners
//   openvision-bench make-document-set DIR         writes the document tests' warped pages (PNG) and truth.json
//   openvision-bench make-page-set DIR             the documents tests' pages (DocumentPageScenes) upright and turned (Documents.swift)
//   openvision-bench documents RUNS barcodes|nobarcodes FILE...   file → RecognizeDocumentsRequest: median ms, tables, lists
//   openvision-bench barcodes RUNS FILE...         per file: median ms (file → observations), count, payloads
//   openvision-bench text RUNS FILE...             per file: median ms with a warm engine, cold first-call ms, text
//   openvision-bench decode-once RUNS FILE...      several requests on one handler vs one handler each
//   openvision-bench detect RUNS MODEL BACKEND FILE...   file → objects, per-stage medians (2 threads)
//   openvision-bench classify RUNS MODEL FILE...          file → top-5 labels (2 threads, ONNX Runtime)
//   openvision-bench pose RUNS FILE...                    file → body poses (MediaPipe's models, one person as mp.solutions.pose)
//   openvision-bench personmask RUNS fast|balanced|accurate FILE...   file → person mask at the image size
//   openvision-bench pose3d RUNS FILE...                    file → 3D body pose (one person, as mp.solutions.pose)
//   openvision-bench personinstances RUNS FILE...           file → person instance mask at the image size
//   openvision-bench foreground RUNS FILE...                file → foreground instance mask at the image size
//   openvision-bench facequality ORIGINAL [DEGRADED...]      per file: capture quality and factors of ORIGINAL's faces
//   openvision-bench aesthetics FILE...                     per file: aesthetics score, factors, utility measures
//   openvision-bench world FILE...                           per file: the 3D pose's 33 world landmarks (MediaPipe's axes, metres)
//   openvision-bench live MODEL VIDEO [fastest]            live pipeline at the video's pace (or unpaced): analysed fps, latency, CPU
//   openvision-bench live-memory VIDEO                     RSS over a long video (barcodes + rectangles on every frame, unpaced)
//   openvision-bench pipeline-overhead VIDEO               per-frame cost of capture + mailbox + overlay, no model
//   openvision-bench make-motion-set DIR PHOTO...          per photo: a shifted and a warped copy (JPEG q95) + DIR/manifest.txt
//   openvision-bench motion RUNS DIR                        per manifest pair: files → registration / flow observation
//   openvision-bench trajectories RUNS DIR                  a frame folder through DetectTrajectoriesRequest: ms per frame
//   openvision-bench catalogue RUNS REQUEST FILE...        contours|horizon|saliency|objectness|textrects|document (Catalogue.swift)
//   openvision-bench make-sot-set DIR [FRAMES [DEGREES SCALE]] | sot RUNS DIR LEVEL | anchors RUNS    tracking (Tracking.swift)
//   openvision-bench live-extras MODEL CLASSIFIER IMAGES DIR  per-frame cost of tracking, counting, pinned labels, corner classifier (LiveExtras.swift)
//   openvision-bench tflite RUNS MODEL.tflite...            load (convert) time and median ms of a raw inference, 2 threads (TFLite.swift)
//   openvision-bench runtimes ROUNDS THREADS MODEL[@DIMS]... ONNX Runtime vs OpenVINO per model: medians, output difference (Runtimes.swift)
import Foundation
import OpenVision
import OpenVisionFixtures

let clock = ContinuousClock()

func ms(_ d: Duration) -> Double {
    let (s, a) = d.components
    return Double(s) * 1000 + Double(a) / 1e15
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func emit(_ object: [String: Any]) {
    // JSON has no NaN: write null for measurements that do not apply.
    let clean = object.mapValues { value -> Any in
        if let d = value as? Double, !d.isFinite { return NSNull() }
        return value
    }
    let data = try! JSONSerialization.data(withJSONObject: clean, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("openvision-bench: \(message)\n".utf8))
    exit(2)
}

// MARK: Data sets

func makeBarcodeSet(_ dir: URL) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let codes: [(String, BarcodeSymbology)] = [
        ("https://example.org/openvision", .qr), ("DM 2026-11-22 lot 7", .dataMatrix), ("AZTEC-42", .aztec),
        ("PDF417 shipping label 0042", .pdf417), ("CODE128-OV-7781", .code128), ("CODE39", .code39),
        ("4006381333931", .ean13), ("96385074", .ean8), ("A40156B", .codabar), ("CODE93X", .code93),
    ]
    var index = 0
    func write(_ image: VisionImage, _ name: String) throws {
        let ext = index % 2 == 0 ? "png" : "jpg"
        try image.write(to: dir.appendingPathComponent(String(format: "%02d-%@.%@", index, name, ext)), quality: 90)
        index += 1
    }
    for (payload, symbology) in codes {
        for degrees in [0.0, 23.0] {
            let code = try BarcodeGenerator.image(for: payload, symbology: symbology, moduleSize: 3)
            var canvas = try ImageCanvas(width: 1024, height: 768, color: OverlayColor(red: 235, green: 232, blue: 225))
            try canvas.fill(
                polygon: [
                    CGPoint(x: 0, y: 600), CGPoint(x: 1024, y: 560), CGPoint(x: 1024, y: 768), CGPoint(x: 0, y: 768),
                ],
                color: OverlayColor(red: 90, green: 80, blue: 70))
            try canvas.draw(code, at: CGPoint(x: 300, y: 200), rotationDegrees: degrees)
            try write(canvas.makeImage(), "\(symbology.rawValue)-\(Int(degrees))")
        }
    }
    // Several codes in one scene, and an inverted QR.
    var multi = try ImageCanvas(width: 1280, height: 720)
    for (i, (payload, symbology)) in codes.prefix(4).enumerated() {
        let code = try BarcodeGenerator.image(for: payload, symbology: symbology, moduleSize: 3)
        try multi.draw(code, at: CGPoint(x: 40 + (i % 2) * 620, y: 40 + (i / 2) * 340))
    }
    try write(multi.makeImage(), "multi")
    let qr = try BarcodeGenerator.image(for: "inverted payload", symbology: .qr, moduleSize: 6)
    let rgb = qr.rgbData().map { 255 - $0 }
    try write(
        try VisionImage(pixels: PixelBuffer(data: Data(rgb), width: qr.width, height: qr.height, format: .rgb8)),
        "qr-inverted")
    // A scene without any code.
    var empty = try ImageCanvas(width: 1024, height: 768, color: OverlayColor(red: 200, green: 210, blue: 220))
    try empty.text(
        "no barcode here", at: CGPoint(x: 100, y: 300), fontFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        pixelHeight: 48)
    try write(empty.makeImage(), "none")
}

func makeTextSet(_ dir: URL) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    let pages: [[String]] = [
        ["Swift reads text on Linux"],
        ["Invoice 2026-11-22", "Total due 42.50 EUR", "Thank you for your order"],
        [
            "The quick brown fox jumps", "over the lazy dog 0123456789", "Pack my box with five dozen",
            "liquor jugs and seven keys",
        ],
    ]
    for (i, lines) in pages.enumerated() {
        var canvas = try ImageCanvas(width: 1000, height: 120 + lines.count * 70)
        for (j, line) in lines.enumerated() {
            try canvas.text(line, at: CGPoint(x: 40, y: 90 + j * 70), fontFile: font, pixelHeight: 40)
        }
        try canvas.makeImage().write(to: dir.appendingPathComponent("text-\(i).png"))
    }
}

// MARK: Measurements

func makeOCRSet(_ dir: URL) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var truth: [[String: Any]] = []
    for scene in OCRScenes.all {
        try scene.make().write(to: dir.appendingPathComponent("\(scene.name).png"))
        truth.append(["file": "\(scene.name).png", "lines": scene.lines, "set": scene.photoLike ? "photo" : "rendered"])
    }
    let data = try JSONSerialization.data(withJSONObject: truth, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: dir.appendingPathComponent("truth.json"))
}

/// `.accurate` or `.fast` on each file: the median of `runs` timed runs after one warm-up (file → lines).
func benchOCR(runs: Int, level: RecognizeTextRequest.RecognitionLevel, files: [String]) async throws {
    var request = RecognizeTextRequest()
    request.recognitionLevel = level
    for file in files {
        let url = URL(fileURLWithPath: file)
        var times: [Double] = []
        var lines: [[String: Any]] = []
        for run in 0..<(runs + 1) {
            let start = clock.now
            let handler = ImageRequestHandler(url)
            let result = try await handler.perform(request)
            let t = ms(clock.now - start)
            if run > 0 { times.append(t) }
            let size = try handler.imageSize()
            lines = result.map { line in
                let corners = [line.topLeft, line.topRight, line.bottomRight, line.bottomLeft].flatMap { p in
                    [p.x * Double(size.width), (1 - p.y) * Double(size.height)]
                }
                return [
                    "text": line.topCandidates(1).first?.string ?? "", "confidence": Double(line.confidence),
                    "quad": corners,
                ]
            }
        }
        emit(["file": file, "median_ms": median(times), "lines": lines])
    }
}

/// File → hands (`DetectHumanHandPoseRequest`, lite or full models) or faces (`DetectFaceRectanglesRequest` with a
/// revision): the median of RUNS timed runs after a warm-up, a fresh handler (decode included) each time; the
/// results as "text" (a count and the first point) for the side-by-side check.
func benchPeople(runs: Int, kind: String, variant: String, files: [String]) async throws {
    for file in files {
        let url = URL(fileURLWithPath: file)
        var times: [Double] = []
        var summary = ""
        var boxes: [[Double]] = []
        for run in 0..<(runs + 1) {
            let start = clock.now
            let handler = ImageRequestHandler(url)
            if kind == "hands" {
                var request = DetectHumanHandPoseRequest()
                request.modelComplexity = variant == "lite" ? .lite : .full
                let hands = try await handler.perform(request)
                if run > 0 { times.append(ms(clock.now - start)) }
                summary = "\(hands.count) hands"
            } else {
                guard let revision = DetectFaceRectanglesRequest.Revision(name: variant) else {
                    fail("unknown face revision \(variant)")
                }
                let faces = try await handler.perform(DetectFaceRectanglesRequest(revision))
                if run > 0 { times.append(ms(clock.now - start)) }
                summary = "\(faces.count) faces"
                let size = try handler.imageSize()
                boxes = faces.map { face in
                    let r = face.boundingBox.toImageCoordinates(size, origin: .upperLeft)
                    return [Double(r.minX), Double(r.minY), Double(r.width), Double(r.height), Double(face.confidence)]
                }
            }
        }
        emit(["file": file, "median_ms": median(times), "text": summary, "boxes": boxes])
    }
}

func benchBarcodes(runs: Int, files: [String]) async throws {
    let request = DetectBarcodesRequest()
    for file in files {
        let url = URL(fileURLWithPath: file)
        var times: [Double] = []
        var readTimes: [Double] = []
        var payloads: [String] = []
        for _ in 0..<runs {
            let start = clock.now
            let handler = ImageRequestHandler(url)
            let image = try handler.image()
            let decoded = clock.now
            let results = try await handler.perform(request)
            let end = clock.now
            _ = image
            times.append(ms(end - start))
            readTimes.append(ms(end - decoded))
            payloads = results.compactMap { $0.payloadString }.sorted()
        }
        emit([
            "file": file, "median_ms": median(times), "read_median_ms": median(readTimes), "count": payloads.count,
            "payloads": payloads,
        ])
    }
}

func benchText(runs: Int, files: [String]) async throws {
    let request = RecognizeTextRequest()
    var first = true
    for file in files {
        let url = URL(fileURLWithPath: file)
        var times: [Double] = []
        var text = ""
        var cold = Double.nan
        for run in 0..<(runs + 1) {
            let start = clock.now
            let lines = try await ImageRequestHandler(url).perform(request)
            let t = ms(clock.now - start)
            if run == 0 && first { cold = t } else if run > 0 { times.append(t) }
            text = lines.compactMap { $0.topCandidates(1).first?.string }.joined(separator: "\n")
        }
        first = false
        emit(["file": file, "median_ms": median(times), "cold_first_call_ms": cold, "text": text])
    }
}

func benchDecodeOnce(runs: Int, files: [String]) async throws {
    for file in files {
        let url = URL(fileURLWithPath: file)
        let requests: [any VisionRequest] = [
            DetectBarcodesRequest(), DetectRectanglesRequest(), DetectFaceRectanglesRequest(),
        ]
        // Warm models and engines first.
        _ = await ImageRequestHandler(url).performAll(requests)
        var shared: [Double] = []
        var separate: [Double] = []
        var decodeOnly: [Double] = []
        for _ in 0..<runs {
            var start = clock.now
            _ = try ImageRequestHandler(url).image()
            decodeOnly.append(ms(clock.now - start))
            start = clock.now
            let handler = ImageRequestHandler(url)
            for request in requests { _ = await handler.performAll([request]) }
            shared.append(ms(clock.now - start))
            start = clock.now
            for request in requests { _ = await ImageRequestHandler(url).performAll([request]) }
            separate.append(ms(clock.now - start))
        }
        emit([
            "file": file, "decode_ms": median(decodeOnly), "one_handler_ms": median(shared),
            "handler_per_request_ms": median(separate), "requests": requests.count,
        ])
    }
}

func loadModel(_ path: String, backend: BackendChoice) throws -> VisionModel {
    var configuration = VisionModel.Configuration()
    configuration.backend = backend
    configuration.threads = 2
    return try VisionModel(contentsOf: URL(fileURLWithPath: path), configuration: configuration)
}

/// File -> results through an `ImageRequestHandler`'s context, as `openvision detect|classify` run:
/// the handler decodes a JPEG at the scale the model needs. With OPENVISION_BENCH_FULL_DECODE=1 the
/// image is decoded at full size first instead (what a caller holding a `VisionImage` pays).
func benchModel(runs: Int, files: [String], _ body: (ImageAnalysisContext) throws -> ([String], InferenceTimings))
    throws
{
    let fullDecode = ProcessInfo.processInfo.environment["OPENVISION_BENCH_FULL_DECODE"] == "1"
    for file in files {
        var totals: [Double] = []
        var decode: [Double] = []
        var pre: [Double] = []
        var inf: [Double] = []
        var post: [Double] = []
        var payloads: [String] = []
        for run in 0...runs {
            let url = URL(fileURLWithPath: file)
            let start = clock.now
            let context =
                fullDecode
                ? ImageAnalysisContext(image: try VisionImage(contentsOf: url)) : ImageRequestHandler(url).context
            let decoded = clock.now
            let (labels, t) = try body(context)
            let end = clock.now
            payloads = labels
            guard run > 0 else { continue }  // warm-up
            totals.append(ms(end - start))
            decode.append(ms(decoded - start) + ms(t.decode))
            pre.append(ms(t.preprocess))
            inf.append(ms(t.inference))
            post.append(ms(t.postprocess))
        }
        emit([
            "file": file, "median_ms": median(totals), "count": payloads.count, "payloads": payloads,
            "stages_ms": [
                "decode": median(decode), "preprocess": median(pre), "inference": median(inf),
                "postprocess": median(post),
            ],
        ])
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = Double(text.split(separator: " ")[1])
    else { return .nan }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func benchLive(model: String, video: String, fastest: Bool) async throws {
    var configuration = VisionModel.Configuration()
    configuration.threads = 2
    let request = DetectObjectsRequest(
        model: try VisionModel(contentsOf: URL(fileURLWithPath: model), configuration: configuration))
    var options = CaptureOptions()
    options.pace = fastest ? .fastest : .native  // mailbox of one either way
    let analyzer = LiveAnalyzer(source: .file(URL(fileURLWithPath: video)), options: options, requests: [request])
    let cpu0 = cpuSeconds()
    let wall0 = clock.now
    var detections = 0
    for try await result in analyzer { detections += result.results(for: DetectObjectsRequest.self)?.count ?? 0 }
    let wall = ms(clock.now - wall0) / 1000
    let cpu = cpuSeconds() - cpu0
    let s = analyzer.stats()
    emit([
        "captured": s.framesCaptured, "analysed": s.framesAnalysed, "dropped": s.framesDropped,
        "capture_fps": s.captureFPS,
        "analysed_fps": s.analysedFPS, "latency_p50_ms": s.latencyP50Ms, "latency_p99_ms": s.latencyP99Ms,
        "cpu_percent": 100 * cpu / wall, "detections": detections,
    ])
}

func benchLiveMemory(video: String) async throws {
    var options = CaptureOptions()
    options.pace = .fastest
    let analyzer = LiveAnalyzer(
        source: .file(URL(fileURLWithPath: video)), options: options,
        requests: [DetectBarcodesRequest(), DetectRectanglesRequest()])
    var samples: [String: Double] = ["start": residentMB()]
    var count = 0
    for try await result in analyzer {
        count += 1
        if result.frameIndex >= 5000 && samples["middle"] == nil { samples["middle"] = residentMB() }
    }
    samples["end"] = residentMB()
    let s = analyzer.stats()
    emit([
        "rss_mb": samples, "captured": s.framesCaptured, "analysed": s.framesAnalysed, "dropped": s.framesDropped,
        "results": count,
    ])
}

/// Does nothing: measures the pipeline around a request.
struct NoOpRequest: VisionRequest {
    var regionOfInterest = NormalizedRect.fullImage
    var requiresColor: Bool { false }
    func perform(in context: ImageAnalysisContext) throws(VisionError) -> Int { 0 }
    func reportable(_ results: Int) -> any ReportableResult { UnreportedResult() }
}

func benchPipelineOverhead(video: String) async throws {
    let url = URL(fileURLWithPath: video)
    // Capture alone: open, read and decode every frame.
    var cpu = cpuSeconds()
    var start = clock.now
    var frames = 0
    let source = FrameSource.file(url)
    var options = CaptureOptions()
    options.pace = .fastest
    var plain = LiveAnalyzer.Configuration()
    plain.dropsFrames = false
    do {
        // The pipeline with no requests: capture, mailbox and an empty analysis per frame.
        let counter = LiveAnalyzer(source: source, options: options, requests: [], configuration: plain)
        for try await _ in counter { frames += 1 }
    }
    let captureOnly = ms(clock.now - start) / Double(max(frames, 1))
    let captureCPU = (cpuSeconds() - cpu) * 1000 / Double(max(frames, 1))
    cpu = cpuSeconds()
    // The whole pipeline with a no-op request and the overlay drawn on every frame.
    start = clock.now
    let analyzer = LiveAnalyzer(source: source, options: options, requests: [NoOpRequest()], configuration: plain)
    var drawn = 0
    for try await result in analyzer {
        _ = try result.image.annotated(with: [
            OverlayItem.box(NormalizedRect(x: 0.1, y: 0.1, width: 0.3, height: 0.3), color: .green, label: "x")
        ])
        drawn += 1
    }
    let pipeline = ms(clock.now - start) / Double(max(drawn, 1))
    let pipelineCPU = (cpuSeconds() - cpu) * 1000 / Double(max(drawn, 1))
    emit([
        "frames": drawn, "capture_only_ms_per_frame": captureOnly, "pipeline_with_overlay_ms_per_frame": pipeline,
        "overhead_wall_ms_per_frame": pipeline - captureOnly, "capture_only_cpu_ms_per_frame": captureCPU,
        "pipeline_cpu_ms_per_frame": pipelineCPU, "overhead_cpu_ms_per_frame": pipelineCPU - captureCPU,
    ])
}

// MARK: Motion (registration, optical flow)

/// The shift (dx, dy, y down) and the warp (top-left pixel coordinates) the motion pairs are made with;
/// Benchmarks/python/bench_motion.py reads the pairs from the manifest, not these values.
let motionShift = (7.3, -4.6)
let motionWarp = Matrix3x3(rowMajor: [1.05, 0.04, -12, -0.03, 0.98, 9, 2e-5, -3e-5, 1])

func makeMotionSet(_ dir: URL, photos: [String]) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var manifest = ""
    for photo in photos {
        let url = URL(fileURLWithPath: photo)
        let image = try VisionImage(contentsOf: url)
        let name = url.deletingPathExtension().lastPathComponent
        let shifted = dir.appendingPathComponent("\(name)-shift.jpg")
        let warped = dir.appendingPathComponent("\(name)-warp.jpg")
        try image.warpedPerspective(
            by: Matrix3x3(rowMajor: [1, 0, motionShift.0, 0, 1, motionShift.1, 0, 0, 1]), width: image.width,
            height: image.height, origin: .upperLeft
        ).write(to: shifted, quality: 95)
        try image.warpedPerspective(by: motionWarp, width: image.width, height: image.height, origin: .upperLeft)
            .write(to: warped, quality: 95)
        manifest +=
            "translation \(photo) \(shifted.path)\nflow \(photo) \(shifted.path)\nhomography \(photo) \(warped.path)\n"
    }
    try manifest.write(to: dir.appendingPathComponent("manifest.txt"), atomically: true, encoding: .utf8)
}

/// Per manifest line: both files decoded (gray plane only, as the requests read; concurrently) and the request run; the
/// median ms of `runs`, the request alone's median, and the result rounded for comparison with Python:
/// the shift (dx, dy, y down) to 0.1 px, the warped image corners to 1 px, the mean flow to 0.1 px.
func benchMotion(runs: Int, dir: URL) async throws {
    let manifest = try String(contentsOf: dir.appendingPathComponent("manifest.txt"), encoding: .utf8)
    for line in manifest.split(separator: "\n") {
        let parts = line.split(separator: " ").map(String.init)
        guard parts.count == 3 else { continue }
        let (kind, ref, target) = (parts[0], parts[1], parts[2])
        var times: [Double] = []
        var requestTimes: [Double] = []
        var payloads: [String] = []
        for _ in 0..<runs {
            let start = clock.now
            // Both decoded concurrently, as `openvision register` / `flow` do (Sources/openvision/ImagePair.swift).
            let handler = ImageRequestHandler(URL(fileURLWithPath: ref))
            async let decodedOther = ImageRequestHandler(URL(fileURLWithPath: target)).grayImage()
            _ = try handler.grayImage()
            let other = try await decodedOther
            let decoded = clock.now
            switch kind {
            case "translation":
                let t = try await handler.perform(TranslationalImageRegistrationRequest(targetImage: other))
                payloads = t.map { [String(format: "%.1f", -$0.tx), String(format: "%.1f", $0.ty)] } ?? []
            case "homography":
                let h = try await handler.perform(HomographicImageRegistrationRequest(targetImage: other))
                let (w, hh) = (Double(other.width), Double(other.height))
                payloads =
                    (h?.openCVTransform).map { m in
                        [CGPoint(x: 0, y: 0), CGPoint(x: w, y: 0), CGPoint(x: w, y: hh), CGPoint(x: 0, y: hh)]
                            .compactMap { m.apply(to: $0) }
                            .map { String(format: "%.0f,%.0f", $0.x, $0.y) }
                    } ?? []
            default:
                let f = try await handler.perform(GenerateOpticalFlowRequest(targetImage: other)).flowStatistics
                payloads = [String(format: "%.1f", f.meanDx), String(format: "%.1f", f.meanDy)]
            }
            let end = clock.now
            times.append(ms(end - start))
            requestTimes.append(ms(end - decoded))
        }
        let name = URL(fileURLWithPath: ref).deletingPathExtension().lastPathComponent
        emit([
            "file": "\(name):\(kind)", "median_ms": median(times), "read_median_ms": median(requestTimes),
            "count": payloads.count,
            "payloads": payloads,
        ])
    }
}

/// The frames of `dir` (PNG, name order) through one DetectTrajectoriesRequest (length 30, radii 0.005...0.05 of
/// the width, as Benchmarks/python/bench_trajectories.py): median ms per frame (file → observations) and of the
/// request alone, and the last frame's trajectory coefficients to 2 decimals.
func benchTrajectories(runs: Int, dir: URL) async throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }.sorted()
        .map { dir.appendingPathComponent($0) }
    guard !files.isEmpty else { fail("no PNG frames in \(dir.path)") }
    var times: [Double] = []
    var requestTimes: [Double] = []
    var payloads: [String] = []
    for _ in 0..<runs {
        let request = DetectTrajectoriesRequest(trajectoryLength: 30)
        request.objectMinimumNormalizedRadius = 0.005
        request.objectMaximumNormalizedRadius = 0.05
        var spent = Duration.zero
        var last: [TrajectoryObservation] = []
        let start = clock.now
        for file in files {
            let handler = ImageRequestHandler(file)
            _ = try handler.grayImage()
            let t0 = clock.now
            last = try request.perform(in: handler.context)  // synchronously, frames in order
            spent += clock.now - t0
        }
        times.append(ms(clock.now - start) / Double(files.count))
        requestTimes.append(ms(spent) / Double(files.count))
        payloads =
            last.first.map { c in
                [c.equationCoefficients.x, c.equationCoefficients.y, c.equationCoefficients.z].map {
                    String(format: "%.2f", $0)
                }
            } ?? []
    }
    emit([
        "file": dir.lastPathComponent + ":trajectories", "median_ms": median(times),
        "read_median_ms": median(requestTimes),
        "count": payloads.count, "payloads": payloads,
    ])
}

// MARK: Main

let args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { fail("usage: see the comment at the top of main.swift") }
do {
    switch command {
    case "make-barcode-set":
        guard args.count == 2 else { fail("make-barcode-set DIR") }
        try makeBarcodeSet(URL(fileURLWithPath: args[1]))
    case "make-page-set":
        guard args.count == 2 else { fail("make-page-set DIR") }
        try makePageSet(URL(fileURLWithPath: args[1]))
    case "documents":
        guard args.count >= 4, let runs = Int(args[1]), ["barcodes", "nobarcodes"].contains(args[2]) else {
            fail("documents RUNS barcodes|nobarcodes FILE...")
        }
        try await benchDocuments(runs: runs, barcodes: args[2] == "barcodes", files: Array(args.dropFirst(3)))
    case "make-ocr-set":
        guard args.count == 2 else { fail("make-ocr-set DIR") }
        try makeOCRSet(URL(fileURLWithPath: args[1]))
    case "ocr":
        guard args.count >= 4, let runs = Int(args[1]),
            let level = RecognizeTextRequest.RecognitionLevel(rawValue: args[2])
        else {
            fail("ocr RUNS fast|accurate FILE...")
        }
        try await benchOCR(runs: runs, level: level, files: Array(args.dropFirst(3)))
    case "hands", "faces":
        guard args.count >= 4, let runs = Int(args[1]) else {
            fail("hands RUNS lite|full FILE... | faces RUNS hog|blazeface-short|blazeface-full FILE...")
        }
        try await benchPeople(runs: runs, kind: args[0], variant: args[2], files: Array(args.dropFirst(3)))
    case "make-text-set":
        guard args.count == 2 else { fail("make-text-set DIR") }
        try makeTextSet(URL(fileURLWithPath: args[1]))
    case "detect":
        guard args.count >= 5, let runs = Int(args[1]), let backend = BackendChoice(rawValue: args[3]) else {
            fail("detect RUNS MODEL automatic|onnxRuntime|openCV FILE...")
        }
        let request = DetectObjectsRequest(model: try loadModel(args[2], backend: backend))
        try benchModel(runs: runs, files: Array(args.dropFirst(4))) { context in
            let (objects, t) = try request.performWithTimings(in: context)
            let labels = try request.resolvedModel().modelDescription.labels
            return (
                objects.map { o in
                    let index = labels.firstIndex(of: o.labels[0].identifier) ?? -1
                    return "\(index):\(String(format: "%.2f", o.confidence))"
                }, t
            )
        }
    case "coreml":
        guard args.count >= 4, let runs = Int(args[1]) else { fail("coreml RUNS MODEL.mlmodel REFERENCE.onnx") }
        try benchCoreML(runs: runs, model: args[2], reference: args[3])
    case "coreml-update":
        guard args.count >= 4, let runs = Int(args[1]) else {
            fail("coreml-update RUNS UpdatableDrawingClassifier.mlmodel DRAWING.png...")
        }
        try benchCoreMLUpdate(runs: runs, model: args[2], drawings: Array(args.dropFirst(3)))
    case "coreml-custom":
        guard args.count >= 6, let runs = Int(args[1]) else {
            fail("coreml-custom RUNS NeuralMcNeuralNet.mlmodel BUILTIN.mlmodel IDENTITY.mlmodel IMAGE.png")
        }
        try benchCoreMLCustom(runs: runs, custom: args[2], builtin: args[3], identity: args[4], image: args[5])
    case "coreml-convert":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("coreml-convert RUNS MODEL...") }
        benchCoreMLConversion(runs: runs, models: Array(args.dropFirst(2)))
    case "runtimes":
        guard args.count >= 4, let rounds = Int(args[1]), let threads = Int(args[2]) else {
            fail("runtimes ROUNDS THREADS MODEL[@DIMS]...")
        }
        try benchRuntimes(rounds: rounds, threads: threads, models: Array(args.dropFirst(3)))
    case "tflite":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("tflite RUNS MODEL.tflite...") }
        try benchTFLite(runs: runs, models: Array(args.dropFirst(2)))
    case "classify":
        guard args.count >= 4, let runs = Int(args[1]) else { fail("classify RUNS MODEL FILE...") }
        let request = ClassifyImageRequest(model: try loadModel(args[2], backend: .onnxRuntime))
        try benchModel(runs: runs, files: Array(args.dropFirst(3))) { context in
            let (labels, t) = try request.performWithTimings(in: context)
            return (labels.map { String($0.identifier.split(separator: ",")[0]) }, t)
        }
    case "pose":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("pose RUNS FILE...") }
        var request = DetectHumanBodyPoseRequest()
        request.maximumBodyCount = 1  // as mp.solutions.pose
        try benchModel(runs: runs, files: Array(args.dropFirst(2))) { context in
            (try request.perform(in: context).map { _ in "pose" }, InferenceTimings())
        }
    case "landmarks":
        // Face landmarks, file -> observations: mesh76 (revision 3, with precision estimates), mesh76-fast (without them:
        // what mp.solutions.face_mesh + the iris model compute), dlib68 (revision 2: HOG faces + dlib's 68 points).
        guard args.count >= 4, let runs = Int(args[1]), ["mesh76", "mesh76-fast", "dlib68"].contains(args[2]) else {
            fail("landmarks RUNS mesh76|mesh76-fast|dlib68 FILE...")
        }
        var request = DetectFaceLandmarksRequest(args[2] == "dlib68" ? .dlib : .faceMesh)
        request.estimatesPrecision = args[2] == "mesh76"
        try benchModel(runs: runs, files: Array(args.dropFirst(3))) { context in
            (
                try request.perform(in: context).map { "face \($0.landmarks?.allPoints.pointCount ?? 0)" },
                InferenceTimings()
            )
        }
    case "pose3d":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("pose3d RUNS FILE...") }
        let request = DetectHumanBodyPose3DRequest()  // one person, as mp.solutions.pose
        try benchModel(runs: runs, files: Array(args.dropFirst(2))) { context in
            (try request.perform(in: context).map { _ in "pose3d" }, InferenceTimings())
        }
    case "facequality":
        // Faces found on ORIGINAL (BlazeFace full range), measured on it and on each degraded copy (same normalised
        // boxes): one JSON line per file with each face's pixel box (on ORIGINAL), score and factors.
        guard args.count >= 2 else { fail("facequality ORIGINAL [DEGRADED...]") }
        let original = try VisionImage(contentsOf: URL(fileURLWithPath: args[1]))
        let faces = try DetectFaceRectanglesRequest(.blazeFaceFullRange).perform(
            in: ImageAnalysisContext(image: original))
        for file in args.dropFirst() {
            let image = try VisionImage(contentsOf: URL(fileURLWithPath: file))
            var rows: [[String: Any]] = []
            for face in faces {
                let b = face.boundingBox.toImageCoordinates(original.size, origin: .upperLeft)
                var row: [String: Any] = ["box": [b.minX, b.minY, b.width, b.height].map { Double($0) }]
                if let f = try DetectFaceCaptureQualityRequest.factors(of: face, in: image) {
                    row["score"] = f.score
                    row["factors"] = [
                        "sharpness": f.sharpness, "noise": f.noise, "exposure": f.exposure, "size": f.size,
                        "pose": f.pose, "eyes": f.eyes, "yaw": f.yaw, "pitch": f.pitch, "presence": f.presence,
                        "eyeAspectRatio": f.eyeAspectRatio,
                    ]
                } else {
                    row["score"] = 0.0
                }
                rows.append(row)
            }
            emit(["file": file, "faces": rows])
        }
    case "aesthetics":
        // One JSON line per file: the overall score, its factors and the utility measures.
        guard args.count >= 2 else { fail("aesthetics FILE...") }
        for file in args.dropFirst() {
            let (f, u) = try CalculateImageAestheticsScoresRequest.measure(
                VisionImage(contentsOf: URL(fileURLWithPath: file)))
            emit([
                "file": file, "score": f.overallScore, "isUtility": u.isUtility, "textCoverage": u.textCoverage,
                "lines": u.lines, "flat": u.flat,
                "factors": [
                    "sharpness": f.sharpness, "noise": f.noise, "exposure": f.exposure, "compression": f.compression,
                    "colour": f.colour,
                ],
            ])
        }
    case "world":
        guard args.count >= 2 else { fail("world FILE...") }
        for file in args.dropFirst() {
            let poses = try await DetectHumanBodyPose3DRequest().perform(on: URL(fileURLWithPath: file))
            let world: Any = poses.first.map { $0.worldLandmarks.map { [$0.x, $0.y, $0.z] } as Any } ?? NSNull()
            emit(["file": file, "world": world])
        }
    case "personinstances":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("personinstances RUNS FILE...") }
        let request = GeneratePersonInstanceMaskRequest()
        try benchModel(runs: runs, files: Array(args.dropFirst(2))) { context in
            let mask = try request.perform(in: context)
            return (mask.map { ["mask \($0.instanceMask.width)x\($0.instanceMask.height)"] } ?? [], InferenceTimings())
        }
    case "foreground":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("foreground RUNS FILE...") }
        let request = GenerateForegroundInstanceMaskRequest()
        var said = ""
        var calls = 0
        let files = Array(args.dropFirst(2))
        try benchModel(runs: runs, files: files) { context in
            // benchModel runs each file runs + 1 times, in order.
            let file = URL(fileURLWithPath: files[calls / (runs + 1)])
            calls += 1
            guard let mask = try request.perform(in: context) else { return ([], InferenceTimings()) }
            // Each instance's pixel count on stderr, once per file (the payload is the mask, as the peer's).
            let counts = mask.pixelCounts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value) px" }
            let line = "instances \(counts.joined(separator: ", "))\n"
            if line != said { FileHandle.standardError.write(Data(line.utf8)) }
            said = line
            // OPENVISION_BENCH_MASKS=DIR: the instance mask as DIR/<image>.png (gray level = instance number).
            if let dir = ProcessInfo.processInfo.environment["OPENVISION_BENCH_MASKS"] {
                try mask.instanceMask.makeImage(range: 0...255).write(
                    to: URL(fileURLWithPath: dir).appendingPathComponent(file.lastPathComponent + ".png"))
            }
            return (["mask \(mask.instanceMask.width)x\(mask.instanceMask.height)"], InferenceTimings())
        }
    case "personmask":
        guard args.count >= 4, let runs = Int(args[1]),
            let quality = GeneratePersonSegmentationRequest.QualityLevel(rawValue: args[2])
        else {
            fail("personmask RUNS fast|balanced|accurate FILE...")
        }
        var request = GeneratePersonSegmentationRequest()
        request.qualityLevel = quality
        request.outputPixelFormat = .oneComponent32Float  // MediaPipe's mask is float too
        try benchModel(runs: runs, files: Array(args.dropFirst(3))) { context in
            let mask = try request.perform(in: context)
            return (["mask \(mask.width)x\(mask.height)"], InferenceTimings())
        }
    case "live":
        guard args.count >= 3 else { fail("live MODEL VIDEO [fastest]") }
        try await benchLive(model: args[1], video: args[2], fastest: args.count > 3 && args[3] == "fastest")
    case "live-memory":
        guard args.count == 2 else { fail("live-memory VIDEO") }
        try await benchLiveMemory(video: args[1])
    case "pipeline-overhead":
        guard args.count == 2 else { fail("pipeline-overhead VIDEO") }
        try await benchPipelineOverhead(video: args[1])
    case "make-motion-set":
        guard args.count >= 3 else { fail("make-motion-set DIR PHOTO...") }
        try makeMotionSet(URL(fileURLWithPath: args[1]), photos: Array(args.dropFirst(2)))
    case "motion":
        guard args.count == 3, let runs = Int(args[1]), runs > 0 else { fail("motion RUNS DIR") }
        try await benchMotion(runs: runs, dir: URL(fileURLWithPath: args[2]))
    case "trajectories":
        guard args.count == 3, let runs = Int(args[1]), runs > 0 else { fail("trajectories RUNS DIR") }
        try await benchTrajectories(runs: runs, dir: URL(fileURLWithPath: args[2]))
    case "pixelbuffer":
        guard args.count == 2, let runs = Int(args[1]), runs > 0 else { fail("pixelbuffer RUNS") }
        try benchPixelBuffer(runs: runs)
    case "coreimage":
        guard args.count == 2, let runs = Int(args[1]), runs > 0 else { fail("coreimage RUNS") }
        try benchCoreImage(runs: runs)
    case "vn":
        guard args.count >= 3, let runs = Int(args[1]) else { fail("vn RUNS FILE...") }
        try benchVisionCompat(runs: runs, files: Array(args.dropFirst(2)))
    case "make-document-set":
        guard args.count == 2 else { fail("make-document-set DIR") }
        try makeDocumentSet(URL(fileURLWithPath: args[1]))
    case "catalogue":
        guard args.count >= 4, let runs = Int(args[1]), runs > 0 else { fail("catalogue RUNS REQUEST FILE...") }
        try await benchCatalogue(runs: runs, name: args[2], files: Array(args.dropFirst(3)))
    case "make-sot-set":
        let numbers = args.dropFirst(2).compactMap { Double($0) }
        guard
            args.count == 2
                || ((args.count == 3 || args.count == 5) && numbers.count == args.count - 2 && numbers[0] >= 2)
        else {
            fail("make-sot-set DIR [FRAMES [DEGREES SCALE]]")
        }
        try makeSOTSet(
            URL(fileURLWithPath: args[1]), frames: numbers.first.map { Int($0) } ?? 120,
            degrees: numbers.count == 3 ? numbers[1] : 0,
            scale: numbers.count == 3 ? numbers[2] : 1)
    case "sot":
        guard args.count == 4, let runs = Int(args[1]), runs > 0, let level = TrackingLevel(rawValue: args[3]) else {
            fail("sot RUNS DIR accurate|fast")
        }
        try benchSOT(runs: runs, dir: URL(fileURLWithPath: args[2]), level: level)
    case "anchors":
        guard args.count == 2, let runs = Int(args[1]), runs > 0 else { fail("anchors RUNS") }
        try benchAnchors(runs: runs)
    case "live-extras":
        guard args.count == 5 else { fail("live-extras MODEL CLASSIFIER SHARED_IMAGES DIR") }
        try await benchLiveExtras(
            model: args[1], classifier: args[2], images: URL(fileURLWithPath: args[3]),
            dir: URL(fileURLWithPath: args[4]))
    case "barcodes", "text", "decode-once":
        guard args.count >= 3, let runs = Int(args[1]), runs > 0 else { fail("\(command) RUNS FILE...") }
        let files = Array(args.dropFirst(2))
        switch command {
        case "barcodes": try await benchBarcodes(runs: runs, files: files)
        case "text": try await benchText(runs: runs, files: files)
        default: try await benchDecodeOnce(runs: runs, files: files)
        }
    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}
