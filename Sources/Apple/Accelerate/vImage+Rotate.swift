// vImageRotate90_ARGB8888: a permutation of whole pixels.

/// `rotationConstant` for no rotation.
public let kRotate0DegreesCounterClockwise = 0
/// `rotationConstant` for a quarter turn counter-clockwise.
public let kRotate90DegreesCounterClockwise = 1
/// `rotationConstant` for a half turn.
public let kRotate180DegreesCounterClockwise = 2
/// `rotationConstant` for three quarter turns counter-clockwise (one clockwise).
public let kRotate270DegreesCounterClockwise = 3
/// `rotationConstant` for no rotation.
public let kRotate0DegreesClockwise = 0
/// `rotationConstant` for a quarter turn clockwise.
public let kRotate90DegreesClockwise = 3
/// `rotationConstant` for a half turn.
public let kRotate180DegreesClockwise = 2
/// `rotationConstant` for three quarter turns clockwise (one counter-clockwise).
public let kRotate270DegreesClockwise = 1

/// Rotates a four-channel, 8-bit image by `rotationConstant` quarter turns counter-clockwise (0–3; the
/// `kRotate…` constants) about its centre into `dest`. A destination of the rotated size holds exactly the rotated
/// image; a larger or smaller one is centred on it (offsets rounded down), with the pixels the image does not cover
/// set to `backColor` (four bytes, read only when such pixels exist). `kvImageInvalidParameter` for another
/// constant; flags: `kvImageDoNotTile`, `kvImageGetTempBufferSize` (answers 0).
public func vImageRotate90_ARGB8888(
    _ src: UnsafePointer<vImage_Buffer>, _ dest: UnsafePointer<vImage_Buffer>, _ rotationConstant: UInt8,
    _ backColor: UnsafePointer<UInt8>, _ flags: vImage_Flags
) -> vImage_Error {
    guard flagsAccepted(flags, kvImageDoNotTile, kvImageGetTempBufferSize) else { return kvImageUnknownFlagsBit }
    guard rotationConstant < 4 else { return kvImageInvalidParameter }
    if flags & vImage_Flags(kvImageGetTempBufferSize) != 0 { return 0 }
    let s = src.pointee
    let d = dest.pointee
    if let error = s.problem(bytesPerPixel: 4) ?? d.problem(bytesPerPixel: 4) { return error }
    let sw = Int(s.width)
    let sh = Int(s.height)
    let dw = Int(d.width)
    let dh = Int(d.height)
    let turns = Int(rotationConstant)
    // The rotated image's size, and where its top-left pixel lands in the destination.
    let (rw, rh) = turns % 2 == 0 ? (sw, sh) : (sh, sw)
    let ox = (dw - rw).floorHalf
    let oy = (dh - rh).floorHalf
    let fill = ox > 0 || oy > 0 || ox + rw < dw || oy + rh < dh
    let background: UInt32 = fill ? UnsafeRawPointer(backColor).loadUnaligned(as: UInt32.self) : 0
    let source = UnsafeRawPointer(s.data!)
    let target = d.data!
    for y in 0..<dh {
        let row = target + y * d.rowBytes
        let ry = y - oy
        for x in 0..<dw {
            let rx = x - ox
            guard rx >= 0 && rx < rw && ry >= 0 && ry < rh else {
                row.storeBytes(of: background, toByteOffset: x * 4, as: UInt32.self)
                continue
            }
            // The source pixel that lands on (rx, ry) of the rotated image.
            let (sx, sy): (Int, Int)
            switch turns {
            case 0: (sx, sy) = (rx, ry)
            case 1: (sx, sy) = (sw - 1 - ry, rx)
            case 2: (sx, sy) = (sw - 1 - rx, sh - 1 - ry)
            default: (sx, sy) = (ry, sh - 1 - rx)
            }
            let pixel = source.loadUnaligned(fromByteOffset: sy * s.rowBytes + sx * 4, as: UInt32.self)
            row.storeBytes(of: pixel, toByteOffset: x * 4, as: UInt32.self)
        }
    }
    return kvImageNoError
}

extension Int {
    /// Half, rounded toward −∞.
    fileprivate var floorHalf: Int { self >= 0 ? self / 2 : -((-self + 1) / 2) }
}
