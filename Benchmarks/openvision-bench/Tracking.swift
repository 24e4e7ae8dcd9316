// Single-object tracking and anchor benchmarks (scripts/bench sot, anchors).
//
//   make-sot-set DIR [FRAMES [DEGREES SCALE]]   the tests' moving patch (MovingPatchScene, 120 frames, no turn by default) as PNG frames + truth.txt
//                             (one line per frame: x y width height, pixels, top-left origin)
//   sot RUNS DIR LEVEL        the frames (decoded before timing) through TrackObjectRequest (accurate|fast):
//                             median over runs of the mean ms per tracked frame; boxes of the last run (pixels)
//   anchors RUNS              per-frame cost of AnchorTracker.update with 1, 10 and 50 anchors on CameraMoveScene
//                             (640x480, 300 frames rendered before timing): median wall ms over frames, median of runs;
//                             and mean process CPU ms per frame (all threads), median of runs
import Foundation
import OpenVision
import OpenVisionFixtures

func makeSOTSet(_ dir: URL, frames: Int = 120, degrees: Double = 0, scale: Double = 1) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var scene = try MovingPatchScene()
    scene.frameCount = frames
    scene.finalDegrees = degrees
    scene.finalScale = scale
    var truth = ""
    for k in 0..<scene.frameCount {
        try scene.frame(k).write(to: dir.appendingPathComponent(String(format: "%03d.png", k)))
        let b = scene.pixelBox(k)
        truth += String(format: "%.3f %.3f %.3f %.3f\n", b.minX, b.minY, b.width, b.height)
    }
    try truth.write(to: dir.appendingPathComponent("truth.txt"), atomically: true, encoding: .utf8)
}

func benchSOT(runs: Int, dir: URL, level: TrackingLevel) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".png") }.sorted()
    let frames = try files.map { try VisionImage(contentsOf: dir.appendingPathComponent($0)) }
    let truth = try String(contentsOf: dir.appendingPathComponent("truth.txt"), encoding: .utf8).split(separator: "\n")
        .map { $0.split(separator: " ").compactMap { Double($0) } }
    guard frames.count >= 2, let first = truth.first, first.count == 4 else {
        fail("no frames or truth in \(dir.path)")
    }
    let size = CGSize(width: frames[0].width, height: frames[0].height)
    let start = NormalizedRect(
        imageRect: CGRect(x: first[0], y: first[1], width: first[2], height: first[3]), in: size, origin: .upperLeft)
    var times: [Double] = []
    var initTimes: [Double] = []
    var boxes: [[Double]] = []
    for _ in 0..<runs {
        let request = TrackObjectRequest(detectedObjectObservation: DetectedObjectObservation(boundingBox: start))
        request.trackingLevel = level
        var spent = Duration.zero
        boxes = []
        for (k, frame) in frames.enumerated() {
            let context = ImageAnalysisContext(image: frame)
            let t0 = clock.now
            let result = try request.perform(in: context)
            if k == 0 { initTimes.append(ms(clock.now - t0)) } else { spent += clock.now - t0 }
            let r = result[0].boundingBox.toImageCoordinates(size, origin: .upperLeft)
            boxes.append(
                [Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)].map { ($0 * 1000).rounded() / 1000 }
            )
        }
        times.append(ms(spent) / Double(frames.count - 1))
    }
    emit([
        "file": dir.lastPathComponent + ":\(level.rawValue)", "median_ms": median(times),
        "init_median_ms": median(initTimes),
        "boxes": boxes,
    ])
}

/// CPU time of the whole process (all threads, OpenCV's included), seconds: less sensitive than wall time to a
/// machine shared with other work.
func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func benchAnchors(runs: Int) throws {
    let scene = try CameraMoveScene()
    let frames = try (0..<CameraMoveScene.frameCount).map { try scene.frame($0) }
    for count in [1, 10, 50] {
        var medians: [Double] = []
        var cpu: [Double] = []
        var normal = 0
        for _ in 0..<runs {
            let tracker = AnchorTracker()
            // A grid of anchors over the middle of the first frame.
            for i in 0..<count {
                let point = CGPoint(x: 0.2 + 0.6 * Double(i % 10) / 9, y: 0.25 + 0.5 * Double(i / 10) / 4)
                _ = try tracker.add(label: "a\(i)", at: point, in: frames[0])
            }
            var perFrame: [Double] = []
            let cpu0 = processCPUSeconds()
            for frame in frames.dropFirst() {
                let t0 = clock.now
                let anchors = try tracker.update(with: frame)
                perFrame.append(ms(clock.now - t0))
                normal = anchors.filter { $0.state == .normal }.count
            }
            medians.append(median(perFrame))
            cpu.append((processCPUSeconds() - cpu0) * 1000 / Double(frames.count - 1))
        }
        emit([
            "file": "anchors:\(count)", "median_ms": median(medians), "cpu_mean_ms": median(cpu),
            "normal_on_last_frame": normal,
        ])
    }
}
