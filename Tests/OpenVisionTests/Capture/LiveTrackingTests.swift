import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Tracking, counting and pinned labels in the live pipeline, through the Swift API, on image sequences whose
/// motion is known.
@Suite(.serialized) struct LiveTrackingTests {
    /// A detector for the test scenes: the bounding box of the white pixels ("white") and of the mid-gray ones
    /// ("gray") on a black frame, as objects (normalised, lower-left origin).
    struct SquareDetector: VisionRequest {
        var regionOfInterest = NormalizedRect.fullImage
        func perform(in context: ImageAnalysisContext) throws(VisionError) -> [RecognizedObjectObservation] {
            let image = try context.colorImage()
            let rgb = [UInt8](image.rgbData())
            let w = image.width
            let h = image.height
            var boxes: [String: (x0: Int, y0: Int, x1: Int, y1: Int)] = [:]
            for y in 0..<h {
                for x in 0..<w {
                    let g = Int(rgb[(y * w + x) * 3 + 1])
                    let name = g > 220 ? "white" : (g > 110 && g < 170 ? "gray" : nil)
                    guard let name else { continue }
                    let b = boxes[name] ?? (x, y, x, y)
                    boxes[name] = (min(b.x0, x), min(b.y0, y), max(b.x1, x), max(b.y1, y))
                }
            }
            return boxes.sorted { $0.key < $1.key }.map { name, b in
                RecognizedObjectObservation(
                    boundingBox: NormalizedRect(
                        x: Double(b.x0) / Double(w), y: 1 - Double(b.y1 + 1) / Double(h),
                        width: Double(b.x1 - b.x0 + 1) / Double(w), height: Double(b.y1 - b.y0 + 1) / Double(h)),
                    labels: [ClassificationObservation(identifier: name, confidence: 0.9)])
            }
        }
    }

    static func everyFrame() -> (CaptureOptions, LiveAnalyzer.Configuration) {
        var options = CaptureOptions()
        options.pace = .fastest
        var configuration = LiveAnalyzer.Configuration()
        configuration.dropsFrames = false
        return (options, configuration)
    }

