import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct TrajectoryTests {
    static let (width, height) = (640, 480)
    /// The thrown ball's path in pixels (top-left origin): x = 30 + 9.6·i, y = 80 + k·(x − 150)², apex at
    /// (150, 80), falling to y ≈ 436 at the right edge.
    static let k = 360.0 / 202_500
    static func centre(_ i: Int) -> (x: Double, y: Double) {
        let x = 30 + 9.6 * Double(i)
        return (x, 80 + k * (x - 150) * (x - 150))
    }

    /// The parabola in normalised coordinates (lower-left origin): y_n = 1 − (80 + k·(640·x_n − 150)²) / 480.
    /// Python: np.polyfit(x/640, 1-y/480, 2) of the drawn (rounded) centres of frames 30...59 gives
    /// [-1.5111, 0.7027, 0.7530]; analytically a = −k·640²/480, b = 2k·640·150/480, c = 1 − (80 + k·150²)/480.
    static let expected: (a: Double, b: Double, c: Double) = (
        -k * 640 * 640 / 480, 2 * k * 640 * 150 / 480, 1 - (80 + k * 150 * 150) / 480
    )

    /// Frame `i`: a dark static scene (a few fixed blocks) and a white ball of radius 8 at `centre(i)`
    /// (drawn at the nearest pixel).
    static func frame(_ i: Int) throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: width, height: height, gray: 60)
        try Fixtures.fill([(400, 300), (520, 300), (520, 470), (400, 470)], on: &canvas, gray: 110)
        try Fixtures.fill([(60, 330), (160, 330), (160, 420), (60, 420)], on: &canvas, gray: 25)
        let c = centre(i)
        try canvas.dot(at: CGPoint(x: c.x.rounded(), y: c.y.rounded()), radius: 8, color: .white)
        return canvas.makeImage()
    }

    static func request() -> DetectTrajectoriesRequest {
        let request = DetectTrajectoriesRequest(trajectoryLength: 30)
        request.objectMinimumNormalizedRadius = 0.005
        request.objectMaximumNormalizedRadius = 0.05
        return request
    }

    @Test func thrownBallFollowsItsParabola() async throws {
        let request = Self.request()
        let sequence = SequenceRequestHandler()
        var last: [TrajectoryObservation] = []
        var ids = Set<UUID>()
        for i in 0..<60 {
            last = try await sequence.perform(request, on: try Self.frame(i), frameTime: .milliseconds(40 * i))
            ids.formUnion(last.map(\.uuid))
        }
        #expect(ids.count == 1, "one trajectory, the same from frame to frame")
        let trajectory = try #require(last.first)
        #expect(last.count == 1)
        #expect(trajectory.detectedPoints.count == 30 && trajectory.projectedPoints.count == 30)
        let (a, b, c) = (
            Double(trajectory.equationCoefficients.x), Double(trajectory.equationCoefficients.y),
            Double(trajectory.equationCoefficients.z)
        )
        #expect(abs(a / Self.expected.a - 1) < 0.05, "a \(a) vs \(Self.expected.a)")
        #expect(abs(b / Self.expected.b - 1) < 0.05, "b \(b) vs \(Self.expected.b)")
        #expect(abs(c / Self.expected.c - 1) < 0.05, "c \(c) vs \(Self.expected.c)")
        // The detected points are the last 30 frames' ball centres, within 2 px.
        for (j, point) in trajectory.detectedPoints.enumerated() {
            let truth = Self.centre(30 + j)
            let px = point.x * Double(Self.width)
            let py = (1 - point.y) * Double(Self.height)
            #expect(
                hypot(px - truth.x.rounded(), py - truth.y.rounded()) < 2, "frame \(30 + j): (\(px), \(py)) vs \(truth)"
            )
        }
        for (p, q) in zip(trajectory.detectedPoints, trajectory.projectedPoints) {
            #expect(p.x == q.x && abs(p.y - q.y) * Double(Self.height) < 2)
        }
        #expect(
            abs(trajectory.movingAverageRadius * Double(Self.width) - 8) < 1.5,
            "\(trajectory.movingAverageRadius * 640)")
        #expect(trajectory.timeRange.upperBound == .milliseconds(40 * 59))
        #expect(trajectory.timeRange.lowerBound <= .milliseconds(40 * 30))
        #expect(trajectory.confidence > 0.5)
        // JSON and overlay.
        var report = AnalysisReport(image: "frame", width: Self.width, height: Self.height)
        last.add(to: &report)
        #expect(report.trajectories?.first?.detectedPoints.count == 30)
        #expect(!last.overlayItems.isEmpty)
    }

    @Test func liveAnalyzerKeepsTheSequenceItself() async throws {
        let dir = try CLIProcess.tempDir()
        for i in 0..<45 { try Self.frame(i).write(to: dir.appendingPathComponent(String(format: "f%03d.png", i))) }
        var configuration = LiveAnalyzer.Configuration()
        configuration.dropsFrames = false
        let trajectories = Self.request()
        let flow = TrackOpticalFlowRequest(computationAccuracy: .low)
        let analyzer = LiveAnalyzer(
            source: .images(dir.path), requests: [trajectories, flow], configuration: configuration)
        var found = 0
        var flows = 0
        for try await result in analyzer {
            for outcome in result.outcomes {
                if let t = try outcome.result.get() as? [TrajectoryObservation], !t.isEmpty { found += 1 }
                if let f = try outcome.result.get() as? PixelBufferObservation?, f != nil { flows += 1 }
            }
        }
        #expect(found >= 10, "frames with a trajectory: \(found)")
        #expect(flows == 44, "a flow field for every frame but the first")
    }

    @Test func stillFramesAndBadOptions() async throws {
        let request = Self.request()
        let sequence = SequenceRequestHandler()
        let still = try Self.frame(0)
        for _ in 0..<8 { #expect(try await sequence.perform(request, on: still).isEmpty) }
        let flat = try Fixtures.canvas(width: 64, height: 48, gray: 10).makeImage()
        await #expect(throws: VisionError.self) { _ = try await sequence.perform(request, on: flat) }  // size changed
        #expect(try await sequence.perform(request, on: flat).isEmpty)

        for configure in [
            { (r: DetectTrajectoriesRequest) in r.trajectoryLength = 2 },
            { $0.objectMinimumNormalizedRadius = .nan }, { $0.objectMaximumNormalizedRadius = .infinity },
            { $0.objectMinimumNormalizedRadius = -0.1 },
            {
                $0.objectMinimumNormalizedRadius = 0.5
                $0.objectMaximumNormalizedRadius = 0.1
            },
            { $0.frameAnalysisSpacing = .milliseconds(-1) }, { $0.targetFrameTime = .zero },
        ] {
            let bad = Self.request()
            configure(bad)
            await #expect {
                _ = try await sequence.perform(bad, on: still)
            } throws: { ($0 as? VisionError)?.code == .invalidArgument }
        }
    }
}

