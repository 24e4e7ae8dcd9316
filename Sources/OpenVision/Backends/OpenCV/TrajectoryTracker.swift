import Foundation

/// `DetectTrajectoriesRequest`'s state and linking: moving blobs from `OpenCVMotionDetector` are linked
/// frame to frame into tracks, and a track of at least `trajectoryLength` points that fits a parabola
/// y = a·x² + b·x + c is reported.
///
/// Linking: each live track predicts the object's position in the new frame (constant acceleration
/// through its last three points, constant velocity through two, standing still for one) and takes the
/// nearest unclaimed blob within its gate (6 radii for a new track, else 2 radii plus half the last
/// step); blobs left over start tracks. A track missing two analysed frames in a row ends.
/// Reporting: least squares over the last `trajectoryLength` points (normalised coordinates, centred for
/// conditioning); the track must move sideways (x spans at least two radii, no step back by more than a
/// radius) and its points must lie within half a radius + 1 px (RMS) of the parabola.
struct TrajectoryTracker {
    struct Options: Equatable {
        var trajectoryLength: Int
        /// Radii in pixels.
        var radii: ClosedRange<Double>
    }

    private struct Sample {
        var x: Double, y: Double  // pixels, top-left origin
        var radius: Double
        var frame: Int
        var time: Duration
    }

    private struct Track {
        let id = UUID()
        var samples: [Sample]
        var start: Duration
        var lastFrame: Int { samples.last!.frame }
    }

    private var detector: OpenCVMotionDetector?
    private var size: (width: Int, height: Int)?
    private var tracks: [Track] = []
    private var frame = 0

    /// Frames analysed since the start or the last size change.
    var analysedFrames: Int { frame }

    /// Adds one frame (the request's region) at `time` and returns the trajectories it continues.
    /// A frame of another size than the previous ones starts over (its blobs seed the new background)
    /// and throws `invalidArgument`.
    mutating func add(_ image: VisionImage, time: Duration, options: Options) throws(VisionError)
        -> [TrajectoryObservation]
    {
        if let size, size != (image.width, image.height) {
            let old = size
            self = TrajectoryTracker()
            _ = try add(image, time: time, options: options)
            throw VisionError(
                .invalidArgument,
                "trajectory detection: the frame size changed from \(old.width)×\(old.height) to "
                    + "\(image.width)×\(image.height); a sequence keeps one size (the request restarts at the new size)"
            )
        }
        size = (image.width, image.height)
        if detector == nil { detector = try OpenCVMotionDetector() }
        let blobs = try detector!.blobs(in: image, radii: options.radii)
        let k = frame
        frame += 1
        link(blobs, frame: k, time: time)
        let limit = max(4 * options.trajectoryLength, 16)
        for i in tracks.indices where tracks[i].samples.count > limit {
            tracks[i].samples.removeFirst(tracks[i].samples.count - limit)
        }
        return tracks.filter { $0.lastFrame == k && $0.samples.count >= options.trajectoryLength }
            .compactMap {
                observation(for: $0, length: options.trajectoryLength, width: image.width, height: image.height)
            }
    }

    private mutating func link(_ blobs: [OpenCVMotionDetector.Blob], frame k: Int, time: Duration) {
        tracks.removeAll { k - $0.lastFrame > 2 }
        var candidates: [(distance: Double, track: Int, blob: Int)] = []
        for (t, track) in tracks.enumerated() {
            let (px, py) = Self.predict(track.samples, at: k)
            let last = track.samples.last!
            let step =
                track.samples.count >= 2
                ? hypot(
                    last.x - track.samples[track.samples.count - 2].x, last.y - track.samples[track.samples.count - 2].y
                ) : 0
            let gate = track.samples.count == 1 ? 6 * last.radius : 2 * last.radius + 0.5 * step
            for (b, blob) in blobs.enumerated() {
                let d = hypot(blob.x - px, blob.y - py)
                if d <= gate { candidates.append((d, t, b)) }
            }
        }
        candidates.sort { $0.distance < $1.distance }
        var trackTaken = Set<Int>()
        var blobTaken = Set<Int>()
        for c in candidates where !trackTaken.contains(c.track) && !blobTaken.contains(c.blob) {
            let blob = blobs[c.blob]
            tracks[c.track].samples.append(Sample(x: blob.x, y: blob.y, radius: blob.radius, frame: k, time: time))
            trackTaken.insert(c.track)
            blobTaken.insert(c.blob)
        }
        for (b, blob) in blobs.enumerated() where !blobTaken.contains(b) {
            tracks.append(
                Track(samples: [Sample(x: blob.x, y: blob.y, radius: blob.radius, frame: k, time: time)], start: time))
        }
    }

