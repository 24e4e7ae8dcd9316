import CoreGraphics
import CoreVideo
import OpenVision

// VideoToolbox's one call that code around Vision and Core ML makes: a `CVPixelBuffer` as a `CGImage`
// (CoreMLHelpers' `CGImage.create(pixelBuffer:)`, camera samples that draw a frame). Sessions, encoders and decoders
// are not here (docs/porting.md).

/// `kVTParameterErr`: a parameter is invalid.
public let kVTParameterErr: OSStatus = -12902
/// `kVTPixelTransferNotSupportedErr`: the pixel buffer's format cannot be converted.
public let kVTPixelTransferNotSupportedErr: OSStatus = -12905

/// The pixel buffer's image as a `CGImage` in `imageOut`: 0 (`noErr`), or `kVTPixelTransferNotSupportedErr` for a
/// pixel format OpenVision does not read (32BGRA, 32RGBA, 32ARGB, 24RGB, 24BGR, OneComponent8 and 420v/420f are
/// read) with `imageOut` set to nil. `options` is ignored, as Apple documents it must be nil. No copy while the buffer
/// has not been locked for writing since it was made from an image.
@discardableResult
public func VTCreateCGImageFromCVPixelBuffer(
    _ pixelBuffer: CVPixelBuffer, options: CFDictionary?,
    imageOut: UnsafeMutablePointer<CGImage?>
) -> OSStatus {
    do {
        imageOut.pointee = CGImage(visionImage: try pixelBuffer.visionImage())
        return 0
    } catch {
        imageOut.pointee = nil
        return error.code == .unsupported ? kVTPixelTransferNotSupportedErr : kVTParameterErr
    }
}
