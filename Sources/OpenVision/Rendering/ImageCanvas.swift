internal import CNative
import Foundation

/// A mutable drawing surface: start from a blank canvas or a copy of an image, draw shapes,
/// text and other images on it in pixel coordinates (top-left origin), then take the result
/// as an immutable `VisionImage`. Used for overlays, labels and generated test scenes.
public struct ImageCanvas: ~Copyable {
    private var image: VisionImage

    /// A `width` × `height` canvas filled with `color`.
    public init(width: Int, height: Int, color: OverlayColor = .white) throws(VisionError) {
        guard width > 0, height > 0, width <= 32768, height <= 32768 else {
            throw VisionError(.invalidArgument, "canvas size \(width)×\(height) must be 1...32768 on each side")
        }
        var handle: OpaquePointer?
        try NativeError.check(
            ov_image_create_filled(
                Int32(width), Int32(height), Int32(color.red), Int32(color.green),
                Int32(color.blue), &handle), "create canvas")
        image = VisionImage(owning: handle!)
    }

    /// A canvas holding a copy of `image` (the original is not changed).
    public init(copying image: VisionImage) throws(VisionError) {
        self.image = try image.copy()
    }

    /// Width in pixels (the image's).
    public var width: Int { image.width }
    /// Height in pixels (the image's).
    public var height: Int { image.height }

    /// Fills the polygon through `points` (pixels, top-left origin).
    public mutating func fill(polygon points: [CGPoint], color: OverlayColor) throws(VisionError) {
        var xy = points.flatMap { [Float($0.x), Float($0.y)] }
        try NativeError.check(
            ov_image_fill_polygon(
                image.handle, &xy, Int32(points.count), Int32(color.red),
                Int32(color.green), Int32(color.blue)), "fill polygon")
    }

    /// Strokes the polyline through `points`, closed or open.
    public mutating func stroke(polyline points: [CGPoint], closed: Bool, color: OverlayColor, lineWidth: Int = 2)
        throws(VisionError)
    {
        var xy = points.flatMap { [Float($0.x), Float($0.y)] }
        try NativeError.check(
            ov_image_draw_polyline(
                image.handle, &xy, Int32(points.count), closed ? 1 : 0, Int32(color.red),
                Int32(color.green), Int32(color.blue), Int32(lineWidth)), "stroke")
    }

    /// Blends a one-channel map (values 0...1, e.g. a saliency heat map) stretched over `region`
    /// (normalised, lower-left origin), coloured blue → red, each pixel mixed in with weight
    /// `opacity` × value. Throws `invalidArgument` for a map that is not one channel or an opacity outside 0...1.
    public mutating func blend(
        heatMap: PixelBufferObservation, over region: NormalizedRect = .fullImage,
        opacity: Double = 0.6
    ) throws(VisionError) {
        guard heatMap.channels == 1 else {
            throw VisionError(.invalidArgument, "a heat map has one channel, not \(heatMap.channels)")
        }
        let r = region.toImageCoordinates(CGSize(width: width, height: height), origin: .upperLeft)
        let handle = image.handle
        let status = heatMap.withUnsafeBufferPointer { values in
            ov_image_blend_heat_map(
                handle, values.baseAddress, Int32(heatMap.width), Int32(heatMap.height),
                Int32(r.minX.rounded()), Int32(r.minY.rounded()), Int32(max(1, r.width.rounded())),
                Int32(max(1, r.height.rounded())), Float(opacity))
        }
        try NativeError.check(status, "blend heat map")
    }

    /// A filled dot of `radius` pixels at `centre`.
    public mutating func dot(at centre: CGPoint, radius: Double, color: OverlayColor) throws(VisionError) {
        try NativeError.check(
            ov_image_draw_circle(
                image.handle, Float(centre.x), Float(centre.y), Float(radius),
                Int32(color.red), Int32(color.green), Int32(color.blue), -1), "dot")
    }

    /// A label: `text` on a filled `background` box, baseline-left at `origin`; `scale` 1 ≈ 20 px high. The font
    /// (OpenCV's Hershey) draws printable ASCII only: other characters are drawn as `hersheyText` gives them
    /// (accents dropped, typographic punctuation as its ASCII look-alike, the rest left out); a label with nothing
    /// left to draw draws nothing.
    public mutating func label(
        _ text: String, at origin: CGPoint, scale: Double = 1, color: OverlayColor = .white,
        background: OverlayColor = .black
    ) throws(VisionError) {
        let text = Self.hersheyText(text)
        guard !text.isEmpty else { return }
        try NativeError.check(
            ov_image_draw_label(
                image.handle, text, Float(origin.x), Float(origin.y), Float(scale),
                Int32(color.red), Int32(color.green), Int32(color.blue),
                Int32(background.red), Int32(background.green), Int32(background.blue)),
            "label")
    }

    /// What OpenCV's Hershey font can draw of `text` (it draws printable ASCII, and "?" for each byte of anything
    /// else): letters with accents or other marks as their base letter (é → e), a few typographic characters as
    /// their ASCII look-alikes (· • → |, – — → -, ‘ ’ → ', “ ” → ", … → ..., × → x), anything else left out, and
    /// runs of spaces as one.
    static func hersheyText(_ text: String) -> String {
        let lookAlikes: [Character: String] = [
            "·": "|", "•": "|", "–": "-", "—": "-", "‘": "'", "’": "'", "“": "\"", "”": "\"", "…": "...", "×": "x",
            "\u{00A0}": " ",
        ]
        var out = ""
        for character in text {
            if let ascii = lookAlikes[character] {
                out += ascii
                continue
            }
            if character == "\t" || character == "\n" {
                out += " "
                continue
            }
            // The base letter of a letter with marks: its first scalar, when the rest are combining marks.
            let scalars = String(character).decomposedStringWithCanonicalMapping.unicodeScalars
            guard let base = scalars.first, (32...126).contains(base.value) else { continue }
            out.unicodeScalars.append(base)
        }
        var squeezed = ""
        for c in out where !(c == " " && squeezed.last == " ") { squeezed.append(c) }
        return squeezed.trimmingCharacters(in: .whitespaces)
    }

    /// Text set in a TrueType font file, `pixelHeight` tall, baseline-left at `origin`.
    public mutating func text(
        _ text: String, at origin: CGPoint, fontFile: String, pixelHeight: Int,
        color: OverlayColor = .black
    ) throws(VisionError) {
        try NativeError.check(
            ov_image_draw_text_ttf(
                image.handle, text, fontFile, Int32(pixelHeight), Int32(origin.x.rounded()),
                Int32(origin.y.rounded()), Int32(color.red), Int32(color.green),
                Int32(color.blue)), "text")
    }

    /// Draws `other` with its top-left at `origin`, scaled by `scale` and rotated `degrees`
    /// counter-clockwise about its centre.
    public mutating func draw(
        _ other: VisionImage, at origin: CGPoint, rotationDegrees degrees: Double = 0,
        scale: Double = 1
    ) throws(VisionError) {
        try NativeError.check(
            ov_image_paste(
                image.handle, other.handle, Float(origin.x), Float(origin.y), Float(degrees),
                Float(scale)), "draw image")
    }

    /// The drawing as an immutable image; the canvas is consumed.
    public consuming func makeImage() -> VisionImage { image }
}
