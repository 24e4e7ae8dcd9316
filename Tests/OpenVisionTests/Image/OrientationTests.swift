import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct OrientationTests {
    /// An upright scene with an unambiguous orientation: a QR code top-left and a dark bar at the bottom.
    static func uprightScene() throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: 400, height: 300)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "upright", symbology: .qr, moduleSize: 4), on: &canvas, x: 20, y: 20)
        try Fixtures.fill([(0, 270), (400, 270), (400, 300), (0, 300)], on: &canvas, gray: 60)
        return canvas.makeImage()
    }

    @Test(arguments: ImageOrientation.allCases)
    func explicitOrientationGivesTheUprightImage(_ orientation: ImageOrientation) async throws {
        let upright = try Self.uprightScene()
        let stored = try upright.oriented(Fixtures.inverse(orientation))
        #expect(stored.width == (orientation.swapsDimensions ? 300 : 400))
        let png = try stored.encoded(as: .png)
        let handler = ImageRequestHandler(data: png, orientation: orientation)
        let image = try handler.image()
        #expect(image.width == 400 && image.height == 300)
        #expect(Fixtures.meanDifference(image, upright) < 0.001)
        // Results are relative to the upright image: the code sits top-left every time.
        let codes = try await handler.perform(DetectBarcodesRequest(symbologies: [.qr]))
        let code = try #require(codes.first)
        #expect(code.payloadString == "upright")
        #expect(code.boundingBox.midX < 0.5 && code.boundingBox.midY > 0.5, "\(orientation): \(code.boundingBox)")
        #expect(code.topLeft.y > code.bottomLeft.y && code.topRight.x > code.topLeft.x)
    }

    @Test(arguments: ImageOrientation.allCases)
    func exifOrientationIsHonoured(_ orientation: ImageOrientation) throws {
        let upright = try Self.uprightScene()
        let stored = try upright.oriented(Fixtures.inverse(orientation))
        let jpeg = Fixtures.jpegWithEXIF(try stored.encoded(as: .jpeg, quality: 95), orientation: orientation)
        let image = try ImageRequestHandler(data: jpeg).image()
        #expect(image.width == 400 && image.height == 300)
        #expect(Fixtures.meanDifference(image, upright) < 3)
    }

    @Test func explicitOrientationOverridesEXIF() throws {
        let upright = try Self.uprightScene()
        let jpeg = Fixtures.jpegWithEXIF(try upright.encoded(as: .jpeg, quality: 95), orientation: .right)
        // EXIF says "right" (turn 90°); the caller says the pixels are already upright.
        let image = try ImageRequestHandler(data: jpeg, orientation: .up).image()
        #expect(image.width == 400 && image.height == 300)
        #expect(try ImageRequestHandler(data: jpeg).image().width == 300)
    }
}
