import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `video --track --count-line`, run as a user would, with the real Yolo-Fastest detector on a rendered image
/// sequence whose motion is known.
@Suite struct LiveTrackingCLITests {
    static let model = Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco/yolo-fastest-1.1.cfg").path

    /// 40 frames of 640 × 480 gray: the person from person.jpg (80 × 230 px) walks left along the top, 12 px a
    /// frame from x = 540; the dog from dog.jpg (220 × 276 px, which Yolo-Fastest calls a cat at this size) walks
    /// right along the bottom, 10 px a frame from x = 10. Written as PNG files (an image sequence folder).
    static func renderScene(in dir: URL) throws {
        // Crops in the photos' normalised lower-left coordinates: person.jpg (640 × 424) x 172…280, y 80…390;
        // dog.jpg (768 × 576) x 104…396, y 178…545 (pixels, top-left).
        let person = try VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))
            .cropped(to: NormalizedRect(x: 172.0 / 640, y: 1 - 390.0 / 424, width: 108.0 / 640, height: 310.0 / 424))
            .resized(width: 80, height: 230)
        let dog = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
            .cropped(to: NormalizedRect(x: 104.0 / 768, y: 1 - 545.0 / 576, width: 292.0 / 768, height: 367.0 / 576))
            .resized(width: 220, height: 276)
        for i in 0..<40 {
            var canvas = try Fixtures.canvas(width: 640, height: 480, gray: 128)
            try canvas.draw(dog, at: CGPoint(x: 10 + 10 * i, y: 200))
            try canvas.draw(person, at: CGPoint(x: 540 - 12 * i, y: 0))
            try canvas.makeImage().write(to: dir.appendingPathComponent(String(format: "frame_%03d.png", i)))
        }
    }

    /// Both objects keep one track ID on every frame; each is counted once crossing the vertical line x = 0.5
    /// (drawn bottom to top, so rightward is `in`): the dog in, the person out, the person on the frame its
    /// centre passes x = 320 (frame 22: 540 − 12 · 22 + 40 = 316); started events for both, and both ended on the
    /// folder's last frame (still alive when the source ends), none before.
    @Test func tracksAndCountsWithTheRealDetector() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        try Self.renderScene(in: frames)
        let jsonl = dir.appendingPathComponent("out.jsonl")
        let run = try await CLIProcess.run([
            "video", frames.path, "--model", Self.model, "--track", "--count-line", "0.5,0,0.5,1",
            "--jsonl", jsonl.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 40)
        let reports = try lines.map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        var personIDs = Set<Int>()
        var dogIDs = Set<Int>()
        var personFrames = 0
        var dogFrames = 0
        for report in reports {
            for object in report.objects ?? [] {
                guard let id = object.trackID else { continue }
                // The person's box is in the top half (normalised y above 0.5), the dog's in the bottom.
                if object.box.normalized.midY > 0.5 {
                    personIDs.insert(id)
                    personFrames += 1
                } else {
                    dogIDs.insert(id)
                    dogFrames += 1
                }
            }
        }
        #expect(personIDs.count == 1 && dogIDs.count == 1 && personIDs != dogIDs, "person \(personIDs), dog \(dogIDs)")
        // Tracked on (nearly) every frame: confirmed on the first, matched through the walk.
        #expect(personFrames >= 38 && dogFrames >= 30, "person tracked on \(personFrames), dog on \(dogFrames) frames")
        let events = reports.flatMap { report in (report.events ?? []).map { (report.frame ?? -1, $0) } }
        #expect(
            events.filter { $0.1.event == "track_started" }.map(\.1.id).sorted() == (personIDs.union(dogIDs)).sorted())
        let ended = events.filter { $0.1.event == "track_ended" }
        #expect(
            ended.map(\.1.id).sorted() == personIDs.union(dogIDs).sorted() && ended.allSatisfy { $0.0 == 39 },
            "\(ended)")
        let crossings = events.filter { $0.1.event == "line_crossed" }
        #expect(crossings.count == 2, "\(crossings)")
        let personCrossing = try #require(crossings.first { personIDs.contains($0.1.id) })
        #expect(
            personCrossing.1.direction == "out" && personCrossing.1.label == "person"
                && abs(personCrossing.0 - 22) <= 1,
            "\(personCrossing)")
        #expect(crossings.first { dogIDs.contains($0.1.id) }?.1.direction == "in")
        let counting = try #require(reports.last?.counting)
        #expect(counting.line == [[0.5, 0], [0.5, 1]])
        #expect(counting.totalIn == 1 && counting.totalOut == 1 && counting.outByLabel == ["person": 1], "\(counting)")
        #expect(counting.inByLabel.values.reduce(0, +) == 1)
        // Every frame carries the totals so far.
        #expect(reports.allSatisfy { $0.counting != nil })
    }

    /// Bad --count-line values and --track without a detector: a one-line error naming the problem, status 64.
    @Test(arguments: [
        (["--count-line", "0.5,0.5,0.5,0.5"], "zero length"),
        (["--count-line", "0.1,0.2,0.3"], "expected 4 comma-separated numbers"),
        (["--count-line", "0.1,abc,0.3,0.4"], "y1 is not a number"),
        (["--count-line", "0.1,0.2,nan,0.4"], "x2 is not a number"),
        (["--count-line", "0.1,0.2,1.5,0.4"], "outside 0...1"),
    ])
    func rejectsABadCountLine(_ arguments: [String], _ message: String) async throws {
        let run = try await CLIProcess.run(["video", "/nonexistent.mp4", "--model", Self.model] + arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    /// `--track` without `--model` tracks the built-in detector's objects (as `detect` uses it): both walkers get
    /// one track each, ended on the last frame, and no other request runs (no barcodes, no faces).
    @Test func trackingWithoutAModelUsesTheBuiltInDetector() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        try Self.renderScene(in: frames)
        let jsonl = dir.appendingPathComponent("out.jsonl")
        let run = try await CLIProcess.run(["video", frames.path, "--track", "--jsonl", jsonl.path])
        #expect(run.status == 0, "\(run.stderr)")
        let reports = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        #expect(reports.count == 40)
        #expect(reports.allSatisfy { $0.barcodes == nil && $0.faces == nil })
        var top = Set<Int>()
        var bottom = Set<Int>()
        for object in reports.flatMap({ $0.objects ?? [] }) {
            guard let id = object.trackID else { continue }
            if object.box.normalized.midY > 0.5 { top.insert(id) } else { bottom.insert(id) }
        }
        #expect(top.count == 1 && bottom.count == 1 && top != bottom, "top \(top), bottom \(bottom)")
        let ended = reports.flatMap { r in
            (r.events ?? []).filter { $0.event == "track_ended" }.map { (r.frame ?? -1, $0.id) }
        }
        #expect(ended.map(\.1).sorted() == top.union(bottom).sorted() && ended.allSatisfy { $0.0 == 39 }, "\(ended)")
    }
}
