internal import CNative
import Foundation

extension VisionImage {
    /// Writes the pixels into `destination`, `height` rows of `bytesPerRow` bytes, in `format` (any but `.nv12`);
    /// alpha, where the format has one, is 255, and a luma-only image gives its gray value in each colour channel.
    /// Throws `invalidArgument` when the rows do not fit (`bytesPerRow` below a row, or `destination` too small).
    public func copyPixels(
        into destination: UnsafeMutableRawBufferPointer, format: PixelFormat,
        bytesPerRow: Int
    ) throws(VisionError) {
        guard format != .nv12 else {
            throw VisionError(.invalidArgument, "pixels cannot be written as NV12")
        }
        guard bytesPerRow >= width * format.bytesPerPixel else {
            throw VisionError(
                .invalidArgument, "bytesPerRow \(bytesPerRow) is smaller than a row of \(width) \(format) pixels")
        }
        let needed = (height - 1) * bytesPerRow + width * format.bytesPerPixel
        guard let base = destination.baseAddress, destination.count >= needed else {
            throw VisionError(
                .invalidArgument,
                "the destination holds \(destination.count) bytes; \(width)×\(height) "
                    + "\(format) pixels with \(bytesPerRow) bytes per row need \(needed)")
        }
        try NativeError.check(ov_image_to_pixels(handle, format.native, base, bytesPerRow), "copy pixels")
    }

    /// The pixels in `format` (any but `.nv12`), tightly packed rows (see `copyPixels(into:format:bytesPerRow:)`).
    public func pixels(in format: PixelFormat) throws(VisionError) -> PixelBuffer {
        let bytesPerRow = width * format.bytesPerPixel
        var data = Data(count: bytesPerRow * height)
        let failure = data.withUnsafeMutableBytes { buffer -> VisionError? in
            do throws(VisionError) {
                try copyPixels(into: buffer, format: format, bytesPerRow: bytesPerRow)
            } catch {
                return error
            }
            return nil
        }
        if let failure { throw failure }
        return PixelBuffer(data: data, width: width, height: height, format: format, bytesPerRow: bytesPerRow)
    }
}

extension PixelFormat {
    /// The C layer's code for this format.
    var native: ov_pixel_format {
        switch self {
        case .rgb8: OV_PIXEL_RGB8
        case .bgr8: OV_PIXEL_BGR8
        case .rgba8: OV_PIXEL_RGBA8
        case .bgra8: OV_PIXEL_BGRA8
        case .argb8: OV_PIXEL_ARGB8
        case .gray8: OV_PIXEL_GRAY8
        case .nv12: OV_PIXEL_NV12
        }
    }
}
