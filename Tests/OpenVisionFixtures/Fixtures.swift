import Foundation
import OpenVision

/// Paths to `../shared` and image builders shared by the tests and the benchmarks.
public enum Fixtures {
    /// The repository root (two levels above this file's folder).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `../shared` beside the repository, or `OPENVISION_SHARED` when CI puts it elsewhere.
    public static let shared: URL = {
        if let env = ProcessInfo.processInfo.environment["OPENVISION_SHARED"] { return URL(fileURLWithPath: env) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    public static func sharedImage(_ name: String) -> URL {
        shared.appendingPathComponent("images").appendingPathComponent(name)
    }

    public static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A white (or `gray`) canvas.
    public static func canvas(width: Int, height: Int, gray: UInt8 = 255) throws -> ImageCanvas {
        try ImageCanvas(width: width, height: height, color: OverlayColor(red: gray, green: gray, blue: gray))
    }

    public static func grayColor(_ g: UInt8) -> OverlayColor { OverlayColor(red: g, green: g, blue: g) }

    /// Draws `text` with DejaVu Sans, baseline-left at (x, y) pixels, top-left origin.
    public static func drawText(
        _ text: String, on canvas: inout ImageCanvas, x: Int, y: Int, height: Int, gray: UInt8 = 0
    ) throws {
        try canvas.text(text, at: CGPoint(x: x, y: y), fontFile: font, pixelHeight: height, color: grayColor(gray))
    }

    /// Fills the polygon (pixels, top-left origin) with a gray level.
    public static func fill(_ points: [(Double, Double)], on canvas: inout ImageCanvas, gray: UInt8 = 0) throws {
        try canvas.fill(polygon: points.map { CGPoint(x: $0.0, y: $0.1) }, color: grayColor(gray))
    }

    /// Pastes `source` with its top-left at (x, y), rotated counter-clockwise by `degrees` about its centre.
    /// A QR code (payload "qr-payload") and an EAN-13 barcode (payload "5901234123457") side by side on white, as a
    /// PNG: what the `symbologies` option's tests read (zxing-cpp decodes both when no symbology is named).
    public static func qrAndEAN13PNG() throws -> Data {
        var canvas = try canvas(width: 640, height: 320)
        try paste(
            try BarcodeGenerator.image(for: "qr-payload", symbology: .qr, moduleSize: 6), on: &canvas, x: 40, y: 60)
        try paste(
            try BarcodeGenerator.image(for: "5901234123457", symbology: .ean13, moduleSize: 3), on: &canvas, x: 320,
            y: 80)
        return try canvas.makeImage().encoded(as: .png)
    }

    public static func paste(
        _ source: VisionImage, on canvas: inout ImageCanvas, x: Double, y: Double, degrees: Double = 0,
        scale: Double = 1
    ) throws {
        try canvas.draw(source, at: CGPoint(x: x, y: y), rotationDegrees: degrees, scale: scale)
    }

    /// The orientation that undoes `o` (so that storing `upright.oriented(inverse(o))` and reading with `o` gives `upright`).
    public static func inverse(_ o: ImageOrientation) -> ImageOrientation {
        switch o {
        case .right: .left
        case .left: .right
        default: o
        }
    }

    /// Mean absolute difference of two same-size images' RGB bytes.
    public static func meanDifference(_ a: VisionImage, _ b: VisionImage) -> Double {
        let da = a.rgbData()
        let db = b.rgbData()
        guard da.count == db.count, !da.isEmpty else { return .infinity }
        var sum = 0
        for i in 0..<da.count { sum += abs(Int(da[i]) - Int(db[i])) }
        return Double(sum) / Double(da.count)
    }

    /// Inserts an EXIF APP1 segment carrying `orientation` right after a JPEG's SOI marker.
    public static func jpegWithEXIF(_ jpeg: Data, orientation: ImageOrientation) -> Data {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // big-endian TIFF, IFD at 8
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation.rawValue), 0, 0]  // Orientation SHORT
        tiff += [0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        var out = Data(jpeg.prefix(2))
        out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        out += jpeg.dropFirst(2)
        return out
    }
}

extension NormalizedPoint {
    public func distance(to other: NormalizedPoint) -> Double { hypot(x - other.x, y - other.y) }
}
