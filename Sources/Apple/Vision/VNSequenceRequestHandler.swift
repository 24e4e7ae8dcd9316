import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import OpenVision

/// Vision's handler for the frames of a sequence: perform the same request objects on each frame, in
/// order; tracking requests (`VNTrack…`) carry their state from frame to frame.
open class VNSequenceRequestHandler {
    /// A handler for a new sequence.
    public init() {}

    /// Performs `requests` on a `CGImage` frame; throws the first request's `VNError`, as Vision.
    public func perform(_ requests: [VNRequest], on image: CGImage, orientation: CGImagePropertyOrientation = .up)
        throws
    {
        try VNImageRequestHandler(cgImage: image, orientation: orientation).perform(requests)
    }

    /// Performs `requests` on a pixel-buffer frame; throws the first request's `VNError`, as Vision.
    public func perform(
        _ requests: [VNRequest], on pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation = .up
    ) throws {
        try VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: orientation).perform(requests)
    }

    /// Performs `requests` on an image file; throws the first request's `VNError`, as Vision.
    public func perform(
        _ requests: [VNRequest], onImageURL imageURL: URL, orientation: CGImagePropertyOrientation = .up
    ) throws {
        try VNImageRequestHandler(url: imageURL, orientation: orientation).perform(requests)
    }
}

extension VNSequenceRequestHandler {
    /// The next captured frame (Core Media's sample buffer; `CMSampleBuffer(frame:)` makes one of a `Frame` of
    /// `LiveAnalyzer` or `FrameSource`).
    public func perform(
        _ requests: [VNRequest], on sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation = .up
    ) throws {
        try VNImageRequestHandler(cmSampleBuffer: sampleBuffer, orientation: orientation).perform(requests)
    }
}
