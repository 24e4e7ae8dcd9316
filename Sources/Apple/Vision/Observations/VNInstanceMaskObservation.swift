import CoreVideo
import Foundation
import OpenVision

/// Separate instances (people, or salient objects), as Vision's `VNInstanceMaskObservation`: `instanceMask` labels each pixel 0
/// (background) or 1…n, and masks or masked images are made for any set of instances (OpenVision's
/// `InstanceMaskObservation`). `instanceMask` is OneComponent8 and `generateMask` OneComponent32Float, as Vision's;
/// the scaled mask and the masked image are 32BGRA (8-bit: a mask's 1 is 255; no alpha).
open class VNInstanceMaskObservation: VNObservation {
    /// The OpenVision observation.
    public let native: InstanceMaskObservation

    init(_ o: InstanceMaskObservation) throws(VisionError) {
        native = o
        instanceMask = try CVPixelBuffer.labels(o.instanceMask)
        super.init(uuid: o.uuid, confidence: o.confidence)
    }

    /// The labels as a OneComponent8 buffer: value = instance number (0 background). Made with the result, as Vision's.
    public let instanceMask: CVPixelBuffer

    /// The instances present (1…n).
    public var allInstances: IndexSet { native.allInstances }

    /// A mask of `instances` at the instance mask's size, OneComponent32Float (1 where a pixel is theirs, 0 elsewhere).
    public func generateMask(forInstances instances: IndexSet) throws -> CVPixelBuffer {
        try Self.wrap { () throws(VisionError) in try CVPixelBuffer.make(native.generateMask(forInstances: instances)) }
    }

    /// A soft mask of `instances` at the size of the handler's image (the model's probability, 0...255).
    public func generateScaledMaskForImage(forInstances instances: IndexSet, from requestHandler: VNImageRequestHandler)
        throws -> CVPixelBuffer
    {
        try Self.wrap { () throws(VisionError) in
            let image = try requestHandler.handler.image()
            let mask = try native.generateScaledMaskForImage(forInstances: instances)
            let bytes = try mask.makeImage()
            guard bytes.width != image.width || bytes.height != image.height else {
                return CVPixelBuffer(visionImage: bytes)
            }
            return CVPixelBuffer(visionImage: try bytes.resized(width: image.width, height: image.height))
        }
    }

    /// The handler's image with everything but `instances` black, cropped to their bounding box when
    /// `croppedToInstancesExtent` (Vision's background is transparent; these images have no alpha).
    public func generateMaskedImage(
        ofInstances instances: IndexSet, from requestHandler: VNImageRequestHandler,
        croppedToInstancesExtent: Bool
    ) throws -> CVPixelBuffer {
        try Self.wrap { () throws(VisionError) in
            CVPixelBuffer(
                visionImage: try native.generateMaskedImage(
                    ofInstances: instances,
                    from: try requestHandler.handler.image(),
                    croppedToInstancesExtent: croppedToInstancesExtent))
        }
    }

    /// Runs `body`, its `VisionError` as a `VNError`.
    static func wrap<T>(_ body: () throws(VisionError) -> T) throws -> T {
        do { return try body() } catch { throw VNError(error) }
    }
}
