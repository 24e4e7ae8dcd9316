import CoreVideo
import OpenVision

extension CVPixelBuffer {
    /// A map's exact values as Vision gives them: one channel as OneComponent32Float, two (an optical-flow field) as
    /// TwoComponent32Float; other channel counts as the 8-bit image of the first channel (32BGRA).
    static func make(_ map: PixelBufferObservation) throws(VisionError) -> CVPixelBuffer {
        guard map.channels == 1 || map.channels == 2 else { return CVPixelBuffer(visionImage: try map.makeImage()) }
        let format = map.channels == 1 ? kCVPixelFormatType_OneComponent32Float : kCVPixelFormatType_TwoComponent32Float
        return try filled(map, format: format, bytesPerElement: 4) { values, row, count in
            row.copyMemory(from: values, byteCount: count * 4)
        }
    }

    /// A label map's values as bytes (OneComponent8): instance numbers 0…255.
    static func labels(_ map: PixelBufferObservation) throws(VisionError) -> CVPixelBuffer {
        try filled(map, format: kCVPixelFormatType_OneComponent8, bytesPerElement: 1) { values, row, count in
            let bytes = row.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { bytes[i] = UInt8(max(0, min(255, values[i].rounded()))) }
        }
    }

    /// A `map.width` × `map.height` buffer of `format` whose rows `write(values, row, count)` fills from the map's
    /// rows of `count` = width × channels values.
    private static func filled(
        _ map: PixelBufferObservation, format: OSType, bytesPerElement: Int,
        write: (UnsafePointer<Float>, UnsafeMutableRawPointer, Int) -> Void
    )
        throws(VisionError) -> CVPixelBuffer
    {
        var made: CVPixelBuffer?
        let status = CVPixelBufferCreate(kCFAllocatorDefault, map.width, map.height, format, nil, &made)
        guard status == kCVReturnSuccess, let buffer = made else {
            throw VisionError(.invalidArgument, "cannot make a \(map.width)×\(map.height) pixel buffer (\(status))")
        }
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, []) }
        let base = CVPixelBufferGetBaseAddress(buffer)!
        let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
        let rowCount = map.width * map.channels
        map.withUnsafeBufferPointer { values in
            for y in 0..<map.height { write(values.baseAddress! + y * rowCount, base + y * bytesPerRow, rowCount) }
        }
        return buffer
    }
}
