import Foundation

// Core Video's pixel format codes: four-character codes with Apple's values. `CVPixelBufferCreate` makes buffers
// of each; `CVPixelBuffer.visionImage()` reads the 8-bit colour, gray and NV12 ones.

/// 32-bit ARGB, alpha first (`0x00000020`).
public let kCVPixelFormatType_32ARGB: OSType = 0x0000_0020
/// 32-bit BGRA (`'BGRA'`), the usual camera format.
public let kCVPixelFormatType_32BGRA: OSType = 0x4247_5241
/// 32-bit ABGR (`'ABGR'`).
public let kCVPixelFormatType_32ABGR: OSType = 0x4142_4752
/// 32-bit RGBA (`'RGBA'`).
public let kCVPixelFormatType_32RGBA: OSType = 0x5247_4241
/// 24-bit RGB (`0x00000018`).
public let kCVPixelFormatType_24RGB: OSType = 0x0000_0018
/// 24-bit BGR (`'24BG'`).
public let kCVPixelFormatType_24BGR: OSType = 0x3234_4247
/// One 8-bit component (`'L008'`).
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// One 16-bit integer component (`'L016'`).
public let kCVPixelFormatType_OneComponent16: OSType = 0x4C30_3136
/// One 16-bit float component (`'L00h'`).
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// One 32-bit float component (`'L00f'`).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066
/// Two 8-bit components (`'2C08'`).
public let kCVPixelFormatType_TwoComponent8: OSType = 0x3243_3038
/// Two 16-bit float components (`'2C0h'`).
public let kCVPixelFormatType_TwoComponent16Half: OSType = 0x3243_3068
/// Two 32-bit float components (`'2C0f'`), e.g. an optical-flow field.
public let kCVPixelFormatType_TwoComponent32Float: OSType = 0x3243_3066
/// 16-bit big-endian gray (`'b16g'`).
public let kCVPixelFormatType_16Gray: OSType = 0x6231_3667
/// 64-bit RGBA, 16-bit float components (`'RGhA'`).
public let kCVPixelFormatType_64RGBAHalf: OSType = 0x5247_6841
/// 128-bit RGBA, 32-bit float components (`'RGfA'`).
public let kCVPixelFormatType_128RGBAFloat: OSType = 0x5247_6641
/// Depth in metres, 16-bit float (`'hdep'`).
public let kCVPixelFormatType_DepthFloat16: OSType = 0x6864_6570
/// Depth in metres, 32-bit float (`'fdep'`).
public let kCVPixelFormatType_DepthFloat32: OSType = 0x6664_6570
/// Disparity, 16-bit float (`'hdis'`).
public let kCVPixelFormatType_DisparityFloat16: OSType = 0x6864_6973
/// Disparity, 32-bit float (`'fdis'`).
public let kCVPixelFormatType_DisparityFloat32: OSType = 0x6664_6973
/// 4:2:0 bi-planar (NV12), video range (`'420v'`): a Y plane and an interleaved half-size CbCr plane.
public let kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: OSType = 0x3432_3076
/// 4:2:0 bi-planar (NV12), full range (`'420f'`).
public let kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: OSType = 0x3432_3066

/// The layout of a pixel format: bytes per pixel of each plane and each plane's size divisor.
struct CVPixelFormatLayout {
    /// Per plane: bytes per pixel, and the divisor of the buffer's width and height.
    var planes: [(bytesPerPixel: Int, divisor: Int)]

    /// The layouts of the formats buffers can be made in.
    static func of(_ format: OSType) -> CVPixelFormatLayout? {
        switch format {
        case kCVPixelFormatType_OneComponent8: CVPixelFormatLayout(planes: [(1, 1)])
        case kCVPixelFormatType_OneComponent16, kCVPixelFormatType_OneComponent16Half, kCVPixelFormatType_16Gray,
            kCVPixelFormatType_TwoComponent8, kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DisparityFloat16:
            CVPixelFormatLayout(planes: [(2, 1)])
        case kCVPixelFormatType_24RGB, kCVPixelFormatType_24BGR: CVPixelFormatLayout(planes: [(3, 1)])
        case kCVPixelFormatType_32ARGB, kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ABGR,
            kCVPixelFormatType_32RGBA, kCVPixelFormatType_OneComponent32Float, kCVPixelFormatType_TwoComponent16Half,
            kCVPixelFormatType_DepthFloat32, kCVPixelFormatType_DisparityFloat32:
            CVPixelFormatLayout(planes: [(4, 1)])
        case kCVPixelFormatType_TwoComponent32Float, kCVPixelFormatType_64RGBAHalf:
            CVPixelFormatLayout(planes: [(8, 1)])
        case kCVPixelFormatType_128RGBAFloat: CVPixelFormatLayout(planes: [(16, 1)])
        case kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange:
            CVPixelFormatLayout(planes: [(1, 1), (2, 2)])
        default: nil
        }
    }
}
