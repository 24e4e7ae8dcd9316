internal import CNative
import Foundation

extension PixelBufferObservation {
    /// This one-channel map as a `width` × `height` RGBA PNG for a browser or another compositor to draw:
    /// each value (0...1, clamped; NaN counts as 0) becomes OpenCV's JET colour (blue → red) with alpha
    /// = value × 255. Drawn stretched over a region with opacity `a`, it gives the same mix as
    /// `ImageCanvas.blend(heatMap:over:opacity:)` with `a`. A 68 × 68 saliency map is a few KB.
    /// Throws `invalidArgument` for a map that is not one channel.
    public func heatMapPNGData() throws(VisionError) -> Data {
        guard channels == 1 else {
            throw VisionError(.invalidArgument, "a heat map has one channel, not \(channels)")
        }
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = withUnsafeBufferPointer { values in
            ov_heat_map_png(values.baseAddress, Int32(width), Int32(height), &bytes, &length)
        }
        try NativeError.check(status, "heat map PNG")
        defer { ov_free(bytes) }
        return Data(bytes: bytes!, count: length)
    }
}