    /// 30 frames of 320 × 240 black: a white 40 × 40 square moving right 8 px a frame from x = 20 (y = 40), a gray
    /// one moving left 8 px a frame from x = 260 (y = 150). A vertical counting line at x = 0.5 drawn bottom to
    /// top: the white square crosses `in` (its centre 40 + 8 f px is on the line, 160 px, on frame 15), the gray one
    /// `out` (280 − 8 f px, also on the line on frame 15).
    @Test func tracksAndCountsThroughTheSwiftAPI() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for f in 0..<30 {
            var canvas = try Fixtures.canvas(width: 320, height: 240, gray: 0)
            try Fixtures.fill(
                [
                    (20 + 8 * Double(f), 40), (60 + 8 * Double(f), 40), (60 + 8 * Double(f), 80),
                    (20 + 8 * Double(f), 80),
                ],
                on: &canvas, gray: 255)
            try Fixtures.fill(
                [
                    (260 - 8 * Double(f), 150), (300 - 8 * Double(f), 150), (300 - 8 * Double(f), 190),
                    (260 - 8 * Double(f), 190),
                ],
                on: &canvas, gray: 140)
            try canvas.makeImage().write(to: dir.appendingPathComponent(String(format: "f%03d.png", f)))
        }
        var (options, configuration) = Self.everyFrame()
        options.imageSequenceFPS = 30
        // implies tracking
        configuration.lineCounter = try LineCounter(from: CGPoint(x: 0.5, y: 0), to: CGPoint(x: 0.5, y: 1))
        let analyzer = LiveAnalyzer(
            source: .images(dir.path), options: options, requests: [SquareDetector()], configuration: configuration)
        var idsByLabel: [String: Set<Int>] = [:]
        var started: [Int] = []
        var crossings: [(frame: Int, crossing: LineCounter.Crossing)] = []
        var last: LiveResult?
        for try await result in analyzer {
            let tracking = try #require(result.tracking)
            started += tracking.started
            let objects = try #require(result.detectedObjects)
            #expect(objects.count == 2)
            for (i, object) in objects.enumerated() {
                let id = try #require(result.trackID(ofObjectAt: i), "frame \(result.frameIndex) object \(i)")
                idsByLabel[object.labels[0].identifier, default: []].insert(id)
            }
            crossings += result.lineCrossings.map { (result.frameIndex, $0) }
            last = result
        }
        // Confirmed on the first frame (the tracker's first frame confirms at once), one ID each, for every frame.
        #expect(
            idsByLabel == ["white": [1], "gray": [2]] || idsByLabel == ["white": [2], "gray": [1]], "\(idsByLabel)")
        #expect(started.sorted() == [1, 2])
        #expect(crossings.count == 2, "\(crossings)")
        // Both centres are on the line on frame 15 and past it on 16; the counter follows the tracker's filtered box,
        // a fraction of a pixel from the detection, so the count lands on frame 15 or 16.
        #expect(crossings.allSatisfy { (15...16).contains($0.frame) }, "\(crossings.map(\.frame))")
        #expect(
            Set(crossings.map { "\($0.crossing.label ?? "") \($0.crossing.direction)" }) == ["white in", "gray out"])
        let counts = try #require(last?.lineCounts)
        #expect(counts.inByLabel == ["white": 1] && counts.outByLabel == ["gray": 1])
        #expect(last?.lineSegment?.start == CGPoint(x: 0.5, y: 0))
        // The report of a frame carries the IDs and the totals.
        let report = AnalysisReport(try #require(last))
        #expect(report.objects?.compactMap(\.trackID).sorted() == [1, 2])
        #expect(report.counting?.totalIn == 1 && report.counting?.totalOut == 1)
    }

    /// Camera-motion compensation in the pipeline (`compensatesCameraMotion`): a camera shaking 70 px left and right
    /// every frame over dog.jpg (dimmed so only the painted square is white) with a white 40 × 40 square fixed in
    /// the scene. The square jumps 70 px between frames, so its boxes never overlap: ByteTrack alone loses it every
    /// other frame (its track is found again only where the square comes back, and the other position's tracks are
    /// never confirmed); with each frame registered onto the previous one, one track follows it on every frame.
    @Test func cameraMotionCompensationKeepsTheTrackOfAShakenScene() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))  // 768 × 576
        // below the detector's gray band (110...170)
        let dimmed = Data(photo.rgbData().map { UInt8(Double($0) * 0.4) })
        var scene = try Fixtures.canvas(width: 768, height: 576, gray: 0)
        try Fixtures.paste(
            try VisionImage(pixels: PixelBuffer(data: dimmed, width: 768, height: 576, format: .rgb8)), on: &scene,
            x: 0, y: 0)
        try Fixtures.fill([(420, 250), (460, 250), (460, 290), (420, 290)], on: &scene, gray: 255)
        let world = scene.makeImage()
        for f in 0..<16 {
            let x = f % 2 == 0 ? 200.0 : 270.0
            try world.cropped(
                to: NormalizedRect(x: x / 768, y: 1 - 390.0 / 576, width: 320.0 / 768, height: 240.0 / 576)
            )
            .write(to: dir.appendingPathComponent(String(format: "f%03d.png", f)))
        }
        func ids(compensating: Bool) async throws -> (ids: Set<Int>, tracked: Int) {
            var (options, configuration) = Self.everyFrame()
            options.imageSequenceFPS = 30
            configuration.tracking = ObjectTracker.Configuration()
            configuration.compensatesCameraMotion = compensating
            let analyzer = LiveAnalyzer(
                source: .images(dir.path), options: options, requests: [SquareDetector()], configuration: configuration)
            var found = Set<Int>()
            var frames = 0
            var tracked = 0
            for try await result in analyzer {
                frames += 1
                let objects = try #require(result.detectedObjects)
                #expect(objects.map { $0.labels[0].identifier } == ["white"], "frame \(result.frameIndex)")
                if let id = result.trackID(ofObjectAt: 0) {
                    found.insert(id)
                    tracked += 1
                }
            }
            #expect(frames == 16)
            return (found, tracked)
        }
        let compensated = try await ids(compensating: true)
        let plain = try await ids(compensating: false)
        #expect(compensated.ids.count == 1 && compensated.tracked == 16, "\(compensated)")
        #expect(plain.tracked <= 9, "\(plain)")
    }

    /// Pinned labels from Swift: a pan over dog.jpg (3 source px a frame, 60 frames of a 384 × 288 window scaled to
    /// 640 × 480); a label pinned while iterating follows its spot within 2 % of the width on every frame it is
    /// tracked; removing it removes it from the following results; the label classifier's top class labels pins
    /// made without a label.
    @Test func pinnedLabelsFollowTheirSpotThroughTheSwiftAPI() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        func offset(_ f: Int) -> Double { Double(3 * f) }
        for f in 0..<60 {
            try photo.cropped(to: NormalizedRect(x: offset(f) / 768, y: 0.25, width: 0.5, height: 0.5))
                .resized(width: 640, height: 480).write(to: dir.appendingPathComponent(String(format: "f%03d.jpg", f)))
        }
        var (options, configuration) = Self.everyFrame()
        options.imageSequenceFPS = 30
        configuration.labelClassifier = ClassifyImageRequest()
        configuration.labelClassifierInterval = 10
        let analyzer = LiveAnalyzer(
            source: .images(dir.path), options: options, requests: [DetectHorizonRequest()],
            configuration: configuration)
        // Before any frame: nothing to pin on.
        #expect(throws: VisionError.self) { try analyzer.pinLabel(at: CGPoint(x: 0.5, y: 0.5), label: "x") }
        var pinned: [Anchor] = []
        var removed = false
        var withAnchors: [(frame: Int, anchors: [Anchor])] = []
        var topLabels = Set<String>()
        for try await result in analyzer {
            if let top = result.topLabel { topLabels.insert(top.identifier) }
            if !result.anchors.isEmpty { withAnchors.append((result.frameIndex, result.anchors)) }
            if result.frameIndex == 3 {
                // Bad points are refused, whatever the frame.
                for bad in [
                    CGPoint(x: .nan, y: 0.5), CGPoint(x: 0.5, y: 1.01), CGPoint(x: -0.1, y: 0.5),
                    CGPoint(x: 0.5, y: .infinity),
                ] {
                    #expect(throws: VisionError.self) { try analyzer.pinLabel(at: bad) }
                }
                #expect(throws: VisionError.self) { try analyzer.pinLabel(at: CGPoint(x: 0.5, y: 0.5), label: "  ") }
                pinned.append(try analyzer.pinLabel(at: CGPoint(x: 0.7, y: 0.4)))  // the top class
                pinned.append(try analyzer.pinLabel(at: CGPoint(x: 0.6, y: 0.6), label: "spot"))
                #expect(analyzer.anchors.map(\.id) == pinned.map(\.id))
            }
            if result.frameIndex == 40 {
                #expect(analyzer.removeAnchor(id: pinned[1].id))
                #expect(!analyzer.removeAnchor(id: 99))
                removed = true
            }
        }
        #expect(removed && pinned.count == 2)
        #expect(
            pinned[0].label == analyzer.topLabel?.identifier || topLabels.contains(pinned[0].label),
            "\(pinned[0].label) \(topLabels)")
        #expect(pinned[1].label == "spot" && pinned[1].point == CGPoint(x: 0.6, y: 0.6))
        // Pinned on the frame analysed before the first result carrying them (every frame is analysed).
        let first = try #require(withAnchors.first)
        let pinFrame = first.frame - 1
        // The removed one is in every result up to the removal (frames analysed ahead of the consumer may still
        // carry it), then in none.
        let presence = withAnchors.map { entry in entry.anchors.contains { $0.id == pinned[1].id } }
        let gone = try #require(presence.firstIndex(of: false))
        #expect(withAnchors[gone].frame > 40 && !presence[gone...].contains(true) && !presence[..<gone].contains(false))
        var tracked = 0
        for (frame, anchors) in withAnchors {
            for anchor in anchors where anchor.state != .lost {
                let start = anchor.id == pinned[0].id ? CGPoint(x: 0.7, y: 0.4) : CGPoint(x: 0.6, y: 0.6)
                let truth = (start.x * 384 + offset(pinFrame) - offset(frame)) / 384
                #expect(
                    abs(anchor.point.x - truth) < 0.02 && abs(anchor.point.y - start.y) < 0.02,
                    "frame \(frame) anchor \(anchor.id): \(anchor.point) vs x \(truth)")
                tracked += 1
            }
        }
        #expect(tracked >= 60, "tracked anchor-frames: \(tracked)")
        // After the removal, only the first is left.
        #expect(withAnchors.last?.anchors.map(\.id) == [pinned[0].id])
        #expect(analyzer.anchors.map(\.id) == [pinned[0].id])
    }
}
