internal import CZXing
import Foundation

/// Creates barcode images with zxing-cpp's writer: labels, test charts, round trips.
public enum BarcodeGenerator {
    /// An image of `payload` encoded as `symbology`, `moduleSize` pixels per module, with quiet zones.
    /// Throws `invalidArgument` for a payload the symbology cannot hold and `unsupported` for a
    /// symbology without a writer (see `BarcodeSymbology.creatable`).
    public static func image(for payload: String, symbology: BarcodeSymbology, moduleSize: Int = 4) throws(VisionError)
        -> VisionImage
    {
        try image(symbology: symbology, moduleSize: moduleSize, describing: "'\(payload)'") { creator in
            let utf8 = Array(payload.utf8)
            return utf8.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    ZXing_CreateBarcodeFromText($0, Int32(buffer.count), creator)
                }
            }
        }
    }

    /// An image of the raw bytes `payload` (binary mode: QR, Data Matrix, Aztec, PDF417), as
    /// `image(for:symbology:moduleSize:)` otherwise.
    public static func image(for payload: Data, symbology: BarcodeSymbology, moduleSize: Int = 4) throws(VisionError)
        -> VisionImage
    {
        try image(symbology: symbology, moduleSize: moduleSize, describing: "\(payload.count) bytes") { creator in
            payload.withUnsafeBytes { ZXing_CreateBarcodeFromBytes($0.baseAddress, Int32($0.count), creator) }
        }
    }

    private static func image(
        symbology: BarcodeSymbology, moduleSize: Int, describing payload: String,
        create: (OpaquePointer) -> OpaquePointer?
    ) throws(VisionError) -> VisionImage {
        guard let format = ZXingFormats.creatorFormat(for: symbology) else {
            throw VisionError(
                .unsupported,
                "cannot create \(symbology) barcodes (creatable: \(BarcodeSymbology.creatable.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        guard (1...64).contains(moduleSize) else { throw VisionError(.invalidArgument, "moduleSize must be 1...64") }
        guard let creator = ZXing_CreatorOptions_new(format) else {
            throw VisionError(.outOfMemory, "zxing-cpp creator")
        }
        defer { ZXing_CreatorOptions_delete(creator) }
        guard let barcode = create(creator) else {
            throw VisionError(.invalidArgument, "cannot encode \(payload) as \(symbology): \(ZXingReader.lastError())")
        }
        defer { ZXing_Barcode_delete(barcode) }
        guard let writer = ZXing_WriterOptions_new() else { throw VisionError(.outOfMemory, "zxing-cpp writer") }
        defer { ZXing_WriterOptions_delete(writer) }
        ZXing_WriterOptions_setScale(writer, Int32(moduleSize))
        ZXing_WriterOptions_setAddQuietZones(writer, true)
        ZXing_WriterOptions_setAddHRT(writer, false)
        guard let zimage = ZXing_WriteBarcodeToImage(barcode, writer) else {
            throw VisionError(.internalError, "cannot render \(symbology): \(ZXingReader.lastError())")
        }
        defer { ZXing_Image_delete(zimage) }
        let width = Int(ZXing_Image_width(zimage))
        let height = Int(ZXing_Image_height(zimage))
        guard ZXing_Image_format(zimage) == ZXing_ImageFormat_Lum, let data = ZXing_Image_data(zimage) else {
            throw VisionError(.internalError, "zxing-cpp returned an unexpected image format")
        }
        let pixels = PixelBuffer(
            data: Data(bytes: data, count: width * height), width: width, height: height, format: .gray8)
        return try VisionImage(pixels: pixels)
    }
}
