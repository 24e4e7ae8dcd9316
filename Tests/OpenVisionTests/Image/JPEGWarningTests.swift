import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// JPEGs are decoded by libjpeg itself so that its warnings reach the caller; the pixels stay those
/// of OpenCV's imdecode, and a damaged file says so instead of passing as a good image.
@Suite struct JPEGWarningTests {
    static func sums(_ data: Data) -> (Int, Int) {
        data.reduce(into: (0, 0)) {
            $0.0 += Int($1)
            $0.1 += Int($1) * Int($1)
        }
    }

    /// The first half of dog.jpg with an end-of-image marker appended: it decodes, gray below the cut.
    static func truncatedJPEG() throws -> Data {
        let whole = try Data(contentsOf: Fixtures.sharedImage("dog.jpg"))
        return whole.prefix(whole.count / 2) + Data([0xFF, 0xD9])
    }

    /// Sums of the decoded bytes equal OpenCV 4.6's (Debian python3-opencv, same libjpeg):
    /// `a = cv2.imdecode(np.fromfile('dog.jpg', np.uint8), MODE | cv2.IMREAD_IGNORE_ORIENTATION).astype(np.int64); a.sum(), (a*a).sum()`
    /// with MODE = IMREAD_COLOR → 169954419, 25649429047; IMREAD_GRAYSCALE → 58768142, 8882992402;
    /// IMREAD_REDUCED_COLOR_2 → 42488295, 6379867763.
    @Test func pixelsAreOpenCVs() throws {
        let url = Fixtures.sharedImage("dog.jpg")
        let color = try ImageRequestHandler(url).image()
        #expect(color.decoderWarnings.isEmpty)
        let (colorSum, colorSquares) = Self.sums(color.rgbData())
        #expect(colorSum == 169_954_419 && colorSquares == 25_649_429_047)

        let gray = try ImageRequestHandler(url).grayImage()
        #expect(gray.isGrayscale)
        let (graySum, graySquares) = Self.sums(gray.rgbData())
        #expect(graySum == 3 * 58_768_142 && graySquares == 3 * 8_882_992_402)

        let half = try ImageRequestHandler(url).context.image(for: .fullImage) { _, _ in 0.5 }
        #expect(half.width == 384 && half.height == 288)
        let (halfSum, halfSquares) = Self.sums(half.rgbData())
        #expect(halfSum == 42_488_295 && halfSquares == 6_379_867_763)
    }

    @Test func truncatedJPEGCarriesWarnings() throws {
        let data = try Self.truncatedJPEG()
        let image = try VisionImage(data: data)
        #expect(image.width == 768 && image.height == 576)
        #expect(
            image.decoderWarnings.first == "Corrupt JPEG data: premature end of data segment",
            "\(image.decoderWarnings)")
        #expect(image.decoderWarnings.count <= 5)

        let handler = ImageRequestHandler(data: data)
        #expect(handler.decoderWarnings().isEmpty)  // nothing decoded yet
        _ = try handler.grayImage()
        #expect(handler.decoderWarnings().first == "Corrupt JPEG data: premature end of data segment")
        #expect(ImageRequestHandler(Fixtures.sharedImage("dog.jpg")).decoderWarnings().isEmpty)
    }

    /// Gray requests that accept a reduced scale (saliency, contours, horizon, …) decode the luma plane at
    /// 1/2–1/8 scale: a damaged JPEG's warnings must reach the report from those decodes too.
    @Test func reducedLumaDecodesCarryWarnings() async throws {
        let handler = ImageRequestHandler(data: try Self.truncatedJPEG())
        let outcomes = await handler.performAll([GenerateAttentionBasedSaliencyImageRequest()])
        #expect(outcomes[0].error == nil)
        #expect(
            handler.decoderWarnings().first == "Corrupt JPEG data: premature end of data segment",
            "\(handler.decoderWarnings())")
    }

    @Test func strictDecodingRefusesADamagedJPEG() async throws {
        let data = try Self.truncatedJPEG()
        #expect { _ = try VisionImage(data: data, strictDecoding: true) } throws: {
            ($0 as? VisionError)?.code == .invalidImage
        }
        let handler = ImageRequestHandler(data: data, strictDecoding: true)
        await #expect { _ = try await handler.perform(DetectBarcodesRequest()) } throws: {
            ($0 as? VisionError)?.code == .invalidImage && "\($0)".contains("premature end of data segment")
        }
        // A clean file is unaffected.
        _ = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"), strictDecoding: true)
    }
}
