import OpenVision

// Core Graphics / Core Video / Core Media names that Core ML and Vision code uses, on Linux. The images are
// OpenVision's: no second image type.

/// Core Graphics' image, here an OpenVision `VisionImage` (decode with `VisionImage(contentsOf:)`,
/// `VisionImage(data:)`, or wrap raw pixels with `VisionImage(pixels:)`).
public typealias CGImage = VisionImage
/// Core Video's pixel buffer, here an OpenVision `VisionImage` (a camera `Frame`'s `image`).
public typealias CVPixelBuffer = VisionImage
/// Core Media's sample buffer: a captured frame (`LiveAnalyzer`'s and `FrameSource`'s `Frame`).
public typealias CMSampleBuffer = Frame

/// The frame's image (Core Media's `CMSampleBufferGetImageBuffer`); never nil here.
public func CMSampleBufferGetImageBuffer(_ sampleBuffer: CMSampleBuffer) -> CVPixelBuffer? { sampleBuffer.image }

/// Core Video's pixel format codes (four-character codes, as Apple's).
public typealias OSType = UInt32
/// 32-bit ARGB (`0x00000020`).
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 32-bit BGRA (`'BGRA'`).
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// 32-bit RGBA (`'RGBA'`).
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241
/// 24-bit RGB (`0x00000018`).
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// One 8-bit component (`'L008'`).
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// One 16-bit float component (`'L00h'`).
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// One 32-bit float component (`'L00f'`).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
