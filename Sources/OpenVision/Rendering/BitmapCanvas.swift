internal import CNative
import Foundation

/// Drawing onto 8-bit pixels in memory the caller owns — a Core Graphics bitmap context's memory, a pixel buffer's
/// base address: filled and stroked polygons, cleared rectangles and images through an affine map, each blended
/// "source over" into the pixels' own layout (OpenCV's rasteriser). Pixel coordinates, origin top-left, a pixel's
/// centre at integer coordinates. The memory must stay valid and unchanged by others while a canvas draws on it.
public struct BitmapCanvas {
    /// How the pixels are laid out.
    public struct Layout: Sendable, Hashable {
        /// Components per pixel: 1, 3 or 4.
        public var channels: Int
        /// The component holding alpha, nil for none (an unused component is nil too and left as it is).
        public var alphaIndex: Int?
        /// Whether the colour components are premultiplied by alpha.
        public var premultiplied: Bool

        /// A layout of these components.
        public init(channels: Int, alphaIndex: Int?, premultiplied: Bool) {
            self.channels = channels
            self.alphaIndex = alphaIndex
            self.premultiplied = premultiplied
        }
    }

    /// The pixels.
    public let pixels: UnsafeMutableRawBufferPointer
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The layout.
    public let layout: Layout

    /// A canvas over `pixels`; throws `invalidArgument` when the layout does not fit the memory.
    public init(
        pixels: UnsafeMutableRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
        layout: Layout
    ) throws(VisionError) {
        try Self.check(count: pixels.count, width: width, height: height, bytesPerRow: bytesPerRow, layout: layout)
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.layout = layout
    }

    /// Fills the area of `polygons` (closed) with `components` (one value 0...255 per component, in the pixels'
    /// order; the alpha slot is ignored) at opacity `alpha`, by the even-odd rule or non-zero winding. OpenCV's
    /// rasteriser paints the pixels its rounded edges touch, so an edge may reach one pixel beyond the exact area.
    public func fill(
        polygons: [[CGPoint]], evenOdd: Bool = false, antialias: Bool = true, components: [Double],
        alpha: Double = 1
    ) throws(VisionError) {
        guard components.count == layout.channels else {
            throw VisionError(.invalidArgument, "\(components.count) colour components for \(layout.channels) channels")
        }
        var xy = polygons.flatMap { $0.flatMap { [Float($0.x), Float($0.y)] } }
        var counts = polygons.map { Int32($0.count) }
        var bitmap = native
        let status = ov_bitmap_fill_polygons(
            &bitmap, &xy, &counts, Int32(polygons.count), evenOdd ? 1 : 0,
            antialias ? 1 : 0, components, alpha)
        try NativeError.check(status, "fill")
    }

    /// Fills `rect` (axis-aligned, in pixel-edge coordinates: pixel (i, j) is the square from (i, j) to
    /// (i + 1, j + 1)) with `components` at opacity `alpha`, each pixel weighted by the part of it the rectangle
    /// covers: whole-pixel edges colour exactly the pixels inside. (`fill(polygons:)` follows OpenCV's rasteriser,
    /// whose edges may reach one pixel further.)
    public func fill(rect: CGRect, components: [Double], alpha: Double = 1) throws(VisionError) {
        guard components.count == layout.channels else {
            throw VisionError(.invalidArgument, "\(components.count) colour components for \(layout.channels) channels")
        }
        var bitmap = native
        let status = ov_bitmap_fill_rect(
            &bitmap, Double(rect.minX), Double(rect.minY), Double(rect.maxX),
            Double(rect.maxY), components, alpha)
        try NativeError.check(status, "fill rectangle")
    }

