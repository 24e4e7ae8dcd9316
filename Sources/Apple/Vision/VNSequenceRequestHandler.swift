import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import OpenVision

/// Vision's handler for the frames of a sequence: perform the same request objects on each frame, in
/// order; tracking requests (`VNTrack…`) carry their state from frame to frame. As in Vision, the trackers are the
/// handler's: a new `VNTrackObjectRequest` / `VNTrackRectangleRequest` whose input is an observation a tracker
/// returned on an earlier frame continues that tracker (Apple's object-tracking sample makes a new request each
/// frame); a user-defined observation starts a new one.
open class VNSequenceRequestHandler {
    /// The trackers of earlier frames, by the uuid of the observation they follow (their results keep it);
    /// released with the handler, or after a frame performed with `isLastFrame`.
    private var trackers: [UUID: AnyObject] = [:]
    private let lock = NSLock()

    /// A handler for a new sequence.
    public init() {}

    /// Performs `requests` with `perform`, tracking requests continuing the handler's trackers.
    private func performContinuingTrackers(_ requests: [VNRequest], _ perform: () throws -> Void) throws {
        let tracking = requests.compactMap { $0 as? VNTrackingRequest }
        lock.withLock {
            for request in tracking where !request.hasPerformed {
                if let uuid = request.trackedUUID, let tracker = trackers[uuid] { request.continueTracker(tracker) }
            }
        }
        defer {
            lock.withLock {
                for request in tracking where request.hasPerformed {
                    if let uuid = request.trackedUUID { trackers[uuid] = request.isLastFrame ? nil : request.tracker }
                }
            }
        }
        try perform()
    }

    /// Performs `requests` on a `CGImage` frame; throws the first request's `VNError`, as Vision.
    public func perform(_ requests: [VNRequest], on image: CGImage, orientation: CGImagePropertyOrientation = .up)
        throws
    {
        try performContinuingTrackers(requests) {
            try VNImageRequestHandler(cgImage: image, orientation: orientation).perform(requests)
        }
    }

    /// Performs `requests` on a pixel-buffer frame; throws the first request's `VNError`, as Vision.
    public func perform(
        _ requests: [VNRequest], on pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation = .up
    ) throws {
        try performContinuingTrackers(requests) {
            try VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: orientation).perform(requests)
        }
    }

    /// Performs `requests` on an image file; throws the first request's `VNError`, as Vision.
    public func perform(
        _ requests: [VNRequest], onImageURL imageURL: URL, orientation: CGImagePropertyOrientation = .up
    ) throws {
        try performContinuingTrackers(requests) {
            try VNImageRequestHandler(url: imageURL, orientation: orientation).perform(requests)
        }
    }
}

extension VNSequenceRequestHandler {
    /// The next captured frame (Core Media's sample buffer; `CMSampleBuffer(frame:)` makes one of a `Frame` of
    /// `LiveAnalyzer` or `FrameSource`).
    public func perform(
        _ requests: [VNRequest], on sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation = .up
    ) throws {
        try performContinuingTrackers(requests) {
            try VNImageRequestHandler(cmSampleBuffer: sampleBuffer, orientation: orientation).perform(requests)
        }
    }
}
