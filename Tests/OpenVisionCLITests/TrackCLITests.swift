import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `openvision track`, run as a user would, on MOTChallenge files.
@Suite struct TrackCLITests {
    /// Three pedestrians (pixels): two walking towards each other (crossing with a 40 px vertical offset), one
    /// occluded on frames 20...24; 60 frames; ids −1 as in det.txt files.
    static func detections() -> String {
        var lines: [String] = []
        for frame in 1...60 {
            let t = Double(frame - 1)
            let boxes: [(Int, Double, Double)] = [(0, 100 + 7 * t, 300), (1, 600 - 7 * t, 340), (2, 900, 100 + 4 * t)]
            for (object, x, y) in boxes where !(object == 2 && (20...24).contains(frame)) {
                lines.append("\(frame),-1,\(x),\(y),50,110,0.9,-1,-1,-1")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func tracksAMOTDetectionsFile() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dets = dir.appendingPathComponent("det.txt")
        let out = dir.appendingPathComponent("tracks.txt")
        try Data(Self.detections().utf8).write(to: dets)
        let run = try await CLIProcess.run(["track", "--detections", dets.path, "--out", out.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("60 frames, 175 detections, 3 tracks"), "\(run.stderr)")
        let tracks = try MOTFormat.read(contentsOf: out)
        // Every detection is reported (3 per frame), with one ID per object, and the occluded object's five
        // frames are filled (the offline completion, --max-gap 20) on its line of motion: y = 100 + 4 (frame − 1).
        #expect(tracks.count == 180)
        let filled = tracks.filter { $0.x > 850 && (20...24).contains($0.frame) }
        #expect(
            filled.count == 5 && filled.allSatisfy { abs($0.y - (100 + 4 * Double($0.frame - 1))) < 1 }, "\(filled)")
        var idsOfObject: [Int: Set<Int>] = [:]
        for record in tracks {
            let object = record.x > 850 ? 2 : (record.y < 320 ? 0 : 1)
            idsOfObject[object, default: []].insert(record.id)
            #expect(record.extra == [-1, -1, -1] && abs(record.width - 50) < 1 && abs(record.height - 110) < 1)
        }
        #expect(idsOfObject.values.map(\.count) == [1, 1, 1], "\(idsOfObject)")
        #expect(Set(idsOfObject.values.flatMap { $0 }) == [1, 2, 3])
        // --max-gap 0: the tracker's online output, 2 boxes on the occluded frames.
        let online = try await CLIProcess.run(["track", "--detections", dets.path, "--out", "-", "--max-gap", "0"])
        #expect(online.status == 0, "\(online.stderr)")
        #expect(online.stdout.split(separator: "\n").count == 175)
    }

    @Test func thresholdsChangeWhatIsTracked() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dets = dir.appendingPathComponent("det.txt")
        try Data(Self.detections().utf8).write(to: dets)
        // Scores of 0.9 never start a track above 0.95: nothing is written.
        let run = try await CLIProcess.run([
            "track", "--detections", dets.path, "--out", "-", "--new-track-threshold", "0.95",
        ])
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")
        let bad = try await CLIProcess.run([
            "track", "--detections", dets.path, "--out", "-", "--match-threshold", "1.5",
        ])
        #expect(bad.status == 1 && bad.stderr.contains("matchThreshold must be in 0...1"), "\(bad.stderr)")
    }

    @Test func aMalformedLineIsAnErrorWithItsNumber() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dets = dir.appendingPathComponent("det.txt")
        try Data("1,-1,10,20,30,40,0.9\n\n2,-1,10,20,-30,40,0.9\n".utf8).write(to: dets)
        let run = try await CLIProcess.run([
            "track", "--detections", dets.path, "--out", dir.appendingPathComponent("t.txt").path,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("det.txt: line 3: width and height must not be negative"), "\(run.stderr)")
        let missing = try await CLIProcess.run([
            "track", "--detections", dir.appendingPathComponent("none.txt").path, "--out", "-",
        ])
        #expect(missing.status == 1 && missing.stderr.contains("none.txt"))
    }

    /// A person standing still while the camera jumps 100 px on frame 11: the --camera-motion file's homography for
    /// that frame keeps the one ID; without it the track is lost and a second ID starts. A malformed line names itself.
    @Test func cameraMotionKeepsAnIDThroughACameraJump() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dets = dir.appendingPathComponent("det.txt")
        let motion = dir.appendingPathComponent("motion.txt")
        let lines = (1...20).map { "\($0),-1,\($0 <= 10 ? 100 : 200),300,50,110,0.9,-1,-1,-1" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dets)
        try Data("11, 1,0,100, 0,1,0, 0,0,1\n".utf8).write(to: motion)
        func ids(_ extra: [String]) async throws -> Set<Int> {
            let run = try await CLIProcess.run(
                ["track", "--detections", dets.path, "--out", "-", "--max-gap", "0"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return Set(try MOTFormat.parse(run.stdout).map(\.id))
        }
        #expect(try await ids([]) == [1, 2])
        #expect(try await ids(["--camera-motion", motion.path]) == [1])
        try Data("11,1,0,100,0,1,0,0,0,1\n12,1,0,0\n".utf8).write(to: motion)
        let bad = try await CLIProcess.run([
            "track", "--detections", dets.path, "--out", "-", "--camera-motion", motion.path,
        ])
        #expect(
            bad.status == 1 && bad.stderr.contains("motion.txt: line 2: expected frame and 9 finite numbers"),
            "\(bad.stderr)")
        // Issue 37, row 17: "0x10" was frame 16, and a frame given twice replaced the earlier line without a word.
        try Data("0x10,1,0,100,0,1,0,0,0,1\n".utf8).write(to: motion)
        let hex = try await CLIProcess.run([
            "track", "--detections", dets.path, "--out", "-", "--camera-motion", motion.path,
        ])
        #expect(
            hex.status == 1
                && hex.stderr.contains("motion.txt: line 1: expected frame and 9 finite numbers, in decimal"),
            "\(hex.stderr)")
        try Data("11,1,0,100,0,1,0,0,0,1\n\n11,1,0,-100,0,1,0,0,0,1\n".utf8).write(to: motion)
        let twice = try await CLIProcess.run([
            "track", "--detections", dets.path, "--out", "-", "--camera-motion", motion.path,
        ])
        #expect(
            twice.status == 1 && twice.stderr.contains("motion.txt: line 3: frame 11 is given again (first on line 1)"),
            "\(twice.stderr)")
    }
}
