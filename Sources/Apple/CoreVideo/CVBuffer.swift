import Foundation
import OpenVision

/// Core Video's image buffer: `CVImageBuffer` and `CVPixelBuffer` are this class, as on Apple platforms.
public typealias CVImageBuffer = CVBuffer
/// Core Video's pixel buffer: pixels in memory, in one of the `kCVPixelFormatType_…` layouts, one plane or two
/// (NV12), reached through `CVPixelBufferLockBaseAddress` and `CVPixelBufferGetBaseAddress…`.
public typealias CVPixelBuffer = CVImageBuffer

/// Core Video's buffer: here always a pixel buffer (Apple's class hierarchy is `CVBuffer` ⊃ `CVImageBuffer` ⊃
/// `CVPixelBuffer`, all one type in Swift). A reference type, as Apple's; its pixels are its own memory (from
/// `CVPixelBufferCreate`), the caller's (`CVPixelBufferCreateWithBytes`), or an OpenVision image's
/// (`CVPixelBuffer(visionImage:)`, copied into BGRA memory at the first lock and not before).
///
/// - Important: As on Apple platforms, the pixels may be read or written only between
///   `CVPixelBufferLockBaseAddress` and `CVPixelBufferUnlockBaseAddress`; access without a lock is undefined
///   (here: the base address is returned as a lock would give it, and treated as a writable access). Reading while
///   another thread writes is the caller's data race, as there.
public final class CVBuffer: @unchecked Sendable {
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// The `kCVPixelFormatType_…` code.
    let pixelFormat: OSType
    /// The planes: byte offset from the memory's start, size in pixels, bytes per row.
    let planes: [Plane]
    /// Bytes from the memory's start to the end of the last plane.
    let dataSize: Int

    struct Plane {
        var offset: Int
        var width: Int
        var height: Int
        var bytesPerRow: Int
    }

    /// The values attached by `CVBufferSetAttachment`.
    let attachments = Attachments()
    private let lock = NSLock()
    private var memory: UnsafeMutableRawPointer?
    private var freeMemory: ((UnsafeMutableRawPointer) -> Void)?
    /// The image the pixels are, while nobody may have written them.
    private var source: VisionImage?
    private var lockCount = 0

