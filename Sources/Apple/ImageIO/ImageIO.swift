// Apple's ImageIO on Linux: image files read and written (`CGImageSource`, `CGImageDestination`) through
// OpenVision's decoders and encoders, and the EXIF orientation type. `import ImageIO` brings Core Graphics
// (and with it Foundation), as Apple's does.

@_exported import CoreGraphics
