import Foundation

/// Flags of `CVPixelBufferLockBaseAddress`.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    /// The bits.
    public let rawValue: CVOptionFlags
    /// Flags with these bits.
    public init(rawValue: CVOptionFlags) { self.rawValue = rawValue }
    /// The pixels are only read while locked.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// Core Video's option bits.
public typealias CVOptionFlags = UInt64

/// The release callback of `CVPixelBufferCreateWithBytes`: called with the release context and the base address
/// when the buffer is freed.
public typealias CVPixelBufferReleaseBytesCallback =
    @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void

/// Attribute key: the buffer is compatible with `CGImage` (every buffer here is; accepted, no effect).
public let kCVPixelBufferCGImageCompatibilityKey: CFString = "CGImageCompatibility"
/// Attribute key: the buffer is compatible with `CGContext` (every buffer here is; accepted, no effect).
public let kCVPixelBufferCGBitmapContextCompatibilityKey: CFString = "CGBitmapContextCompatibility"
/// Attribute key: IOSurface properties (no IOSurface on Linux; accepted, no effect).
public let kCVPixelBufferIOSurfacePropertiesKey: CFString = "IOSurfaceProperties"
/// Attribute key: Metal compatibility (no Metal on Linux; accepted, no effect).
public let kCVPixelBufferMetalCompatibilityKey: CFString = "MetalCompatibility"
/// Attribute key: OpenGL compatibility (no OpenGL here; accepted, no effect).
public let kCVPixelBufferOpenGLCompatibilityKey: CFString = "OpenGLCompatibility"
/// IOSurface property key: OpenGL ES texture compatibility (no IOSurface on Linux; accepted, no effect).
public let kCVPixelBufferIOSurfaceOpenGLESTextureCompatibilityKey: CFString = "IOSurfaceOpenGLESTextureCompatibility"
/// IOSurface property key: OpenGL ES framebuffer compatibility (no IOSurface on Linux; accepted, no effect).
public let kCVPixelBufferIOSurfaceOpenGLESFBOCompatibilityKey: CFString = "IOSurfaceOpenGLESFBOCompatibility"
/// IOSurface property key: Core Animation compatibility (no IOSurface on Linux; accepted, no effect).
public let kCVPixelBufferIOSurfaceCoreAnimationCompatibilityKey: CFString = "IOSurfaceCoreAnimationCompatibility"
/// Attribute key: the row alignment in bytes (an integer; 64 when absent).
public let kCVPixelBufferBytesPerRowAlignmentKey: CFString = "BytesPerRowAlignment"
/// Attribute key: the pixel format (for pools and capture settings; `CVPixelBufferCreate` takes its own argument).
public let kCVPixelBufferPixelFormatTypeKey: CFString = "PixelFormatType"
/// Attribute key: the width (for pools and capture settings).
public let kCVPixelBufferWidthKey: CFString = "Width"
/// Attribute key: the height (for pools and capture settings).
public let kCVPixelBufferHeightKey: CFString = "Height"

/// Makes a `width` × `height` buffer of `pixelFormatType` with its own memory (zeroed; rows aligned to
/// `kCVPixelBufferBytesPerRowAlignmentKey`, 64 bytes by default) into `pixelBufferOut`. Returns
/// `kCVReturnInvalidSize` for an empty or over-16384-pixel side, `kCVReturnInvalidPixelFormat` for a format not
/// listed in CVPixelFormatType.swift, `kCVReturnInvalidPixelBufferAttributes` for a bad alignment.
public func CVPixelBufferCreate(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard (1...16384).contains(width), (1...16384).contains(height) else { return kCVReturnInvalidSize }
    guard let layout = CVPixelFormatLayout.of(pixelFormatType) else { return kCVReturnInvalidPixelFormat }
    var alignment = 64
    if let value = pixelBufferAttributes?[kCVPixelBufferBytesPerRowAlignmentKey] {
        guard let number = value as? NSNumber, (1...4096).contains(number.intValue) else {
            return kCVReturnInvalidPixelBufferAttributes
        }
        alignment = number.intValue
    }
    pixelBufferOut.pointee = CVBuffer(
        width: width, height: height, pixelFormat: pixelFormatType, layout: layout,
        alignment: alignment)
    return kCVReturnSuccess
}

