// vImageConvert_PlanarFToBGRX8888: three float planes and a constant alpha into one interleaved 8-bit image.

/// Interleaves three 32-bit float planes into `dest` as 8-bit B, G, R and the constant `alpha`, each value mapped
/// as vImage's PlanarF-to-8-bit conversions do: (v − minFloat[i]) · 255 / (maxFloat[i] − minFloat[i]), clamped to
/// 0…255 and rounded to nearest; index 0 of `maxFloat` / `minFloat` is the blue plane's, 1 green's, 2 red's.
/// The planes and `dest` must have the same size (`kvImageBufferSizeMismatch`); a NaN becomes 0.
/// Flags: `kvImageDoNotTile`.
public func vImageConvert_PlanarFToBGRX8888(
    _ blue: UnsafePointer<vImage_Buffer>, _ green: UnsafePointer<vImage_Buffer>, _ red: UnsafePointer<vImage_Buffer>,
    _ alpha: Pixel_8, _ dest: UnsafePointer<vImage_Buffer>, _ maxFloat: UnsafePointer<Float>,
    _ minFloat: UnsafePointer<Float>, _ flags: vImage_Flags
) -> vImage_Error {
    guard flagsAccepted(flags, kvImageDoNotTile) else { return kvImageUnknownFlagsBit }
    let planes = [blue.pointee, green.pointee, red.pointee]
    let d = dest.pointee
    for plane in planes {
        if let error = plane.problem(bytesPerPixel: 4) { return error }
        guard plane.width == d.width && plane.height == d.height else { return kvImageBufferSizeMismatch }
    }
    if let error = d.problem(bytesPerPixel: 4) { return error }
    let width = Int(d.width)
    // Per channel (B, G, R, X): (v − min) · scale, then clamp and round; X is 0 · 0 + alpha.
    var low = SIMD4<Float>(repeating: 0)
    var scale = SIMD4<Float>(repeating: 0)
    for i in 0..<3 {
        low[i] = minFloat[i]
        scale[i] = 255 / (maxFloat[i] - minFloat[i])
    }
    let alphaChannel = SIMD4<Float>(0, 0, 0, Float(alpha))
    let top = SIMD4<Float>(repeating: 255)
    for y in 0..<Int(d.height) {
        let b = UnsafeRawPointer(planes[0].data!) + y * planes[0].rowBytes
        let g = UnsafeRawPointer(planes[1].data!) + y * planes[1].rowBytes
        let r = UnsafeRawPointer(planes[2].data!) + y * planes[2].rowBytes
        let out = d.data! + y * d.rowBytes
        for x in 0..<width {
            let v = SIMD4<Float>(
                b.loadUnaligned(fromByteOffset: x * 4, as: Float.self),
                g.loadUnaligned(fromByteOffset: x * 4, as: Float.self),
                r.loadUnaligned(fromByteOffset: x * 4, as: Float.self), 0)
            var mapped = (v - low) * scale + alphaChannel
            // NaN (a NaN input, or a zero range) becomes 0.
            mapped.replace(with: Float(0), where: mapped .!= mapped)
            let pixel = mapped.clamped(lowerBound: .zero, upperBound: top).rounded(.toNearestOrAwayFromZero)
            out.storeBytes(of: SIMD4<UInt8>(pixel), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
        }
    }
    return kvImageNoError
}