    /// Where the track's object should be in frame `k`: the polynomial through its last (up to) three samples.
    private static func predict(_ samples: [Sample], at k: Int) -> (Double, Double) {
        let pts = samples.suffix(3)
        let f = pts.map { Double($0.frame) }
        let t = Double(k)
        var x = 0.0
        var y = 0.0
        for (i, p) in pts.enumerated() {
            var w = 1.0
            for j in f.indices where j != i { w *= (t - f[j]) / (f[i] - f[j]) }
            x += w * p.x
            y += w * p.y
        }
        return (x, y)
    }

    private func observation(for track: Track, length: Int, width: Int, height: Int) -> TrajectoryObservation? {
        let window = Array(track.samples.suffix(length))
        let w = Double(width)
        let h = Double(height)
        let xs = window.map { $0.x / w }
        let ys = window.map { 1 - $0.y / h }
        let meanRadius = window.map(\.radius).reduce(0, +) / Double(window.count)
        // Sideways motion, without turning back.
        let span = abs(window.last!.x - window.first!.x)
        guard span >= 2 * meanRadius else { return nil }
        let direction: Double = window.last!.x > window.first!.x ? 1 : -1
        for (a, b) in zip(window, window.dropFirst()) where (b.x - a.x) * direction < -meanRadius { return nil }
        guard let (a, b, c) = Self.fitParabola(xs, ys) else { return nil }
        let fitted = xs.map { a * $0 * $0 + b * $0 + c }
        var squared = 0.0
        for (y, f) in zip(ys, fitted) { squared += ((y - f) * h) * ((y - f) * h) }
        let rms = (squared / Double(window.count)).squareRoot()
        guard rms <= 0.5 * meanRadius + 1 else { return nil }
        return TrajectoryObservation(
            detectedPoints: zip(xs, ys).map { NormalizedPoint(x: $0, y: $1) },
            projectedPoints: zip(xs, fitted).map { NormalizedPoint(x: $0, y: $1) },
            equationCoefficients: SIMD3(Float(a), Float(b), Float(c)),
            movingAverageRadius: meanRadius / w,
            timeRange: track.start...window.last!.time,
            confidence: Float(max(0, min(1, 1 - rms / max(meanRadius, 1)))),
            uuid: track.id)
    }

    /// Least squares y = a·x² + b·x + c, solved centred on the mean x; nil when degenerate.
    static func fitParabola(_ xs: [Double], _ ys: [Double]) -> (Double, Double, Double)? {
        let n = Double(xs.count)
        guard xs.count >= 3 else { return nil }
        let m = xs.reduce(0, +) / n
        var s = [Double](repeating: 0, count: 5)
        var t = [Double](repeating: 0, count: 3)
        for (x, y) in zip(xs, ys) {
            let u = x - m
            var p = 1.0
            for i in 0..<5 {
                s[i] += p
                if i < 3 { t[i] += p * y }
                p *= u
            }
        }
        // Normal equations for (γ, β, α) of y = α·u² + β·u + γ.
        var A = [[s[0], s[1], s[2], t[0]], [s[1], s[2], s[3], t[1]], [s[2], s[3], s[4], t[2]]]
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(A[$0][col]) < abs(A[$1][col]) }!
            guard abs(A[pivot][col]) > 1e-18 else { return nil }
            A.swapAt(col, pivot)
            for r in 0..<3 where r != col {
                let f = A[r][col] / A[col][col]
                for c in col..<4 { A[r][c] -= f * A[col][c] }
            }
        }
        let gamma = A[0][3] / A[0][0]
        let beta = A[1][3] / A[1][1]
        let alpha = A[2][3] / A[2][2]
        let a = alpha
        let b = beta - 2 * alpha * m
        let c = alpha * m * m - beta * m + gamma
        guard a.isFinite, b.isFinite, c.isFinite else { return nil }
        return (a, b, c)
    }
}
