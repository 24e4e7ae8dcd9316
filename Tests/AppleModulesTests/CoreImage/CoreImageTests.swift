import CoreImage
import CoreImage.CIFilterBuiltins
import CoreVideo
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Core Image's Apple-facing behaviour: the corpus samples' chains against plain-loop references of Core Image's
/// documented formulas, coordinates (lower-left origin), filters by name and through CIFilterBuiltins mapping onto
/// the ImageRecipe operations (whose pixels ImageRecipeTests holds to OpenCV / numpy), rendering into pixel
/// buffers, no-copy sources, and bad input.
@Suite struct CoreImageTests {
    static let width = 24, height = 16

    /// Deterministic bytes.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// An opaque 32BGRA buffer of deterministic colours (alpha 255), and its bytes (rows of width × 4).
    static func frame(seed: UInt64 = 3) throws -> (CVPixelBuffer, [UInt8]) {
        var pixels = bytes(width * height * 4, seed: seed)
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        write(pixels, rowBytes: width * 4, to: buffer)
        return (buffer, pixels)
    }

    /// A OneComponent8 buffer of deterministic values, and the values.
    static func mask(seed: UInt64 = 9) throws -> (CVPixelBuffer, [UInt8]) {
        let values = bytes(width * height, seed: seed)
        var made: CVPixelBuffer?
        let status = CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_OneComponent8, nil, &made)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(made)
        write(values, rowBytes: width, to: buffer)
        return (buffer, values)
    }

    static func write(_ bytes: [UInt8], rowBytes: Int, to buffer: CVPixelBuffer) {
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        let base = CVPixelBufferGetBaseAddress(buffer)!
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for row in 0..<CVPixelBufferGetHeight(buffer) {
            bytes.withUnsafeBytes {
                (base + row * stride).copyMemory(from: $0.baseAddress! + row * rowBytes, byteCount: rowBytes)
            }
        }
        _ = CVPixelBufferUnlockBaseAddress(buffer, [])
    }

    /// A `CGImage`'s bytes, rows packed.
    static func rgba(_ image: CGImage) -> [UInt8] {
        let data = image.dataProvider!.data! as Data
        return (0..<image.height).flatMap { row in
            Array(data[row * image.bytesPerRow..<row * image.bytesPerRow + image.width * image.bitsPerPixel / 8])
        }
    }

    static func maxDifference(_ a: [UInt8], _ b: [Double]) -> Double {
        zip(a, b).map { abs(Double($0) - $1) }.max() ?? 0
    }

    /// The matte sample (ViewController.swift): a mask coloured by CIColorMatrix as the background, the frame
    /// blended over it by CIBlendWithRedMask, rendered by CIContext.createCGImage as premultiplied RGBA8.
    @Test func matteSampleChainIsTheBlendFormula() throws {
        let (frame, bgra) = try Self.frame()
        let (maskBuffer, m) = try Self.mask()
        let colour = (red: 0.2, green: 0.6, blue: 0.9)
        let original = CIImage(cvPixelBuffer: frame)
        let maskImage = CIImage(cvPixelBuffer: maskBuffer)
        let background = maskImage.applyingFilter(
            "CIColorMatrix",
            parameters: [
                "inputRVector": CIVector(x: 0, y: 0, z: 0, w: colour.red),
                "inputGVector": CIVector(x: 0, y: 0, z: 0, w: colour.green),
                "inputBVector": CIVector(x: 0, y: 0, z: 0, w: colour.blue),
            ])
        let blend = CIFilter.blendWithRedMask()
        blend.inputImage = original
        blend.backgroundImage = background
        blend.maskImage = maskImage
        let output = try #require(blend.outputImage)
        #expect(output.extent == CGRect(x: 0, y: 0, width: Self.width, height: Self.height))
        let image = try #require(CIContext().createCGImage(output, from: output.extent))
        #expect(image.width == Self.width && image.height == Self.height && image.alphaInfo == .premultipliedLast)
        // Reference (numpy, the same formula): fg = bgra[..., 2::-1] / 255; bg = colour; w = m[..., None] / 255
        //   out = np.rint(np.dstack([bg + (fg - bg) * w, np.ones(m.shape)]) * 255)
        var expected: [Double] = []
        for i in 0..<(Self.width * Self.height) {
            let w = Double(m[i]) / 255
            let fg = [Double(bgra[i * 4 + 2]), Double(bgra[i * 4 + 1]), Double(bgra[i * 4])].map { $0 / 255 }
            let bg: [Double] = [colour.red, colour.green, colour.blue]
            for c in 0..<3 {
                let value: Double = bg[c] + (fg[c] - bg[c]) * w
                expected.append((value * 255).rounded())
            }
            expected.append(255)
        }
        #expect(Self.maxDifference(Self.rgba(image), expected) <= 1)
        // The sample then turns it with .oriented(.left): a 16 × 24 extent at the origin.
        #expect(output.oriented(.left).extent == CGRect(x: 0, y: 0, width: Self.height, height: Self.width))
    }

    /// The saliency sample (VisionSaliency.swift): a OneComponent32Float map through CIColorMatrix with
    /// inputBVector (0, 0, 0, 1) — gray in red and green, blue from alpha (1).
    @Test func saliencySampleChainPutsAlphaInBlue() throws {
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 8, 4, kCVPixelFormatType_OneComponent32Float, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        let values = (0..<32).map { Float($0) / 31 }
        _ = CVPixelBufferLockBaseAddress(buffer, [])
        let base = CVPixelBufferGetBaseAddress(buffer)!
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for row in 0..<4 {
            values.withUnsafeBytes { (base + row * stride).copyMemory(from: $0.baseAddress! + row * 32, byteCount: 32) }
        }
        _ = CVPixelBufferUnlockBaseAddress(buffer, [])
        let ciImage = CIImage(cvPixelBuffer: buffer)
        let vector = CIVector(x: 0, y: 0, z: 0, w: 1)
        let saliencyImage = ciImage.applyingFilter("CIColorMatrix", parameters: ["inputBVector": vector])
        let image = try #require(CIContext().createCGImage(saliencyImage, from: saliencyImage.extent))
        // Reference: v = np.arange(32) / 31; out = np.rint(np.stack([v, v, np.ones(32), np.ones(32)], -1) * 255)
        let expected = values.flatMap { v in [(Double(v) * 255).rounded(), (Double(v) * 255).rounded(), 255, 255] }
        #expect(Self.maxDifference(Self.rgba(image), expected) <= 1)
    }

    /// Core Image's coordinates: a crop at (4, 3) from the bottom-left, moved to the origin and rendered into a
    /// 32BGRA pixel buffer, is the frame's rows counted from the bottom.
    @Test func renderIntoAPixelBufferUsesTheLowerLeftOrigin() throws {
        let (frame, bgra) = try Self.frame()
        let part = CIImage(cvPixelBuffer: frame).cropped(to: CGRect(x: 4, y: 3, width: 10, height: 8))
            .transformed(by: CGAffineTransform(translationX: -4, y: -3))
        #expect(part.extent == CGRect(x: 0, y: 0, width: 10, height: 8))
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 10, 8, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnSuccess)
        let out = try #require(made)
        CIContext().render(part, to: out)
        _ = CVPixelBufferLockBaseAddress(out, .readOnly)
        let base = CVPixelBufferGetBaseAddress(out)!
        let stride = CVPixelBufferGetBytesPerRow(out)
        for row in 0..<8 {
            // Output row 0 is the crop's top: frame row (height - 3 - 8) counted from the top.
            let sourceRow = Self.height - 3 - 8 + row
            let got = Array(UnsafeRawBufferPointer(start: base + row * stride, count: 40))
            #expect(got == Array(bgra[(sourceRow * Self.width + 4) * 4..<(sourceRow * Self.width + 14) * 4]))
        }
        _ = CVPixelBufferUnlockBaseAddress(out, .readOnly)
    }

    /// `oriented(_:)` turns pixels as EXIF orientation says, as OpenVision (and UIKit) do.
    @Test(arguments: [ImageOrientation.right, .left, .down, .upMirrored])
    func orientedTurnsAsVisionImage(_ orientation: ImageOrientation) throws {
        let image = try VisionImage(
            pixels: PixelBuffer(
                data: Data(Self.bytes(Self.width * Self.height * 3, seed: 5)),
                width: Self.width, height: Self.height, format: .rgb8))
        let turned = CIImage(cgImage: CGImage(visionImage: image)).oriented(orientation)
        let upright = try image.oriented(orientation)
        #expect(turned.extent == CGRect(x: 0, y: 0, width: upright.width, height: upright.height))
        let rendered = try turned.recipe.render(in: turned.extent, format: .rgb8)
        #expect(rendered.data == (try upright.pixels(in: .rgb8).data))
    }

    /// Each typed filter and its by-name twin make the ImageRecipe operation they stand for, with Core Image's
    /// parameter names and defaults.
    @Test func builtinsAndNamesAreTheRecipeOperations() throws {
        let (frame, _) = try Self.frame()
        let input = CIImage(cvPixelBuffer: frame)
        let region = CGRect(x: -3, y: -3, width: 30, height: 22)
        func render(_ image: CIImage?) throws -> Data { try #require(image).recipe.render(in: region).data }

        let blur = CIFilter.gaussianBlur()
        blur.inputImage = input
        #expect(blur.radius == 10)
        blur.radius = 1.5
        let blurByName = CIFilter(
            name: "CIGaussianBlur", parameters: [kCIInputImageKey: input, kCIInputRadiusKey: 1.5])
        #expect(try render(blur.outputImage) == render(blurByName?.outputImage))
        #expect(try render(blur.outputImage) == input.recipe.gaussianBlurred(sigma: 1.5)!.render(in: region).data)
        #expect(try render(input.applyingGaussianBlur(sigma: 1.5)) == render(blur.outputImage))

        let controls = CIFilter.colorControls()
        controls.inputImage = input
        controls.saturation = 0.3
        controls.contrast = 1.2
        controls.brightness = 0.05
        let expectedControls = input.recipe.applyingColorMatrix(
            .colorControls(
                saturation: 0.3, brightness: 0.05,
                contrast: 1.2))
        #expect(try render(controls.outputImage) == expectedControls.render(in: region).data)

        let invert = CIFilter.colorInvert()
        invert.inputImage = input
        #expect(try render(invert.outputImage) == input.recipe.applyingColorMatrix(.invert).render(in: region).data)

        let lanczos = CIFilter.lanczosScaleTransform()
        lanczos.inputImage = input
        lanczos.scale = 0.5
        lanczos.aspectRatio = 1.5
        let scaled = try #require(input.recipe.lanczosScaled(by: 0.5, aspectRatio: 1.5))
        #expect(try render(lanczos.outputImage) == scaled.render(in: region).data)

        // The document scanner's crop: CIPerspectiveCorrection by name with CIVector corners and typed with points.
        let corners = (
            tl: CGPoint(x: 3, y: 14), tr: CGPoint(x: 20, y: 15), bl: CGPoint(x: 2, y: 2),
            br: CGPoint(x: 21, y: 1)
        )
        let correction = CIFilter.perspectiveCorrection()
        correction.inputImage = input
        correction.topLeft = corners.tl
        correction.topRight = corners.tr
        correction.bottomLeft = corners.bl
        correction.bottomRight = corners.br
        #expect(correction.crop)
        let byName = input.applyingFilter(
            "CIPerspectiveCorrection",
            parameters: [
                "inputTopLeft": CIVector(cgPoint: corners.tl), "inputTopRight": CIVector(cgPoint: corners.tr),
                "inputBottomLeft": CIVector(cgPoint: corners.bl), "inputBottomRight": CIVector(cgPoint: corners.br),
            ])
        let recipe = try #require(
            input.recipe.perspectiveCorrected(
                topLeft: corners.tl, topRight: corners.tr,
                bottomLeft: corners.bl, bottomRight: corners.br))
        #expect(correction.outputImage?.extent == recipe.extent && byName.extent == recipe.extent)
        #expect(try render(correction.outputImage) == recipe.render(in: region).data)
        #expect(try render(byName) == recipe.render(in: region).data)

        // Source-over and the constant colour: a half-transparent red over the frame.
        let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).cropped(to: input.extent)
        let over = CIFilter.sourceOverCompositing()
        over.inputImage = red
        over.backgroundImage = input
        #expect(try render(over.outputImage) == render(red.composited(over: input)))
        let generated = CIFilter(name: "CIConstantColorGenerator", parameters: [kCIInputColorKey: CIColor.red])
        #expect(generated?.outputImage?.extent.isInfinite == true)

        let moved = input.applyingFilter(
            "CIAffineTransform",
            parameters: [
                kCIInputTransformKey: CGAffineTransform(translationX: 2, y: 1)
            ])
        #expect(moved.extent == CGRect(x: 2, y: 1, width: Self.width, height: Self.height))
        let cropped = input.applyingFilter("CICrop", parameters: ["inputRectangle": CIVector(x: 1, y: 2, z: 5, w: 6)])
        #expect(cropped.extent == CGRect(x: 1, y: 2, width: 5, height: 6))
    }

    /// Missing or wrongly typed parameters give a nil output, an unknown name a nil filter, as Core Image does.
    @Test func badParametersGiveNil() throws {
        #expect(CIFilter(name: "CINoSuchFilter") == nil)
        #expect(CIImage.empty().applyingFilter("CINoSuchFilter").extent.isNull)
        let (frame, _) = try Self.frame()
        let input = CIImage(cvPixelBuffer: frame)
        let blend = CIFilter.blendWithMask()
        blend.inputImage = input
        #expect(blend.outputImage == nil)  // no mask
        let blur = CIFilter(name: "CIGaussianBlur", parameters: [kCIInputImageKey: input, kCIInputRadiusKey: "ten"])
        #expect(blur?.outputImage == nil)
        let matrix = CIFilter(name: "CIColorMatrix", parameters: [kCIInputImageKey: input, "inputRVector": 3.0])
        #expect(matrix?.outputImage == nil)
        #expect(CIFilter.gaussianBlur().outputImage == nil)  // no input image
        // An unbounded image cannot be made into a CGImage; an empty region neither.
        #expect(CIContext().createCGImage(CIImage(color: .red), from: .infinite) == nil)
        #expect(CIContext().createCGImage(input, from: .null) == nil)
    }

    /// An unfiltered image of a `CGImage` or of an OpenVision image's pixel buffer renders without a copy.
    @Test func unfilteredSourcesAreNotCopied() throws {
        let image = try VisionImage(
            pixels: PixelBuffer(
                data: Data(Self.bytes(Self.width * Self.height * 3, seed: 5)),
                width: Self.width, height: Self.height, format: .rgb8))
        let fromCG = try CIImage(cgImage: CGImage(visionImage: image)).recipe.renderedImageReporting()
        #expect(fromCG.sharesSource && fromCG.image === image)
        let fromBuffer = try CIImage(cvPixelBuffer: CVPixelBuffer(visionImage: image)).recipe.renderedImageReporting()
        #expect(fromBuffer.sharesSource && fromBuffer.image === image)
    }

    /// Encoded bytes decode with their pixels as stored; junk is nil.
    @Test func dataAndURLSources() throws {
        let url = Fixtures.sharedImage("dog.jpg")
        let decoded = try VisionImage(contentsOf: url, orientation: .up)
        let image = try #require(CIImage(contentsOf: url))
        #expect(image.extent == CGRect(x: 0, y: 0, width: decoded.width, height: decoded.height))
        #expect(CIImage(data: Data([1, 2, 3, 4])) == nil)
        let vector = CIVector(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(vector.count == 4 && vector.cgRectValue == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(vector.value(at: 9) == 0)
        #expect(CIVector(string: "[1 2.5]")?.cgPointValue == CGPoint(x: 1, y: 2.5))
        #expect(CIColor(cgColor: CGColor(gray: 0.5, alpha: 1)).green == 0.5)
    }
    /// The rest of the surface: formats, bitmaps, EXIF orientations, defaults, vectors and colours.
    @Test func formatsBitmapsAndValues() throws {
        let (frame, bgra) = try Self.frame()
        let input = CIImage(cvPixelBuffer: frame)
        let context = CIContext(options: [.useSoftwareRenderer: true])
        // BGRA8 is the buffer's own bytes (opaque: premultiplied = straight); L8 is the red channel.
        let asBGRA = try #require(context.createCGImage(input, from: input.extent, format: .BGRA8, colorSpace: nil))
        #expect(asBGRA.byteOrderInfo == .order32Little && Self.rgba(asBGRA) == bgra)
        let gray = try #require(context.createCGImage(input, from: input.extent, format: .L8, colorSpace: nil))
        #expect(gray.bitsPerPixel == 8 && Self.rgba(gray) == stride(from: 2, to: bgra.count, by: 4).map { bgra[$0] })
        var bitmap = [UInt8](repeating: 7, count: 4 * 4 * 2)
        bitmap.withUnsafeMutableBytes { raw in
            context.render(
                input, toBitmap: raw.baseAddress!, rowBytes: 16,
                bounds: CGRect(x: 0, y: 0, width: 4, height: 2), format: .ARGB8, colorSpace: nil)
        }
        // Bottom two rows, first four columns, as ARGB.
        let bottom = Self.height - 2
        let expected = (bottom..<Self.height).flatMap { row in
            (0..<4).flatMap { x -> [UInt8] in
                let o = (row * Self.width + x) * 4
                return [bgra[o + 3], bgra[o + 2], bgra[o + 1], bgra[o]]
            }
        }
        #expect(bitmap == expected)

        // EXIF 6 is `.right`; its transform moves the image onto the same extent.
        let turned = input.oriented(forExifOrientation: 6)
        #expect(turned.extent == input.oriented(.right).extent)
        #expect(input.extent.applying(input.orientationTransform(forExifOrientation: 6)) == turned.extent)
        #expect(input.oriented(forExifOrientation: 0).extent == input.extent)
        #expect(input.clampedToExtent().extent.isInfinite)
        let opaque = input.settingAlphaOne(in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(opaque.extent == CGRect(x: 0, y: 0, width: 4, height: 4))

        // Defaults, keys and setDefaults.
        let matrix = CIFilter.colorMatrix()
        #expect(matrix.rVector.stringRepresentation == "[1.0 0.0 0.0 0.0]")
        #expect(matrix.inputKeys.contains("inputBiasVector") && matrix.outputKeys == [kCIOutputImageKey])
        matrix.inputImage = input
        matrix.biasVector = CIVector(x: 0.5, y: 0, z: 0, w: 0)
        matrix.setDefaults()
        #expect(matrix.inputImage == nil && matrix.biasVector.x == 0)
        #expect(CIFilter.filterNames(inCategory: nil).contains("CIPerspectiveCorrection"))
        let transform = CIFilter.perspectiveTransform()
        transform.inputImage = input
        transform.topLeft = CGPoint(x: 0, y: 32)
        transform.topRight = CGPoint(x: 48, y: 32)
        transform.bottomLeft = CGPoint(x: 0, y: 0)
        transform.bottomRight = CGPoint(x: 48, y: 0)
        #expect(transform.outputImage?.extent == CGRect(x: 0, y: 0, width: 48, height: 32))  // scaled by 2

        let values: [CGFloat] = [1, 0, 0, 1, 5, 6]
        let vector = values.withUnsafeBufferPointer { CIVector(values: $0.baseAddress!, count: 6) }
        #expect(vector.cgAffineTransformValue == CGAffineTransform(translationX: 5, y: 6))
        #expect(CIColor(string: "0.25 0.5 1")?.stringRepresentation == "0.25 0.5 1.0 1.0")
        #expect(CIColor.clear.alpha == 0 && CIColor.yellow.blue == 0 && CIColor.gray.red == 0.5)
    }
}
