import Accelerate
import CoreGraphics
import CoreImage
import CoreML
import CoreMedia
import CoreVideo
import ImageIO
import UniformTypeIdentifiers
import Vision
import simd

// Every Apple-named module of the `Vision` product; the same body as ImportsVision.
let request = VNDetectBarcodesRequest()
print(request.symbologies.count, CMTimeMake(value: 1, timescale: 30).seconds)
