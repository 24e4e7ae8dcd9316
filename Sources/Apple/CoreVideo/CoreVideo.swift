// Apple's Core Video on Linux: pixel buffers (`CVPixelBuffer`) with Apple's functions and pixel-format codes.
// `import CoreVideo` brings Core Graphics (and with it Foundation), as Apple's does.

@_exported import CoreGraphics
