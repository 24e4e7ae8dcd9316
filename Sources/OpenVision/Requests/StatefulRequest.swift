import Synchronization

/// A request that analyses a sequence of frames and keeps what it needs from earlier frames itself,
/// as Vision's `StatefulRequest`: perform the same instance on each frame in order (through a
/// `SequenceRequestHandler`, a `LiveAnalyzer`, or any handler), one frame at a time. Stateful
/// requests are classes for that reason; one instance follows one sequence.
public protocol StatefulRequest: AnyObject, VisionRequest {
    /// Frames analysed so far since creation or the last `reset()`.
    var frameCount: Int { get }
    /// Forgets the earlier frames: the next frame starts a new sequence.
    func reset()
}

/// The previous frame of a sequence, kept by a stateful request: each new frame replaces it.
final class PreviousFrame: Sendable {
    private struct State {
        var image: VisionImage?
        var frames = 0
    }

    private let state = Mutex(State())

    var frameCount: Int { state.withLock { $0.frames } }

    func reset() { state.withLock { $0 = State() } }

    /// Stores `image` as the latest frame and returns the one before it (nil for the first frame).
    /// Throws `invalidArgument` when `image`'s size differs from the previous frame's; `image` is then
    /// kept, so the sequence continues at the new size from the next frame.
    func exchange(_ image: VisionImage, what: String) throws(VisionError) -> VisionImage? {
        let previous = state.withLock { state -> VisionImage? in
            defer {
                state.image = image
                state.frames += 1
            }
            return state.image
        }
        if let previous, previous.width != image.width || previous.height != image.height {
            throw VisionError(
                .invalidArgument,
                "\(what): the frame size changed from \(previous.width)×\(previous.height) to "
                    + "\(image.width)×\(image.height); a sequence keeps one size (reset() starts a new one)")
        }
        return previous
    }
}

/// The same-size check of the pair requests (registration, optical flow).
func requireSameSize(_ image: VisionImage, _ target: VisionImage, what: String) throws(VisionError) {
    guard image.width == target.width, image.height == target.height else {
        throw VisionError(
            .invalidArgument,
            "\(what): the target image is \(target.width)×\(target.height) but the handler's image is "
                + "\(image.width)×\(image.height); both must have the same size (resize one first)")
    }
}

extension VisionRequest {
    /// `image` cropped to this request's region of interest (the pair requests' target image).
    func targetRegion(of image: VisionImage) throws(VisionError) -> VisionImage {
        guard regionOfInterest != .fullImage else { return image }
        guard regionOfInterest.isWithinUnitSquare else {
            throw VisionError(
                .invalidArgument, "regionOfInterest \(regionOfInterest) must have positive size and lie within 0...1")
        }
        return try image.cropped(to: regionOfInterest)
    }
}

/// The settable parts of a stateful request (a Sendable class), behind a lock.
struct StatefulOptions<Result: Sendable>: Sendable {
    var regionOfInterest: NormalizedRect = .fullImage
    var completionHandler: RequestCompletionHandler<Result>?
}
