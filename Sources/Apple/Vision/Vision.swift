// `import Vision` brings what Apple's does: Foundation and Dispatch, and the Core Graphics, Core Video, Core Media,
// ImageIO and simd names Vision's API uses (CGImage, CVPixelBuffer, CMSampleBuffer, CGImagePropertyOrientation,
// simd_float4x4, …), with Core ML; and OpenVision, whose types the compatibility classes expose (`native`).

@_exported import CoreGraphics
@_exported import CoreImage
@_exported import CoreML
@_exported import CoreMedia
@_exported import CoreVideo
@_exported import Dispatch
@_exported import Foundation
@_exported import ImageIO
@_exported import OpenVision
@_exported import simd