    /// Strokes `polylines`, `lineWidth` pixels wide (rounded, at least 1; round ends), with `components` at opacity
    /// `alpha`.
    public func stroke(
        polylines: [(points: [CGPoint], closed: Bool)], lineWidth: Double, antialias: Bool = true,
        components: [Double], alpha: Double = 1
    ) throws(VisionError) {
        guard components.count == layout.channels else {
            throw VisionError(.invalidArgument, "\(components.count) colour components for \(layout.channels) channels")
        }
        var xy = polylines.flatMap { $0.points.flatMap { [Float($0.x), Float($0.y)] } }
        var counts = polylines.map { Int32($0.points.count) }
        var closed = polylines.map { Int32($0.closed ? 1 : 0) }
        var bitmap = native
        let status = ov_bitmap_stroke_polylines(
            &bitmap, &xy, &counts, &closed, Int32(polylines.count),
            Float(lineWidth), antialias ? 1 : 0, components, alpha)
        try NativeError.check(status, "stroke")
    }

    /// Sets the pixels of the rectangle (clipped to the canvas) to 0, transparent black.
    public func clear(x: Int, y: Int, width: Int, height: Int) throws(VisionError) {
        var bitmap = native
        try NativeError.check(
            ov_bitmap_clear(
                &bitmap, Int32(clamping: x), Int32(clamping: y), Int32(clamping: width),
                Int32(clamping: height)), "clear")
    }

    /// Draws the pixels of `source` (`sourceWidth` × `sourceHeight`, rows of `sourceBytesPerRow`, in
    /// `sourceLayout`) through `transform` ([a, b, tx, c, d, ty] row-major: source pixel (u, v) goes to
    /// (a·u + b·v + tx, c·u + d·v + ty)), bilinear when `interpolate`, at opacity `alpha`. `channelMap[k]` is the
    /// source component for component k (nil: none; the alpha component takes the source's alpha, or 255).
    public func draw(
        _ source: UnsafeRawBufferPointer, sourceWidth: Int, sourceHeight: Int, sourceBytesPerRow: Int,
        sourceLayout: Layout, transform: [Double], channelMap: [Int?], alpha: Double = 1,
        interpolate: Bool = true
    ) throws(VisionError) {
        try Self.check(
            count: source.count, width: sourceWidth, height: sourceHeight, bytesPerRow: sourceBytesPerRow,
            layout: sourceLayout)
        guard transform.count == 6, channelMap.count == layout.channels,
            channelMap.allSatisfy({ $0 == nil || (0..<sourceLayout.channels).contains($0!) })
        else {
            throw VisionError(
                .invalidArgument,
                "a transform of 6 values and a source component for each of "
                    + "\(layout.channels) components are needed")
        }
        var destination = native
        var from = ov_bitmap(
            pixels: UnsafeMutableRawPointer(mutating: source.baseAddress), width: Int32(sourceWidth),
            height: Int32(sourceHeight), stride: sourceBytesPerRow, channels: Int32(sourceLayout.channels),
            alpha_index: Int32(sourceLayout.alphaIndex ?? -1),
            premultiplied: sourceLayout.premultiplied ? 1 : 0)
        let map = channelMap.map { Int32($0 ?? -1) }
        let status = ov_bitmap_draw(&destination, &from, transform, map, alpha, interpolate ? 1 : 0)
        try NativeError.check(status, "draw image")
    }

    private var native: ov_bitmap {
        ov_bitmap(
            pixels: pixels.baseAddress, width: Int32(width), height: Int32(height), stride: bytesPerRow,
            channels: Int32(layout.channels), alpha_index: Int32(layout.alphaIndex ?? -1),
            premultiplied: layout.premultiplied ? 1 : 0)
    }

    private static func check(
        count: Int, width: Int, height: Int, bytesPerRow: Int,
        layout: Layout
    ) throws(VisionError) {
        guard [1, 3, 4].contains(layout.channels), (1...32768).contains(width), (1...32768).contains(height),
            layout.alphaIndex.map({ (0..<layout.channels).contains($0) }) ?? true,
            bytesPerRow >= width * layout.channels, count >= (height - 1) * bytesPerRow + width * layout.channels
        else {
            throw VisionError(
                .invalidArgument,
                "\(width)×\(height) pixels of \(layout.channels) components with "
                    + "\(bytesPerRow) bytes per row do not fit \(count) bytes")
        }
    }
}
