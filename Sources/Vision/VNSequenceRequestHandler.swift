import Foundation
import OpenVision

/// Vision's handler for the frames of a sequence: perform the same request objects on each frame, in
/// order; tracking requests (`VNTrack…`) carry their state from frame to frame.
open class VNSequenceRequestHandler {
    public init() {}

    public func perform(_ requests: [VNRequest], on image: CGImage, orientation: CGImagePropertyOrientation = .up) throws {
        try VNImageRequestHandler(cgImage: image, orientation: orientation).perform(requests)
    }

    public func perform(_ requests: [VNRequest], on pixelBuffer: CVPixelBuffer) throws {
        try perform(requests, on: pixelBuffer, orientation: .up)
    }

    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL, orientation: CGImagePropertyOrientation = .up) throws {
        try VNImageRequestHandler(url: imageURL, orientation: orientation).perform(requests)
    }
}

extension VNSequenceRequestHandler {
    /// The next captured frame (Core Media's sample buffer; a `Frame` of `LiveAnalyzer` or `FrameSource`).
    public func perform(_ requests: [VNRequest], on sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation = .up) throws {
        try perform(requests, on: sampleBuffer.image, orientation: orientation)
    }
}