extension TrajectoryTests {
    /// frameAnalysisSpacing 80 ms over 40 ms frames analyses every other frame; frames without a time are
    /// `targetFrameTime` apart.
    @Test func spacingSkipsFramesAndUntimedFramesUseTheTargetFrameTime() async throws {
        let spaced = Self.request()
        spaced.trajectoryLength = 10
        spaced.frameAnalysisSpacing = .milliseconds(80)
        let untimed = Self.request()
        untimed.trajectoryLength = 10
        untimed.targetFrameTime = .milliseconds(50)
        let sequence = SequenceRequestHandler()
        var spacedLast: [TrajectoryObservation] = []
        var untimedLast: [TrajectoryObservation] = []
        for i in 0..<40 {
            let frame = try Self.frame(i)
            let r = try await sequence.perform(spaced, on: frame, frameTime: .milliseconds(40 * i))
            if i % 2 == 1 { #expect(r.isEmpty, "frame \(i) is skipped") } else { spacedLast = r }
            untimedLast = try await sequence.perform(untimed, on: frame)
        }
        let s = try #require(spacedLast.first)
        let u = try #require(untimedLast.first)
        // Every other frame: consecutive detected points are two frames (19.2 px) apart.
        let step = (s.detectedPoints[1].x - s.detectedPoints[0].x) * Double(Self.width)
        #expect(abs(step - 19.2) < 1.5, "\(step)")
        #expect(s.timeRange.upperBound == .milliseconds(40 * 38))
        #expect(u.timeRange.upperBound == .milliseconds(50 * 39))
        #expect(spaced.frameCount == 40)
    }
}
