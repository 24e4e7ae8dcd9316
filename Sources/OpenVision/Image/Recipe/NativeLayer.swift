internal import CNative
import Foundation

/// Owns one native layer (`ov_layer`, premultiplied RGBA over an integer rectangle of the lower-left plane), freed
/// in deinit. Used only while a recipe renders.
final class NativeLayer {
    let handle: OpaquePointer

    /// Takes ownership of `handle`.
    init(owning handle: OpaquePointer) { self.handle = handle }

    deinit { ov_layer_free(handle) }

    var rect: PixelRect { PixelRect(ov_layer_rect(handle)) }

    /// A second handle on the same pixels: a consumer that writes in place then copies them first.
    func shared() throws(VisionError) -> NativeLayer {
        var out: OpaquePointer?
        try NativeError.check(ov_layer_share(handle, &out), "share layer")
        return NativeLayer(owning: out!)
    }

    /// Whether the pixels are memory of `image` (a view made without copying).
    func sharesPixels(with image: VisionImage) -> Bool { ov_layer_shares_image(handle, image.handle) != 0 }

    /// How the pixels are stored, for render reports: "bgr8", "gray8", "rgba8" or "rgbaf".
    var kindName: String {
        switch ov_layer_kind_of(handle) {
        case Int32(OV_LAYER_BGR8.rawValue): "bgr8"
        case Int32(OV_LAYER_GRAY8.rawValue): "gray8"
        case Int32(OV_LAYER_RGBA8.rawValue): "rgba8"
        default: "rgbaf"
        }
    }
}

/// An integer rectangle of the lower-left plane (a layer's pixels, a region of interest).
struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// Plane coordinates are kept inside ±2^29 (the native layer's bound), which also stands for "unbounded".
    static let bound = 1 << 29

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(_ r: ov_rect) { self.init(x: Int(r.x), y: Int(r.y), width: Int(r.width), height: Int(r.height)) }

    /// The pixels whose centres lie inside `rect` (an infinite or huge rect is cut at the plane's bound).
    init(centresIn rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        func edge(_ v: CGFloat) -> Int {
            let b = Double(Self.bound)
            return Int(max(-b, min(b, (Double(v) - 0.5).rounded(.up))))
        }
        let x0 = edge(rect.minX)
        let x1 = edge(rect.maxX)
        let y0 = edge(rect.minY)
        let y1 = edge(rect.maxY)
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The pixels `rect` touches at all (outward-rounded; an infinite rect is cut at the plane's bound).
    init(covering rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let b = Double(Self.bound)
        let x0 = Int(max(-b, min(b, Double(rect.minX).rounded(.down))))
        let x1 = Int(max(-b, min(b, Double(rect.maxX).rounded(.up))))
        let y0 = Int(max(-b, min(b, Double(rect.minY).rounded(.down))))
        let y1 = Int(max(-b, min(b, Double(rect.maxY).rounded(.up))))
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    var isEmpty: Bool { width <= 0 || height <= 0 }
    var maxX: Int { x + width }
    var maxY: Int { y + height }
    var pixelCount: Int { isEmpty ? 0 : width * height }
    var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
    var native: ov_rect { ov_rect(x: Int32(x), y: Int32(y), width: Int32(width), height: Int32(height)) }

    func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(x, other.x)
        let y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    func insetBy(_ d: Int) -> PixelRect { PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }

    /// The smallest rectangle that holds the part of `self` nearest to `bounds`: `self` ∩ `bounds` when they overlap,
    /// else the edge rows or columns of `bounds` facing `self` (what clamping `bounds`' edges outward reads).
    func projected(into bounds: PixelRect) -> PixelRect {
        guard !bounds.isEmpty, !isEmpty else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        func span(_ lo: Int, _ hi: Int, _ blo: Int, _ bhi: Int) -> (Int, Int) {
            let a = min(max(lo, blo), bhi - 1)
            let b = max(min(hi, bhi), blo + 1)
            return (a, max(a + 1, b))
        }
        let (x0, x1) = span(x, maxX, bounds.x, bounds.maxX)
        let (y0, y1) = span(y, maxY, bounds.y, bounds.maxY)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// "width×height", for render reports.
    var size: String { "\(width)×\(height)" }
    var description: String { "\(width)×\(height) at (\(x), \(y))" }
}
