import ArgumentParser
import Foundation
import OpenVision

/// `openvision track --detections det.txt --out tracks.txt`: ByteTrack over a MOTChallenge detections file.
struct TrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract:
            "Track objects through a MOTChallenge detections file (ByteTrack with OC-SORT's and BoostTrack's refinements) and write the tracks in the same format.",
        discussion: """
            Reads frame,id,x,y,w,h,score,… lines (id -1; pixels; frames from 1; frames with no line are frames
            without detections) and writes frame,id,x,y,w,h,score,-1,-1,-1 per confirmed track and frame, the box
            being the Kalman filter's (to 0.001 px), as py-motmetrics and the MOTChallenge tools read. Thresholds are
            ByteTrack's; on top: lost tracks re-filtered when found (OC-SORT's ORU), their weight decaying while
            lost and low-score detections that fit a track boosted (BoostTrack); OC-SORT's OCM and OCR on request.
            Prints one summary line on stderr: frames, tracks, and the tracker's time per frame (reading and
            writing excluded). A malformed line is an error naming its line number (exit status 1).
            The file being known to its end, each track's gaps of up to --max-gap frames are filled by linear
            interpolation and the detections it started from before its confirmation are written too (--max-gap 0:
            the tracker's online output alone).
            """
    )

    @Option(help: "The detections file (MOTChallenge det.txt format).") var detections: String
    @Option(name: .shortAndLong, help: "Write the tracks here (MOTChallenge format); - for stdout.") var out: String
    @Option(help: "Score above which a detection is high (first association). ByteTrack's track_thresh.")
    var highThreshold: Double = 0.5
    @Option(help: "Score above which a detection is kept as low (second association).")
    var lowThreshold: Double = 0.1
    @Option(help: "Lowest score that starts a new track.") var newTrackThreshold: Double = 0.6
    @Option(help: "Largest 1 - IoU×score accepted in the first association. ByteTrack's match_thresh.")
    var matchThreshold: Double = 0.8
    @Option(help: "Largest 1 - IoU accepted in the second (low-score) association.") var secondMatchThreshold: Double =
        0.5
    @Option(help: "Largest 1 - IoU×score accepted between a tentative track and a detection.")
    var tentativeMatchThreshold: Double = 0.7
    @Option(help: "Frames (at 30 fps) a lost track is kept. ByteTrack's track_buffer.") var trackBuffer: Int = 30
    @Option(help: "The sequence's frame rate (scales --track-buffer).") var frameRate: Double = 30
    @Flag(help: "Do not multiply IoU by the score (ByteTrack's --mot20).") var noFuseScore = false
    @Option(
        help:
            "Observation-centric momentum (OC-SORT's OCM; its inertia is 0.2): weight of the agreement between a track's observed direction of motion and the direction to a detection in the first association. 0: off."
    )
    var momentumWeight: Double = 0
    @Option(help: "Frames back over which a track's observed direction of motion is measured (OC-SORT's delta_t).")
    var velocityWindow: Int = 3
    @Flag(
        help:
            "Do not re-filter a lost track along a straight path from its last observation when it is found again (OC-SORT's observation-centric re-update, on by default)."
    )
    var noReupdate = false
    @Option(
        help:
            "Observation-centric recovery (OC-SORT's OCR; its IoU threshold 0.3 is 0.7 here): match the tracks left unmatched by their last observed box to the detections left over, up to this 1 - IoU. Off unless given."
    )
    var recoveryMatchThreshold: Double?
    @Option(
        help:
            "Per frame without a match beyond the first, a lost track's IoU×score in the first association is multiplied by this (BoostTrack's tracklet confidence). 1: off."
    )
    var lostTrackDecay: Double = 0.9
    @Option(
        help:
            "A detection's association score is raised to this × its best IoU with a track (BoostTrack's DLO boost), so a low-score detection that fits a track takes part in the first association. 0: off."
    )
    var detectionBoost: Double = 0.65
    @Option(
        help:
            "Camera motion for a moving camera (BoT-SORT's compensation): a file of frame,h11,h12,h13,h21,h22,h23,h31,h32,h33 lines, each the homography taking the previous frame's pixels to this frame's (same coordinates as the detections); frames without a line have a still camera."
    )
    var cameraMotion: String?
    @Option(
        help:
            "Offline completion (the file is known to its end): fill a track's gaps of at most this many frames by linear interpolation (ByteTrack's offline interpolation) and write the detections it started from before its confirmation. 0: the tracker's online output only."
    )
    var maxGap: Int = 20

    func run() async throws {
        var options = ObjectTracker.Configuration()
        options.highThreshold = highThreshold
        options.lowThreshold = lowThreshold
        options.newTrackThreshold = newTrackThreshold
        options.matchThreshold = matchThreshold
        options.secondMatchThreshold = secondMatchThreshold
        options.tentativeMatchThreshold = tentativeMatchThreshold
        options.trackBuffer = trackBuffer
        options.frameRate = frameRate
        options.fuseScore = !noFuseScore
        options.momentumWeight = momentumWeight
        options.velocityWindow = velocityWindow
        options.reupdatesLostTracks = !noReupdate
        options.recoveryMatchThreshold = recoveryMatchThreshold
        options.lostTrackDecay = lostTrackDecay
        options.detectionBoost = detectionBoost
        do {
            var tracker = try ObjectTracker(configuration: options)
            let records = try MOTFormat.read(contentsOf: URL(fileURLWithPath: detections))
            var byFrame: [Int: [ObjectTracker.Detection]] = [:]
            for r in records {
                byFrame[r.frame, default: []].append(
                    ObjectTracker.Detection(
                        boundingBox: CGRect(x: r.x, y: r.y, width: r.width, height: r.height),
                        confidence: Float(r.score)))
            }
            let lastFrame = byFrame.keys.max() ?? 0
            let motions = try cameraMotion.map { path throws(VisionError) in try Self.readCameraMotion(path) } ?? [:]
            var completion = TrackCompletion(maximumGap: maxGap, backFillsStart: maxGap > 0)
            var ids = Set<Int>()
            let clock = ContinuousClock()
            var elapsed = Duration.zero
            for frame in stride(from: 1, through: lastFrame, by: 1) {
                let frameDetections = byFrame[frame] ?? []
                let start = clock.now
                let update = tracker.update(frameDetections, cameraMotion: motions[frame])
                completion.record(update, detections: frameDetections)
                elapsed += clock.now - start
                for track in update.tracks { ids.insert(track.id) }
            }
            // Millipixels and six score digits (Float's precision) keep the file short.
            func rounded(_ v: Double, _ scale: Double) -> Double { (v * scale).rounded() / scale }
            let start = clock.now
            let completed = completion.records()
            elapsed += clock.now - start  // the completion is part of the tracker's time
            let output = completed.map {
                MOTRecord(
                    frame: $0.frame, id: $0.id, x: rounded($0.x, 1000), y: rounded($0.y, 1000),
                    width: rounded($0.width, 1000),
                    height: rounded($0.height, 1000), score: rounded($0.score, 1e6))
            }
            let text = MOTFormat.format(output)
            if out == "-" {
                FileHandle.standardOutput.write(Data(text.utf8))
            } else {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: out))
                } catch {
                    throw VisionError(.ioError, "\(out): cannot write the tracks (\(error.localizedDescription))")
                }
            }
            let perFrame = lastFrame > 0 ? elapsed.milliseconds / Double(lastFrame) : 0
            FileHandle.standardError.write(
                Data(
                    "openvision: \(lastFrame) frames, \(records.count) detections, \(ids.count) tracks, \(String(format: "%.4f", perFrame)) ms per frame\n"
                        .utf8))
        } catch let error as VisionError {
            FileHandle.standardError.write(Data("openvision: error: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// frame → homography (previous frame → this one) from a `--camera-motion` file; errors name the line. Values are
    /// decimal numbers (`0x10` is refused, not read as 16), the frame a whole one, and a frame given twice is an error
    /// naming both lines.
    static func readCameraMotion(_ path: String) throws(VisionError) -> [Int: Matrix3x3] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VisionError(
                FileManager.default.fileExists(atPath: path) ? .ioError : .fileNotFound, "\(path): cannot read the file"
            )
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw VisionError(.invalidArgument, "\(path): not UTF-8 text")
        }
        var motions: [Int: Matrix3x3] = [:]
        var lines: [Int: Int] = [:]
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.allSatisfy(\.isEmpty) { continue }
            let values = fields.enumerated().compactMap { k, field in
                MOTFormat.isDecimal(field, integral: k == 0) ? Double(field) : nil
            }
            guard fields.count == 10, values.count == 10, values.allSatisfy(\.isFinite) else {
                throw VisionError(
                    .invalidArgument, "\(path): line \(index + 1): expected frame and 9 finite numbers, in decimal")
            }
            guard values[0] >= 1, values[0] <= 1e9, values[0].rounded() == values[0] else {
                throw VisionError(
                    .invalidArgument, "\(path): line \(index + 1): the frame must be a whole number from 1")
            }
            let frame = Int(values[0])
            if let earlier = lines[frame] {
                throw VisionError(
                    .invalidArgument,
                    "\(path): line \(index + 1): frame \(frame) is given again (first on "
                        + "line \(earlier))")
            }
            lines[frame] = index + 1
            motions[frame] = Matrix3x3(rowMajor: Array(values[1...]))
        }
        return motions
    }
}
