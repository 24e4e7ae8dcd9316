// Apple's Core Image on Linux: `CIImage`, `CIFilter` (by name and through `CIFilterBuiltins`), `CIContext`,
// `CIVector` and `CIColor`, over OpenVision's lazy `ImageRecipe`: building a chain of filters computes nothing, and
// `CIContext` evaluates it once on OpenCV (each run of transforms and crops fused into one resampling).
// `import CoreImage` brings Core Graphics, Core Video and ImageIO's orientation (and with them Foundation), as
// Apple's does. `CIColorKernel` compiles colour kernels of the Core Image Kernel Language (KernelSyntax parses,
// KernelProgram type-checks and compiles, OpenVision's `PixelFunction` runs them lazily on blocks of pixels in linear
// sRGB). What is not here (Metal, general and warp kernels, most of the detectors and of the 200 filters) is listed
// in docs/porting.md.

@_exported import CoreGraphics
@_exported import CoreVideo
@_exported import ImageIO
