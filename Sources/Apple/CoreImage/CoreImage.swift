// Apple's Core Image on Linux: `CIImage`, `CIFilter` (by name and through `CIFilterBuiltins`), `CIContext`,
// `CIVector` and `CIColor`, over OpenVision's lazy `ImageRecipe`: building a chain of filters computes nothing, and
// `CIContext` evaluates it once on OpenCV (each run of transforms and crops fused into one resampling).
// `import CoreImage` brings Core Graphics, Core Video and ImageIO's orientation (and with them Foundation), as
// Apple's does. What is not here (Metal, kernels in the Core Image Kernel Language, the detectors, most of the 200
// filters) is listed in docs/porting.md.

@_exported import CoreGraphics
@_exported import CoreVideo
@_exported import ImageIO
