// `import CoreML` brings what Apple's does: Foundation and Dispatch, and the Core Graphics, Core Video and ImageIO
// names Core ML's API uses (CGImage, CVPixelBuffer, OSType, CGImagePropertyOrientation, …).

@_exported import CoreGraphics
@_exported import CoreVideo
@_exported import Dispatch
@_exported import Foundation
@_exported import ImageIO
