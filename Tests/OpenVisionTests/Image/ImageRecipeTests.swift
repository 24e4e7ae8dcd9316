import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// ImageRecipe: pixels against OpenCV / numpy (the Python reference is kept in each test and run on the same
/// input), Core Image's lower-left coordinates, fusion (one pass per chain) and bad input.
@Suite struct ImageRecipeTests {
    static let width = 48, height = 36

    /// A textured opaque scene: gradients plus noise, so that half-pixel mistakes show.
    static func sceneRGB(width: Int = width, height: Int = height, seed: UInt64 = 7) -> Data {
        var random = SplitMix(seed: seed)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 3
                bytes[o] = UInt8(clamping: x * 255 / width / 2 + Int(random.next() * 128))
                bytes[o + 1] = UInt8(clamping: y * 255 / height / 2 + Int(random.next() * 128))
                bytes[o + 2] = UInt8(clamping: (x + y) % 7 * 30 + Int(random.next() * 60))
            }
        }
        return Data(bytes)
    }

    static func scene(width: Int = width, height: Int = height, seed: UInt64 = 7) throws -> VisionImage {
        try VisionImage(
            pixels: PixelBuffer(
                data: sceneRGB(width: width, height: height, seed: seed), width: width,
                height: height, format: .rgb8))
    }

    /// The scene as a reference input: H×W×3 uint8 RGB, row 0 at the top.
    static func sceneArray(width: Int = width, height: Int = height, seed: UInt64 = 7) -> NumpyReference.Array {
        NumpyReference.Array(data: sceneRGB(width: width, height: height, seed: seed), shape: [height, width, 3])
    }

    /// Premultiplied RGBA floats (0...1) of a render.
    static func floats(_ pixels: PixelBuffer) -> [Float] { pixels.data.map { Float($0) / 255 } }

    /// The largest difference, in 1/255 steps.
    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        precondition(a.count == b.count, "\(a.count) values against \(b.count)")
        return zip(a, b).map { abs($0 - $1) }.max().map { $0 * 255 } ?? 0
    }

    /// Python prelude shared by the references: the scene as premultiplied float RGBA (opaque), and the map from an
    /// output pixel index to an input pixel index for plane rectangles (lower-left origin, pixel centres at +0.5).
    static let prelude = """
        rgba = np.dstack([src.astype(np.float32) / 255, np.ones(src.shape[:2], np.float32)])
        def index_map(inverse, out_rect, in_height):
            x, y, w, h = out_rect
            to_plane = np.array([[1, 0, x + 0.5], [0, -1, y + h - 0.5], [0, 0, 1]])
            to_index = np.array([[1, 0, -0.5], [0, -1, in_height - 0.5], [0, 0, 1]])
            return to_index @ np.array(inverse).reshape(3, 3) @ to_plane
        def warp(image, inverse, out_rect, border=cv2.BORDER_CONSTANT):
            m = index_map(inverse, out_rect, image.shape[0])
            flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
            size = (out_rect[2], out_rect[3])
            if abs(m[2, 0]) < 1e-12 and abs(m[2, 1]) < 1e-12:
                return cv2.warpAffine(image, m[:2] / m[2, 2], size, flags=flags, borderMode=border, borderValue=0)
            return cv2.warpPerspective(image, m, size, flags=flags, borderMode=border, borderValue=0)

        """

    static func reference(_ code: String, _ inputs: [String: NumpyReference.Array] = [:]) throws -> [Float] {
        var all = inputs
        if all["src"] == nil { all["src"] = sceneArray() }
        return try NumpyReference.run(prelude + code, inputs: all)
    }

    // MARK: Coordinates

    @Test func originIsLowerLeft() throws {
        let image = try Self.scene()
        let recipe = ImageRecipe(image: image)
        #expect(recipe.extent == CGRect(x: 0, y: 0, width: Self.width, height: Self.height))
        // The bottom-left 10 × 5 pixels are the last five rows of the top-down pixels, first ten columns.
        let corner = recipe.cropped(to: CGRect(x: 0, y: 0, width: 10, height: 5))
        #expect(corner.extent == CGRect(x: 0, y: 0, width: 10, height: 5))
        let rendered = try corner.render(in: corner.extent, format: .rgb8)
        let rgb = Self.sceneRGB()
        var expected = Data()
        for y in (Self.height - 5)..<Self.height { expected += rgb[(y * Self.width * 3)..<(y * Self.width * 3 + 30)] }
        #expect(rendered.data == expected)
        // Moving up by 7 puts the bottom row at y = 7; rendering (0, 7, w, h) gives the image back unchanged.
        let moved = recipe.transformed(by: Matrix3x3(rowMajor: [1, 0, 0, 0, 1, 7, 0, 0, 1]))
        #expect(moved.extent.minY == 7)
        let back = try moved.render(in: CGRect(x: 0, y: 7, width: Self.width, height: Self.height), format: .rgb8)
        #expect(back.data == rgb)
    }

    @Test(arguments: ImageOrientation.allCases)
    func orientedIsVisionImageOriented(_ orientation: ImageOrientation) throws {
        let image = try Self.scene()
        let recipe = ImageRecipe(image: image).oriented(orientation)
        let expected = try image.oriented(orientation)
        #expect(recipe.extent == CGRect(x: 0, y: 0, width: expected.width, height: expected.height))
        let (rendered, passes, _) = try recipe.renderedImageReporting()
        #expect(rendered.rgbData() == expected.rgbData(), "\(orientation)")
        #expect(passes.count == (orientation == .up ? 0 : 1), "\(passes)")
    }

    // MARK: Geometry against OpenCV

    @Test func affineTransformIsWarpAffine() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let angle = 17.0 * Double.pi / 180
        let s = 0.8
        let matrix = Matrix3x3(rowMajor: [
            s * cos(angle), -s * sin(angle), 5.5, s * sin(angle), s * cos(angle), -3.25,
            0, 0, 1,
        ])
        let recipe = ImageRecipe(image: try Self.scene()).transformed(by: matrix)
        let rect = PixelRect(covering: recipe.extent)
        let (pixels, passes) = try recipe.renderReporting(in: rect.cgRect)
        #expect(passes.count == 1)
        let inverse = matrix.inverse!.rowMajor
        // python3: the scene transformed by cv2.warpAffine with the same plane matrix (transparent outside).
        let expected = try Self.reference(
            "out = warp(rgba, \(inverse), (\(rect.x), \(rect.y), \(rect.width), \(rect.height)))")
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    @Test func threeTransformsAndACropAreOneWarp() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let scale = Matrix3x3(rowMajor: [1.3, 0, 0, 0, 0.9, 0, 0, 0, 1])
        let rotate = Matrix3x3(rowMajor: [cos(0.3), -sin(0.3), 0, sin(0.3), cos(0.3), 0, 0, 0, 1])
        let move = Matrix3x3(rowMajor: [1, 0, 12, 0, 1, -4, 0, 0, 1])
        let crop = CGRect(x: 10, y: 3, width: 30, height: 22)
        let recipe = ImageRecipe(image: try Self.scene()).transformed(by: scale).transformed(by: rotate)
            .transformed(by: move).cropped(to: crop)
        let (pixels, passes) = try recipe.renderReporting(in: crop)
        #expect(passes == ["resample image 30×22 (4 operations)"])
        let inverse = (move * rotate * scale).inverse!.rowMajor
        // python3: one cv2.warpAffine with the composed matrix over the crop.
        let expected = try Self.reference("out = warp(rgba, \(inverse), (10, 3, 30, 22))")
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    @Test func perspectiveCorrectionIsWarpPerspective() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        // A quadrilateral in Core Image's coordinates (lower-left origin).
        let tl = CGPoint(x: 6.5, y: 31)
        let tr = CGPoint(x: 41, y: 27.5)
        let bl = CGPoint(x: 3, y: 4)
        let br = CGPoint(x: 44, y: 9)
        let recipe = try #require(
            ImageRecipe(image: try Self.scene())
                .perspectiveCorrected(topLeft: tl, topRight: tr, bottomLeft: bl, bottomRight: br))
        // Width: the longer of top (34.7) and bottom (41.3) edges; height: the longer of left (27.2) and right (18.7).
        #expect(recipe.extent == CGRect(x: 0, y: 0, width: 41, height: 27))
        let (pixels, passes) = try recipe.renderReporting(in: recipe.extent)
        #expect(passes.count == 1)
        // python3: cv2.getPerspectiveTransform from the corners (top-down pixel coordinates, centres at integers)
        // to the output's corners, then cv2.warpPerspective.
        let expected = try Self.reference(
            """
            h = src.shape[0]
            quad = np.float32([[6.5, 31], [41, 27.5], [3, 4], [44, 9]])
            quad = np.float32([[x - 0.5, h - y - 0.5] for x, y in quad])
            rect = np.float32([[-0.5, -0.5], [40.5, -0.5], [-0.5, 26.5], [40.5, 26.5]])
            m = cv2.getPerspectiveTransform(quad, rect)
            out = cv2.warpPerspective(rgba, m, (41, 27), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
            """)
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    @Test func anUprightQuadrilateralIsACrop() throws {
        let recipe = ImageRecipe(image: try Self.scene())
        let corrected = try #require(
            recipe.perspectiveCorrected(
                topLeft: CGPoint(x: 4, y: 30), topRight: CGPoint(x: 24, y: 30),
                bottomLeft: CGPoint(x: 4, y: 10), bottomRight: CGPoint(x: 24, y: 10)))
        let crop = recipe.cropped(to: CGRect(x: 4, y: 10, width: 20, height: 20))
            .transformed(by: Matrix3x3(rowMajor: [1, 0, -4, 0, 1, -10, 0, 0, 1]))
        #expect(corrected.extent == crop.extent)
        #expect(try corrected.render(in: corrected.extent).data == crop.render(in: crop.extent).data)
    }

    // MARK: Filters against OpenCV / numpy

    @Test func gaussianBlurIsOpenCVs() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let recipe = try #require(ImageRecipe(image: try Self.scene()).gaussianBlurred(sigma: 2))
        // The extent grows by ceil(3 sigma) = 6 on each side, fading into the transparent outside.
        #expect(recipe.extent == CGRect(x: -6, y: -6, width: Self.width + 12, height: Self.height + 12))
        let pixels = try recipe.render(in: recipe.extent)
        // python3: the zero-padded premultiplied scene through cv2.GaussianBlur, 13 taps, sigma 2.
        let expected = try Self.reference(
            """
            padded = cv2.copyMakeBorder(rgba, 6, 6, 6, 6, cv2.BORDER_CONSTANT, value=0)
            out = cv2.GaussianBlur(padded, (13, 13), 2, borderType=cv2.BORDER_CONSTANT)
            """)
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    @Test func clampedBlurCroppedIsAReplicateBorderBlur() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let source = ImageRecipe(image: try Self.scene())
        let recipe = try #require(source.clampedToExtent().gaussianBlurred(sigma: 1.5)).cropped(to: source.extent)
        #expect(recipe.extent == source.extent)
        let (pixels, passes) = try recipe.renderReporting(in: recipe.extent)
        // The clamp is one resampling (edges repeated) of the region the blur reads, then the blur.
        #expect(passes == ["resample image 58×46 (1 operations)", "gaussian blur 48×36"])
        // python3: cv2.GaussianBlur with a replicated border, 11 taps, sigma 1.5.
        let expected = try Self.reference(
            "out = cv2.GaussianBlur(rgba, (11, 11), 1.5, borderType=cv2.BORDER_REPLICATE)")
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    @Test(arguments: [0.4, 1.7])
    func lanczosScaleIsTheSeparableLanczos3(_ scale: Double) throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let recipe = try #require(ImageRecipe(image: try Self.scene()).lanczosScaled(by: scale))
        let rect = PixelRect(covering: recipe.extent)
        let pixels = try recipe.render(in: rect.cgRect)
        // python3 (numpy): Lanczos-3 weights per axis, the kernel stretched by 1/scale when shrinking, normalised over
        // all taps with the outside transparent; output pixel centre c maps to input (c + 0.5) / scale - 0.5,
        // counted from the left and from the bottom.
        let expected = try Self.reference(
            """
            def weights(n_out, n_in, s):
                stretch = max(1.0, 1.0 / s); support = 3 * stretch
                w = np.zeros((n_out, n_in), np.float64)
                for i in range(n_out):
                    c = (i + 0.5) / s - 0.5
                    j = np.arange(int(np.ceil(c - support)), int(np.floor(c + support)) + 1)
                    t = (j - c) / stretch
                    k = np.where(np.abs(t) < 3, np.sinc(t) * np.sinc(t / 3), 0)
                    inside = (j >= 0) & (j < n_in)
                    w[i, j[inside]] = k[inside] / k.sum()
                return w
            wx = weights(\(rect.width), rgba.shape[1], \(scale))
            wy = weights(\(rect.height), rgba.shape[0], \(scale))
            # Rows count from the bottom: the plane's origin is lower-left.
            out = np.clip(np.einsum('yi,xj,ijc->yxc', wy, wx, rgba[::-1])[::-1], 0, 1)  # 8-bit output clamps
            """)
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    /// A straight-alpha RGBA source: the scene with alpha falling from 1 (left) to 0.2 (right).
    static func translucentPixels() -> (PixelBuffer, NumpyReference.Array) {
        let rgb = [UInt8](sceneRGB())
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let x = i % width
            rgba[4 * i] = rgb[3 * i]
            rgba[4 * i + 1] = rgb[3 * i + 1]
            rgba[4 * i + 2] = rgb[3 * i + 2]
            rgba[4 * i + 3] = UInt8(255 - x * 204 / (width - 1))
        }
        let data = Data(rgba)
        return (
            PixelBuffer(data: data, width: width, height: height, format: .rgba8),
            NumpyReference.Array(data: data, shape: [height, width, 4])
        )
    }

    @Test func colorMatrixActsOnStraightColour() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let (pixels, array) = Self.translucentPixels()
        let matrix = ColorMatrix(
            red: [0.5, 0.2, 0, 0.1], green: [0, 1.1, -0.3, 0], blue: [0.2, 0.2, 0.2, 0.3],
            alpha: [0, 0, 0, 0.9], bias: [0.05, -0.1, 0, 0.05])
        let recipe = try ImageRecipe(pixels: pixels, alpha: .straight).applyingColorMatrix(matrix)
        let (rendered, passes) = try recipe.renderReporting(in: recipe.extent)
        #expect(passes.count == 2)  // the source (premultiplied on import), the colour matrix
        // python3 (numpy): straight colour times the matrix plus bias, alpha clamped to 0...1, then premultiplied.
        let expected = try Self.reference(
            """
            straight = px.astype(np.float32) / 255
            m = np.float32([[0.5, 0.2, 0, 0.1], [0, 1.1, -0.3, 0], [0.2, 0.2, 0.2, 0.3], [0, 0, 0, 0.9]])
            v = straight @ m.T + np.float32([0.05, -0.1, 0, 0.05])
            v[..., 3] = np.clip(v[..., 3], 0, 1)
            v[..., :3] *= v[..., 3:]
            out = np.clip(v, 0, 1)  # as 8-bit output is
            """, ["px": array])
        // The source itself is premultiplied in 8 bits first (up to half a step off), hence 1.5 steps.
        #expect(Self.maxDifference(Self.floats(rendered), expected) <= 1.5)
    }

    @Test func colorControlsAndInvertFuseAndFollowTheDocumentedFormulas() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let recipe = ImageRecipe(image: try Self.scene())
            .applyingColorMatrix(.colorControls(saturation: 0.6, brightness: 0.08, contrast: 1.3))
            .applyingColorMatrix(.invert)
        let (pixels, passes) = try recipe.renderReporting(in: recipe.extent)
        #expect(passes == ["resample image 48×36 (0 operations)", "color matrix 48×36 (2 operations)"])
        // python3 (numpy): Core Image's colour controls — saturation mixes with the Rec. 709 luma, contrast scales
        // about 0.5, brightness adds — then invert (1 - c), clamped as 8-bit output is.
        let expected = try Self.reference(
            """
            c = rgba[..., :3]
            luma = c @ np.float32([0.2126, 0.7152, 0.0722])
            c = luma[..., None] + 0.6 * (c - luma[..., None])
            c = (c - 0.5) * 1.3 + 0.5 + 0.08
            out = np.dstack([np.clip(1 - c, 0, 1), rgba[..., 3]])
            """)
        #expect(Self.maxDifference(Self.floats(pixels), expected) <= 1)
    }

    @Test func sourceOverIsPorterDuff() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let (pixels, array) = Self.translucentPixels()
        let foreground = try ImageRecipe(pixels: pixels, alpha: .straight)
        let background = ImageRecipe(image: try Self.scene(seed: 99))
        let recipe = foreground.composited(over: background)
        let rendered = try recipe.render(in: recipe.extent)
        // python3 (numpy): premultiplied foreground + background * (1 - foreground alpha).
        let expected = try Self.reference(
            """
            a = px[..., 3:].astype(np.float32) / 255
            fg = np.dstack([px[..., :3].astype(np.float32) / 255 * a, a])
            bg = np.dstack([bgsrc.astype(np.float32) / 255, np.ones(bgsrc.shape[:2], np.float32)])
            out = fg + bg * (1 - a)
            """, ["px": array, "bgsrc": Self.sceneArray(seed: 99)])
        #expect(Self.maxDifference(Self.floats(rendered), expected) <= 1.5)
    }

    /// A pixel function in the linear working space: each input linearised (unpremultiplied, decoded, premultiplied),
    /// the function on both inputs and the pixel centres, the result encoded back; the translucent input is
    /// transparent outside its extent (the output's extent is wider), so there only the scene counts.
    @Test func pixelFunctionRunsInLinearSRGB() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let (pixels, array) = Self.translucentPixels()
        let translucent = try ImageRecipe(pixels: pixels, alpha: .straight)
        let scene = ImageRecipe(image: try Self.scene(width: 60, height: 36, seed: 99))
        let function = PixelFunction(name: "half-and-half", workingSpace: .linearSRGB) { block in
            let a = block.inputs[0]
            let b = block.inputs[1]
            // Half of each, and the pixel centre's x / 100 added to red (premultiplied by the result's alpha).
            let alpha = zip(a.alpha, b.alpha).map { 0.5 * $0 + 0.5 * $1 }
            return PixelFunction.Planes(
                red: (0..<block.count).map { 0.5 * a.red[$0] + 0.5 * b.red[$0] + block.x[$0] / 100 * alpha[$0] },
                green: zip(a.green, b.green).map { 0.5 * $0 + 0.5 * $1 },
                blue: zip(a.blue, b.blue).map { 0.5 * $0 + 0.5 * $1 }, alpha: alpha)
        }
        let recipe = ImageRecipe(
            pixelFunction: function, inputs: [translucent, scene], extent: CGRect(x: 0, y: 0, width: 60, height: 36))
        let (rendered, passes) = try recipe.renderReporting(in: recipe.extent)
        #expect(passes.last == "pixel function half-and-half 60×36", "\(passes)")
        // python3 (numpy): linearise both (the translucent one as its 8-bit premultiplied layer holds it, padded
        // with transparent columns), the function, encode; premultiplied output as rendered.
        let expected = try Self.reference(
            """
            def lin(v): return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
            def enc(v):
                v = np.clip(v, 0, 1)
                return np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)
            a = np.zeros((36, 60), np.float64); a[:, :48] = px[..., 3] / 255
            pm = (px[..., :3].astype(np.int32) * px[..., 3:] + 127) // 255  # the layer's 8-bit premultiplication
            fg = np.zeros((36, 60, 3)); fg[:, :48] = lin(pm / 255 / a[:, :48, None]) * a[:, :48, None]
            bg = lin(bgsrc / 255.0)
            alpha = 0.5 * a + 0.5
            colour = 0.5 * fg + 0.5 * bg
            colour[..., 0] += (np.arange(60) + 0.5)[None, :] / 100 * alpha
            out = np.dstack([enc(colour / alpha[..., None]) * alpha[..., None], alpha])
            out = np.round(np.clip(out, 0, 1) * 255) / 255
            """, ["px": array, "bgsrc": Self.sceneArray(width: 60, height: 36, seed: 99)])
        #expect(Self.maxDifference(Self.floats(rendered), expected) <= 1.01)
    }

    @Test(arguments: [ImageRecipe.MaskChannel.red, .green, .alpha])
    func blendWithMaskInterpolates(_ channel: ImageRecipe.MaskChannel) throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let (maskPixels, maskArray) = Self.translucentPixels()
        let mask = try ImageRecipe(pixels: maskPixels, alpha: .straight)
        let foreground = ImageRecipe(image: try Self.scene())
        let background = ImageRecipe(image: try Self.scene(seed: 99))
        let recipe = foreground.blended(with: mask, background: background, maskChannel: channel)
        let rendered = try recipe.render(in: recipe.extent)
        // python3 (numpy): background + (foreground - background) * m, m the mask's premultiplied channel.
        let expected = try Self.reference(
            """
            a = maskpx[..., 3:].astype(np.float32) / 255
            mask = np.dstack([maskpx[..., :3].astype(np.float32) / 255 * a, a])
            m = mask[..., \(channel.rawValue):\(channel.rawValue + 1)]
            bg = np.dstack([bgsrc.astype(np.float32) / 255, np.ones(bgsrc.shape[:2], np.float32)])
            out = bg + (rgba - bg) * m
            """, ["maskpx": maskArray, "bgsrc": Self.sceneArray(seed: 99)])
        #expect(Self.maxDifference(Self.floats(rendered), expected) <= 1.5)
    }

    @Test func constantColourIsUnboundedUntilCropped() throws {
        let color = ImageRecipe(color: RGBAColor(red: 1, green: 0.5, blue: 0.25, alpha: 0.5))
        #expect(color.extent.isInfinite)
        #expect(throws: VisionError.self) { try color.render(in: color.extent) }
        let patch = color.cropped(to: CGRect(x: -3, y: 2, width: 4, height: 3))
        let pixels = try patch.render(in: CGRect(x: -4, y: 2, width: 5, height: 3))
        // Premultiplied (0.5, 0.25, 0.125, 0.5) → 128, 64, 32, 128 (rounded), left column outside the crop.
        let row: [UInt8] = [0, 0, 0, 0] + Array([[UInt8]](repeating: [128, 64, 32, 128], count: 4).joined())
        #expect([UInt8](pixels.data) == Array([row, row, row].joined()))
        #expect(try patch.render(in: patch.extent, premultiplied: false).data.prefix(4) == Data([255, 128, 64, 128]))
    }

    // MARK: Sources

    @Test func pixelBufferLayoutsReadAsOpenCVConvertsThem() throws {
        guard RequiredTools.runs(NumpyReference.available) else { return }
        let rgb = [UInt8](Self.sceneRGB())
        var bgra = [UInt8]()
        var nv12 = [UInt8](repeating: 128, count: Self.width * Self.height * 3 / 2)
        for i in 0..<(Self.width * Self.height) {
            bgra += [rgb[3 * i + 2], rgb[3 * i + 1], rgb[3 * i], 255]
            nv12[i] = rgb[3 * i + 1]
        }
        for i in 0..<(Self.width * Self.height / 2) { nv12[Self.width * Self.height + i] = UInt8(100 + i % 50) }
        let fromBGRA = try ImageRecipe(
            pixels: PixelBuffer(
                data: Data(bgra), width: Self.width, height: Self.height,
                format: .bgra8))
        #expect(try fromBGRA.render(in: fromBGRA.extent, format: .rgb8).data == Self.sceneRGB())
        let fromNV12 = try ImageRecipe(
            pixels: PixelBuffer(
                data: Data(nv12), width: Self.width, height: Self.height,
                format: .nv12))
        let rendered = try fromNV12.render(in: fromNV12.extent, format: .rgb8)
        // python3: cv2.cvtColor(COLOR_YUV2RGB_NV12).
        let expected = try Self.reference(
            "out = cv2.cvtColor(yuv, cv2.COLOR_YUV2RGB_NV12).astype(np.float32)",
            ["yuv": NumpyReference.Array(data: Data(nv12), shape: [Self.height * 3 / 2, Self.width])])
        #expect(Self.maxDifference(rendered.data.map { Float($0) / 255 }, expected.map { $0 / 255 }) == 0)
        let gray = try ImageRecipe(grayValues: (0..<12).map { Float($0) / 11 }, width: 4, height: 3)
        #expect(
            [UInt8](try gray.render(in: gray.extent, format: .gray8).data)
                == (0..<12).map { UInt8((Double($0) / 11 * 255).rounded()) })
    }

    // MARK: Laziness, sharing and no copies

    @Test func aSharedInputRunsOnceAndOnlyOverWhatIsRead() throws {
        // The matte sample's shape: one mask image used both as the mask and, coloured, as the background.
        let frame = ImageRecipe(image: try Self.scene())
        let mask = try #require(
            try ImageRecipe(pixels: Self.translucentPixels().0, alpha: .straight).gaussianBlurred(sigma: 1))
        let background = mask.applyingColorMatrix(
            ColorMatrix(
                red: [0, 0, 0, 0.2], green: [0, 0, 0, 0.7],
                blue: [0, 0, 0, 0.1]))
        let recipe = frame.blended(with: mask, background: background, maskChannel: .red)
        let (_, passes) = try recipe.renderReporting(in: CGRect(x: 10, y: 10, width: 8, height: 6))
        // The mask's blur runs once, over the 8 × 6 pixels asked for (reading 14 × 12 source pixels); the colour
        // matrix works on a copy, as the blend still reads the mask.
        #expect(
            passes == [
                "resample image 8×6 (0 operations)", "resample pixels 14×12 (0 operations)",
                "gaussian blur 8×6", "color matrix 8×6 (1 operations)", "blend with mask 8×6",
            ], "\(passes)")
    }

    @Test func anUnfilteredImageOrAWholePixelCropCopiesNoPixels() throws {
        let image = try Self.scene()
        let plain = try ImageRecipe(image: image).renderedImageReporting()
        #expect(plain.image === image && plain.passes.isEmpty)
        let cropped = try ImageRecipe(image: image).cropped(to: CGRect(x: 5, y: 6, width: 20, height: 10))
            .renderedImageReporting()
        #expect(cropped.sharesSource && cropped.passes == ["resample image 20×10 (1 operations)"])
        #expect(cropped.image.width == 20 && cropped.image.height == 10)
    }

    // MARK: Bad input

    @Test func badParametersGiveNilOrTypedErrors() throws {
        let recipe = ImageRecipe(image: try Self.scene())
        #expect(recipe.gaussianBlurred(sigma: -1) == nil)
        #expect(recipe.gaussianBlurred(sigma: .nan) == nil)
        #expect(recipe.lanczosScaled(by: 0) == nil)
        #expect(
            recipe.perspectiveCorrected(
                topLeft: .zero, topRight: CGPoint(x: 1, y: 1), bottomLeft: CGPoint(x: 2, y: 2),
                bottomRight: CGPoint(x: 5, y: 0)) == nil)
        #expect(throws: VisionError.self) { try recipe.clampedToExtent().render(in: .infinite) }
        #expect { try recipe.render(in: CGRect(x: 0, y: 0, width: 20_000, height: 20_000)) } throws: {
            ($0 as? VisionError)?.code == .imageTooLarge
        }
        // A huge blur of a small region: the region it reads is over the limit, refused before any work.
        let huge = try #require(recipe.gaussianBlurred(sigma: 5_000))
        #expect { try huge.render(in: CGRect(x: 0, y: 0, width: 4, height: 4)) } throws: {
            ($0 as? VisionError)?.code == .imageTooLarge
        }
        #expect(throws: VisionError.self) { try recipe.render(in: recipe.extent, format: .nv12) }
        #expect(throws: VisionError.self) {
            try ImageRecipe(pixels: PixelBuffer(data: Data(count: 10), width: 4, height: 4, format: .rgba8))
        }
    }
}
