import CoreVideo
import Foundation
import OpenVision

/// `pixelbuffer RUNS`: CVPixelBuffer base-address access copies no pixels. For frames of three sizes, a lock /
/// base address / unlock round trip (median ns over RUNS × 1000) against one copy of the frame's bytes, whether the
/// address is the same memory on every lock, and for a buffer made from an OpenVision image whether
/// `visionImage()` hands the image itself back. Constant access time across sizes, far below a copy, is the claim.
func benchPixelBuffer(runs: Int) throws {
    for (width, height) in [(640, 480), (1920, 1080), (3840, 2160)] {
        var made: CVPixelBuffer?
        guard
            CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_32BGRA, nil, &made)
                == kCVReturnSuccess,
            let buffer = made
        else { fail("cannot make a \(width)×\(height) buffer") }
        var addresses = Set<UnsafeMutableRawPointer>()
        var access: [Double] = []
        var copies: [Double] = []
        let size = CVPixelBufferGetDataSize(buffer)
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        defer { scratch.deallocate() }
        var checksum = 0
        for _ in 0..<runs {
            let start = clock.now
            for _ in 0..<1000 {
                _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
                let base = CVPixelBufferGetBaseAddress(buffer)!
                checksum &+= Int(base.load(as: UInt8.self))
                addresses.insert(base)
                _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
            }
            access.append(ms(clock.now - start) * 1000)  // ms per 1000 → µs per access × 1000 = ns
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            let copyStart = clock.now
            scratch.copyMemory(from: CVPixelBufferGetBaseAddress(buffer)!, byteCount: size)
            copies.append(ms(clock.now - copyStart) * 1e6)
            _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
        }
        emit([
            "bench": "pixelbuffer", "width": width, "height": height, "bytes": size,
            "lock_base_unlock_ns": median(access), "copy_frame_ns": median(copies),
            "same_address_every_lock": addresses.count == 1, "checksum": checksum,
        ])
    }
    // A buffer over an OpenVision image: no pixels copied until locked; visionImage() is the image itself.
    let image = try VisionImage(
        pixels: PixelBuffer(
            data: Data(count: 1920 * 1080 * 3), width: 1920, height: 1080,
            format: .rgb8))
    let wrapped = CVPixelBuffer(visionImage: image)
    let identical = try wrapped.visionImage() === image
    let firstLock = clock.now
    _ = CVPixelBufferLockBaseAddress(wrapped, .readOnly)
    let materialize = ms(clock.now - firstLock)
    let base = CVPixelBufferGetBaseAddress(wrapped)
    _ = CVPixelBufferUnlockBaseAddress(wrapped, .readOnly)
    let secondLock = clock.now
    _ = CVPixelBufferLockBaseAddress(wrapped, .readOnly)
    let later = ms(clock.now - secondLock)
    let sameBase = CVPixelBufferGetBaseAddress(wrapped) == base
    _ = CVPixelBufferUnlockBaseAddress(wrapped, .readOnly)
    emit([
        "bench": "pixelbuffer-from-image", "width": 1920, "height": 1080, "visionImage_is_the_image": identical,
        "still_the_image_after_read_only_lock": try wrapped.visionImage() === image,
        "first_lock_ms": materialize, "later_lock_ms": later, "same_address": sameBase,
    ])
}
