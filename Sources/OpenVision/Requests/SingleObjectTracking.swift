import Synchronization

/// What `TrackObjectRequest` and `TrackRectangleRequest` share: the settings callers change between frames
/// and the native tracker, each behind its lock.
final class SingleObjectTracking<Observation: VisionObservation & BoundingBoxProviding>: Sendable {
    private struct Settings: Sendable {
        var options = StatefulOptions<[Observation]>()
        var level: TrackingLevel = .accurate
        var input: Observation
        /// The caller set `input`: the tracker starts again from it on the next frame.
        var restart = true
        var isLastFrame = false
    }

    private struct State: @unchecked Sendable {
        // @unchecked: the native tracker is used only under this lock.
        var tracker: OpenCVObjectTracker?
        var frames = 0
    }

    private let settings: Mutex<Settings>
    private let state = Mutex(State())
    private let what: String

    init(input: Observation, what: String) {
        settings = Mutex(Settings(input: input))
        self.what = what
    }

    var regionOfInterest: NormalizedRect {
        get { settings.withLock { $0.options.regionOfInterest } }
        set { settings.withLock { $0.options.regionOfInterest = newValue } }
    }

    var completionHandler: RequestCompletionHandler<[Observation]>? {
        get { settings.withLock { $0.options.completionHandler } }
        set { settings.withLock { $0.options.completionHandler = newValue } }
    }

    var level: TrackingLevel {
        get { settings.withLock { $0.level } }
        set { settings.withLock { $0.level = newValue } }
    }

    var input: Observation {
        get { settings.withLock { $0.input } }
        set {
            settings.withLock {
                $0.input = newValue
                $0.restart = true
            }
        }
    }

    var isLastFrame: Bool {
        get { settings.withLock { $0.isLastFrame } }
        set {
            settings.withLock { $0.isLastFrame = newValue }
            if newValue { state.withLock { $0.tracker = nil } }
        }
    }

    var frameCount: Int { state.withLock { $0.frames } }

    func reset() {
        state.withLock { $0 = State() }
        settings.withLock { $0.restart = true }
    }

    /// Tracks into `image`: starts a tracker on it from the input observation (`start` gives the pixel box and
    /// the corners to follow) when there is none or the caller set a new input, else updates it; `result`
    /// makes the observation of a step, which becomes the input for the next frame.
    func track(
        _ image: VisionImage,
        start: (Observation, VisionImage) throws(VisionError) -> (box: PixelBox, quad: [(x: Double, y: Double)]?),
        result: (Observation, OpenCVObjectTracker.Step?, VisionImage) -> Observation
    ) throws(VisionError) -> [Observation] {
        let (input, level, restart) = settings.withLock { s in
            defer { s.restart = false }
            return (s.input, s.level, s.restart)
        }
        let observation = try state.withLock { (state: inout State) throws(VisionError) -> Observation in
            if let tracker = state.tracker, !restart {
                guard tracker.width == image.width, tracker.height == image.height else {
                    throw VisionError(
                        .invalidArgument,
                        "\(what): the frame size changed from \(tracker.width)×\(tracker.height) to "
                            + "\(image.width)×\(image.height); a tracked sequence keeps one size")
                }
                state.frames += 1
                return result(input, try tracker.update(image), image)
            }
            let (box, quad) = try start(input, image)
            state.tracker = try OpenCVObjectTracker(
                level: level, frame: image, box: (box.x, box.y, box.width, box.height), quad: quad)
            state.frames += 1
            return result(input, nil, image)
        }
        let last = settings.withLock { s in
            if !s.restart { s.input = observation }
            return s.isLastFrame
        }
        if last { state.withLock { $0.tracker = nil } }
        return [observation]
    }
}

/// A box in pixels, top-left origin.
struct PixelBox {
    var x: Double, y: Double, width: Double, height: Double

    /// `rect` (normalised, lower-left) in an image's pixels, clipped to the image. Throws `invalidArgument` for
    /// non-finite values or a box that does not overlap the image by at least 2×2 pixels.
    init(_ rect: NormalizedRect, in image: VisionImage, what: String) throws(VisionError) {
        guard rect.x.isFinite, rect.y.isFinite, rect.width.isFinite, rect.height.isFinite else {
            throw VisionError(.invalidArgument, "\(what): the box \(rect) is not finite")
        }
        let w = Double(image.width)
        let h = Double(image.height)
        let x0 = max(0, rect.minX) * w
        let x1 = min(1, rect.maxX) * w
        let y0 = (1 - min(1, rect.maxY)) * h
        let y1 = (1 - max(0, rect.minY)) * h
        guard x1 - x0 >= 2, y1 - y0 >= 2 else {
            throw VisionError(
                .invalidArgument,
                "\(what): the box \(rect) is outside the image or smaller than 2×2 pixels "
                    + "(\(image.width)×\(image.height))")
        }
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
