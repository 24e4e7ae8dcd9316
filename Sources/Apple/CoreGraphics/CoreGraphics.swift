// Apple's Core Graphics on Linux: the names code around Vision and Core ML uses (images, paths, transforms,
// colours and a bitmap context), over OpenVision's images and drawing. `import CoreGraphics` brings Foundation
// and Dispatch as Apple's does (CGFloat, CGPoint, CGSize and CGRect are Foundation's on Linux).

@_exported import Dispatch
@_exported import Foundation
