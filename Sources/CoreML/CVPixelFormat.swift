/// Core Video's four-character pixel format codes, as app code passes them to Core ML and Vision.
public typealias OSType = UInt32
/// 32-bit BGRA (`'BGRA'`), the usual colour format of camera frames and images.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// 32-bit ARGB.
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// One 8-bit component (`'L008'`).
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// One 16-bit float component (`'L00h'`).
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// One 32-bit float component (`'L00f'`).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
