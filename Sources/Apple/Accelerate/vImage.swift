// vImage's buffer type, its scalar types and codes, and the checks every vImage function here shares. The functions
// (scaling, 90° rotation, planar-float conversion) are in the `vImage+…` files beside this one.

/// A count of pixels: a buffer's width or height.
public typealias vImagePixelCount = UInt
/// A vImage function's answer: `kvImageNoError` (0) or a negative error code; with `kvImageGetTempBufferSize`, the
/// number of bytes of scratch memory the call needs.
public typealias vImage_Error = Int
/// A vImage function's options: a bitwise OR of the `kvImage…` flags.
public typealias vImage_Flags = UInt32
/// One 8-bit channel value.
public typealias Pixel_8 = UInt8
/// One 32-bit floating-point channel value.
public typealias Pixel_F = Float

/// An image in memory as vImage sees it: `height` rows of `width` pixels, each row starting `rowBytes` after the one
/// above. The buffer does not own `data`; the caller keeps it alive for the call.
public struct vImage_Buffer {
    /// The first byte of the top row.
    public var data: UnsafeMutableRawPointer!
    /// The number of rows.
    public var height: vImagePixelCount
    /// The number of pixels in a row.
    public var width: vImagePixelCount
    /// The distance in bytes from the start of one row to the start of the next.
    public var rowBytes: Int

    /// An empty buffer: no data, zero size.
    public init() {
        data = nil
        height = 0
        width = 0
        rowBytes = 0
    }

    /// A buffer over `data` (Apple's memberwise initializer).
    public init(data: UnsafeMutableRawPointer!, height: vImagePixelCount, width: vImagePixelCount, rowBytes: Int) {
        self.data = data
        self.height = height
        self.width = width
        self.rowBytes = rowBytes
    }
}

/// The call succeeded.
public let kvImageNoError = 0
/// A region of interest reaches beyond the source buffer.
public let kvImageRoiLargerThanInputBuffer = -21766
/// A required pointer (a buffer, its data, a parameter array) is nil.
public let kvImageNullPointerArgument = -21772
/// A parameter is outside the values the function accepts (e.g. a rotation constant above 3).
public let kvImageInvalidParameter = -21773
/// The buffers' sizes do not agree (e.g. planes of different sizes).
public let kvImageBufferSizeMismatch = -21774
/// A flag the function does not accept was set.
public let kvImageUnknownFlagsBit = -21775
/// A row is shorter than its pixels (`rowBytes` < width × bytes per pixel).
public let kvImageInvalidRowBytes = -21777

/// No options.
public let kvImageNoFlags = 0
/// Geometry: do not split the work into tiles on several threads (here no function does).
public let kvImageDoNotTile = 16
/// Scaling: resample with Lanczos-5 instead of the default Lanczos-3.
public let kvImageHighQualityResampling = 32
/// Answer the size of the scratch memory the call needs (0 here: nothing is borrowed) and do no work.
public let kvImageGetTempBufferSize = 128

extension vImage_Buffer {
    /// nil when the buffer can hold `height` rows of `width` pixels of `bytesPerPixel` bytes; else the error.
    func problem(bytesPerPixel: Int) -> vImage_Error? {
        guard data != nil else { return kvImageNullPointerArgument }
        guard width <= UInt(Int.max / max(bytesPerPixel, 1)), height <= UInt(Int.max) else {
            return kvImageInvalidParameter
        }
        if height > 1 && rowBytes < Int(width) * bytesPerPixel { return kvImageInvalidRowBytes }
        return nil
    }
}

/// `flags` with the bits in `accepted` removed is zero.
func flagsAccepted(_ flags: vImage_Flags, _ accepted: Int...) -> Bool {
    flags & ~vImage_Flags(accepted.reduce(0, |)) == 0
}
