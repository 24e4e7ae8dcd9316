import CoreImage
import Foundation
import OpenVision

/// `coreimage RUNS`: a Core Image perspective correction (the document scanner's `CIPerspectiveCorrection`, rendered
/// by `ImageRecipe.renderedImage`, what `CIContext` and `VNImageRequestHandler(ciImage:)` run) against the same
/// `cv::warpPerspective` called directly (`VisionImage.warpedPerspective`), alternating, on a 1920×1080 photo-sized
/// image: medians and their ratio (the goal: within 1.2×). Then a four-filter chain's native passes (each
/// chain evaluated once, transforms and crops fused) and whether an unfiltered CIImage renders without a copy.
func benchCoreImage(runs: Int) throws {
    let width = 1920
    let height = 1080
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: (i &* 2654435761) >> 13) }
    let image = try VisionImage(pixels: PixelBuffer(data: Data(bytes), width: width, height: height, format: .rgb8))
    let input = CIImage(cgImage: CGImage(visionImage: image))
    // A page seen at an angle, in Core Image's coordinates.
    let tl = CGPoint(x: 310, y: 960)
    let tr = CGPoint(x: 1620, y: 1010)
    let bl = CGPoint(x: 220, y: 90)
    let br = CGPoint(x: 1700, y: 150)
    let filter = CIFilter.perspectiveCorrection()
    filter.inputImage = input
    filter.topLeft = tl
    filter.topRight = tr
    filter.bottomLeft = bl
    filter.bottomRight = br
    guard let corrected = filter.outputImage else { fail("no perspective correction") }
    let outWidth = Int(corrected.extent.width)
    let outHeight = Int(corrected.extent.height)
    // The same map for OpenCV: the four corners onto the output rectangle, both lower-left.
    guard
        let h = Matrix3x3.perspective(
            from: [tl, tr, bl, br],
            to: [
                CGPoint(x: 0, y: outHeight), CGPoint(x: outWidth, y: outHeight),
                CGPoint(x: 0, y: 0), CGPoint(x: outWidth, y: 0),
            ])
    else { fail("no homography") }
    var coreImage: [Double] = []
    var openCV: [Double] = []
    for _ in 0..<runs {
        var start = clock.now
        _ = try corrected.recipe.renderedImage()
        coreImage.append(ms(clock.now - start))
        start = clock.now
        _ = try image.warpedPerspective(by: h, width: outWidth, height: outHeight)
        openCV.append(ms(clock.now - start))
    }
    emit([
        "bench": "coreimage-perspective", "width": width, "height": height, "output": "\(outWidth)x\(outHeight)",
        "core_image_ms": median(coreImage), "warpPerspective_ms": median(openCV),
        "ratio": median(coreImage) / median(openCV), "runs": runs,
    ])
    // A chain: perspective correction, colour controls, blur, crop — its native passes.
    let controls = CIFilter.colorControls()
    controls.inputImage = corrected
    controls.contrast = 1.3
    let chain = controls.outputImage!.applyingGaussianBlur(sigma: 1.5).cropped(to: corrected.extent)
    let report = try chain.recipe.renderedImageReporting()
    emit(["bench": "coreimage-chain", "passes": report.passes])
    let plain = try input.recipe.renderedImageReporting()
    emit([
        "bench": "coreimage-unfiltered", "shares_source_pixels": plain.sharesSource,
        "is_the_image": plain.image === image,
    ])
}
