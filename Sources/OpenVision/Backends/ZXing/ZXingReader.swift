internal import CNative
internal import CZXing
import Foundation

/// `DetectBarcodesRequest`'s backend: zxing-cpp 3.1's C API on the gray plane (rotated, inverted
/// and downscaled passes on, plain text mode).
enum ZXingReader {
    /// Every code zxing-cpp finds in `image`, in Vision's coordinates relative to it.
    static func read(_ image: VisionImage, symbologies: [BarcodeSymbology], tryHarder: Bool) throws(VisionError)
        -> [BarcodeObservation]
    {
        try image.withGrayPixels { (pixels, stride) throws(VisionError) in
            try read(
                pixels: pixels, stride: stride, width: image.width, height: image.height,
                map: PixelToNormalized(image),
                symbologies: symbologies, tryHarder: tryHarder)
        }
    }

    private static func read(
        pixels: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, map: PixelToNormalized,
        symbologies: [BarcodeSymbology], tryHarder: Bool
    ) throws(VisionError) -> [BarcodeObservation] {
        guard
            let view = ZXing_ImageView_new(pixels, Int32(width), Int32(height), ZXing_ImageFormat_Lum, Int32(stride), 1)
        else {
            throw VisionError(.internalError, "zxing-cpp: \(lastError())")
        }
        defer { ZXing_ImageView_delete(view) }
        guard let options = ZXing_ReaderOptions_new() else { throw VisionError(.outOfMemory, "zxing-cpp options") }
        defer { ZXing_ReaderOptions_delete(options) }
        ZXing_ReaderOptions_setTryHarder(options, tryHarder)
        ZXing_ReaderOptions_setTryRotate(options, true)
        ZXing_ReaderOptions_setTryInvert(options, true)
        ZXing_ReaderOptions_setTryDownscale(options, true)
        ZXing_ReaderOptions_setTextMode(options, ZXing_TextMode_Plain)
        if Set(symbologies) != Set(BarcodeSymbology.allCases) {
            let formats = symbologies.flatMap(ZXingFormats.readerFormats(for:))
            ZXing_ReaderOptions_setFormats(options, formats, Int32(formats.count))
        }
        guard let barcodes = ZXing_ReadBarcodes(view, options) else {
            throw VisionError(.internalError, "zxing-cpp failed: \(lastError())")
        }
        defer { ZXing_Barcodes_delete(barcodes) }
        var observations: [BarcodeObservation] = []
        for i in 0..<ZXing_Barcodes_size(barcodes) {
            guard let barcode = ZXing_Barcodes_at(barcodes, i), ZXing_Barcode_isValid(barcode),
                let symbology = ZXingFormats.symbology(for: ZXing_Barcode_format(barcode))
            else { continue }
            var length: Int32 = 0
            let bytesPointer = ZXing_Barcode_bytes(barcode, &length)
            let bytes = bytesPointer.map { Data(bytes: $0, count: Int(length)) } ?? Data()
            ZXing_free(bytesPointer)
            let text = try Self.text(of: barcode)
            let contentType = ZXing_Barcode_contentType(barcode)
            let p = ZXing_Barcode_position(barcode)
            observations.append(
                BarcodeObservation(
                    symbology: symbology,
                    payloadString: text,
                    payloadData: bytes,
                    isColorInverted: ZXing_Barcode_isInverted(barcode),
                    isMirrored: ZXing_Barcode_isMirrored(barcode),
                    isGS1DataCarrier: contentType == ZXing_ContentType_GS1,
                    orientationDegrees: Int(ZXing_Barcode_orientation(barcode)),
                    topLeft: map.point(Double(p.topLeft.x), Double(p.topLeft.y)),
                    topRight: map.point(Double(p.topRight.x), Double(p.topRight.y)),
                    bottomRight: map.point(Double(p.bottomRight.x), Double(p.bottomRight.y)),
                    bottomLeft: map.point(Double(p.bottomLeft.x), Double(p.bottomLeft.y))))
        }
        return observations
    }

    /// The barcode's whole text, NUL characters included (zxing-cpp's C string would stop at the first one);
    /// nil when zxing-cpp has none.
    private static func text(of barcode: OpaquePointer) throws(VisionError) -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        try NativeError.check(ov_zxing_barcode_text(UnsafeRawPointer(barcode), &buffer, &length), "barcode text")
        defer { ov_free(buffer) }
        guard let buffer else { return nil }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    static func lastError() -> String {
        guard let message = ZXing_LastErrorMsg() else { return "unknown error" }
        defer { ZXing_free(message) }
        return String(cString: message)
    }
}
