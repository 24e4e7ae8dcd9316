import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct BarcodeTests {
    /// Payloads valid for each creatable symbology.
    static let payloads: [(BarcodeSymbology, String)] = [
        (.qr, "Hello OpenVision"), (.dataMatrix, "DM-2026-11-22"), (.aztec, "AZTEC 123"), (.pdf417, "PDF417 payload"),
        (.code128, "CODE128-abc"), (.code39, "CODE39"), (.code93, "CODE93"), (.codabar, "A12345B"),
        (.ean13, "4006381333931"), (.ean8, "96385074"), (.upca, "036000291452"), (.i2of5, "12345678"),
        (.telepen, "TELEPEN-1"),
    ]

    /// Generates a code, places it on a larger white canvas (rotated by `degrees`), and returns the canvas.
    static func scene(
        _ payload: String, _ symbology: BarcodeSymbology, degrees: Double = 0,
        inverted: Bool = false
    ) throws -> VisionImage {
        let code = try BarcodeGenerator.image(for: payload, symbology: symbology, moduleSize: 4)
        let (width, height) = (max(600, code.width * 2), max(500, code.height * 2))
        var canvas = try Fixtures.canvas(width: width, height: height)
        try Fixtures.paste(
            code, on: &canvas, x: Double(width - code.width) / 2, y: Double(height - code.height) / 2,
            degrees: degrees)
        let image = canvas.makeImage()
        guard inverted else { return image }
        // Light-on-dark: invert every pixel.
        let rgb = image.rgbData().map { 255 - $0 }
        return try VisionImage(
            pixels: PixelBuffer(data: Data(rgb), width: image.width, height: image.height, format: .rgb8))
    }

    @Test(arguments: payloads.map { $0.0 })
    func generatedCodesDecode(_ symbology: BarcodeSymbology) async throws {
        let payload = Self.payloads.first { $0.0 == symbology }!.1
        let image = try Self.scene(payload, symbology)
        let results = try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest())
        // UPC-A is EAN-13 with a leading zero; like Vision, the reader reports it as EAN-13.
        let (expectedSymbology, expectedPayload) =
            symbology == .upca ? (BarcodeSymbology.ean13, "0" + payload) : (symbology, payload)
        let match = results.first { $0.symbology == expectedSymbology }
        #expect(
            match?.payloadString == expectedPayload,
            "\(symbology): \(results.map { "\($0.symbology) \($0.payloadString ?? "-")" })")
        if let match {
            #expect(match.payloadData == Data(expectedPayload.utf8))
            // Centred on the canvas.
            #expect(abs(match.boundingBox.midX - 0.5) < 0.05 && abs(match.boundingBox.midY - 0.5) < 0.05)
        }
    }

    @Test(arguments: [17.0, 45.0, 90.0, 160.0, 270.0])
    func rotatedQRCode(_ degrees: Double) async throws {
        let image = try Self.scene("rotated \(Int(degrees))", .qr, degrees: degrees)
        let results = try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest(symbologies: [.qr]))
        #expect(results.map(\.payloadString) == ["rotated \(Int(degrees))"])
    }

    @Test func rotatedLinearCode() async throws {
        let image = try Self.scene("ROT-128", .code128, degrees: 90)
        let results = try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest())
        #expect(results.map(\.payloadString) == ["ROT-128"])
    }

    /// zxing-cpp's inversion pass finds light-on-dark matrix codes (linear ones are not tried inverted).
    @Test(arguments: [BarcodeSymbology.qr, .dataMatrix, .aztec])
    func invertedCodes(_ symbology: BarcodeSymbology) async throws {
        let image = try Self.scene("INV-1", symbology, inverted: true)
        let results = try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest())
        #expect(results.map(\.payloadString) == ["INV-1"])
        #expect(results.first?.isColorInverted == true)
    }

    @Test func severalCodesInOneImageWithCorners() async throws {
        var canvas = try Fixtures.canvas(width: 900, height: 400)
        let qr = try BarcodeGenerator.image(for: "left", symbology: .qr, moduleSize: 5)
        let dm = try BarcodeGenerator.image(for: "right", symbology: .dataMatrix, moduleSize: 6)
        try Fixtures.paste(qr, on: &canvas, x: 50, y: 80)
        try Fixtures.paste(dm, on: &canvas, x: 600, y: 120)
        let image = canvas.makeImage()
        let results = try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest())
        #expect(Set(results.compactMap(\.payloadString)) == ["left", "right"])
        let left = try #require(results.first { $0.payloadString == "left" })
        // The QR symbol (without its 4-module quiet zone on each side) starts 4×5 = 20 px inside the pasted image.
        let expectedTopLeft = NormalizedPoint(imagePoint: CGPoint(x: 70, y: 100), in: image.size, origin: .upperLeft)
        #expect(left.topLeft.distance(to: expectedTopLeft) < 0.01, "\(left.topLeft) vs \(expectedTopLeft)")
        #expect(left.topLeft.y > left.bottomLeft.y, "lower-left origin: top is above bottom")
        #expect(results.first { $0.payloadString == "right" }?.symbology == .dataMatrix)
    }

    @Test func symbologyFilterAndRegionOfInterest() async throws {
        var canvas = try Fixtures.canvas(width: 800, height: 400)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "Q", symbology: .qr, moduleSize: 5), on: &canvas, x: 40, y: 100)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "C128", symbology: .code128, moduleSize: 3), on: &canvas, x: 450, y: 150)
        let handler = ImageRequestHandler(image: canvas.makeImage())
        let onlyQR = try await handler.perform(DetectBarcodesRequest(symbologies: [.qr]))
        #expect(onlyQR.map(\.payloadString) == ["Q"])
        var rightHalf = DetectBarcodesRequest()
        rightHalf.regionOfInterest = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 1)
        let right = try await handler.perform(rightHalf)
        #expect(right.map(\.payloadString) == ["C128"])
        // Results are relative to the region; mapped back they lie in the right half.
        let full = try #require(right.first).boundingBox.toFullImage(fromRegionOfInterest: rightHalf.regionOfInterest)
        #expect(full.minX > 0.5)
    }

    /// Binary content keeps its exact bytes, and its text is one ISO 8859-1 character per byte, as
    /// Python zxing-cpp 3.1.1 reads the same code:
    /// `zxingcpp.read_barcodes(img, text_mode=zxingcpp.TextMode.Plain)[0].text == '\x80\x81\x01ABÿ'`.
    @Test(arguments: [BarcodeSymbology.dataMatrix, .qr, .aztec])
    func binaryPayloadKeepsBytesAndText(_ symbology: BarcodeSymbology) async throws {
        let bytes = Data([0x80, 0x81, 0x01, 0x41, 0x42, 0xFF])
        let code = try BarcodeGenerator.image(for: bytes, symbology: symbology, moduleSize: 4)
        let results = try await ImageRequestHandler(image: code).perform(DetectBarcodesRequest())
        #expect(results.count == 1)
        #expect(results.first?.symbology == symbology)
        #expect(results.first?.payloadData == bytes)
        #expect(results.first?.payloadString == "\u{80}\u{81}\u{01}AB\u{FF}")
    }

    /// NUL characters are text like any other: the whole payload is kept in `payloadString` and in the JSON's
    /// `payload` (escaped `\u0000`), where zxing-cpp's C string stopped at the first NUL. As Python zxing-cpp 3.1.1
    /// reads the same payload: `b = zxingcpp.create_barcode(b'OV\0\0NUL\0', zxingcpp.BarcodeFormat.QRCode);
    /// zxingcpp.read_barcodes(b.to_image(scale=4), text_mode=zxingcpp.TextMode.Plain)[0].text == 'OV\x00\x00NUL\x00'`
    /// (also for DataMatrix and Aztec).
    @Test(arguments: [BarcodeSymbology.qr, .dataMatrix, .aztec])
    func nulCharactersAreKept(_ symbology: BarcodeSymbology) async throws {
        let bytes = Data([0x4F, 0x56, 0x00, 0x00, 0x4E, 0x55, 0x4C, 0x00])
        let code = try BarcodeGenerator.image(for: bytes, symbology: symbology, moduleSize: 4)
        let handler = ImageRequestHandler(image: code)
        let results = try await handler.perform(DetectBarcodesRequest())
        #expect(results.count == 1)
        #expect(results.first?.payloadData == bytes)
        #expect(results.first?.payloadString == "OV\u{0}\u{0}NUL\u{0}")
        #expect(results.first?.payloadString?.unicodeScalars.count == 8)
        var report = try AnalysisReport(image: "nul.png", handler: handler)
        report.add(results)
        let json = String(decoding: try report.jsonData(pretty: false), as: UTF8.self)
        #expect(json.contains(#""payload":"OV\u0000\u0000NUL\u0000""#), "\(json)")
    }

    /// Every symbology zxing-cpp reads is on: Telepen (not in Vision) is read and named.
    @Test func telepenIsReadAndFilterable() async throws {
        let image = try Self.scene("TELEPEN-1", .telepen)
        #expect(
            try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest(symbologies: [.telepen])).map(
                \.payloadString) == ["TELEPEN-1"])
        #expect(try await ImageRequestHandler(image: image).perform(DetectBarcodesRequest(symbologies: [.qr])).isEmpty)
    }

    @Test func emptyImageHasNoCodes() async throws {
        let results = try await ImageRequestHandler(image: try Fixtures.canvas(width: 300, height: 200).makeImage())
            .perform(DetectBarcodesRequest())
        #expect(results.isEmpty)
    }

    @Test func invalidPayloadIsAnError() {
        #expect(throws: VisionError.self) { _ = try BarcodeGenerator.image(for: "not digits", symbology: .ean13) }
    }
}
