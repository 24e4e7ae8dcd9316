import CoreVideo
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct CVPixelBufferTests {
    /// CVPixelBufferCreate: Apple's layout queries, rows aligned to 64 bytes, zeroed memory, and the base address the
    /// buffer's own memory — written through one lock, read back through the next (no copy in between).
    @Test func createLockWriteRead() throws {
        var made: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(kCFAllocatorDefault, 30, 20, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferGetWidth(buffer) == 30 && CVPixelBufferGetHeight(buffer) == 20)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        #expect(CVPixelBufferGetBytesPerRow(buffer) == 128)  // 30 × 4 = 120, aligned to 64
        #expect(CVPixelBufferGetDataSize(buffer) == 128 * 20)
        #expect(!CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 0)
        #expect(CVPixelBufferLockBaseAddress(buffer, []) == kCVReturnSuccess)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        #expect(base.load(as: UInt32.self) == 0)
        // Pixel (3, 2) = B 10, G 20, R 30, A 255.
        (base + 2 * 128 + 3 * 4).copyMemory(from: [UInt8(10), 20, 30, 255], byteCount: 4)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnSuccess)
        #expect(CVPixelBufferLockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferGetBaseAddress(buffer) == base)
        #expect(Array(UnsafeRawBufferPointer(start: base + 2 * 128 + 3 * 4, count: 4)) == [10, 20, 30, 255])
        #expect(CVPixelBufferUnlockBaseAddress(buffer, .readOnly) == kCVReturnSuccess)
        #expect(CVPixelBufferUnlockBaseAddress(buffer, []) == kCVReturnInvalidArgument)  // not locked
        // The pixels as an OpenVision image: the written pixel in RGB.
        let rgb = try buffer.visionImage().rgbData()
        #expect(Array(rgb[(2 * 30 + 3) * 3..<(2 * 30 + 3) * 3 + 3]) == [30, 20, 10])
    }

    @Test func refusals() {
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 0, 20, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnInvalidSize)
        #expect(CVPixelBufferCreate(nil, 20, -1, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnInvalidSize)
        #expect(CVPixelBufferCreate(nil, 20, 20, 0x7878_7878, nil, &made) == kCVReturnInvalidPixelFormat)
        let attributes = [kCVPixelBufferBytesPerRowAlignmentKey: "wide"] as CFDictionary
        #expect(
            CVPixelBufferCreate(nil, 20, 20, kCVPixelFormatType_32BGRA, attributes, &made)
                == kCVReturnInvalidPixelBufferAttributes)
        #expect(made == nil)
        // A format OpenVision does not read is a typed error when converted.
        #expect(CVPixelBufferCreate(nil, 4, 4, kCVPixelFormatType_OneComponent32Float, nil, &made) == kCVReturnSuccess)
        #expect(throws: VisionError.self) { try made!.visionImage() }
    }

    /// An alignment attribute (as `[CFString: Any] as CFDictionary`, the way apps pass attributes) sets the stride.
    @Test func alignmentAttribute() throws {
        var made: CVPixelBuffer?
        let attributes =
            [
                kCVPixelBufferCGImageCompatibilityKey: kCFBooleanTrue!,
                kCVPixelBufferBytesPerRowAlignmentKey: 16,
            ] as [CFString: Any] as CFDictionary
        #expect(
            CVPixelBufferCreate(kCFAllocatorDefault, 5, 3, kCVPixelFormatType_24RGB, attributes, &made)
                == kCVReturnSuccess)
        #expect(CVPixelBufferGetBytesPerRow(try #require(made)) == 16)
    }

    /// NV12 (420v): two planes in one allocation, the CbCr plane half as wide and high with the same stride;
    /// a gray frame (Y 128, CbCr 128) reads back as gray.
    @Test func biPlanarNV12() throws {
        var made: CVPixelBuffer?
        #expect(
            CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
                == kCVReturnSuccess)
        let buffer = try #require(made)
        #expect(CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 0) == 64 && CVPixelBufferGetHeightOfPlane(buffer, 0) == 48)
        #expect(CVPixelBufferGetWidthOfPlane(buffer, 1) == 32 && CVPixelBufferGetHeightOfPlane(buffer, 1) == 24)
        #expect(
            CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) == 64 && CVPixelBufferGetBytesPerRowOfPlane(buffer, 1) == 64)
        #expect(CVPixelBufferGetBaseAddressOfPlane(buffer, 2) == nil && CVPixelBufferGetWidthOfPlane(buffer, 2) == 0)
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        let y = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 0))
        let uv = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 1))
        #expect(uv - y == 64 * 48)
        y.initializeMemory(as: UInt8.self, repeating: 128, count: 64 * 48)
        uv.initializeMemory(as: UInt8.self, repeating: 128, count: 64 * 24)
        _ = CVPixelBufferUnlockBaseAddress(buffer, [])
        let rgb = try buffer.visionImage().rgbData()
        // Video-range Y 128 → (128 − 16) × 255 / 219 ≈ 130 (cv::COLOR_YUV2BGR_NV12, BT.601).
        #expect(rgb.allSatisfy { abs(Int($0) - 130) <= 1 })
    }

    /// CVPixelBufferCreateWithBytes: the caller's memory itself (no copy), the release callback called once when
    /// the buffer goes away.
    @Test func createWithBytesUsesTheCallersMemory() throws {
        final class Flag { var released = 0 }
        let flag = Flag()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 8 * 4 * 4, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 7, count: 8 * 4 * 4)
        do {
            var made: CVPixelBuffer?
            let status = CVPixelBufferCreateWithBytes(
                nil, 8, 4, kCVPixelFormatType_32RGBA, memory, 32,
                { context, address in
                    Unmanaged<Flag>.fromOpaque(context!).takeUnretainedValue().released += 1
                    UnsafeMutableRawPointer(mutating: address)!.deallocate()
                }, Unmanaged.passUnretained(flag).toOpaque(), nil, &made)
            #expect(status == kCVReturnSuccess)
            let buffer = try #require(made)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            #expect(CVPixelBufferGetBaseAddress(buffer) == memory && CVPixelBufferGetBytesPerRow(buffer) == 32)
            _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
            #expect(flag.released == 0)
        }
        #expect(flag.released == 1)
        var made: CVPixelBuffer?
        let short = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        defer { short.deallocate() }
        #expect(
            CVPixelBufferCreateWithBytes(nil, 8, 1, kCVPixelFormatType_32RGBA, short, 16, nil, nil, nil, &made)
                == kCVReturnInvalidArgument)
    }

    /// A buffer over an OpenVision image: no pixels until the first lock, then BGRA pixels equal to the image's; until
    /// a writable lock, `visionImage()` is the image itself (no copy either way).
    @Test func visionImageBufferCopiesOnlyWhenLocked() throws {
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let buffer = CVPixelBuffer(visionImage: image)
        #expect(try buffer.visionImage() === image)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        let rgb = image.rgbData()
        var same = true
        for (x, y) in [(0, 0), (100, 200), (image.width - 1, image.height - 1)] {
            let p = (base + y * stride + x * 4).assumingMemoryBound(to: UInt8.self)
            let o = (y * image.width + x) * 3
            same = same && p[0] == rgb[o + 2] && p[1] == rgb[o + 1] && p[2] == rgb[o] && p[3] == 255
        }
        #expect(same)
        _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
        #expect(try buffer.visionImage() === image)
        // Locked for writing: the memory is what counts from then on.
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        base.storeBytes(of: UInt32(0xFF00_00FF), as: UInt32.self)  // B 255, G 0, R 0, A 255 at (0, 0)
        _ = CVPixelBufferUnlockBaseAddress(buffer, [])
        let converted = try buffer.visionImage()
        #expect(converted !== image && Array(converted.rgbData().prefix(3)) == [0, 0, 255])
    }

    @Test func attachments() throws {
        let buffer = CVPixelBuffer(
            visionImage: try VisionImage(pixels: PixelBuffer(data: Data(count: 12), width: 2, height: 2, format: .rgb8))
        )
        CVBufferSetAttachment(buffer, "Note" as CFString, "hello" as CFString, .shouldPropagate)
        var mode = CVAttachmentMode.shouldNotPropagate
        #expect(
            (CVBufferCopyAttachment(buffer, "Note" as CFString, &mode) as? String) == "hello"
                && mode == .shouldPropagate)
        CVBufferRemoveAttachment(buffer, "Note" as CFString)
        #expect(CVBufferCopyAttachment(buffer, "Note" as CFString, nil) == nil)
    }

    /// The dictionary forms (CoreMLHelpers' `deepCopy` reads `CVBufferGetAttachments(_, .shouldPropagate)`) and
    /// propagation: only `.shouldPropagate` attachments reach the destination, with their mode.
    @Test func attachmentDictionariesAndPropagation() throws {
        func make() throws -> CVPixelBuffer {
            CVPixelBuffer(
                visionImage: try VisionImage(
                    pixels: PixelBuffer(data: Data(count: 12), width: 2, height: 2, format: .rgb8)))
        }
        let source = try make()
        let destination = try make()
        #expect(CVBufferGetAttachments(source, .shouldPropagate) == nil)
        CVBufferSetAttachment(source, "Kept" as CFString, "a" as CFString, .shouldPropagate)
        CVBufferSetAttachment(source, "Local" as CFString, "b" as CFString, .shouldNotPropagate)
        let propagated = try #require(CVBufferGetAttachments(source, .shouldPropagate) as? [String: Any])
        #expect(propagated.count == 1 && (propagated["Kept"] as? String) == "a")
        let local = try #require(CVBufferCopyAttachments(source, .shouldNotPropagate) as? [String: Any])
        #expect(local.count == 1 && (local["Local"] as? String) == "b")
        CVBufferSetAttachment(destination, "Kept" as CFString, "old" as CFString, .shouldNotPropagate)
        CVBufferPropagateAttachments(source, destination)
        var mode = CVAttachmentMode.shouldNotPropagate
        #expect((CVBufferCopyAttachment(destination, "Kept" as CFString, &mode) as? String) == "a")
        #expect(mode == .shouldPropagate)
        #expect(CVBufferCopyAttachment(destination, "Local" as CFString, nil) == nil)
    }
}