/// Makes a buffer over the caller's pixels at `baseAddress` (rows of `bytesPerRow` bytes; not copied) into
/// `pixelBufferOut`; `releaseCallback(releaseRefCon, baseAddress)` is called when the buffer is freed. One-plane
/// formats only (`kCVReturnInvalidPixelFormat` for NV12), `kCVReturnInvalidArgument` for rows shorter than the width.
public func CVPixelBufferCreateWithBytes(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int,
    _ pixelFormatType: OSType, _ baseAddress: UnsafeMutableRawPointer,
    _ bytesPerRow: Int, _ releaseCallback: CVPixelBufferReleaseBytesCallback?,
    _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard (1...16384).contains(width), (1...16384).contains(height) else { return kCVReturnInvalidSize }
    guard let layout = CVPixelFormatLayout.of(pixelFormatType), layout.planes.count == 1 else {
        return kCVReturnInvalidPixelFormat
    }
    guard bytesPerRow >= width * layout.planes[0].bytesPerPixel else { return kCVReturnInvalidArgument }
    pixelBufferOut.pointee = CVBuffer(
        width: width, height: height, pixelFormat: pixelFormatType, memory: baseAddress,
        bytesPerRow: bytesPerRow, release: { releaseCallback?(releaseRefCon, $0) })
    return kCVReturnSuccess
}

/// Locks the pixels for access: with `.readOnly` they are only read. Locks nest; each needs an unlock.
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn
{
    pixelBuffer.lockBaseAddress(readOnly: lockFlags.contains(.readOnly))
    return kCVReturnSuccess
}

/// Unlocks the pixels; `kCVReturnInvalidArgument` when they were not locked.
public func CVPixelBufferUnlockBaseAddress(
    _ pixelBuffer: CVPixelBuffer,
    _ unlockFlags: CVPixelBufferLockFlags
) -> CVReturn {
    pixelBuffer.unlockBaseAddress() ? kCVReturnSuccess : kCVReturnInvalidArgument
}

/// The address of the first pixel (of the first plane for NV12): the buffer's memory itself, no copy. Valid while
/// the buffer is locked; access without a lock is undefined, as Apple documents.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.baseAddress(ofPlane: 0)
}

/// Bytes from one row to the next (of the first plane for NV12).
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.planes[0].bytesPerRow }

/// The width in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }

/// The height in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }

/// The `kCVPixelFormatType_…` code.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType { pixelBuffer.pixelFormat }

/// The number of bytes of the pixels (all planes).
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.dataSize }

/// Whether the buffer has planes (NV12).
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool { pixelBuffer.planes.count > 1 }

/// The number of planes: 2 for NV12, 0 for a one-plane buffer (as Apple's).
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.planes.count > 1 ? pixelBuffer.planes.count : 0
}

/// The address of plane `planeIndex`'s first byte (NV12: 0 the Y plane, 1 the CbCr plane), nil for a plane the
/// buffer does not have. Valid while locked.
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int)
    -> UnsafeMutableRawPointer?
{
    guard pixelBuffer.planes.count > 1 else { return nil }
    return pixelBuffer.baseAddress(ofPlane: planeIndex)
}

/// Bytes from one row to the next of plane `planeIndex`; 0 for a plane the buffer does not have.
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    plane(pixelBuffer, planeIndex)?.bytesPerRow ?? 0
}

/// The width in pixels of plane `planeIndex` (NV12's CbCr plane is half as wide); 0 for a plane it does not have.
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    plane(pixelBuffer, planeIndex)?.width ?? 0
}

/// The height in pixels of plane `planeIndex` (NV12's CbCr plane is half as high); 0 for a plane it does not have.
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    plane(pixelBuffer, planeIndex)?.height ?? 0
}

private func plane(_ pixelBuffer: CVPixelBuffer, _ index: Int) -> CVBuffer.Plane? {
    pixelBuffer.planes.count > 1 && pixelBuffer.planes.indices.contains(index) ? pixelBuffer.planes[index] : nil
}