    /// A buffer of its own zeroed memory (`CVPixelBufferCreate`), rows aligned to `alignment` bytes.
    init(width: Int, height: Int, pixelFormat: OSType, layout: CVPixelFormatLayout, alignment: Int) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        var planes: [Plane] = []
        var offset = 0
        // NV12: both planes share one row stride (rows of `width` bytes each), the layout cameras give.
        let stride = layout.planes.map { ($0.bytesPerPixel * ((width + $0.divisor - 1) / $0.divisor)) }.max()!
        let bytesPerRow = (stride + alignment - 1) / alignment * alignment
        for plane in layout.planes {
            let rows = (height + plane.divisor - 1) / plane.divisor
            planes.append(
                Plane(
                    offset: offset, width: (width + plane.divisor - 1) / plane.divisor, height: rows,
                    bytesPerRow: bytesPerRow))
            offset += rows * bytesPerRow
        }
        self.planes = planes
        dataSize = offset
        let memory = UnsafeMutableRawPointer.allocate(byteCount: offset, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: offset)
        self.memory = memory
        freeMemory = { $0.deallocate() }
    }

    /// A buffer over the caller's memory (`CVPixelBufferCreateWithBytes`); `release` is called when it is freed.
    init(
        width: Int, height: Int, pixelFormat: OSType, memory: UnsafeMutableRawPointer, bytesPerRow: Int,
        release: @escaping (UnsafeMutableRawPointer) -> Void
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        planes = [Plane(offset: 0, width: width, height: height, bytesPerRow: bytesPerRow)]
        dataSize = bytesPerRow * height
        self.memory = memory
        freeMemory = release
    }

    /// An OpenVision image as a 32BGRA pixel buffer (Linux only), without copying: the pixels are copied into the
    /// buffer's memory at the first lock, and `visionImage()` gives the image itself back until the buffer is
    /// locked for writing.
    public init(visionImage image: VisionImage) {
        width = image.width
        height = image.height
        pixelFormat = kCVPixelFormatType_32BGRA
        let bytesPerRow = (image.width * 4 + 63) / 64 * 64
        planes = [Plane(offset: 0, width: image.width, height: image.height, bytesPerRow: bytesPerRow)]
        dataSize = bytesPerRow * image.height
        source = image
    }

    deinit {
        if let memory { freeMemory?(memory) }
    }

    /// The memory, made from the source image on first use (under `lock`).
    private func materialized() -> UnsafeMutableRawPointer {
        if let memory { return memory }
        let made = UnsafeMutableRawPointer.allocate(byteCount: dataSize, alignment: 64)
        // The layout is the image's own size in BGRA with room for each row: copying cannot fail.
        try? source!.copyPixels(
            into: UnsafeMutableRawBufferPointer(start: made, count: dataSize), format: .bgra8,
            bytesPerRow: planes[0].bytesPerRow)
        memory = made
        freeMemory = { $0.deallocate() }
        return made
    }

    /// Locks the base address (`CVPixelBufferLockBaseAddress`); a lock without `.readOnly` may write the pixels.
    func lockBaseAddress(readOnly: Bool) {
        lock.lock()
        defer { lock.unlock() }
        _ = materialized()
        lockCount += 1
        if !readOnly { source = nil }
    }

    /// Unlocks it; false when it was not locked.
    func unlockBaseAddress() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard lockCount > 0 else { return false }
        lockCount -= 1
        return true
    }

    /// The address of plane `index`'s first byte; access without a lock counts as a writable one.
    func baseAddress(ofPlane index: Int) -> UnsafeMutableRawPointer? {
        guard planes.indices.contains(index) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        let memory = materialized()
        if lockCount == 0 { source = nil }
        return memory + planes[index].offset
    }

    /// The buffer as an OpenVision image (Linux only): the image it was made from while it has not been locked for
    /// writing (no copy), else its pixels converted — 32BGRA, 32RGBA, 32ARGB, 24RGB, 24BGR, OneComponent8 and NV12
    /// (`420v`/`420f`, read as video range; even sizes). Throws `VisionError.unsupported` for the other formats.
    public func visionImage() throws(VisionError) -> VisionImage {
        lock.lock()
        defer { lock.unlock() }
        if let source { return source }
        let format: PixelFormat
        switch pixelFormat {
        case kCVPixelFormatType_32BGRA: format = .bgra8
        case kCVPixelFormatType_32RGBA: format = .rgba8
        case kCVPixelFormatType_32ARGB: format = .argb8
        case kCVPixelFormatType_24RGB: format = .rgb8
        case kCVPixelFormatType_24BGR: format = .bgr8
        case kCVPixelFormatType_OneComponent8: format = .gray8
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            format = .nv12
        default:
            throw VisionError(
                .unsupported,
                "a \(Self.fourCharacterCode(pixelFormat)) pixel buffer cannot be read as "
                    + "an OpenVision image (32BGRA, 32RGBA, 32ARGB, 24RGB, 24BGR, OneComponent8 and 420v/420f can)")
        }
        let memory = materialized()
        let pixels = PixelBuffer(
            data: Data(bytesNoCopy: memory, count: dataSize, deallocator: .none), width: width,
            height: height, format: format, bytesPerRow: planes[0].bytesPerRow)
        return try VisionImage(pixels: pixels)
    }

    /// `code` as its four characters (`'BGRA'`), or in hexadecimal when they are not printable.
    static func fourCharacterCode(_ code: OSType) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8((code >> $0) & 0xFF) }
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
            return "'" + String(decoding: bytes, as: UTF8.self) + "'"
        }
        return String(format: "0x%08X", code)
    }
}

extension CVBuffer {
    /// The OpenVision image the pixels still are: one `init(visionImage:)` made and nobody has locked for writing
    /// since (Core Image reads it without copying); nil otherwise.
    package var unwrittenSourceImage: VisionImage? {
        lock.lock()
        defer { lock.unlock() }
        return source
    }
}
