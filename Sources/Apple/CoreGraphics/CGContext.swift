import Foundation
import OpenVision

/// How a path is painted by `drawPath(using:)`.
public enum CGPathDrawingMode: Int32, Sendable {
    /// Fill, non-zero winding.
    case fill = 0
    /// Fill, even-odd.
    case eoFill = 1
    /// Stroke.
    case stroke = 2
    /// Fill (non-zero winding), then stroke.
    case fillStroke = 3
    /// Fill (even-odd), then stroke.
    case eoFillStroke = 4
}

/// How images are sampled when drawn scaled: `.none` takes the nearest pixel, the others interpolate linearly.
public enum CGInterpolationQuality: Int32, Sendable {
    /// The context's default (linear).
    case `default` = 0
    /// Nearest pixel.
    case none = 1
    /// Linear.
    case low = 2
    /// Linear.
    case medium = 4
    /// Linear.
    case high = 3
}

/// Core Graphics' bitmap context: drawing into 8-bit pixel memory — the caller's (`data`) or its own — in a
/// gray or RGB(A) layout, with Core Graphics' coordinates (origin at the bottom-left, y up, through the current
/// transform), fill and stroke colours, line width and alpha; rectangles, ellipses, lines and paths filled or
/// stroked, and images drawn into rectangles, blended source-over with premultiplied alpha through OpenVision's
/// `BitmapCanvas` (OpenCV). `makeImage()` snapshots the pixels. A reference type, as Apple's.
///
/// Lines are drawn with round caps and joins, their width rounded to whole pixels; there is no clipping, no
/// dashes, shadows, gradients, patterns or text (listed in docs/porting.md).
open class CGContext {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits per component (8).
    public let bitsPerComponent: Int
    /// Bits per pixel (8 or 32).
    public let bitsPerPixel: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int
    /// The colour space.
    public let colorSpace: CGColorSpace?
    /// The layout of the pixels.
    public let bitmapInfo: CGBitmapInfo
    /// The pixels: the memory given at creation, or the context's own (zeroed at creation).
    public let data: UnsafeMutableRawPointer?

    /// Whether and where the pixels hold alpha.
    public var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .none
    }

    private let ownsMemory: Bool
    private let layout: CGPixelLayout

    private struct GraphicsState {
        var ctm = CGAffineTransform.identity
        var fill: (red: Double, green: Double, blue: Double, alpha: Double) = (0, 0, 0, 1)
        var stroke: (red: Double, green: Double, blue: Double, alpha: Double) = (0, 0, 0, 1)
        var lineWidth: CGFloat = 1
        var alpha: CGFloat = 1
        var antialias = true
        var interpolation = CGInterpolationQuality.default
    }

    private var state = GraphicsState()
    private var saved: [GraphicsState] = []
    private var path = CGMutablePath()

    /// A bitmap context over `data` (or its own zeroed memory when nil; `bytesPerRow` 0 then picks one aligned to
    /// 64 bytes): 8 bits per component, gray without alpha, or RGB with premultiplied alpha or a skipped byte
    /// (first or last, default or 32-bit little-endian order). Nil for another layout, as Core Graphics refuses
    /// it, or for sizes that do not fit.
    public init?(
        data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
        space: CGColorSpace, bitmapInfo: UInt32
    ) {
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        let alpha = CGImageAlphaInfo(rawValue: bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue)
        let bitsPerPixel = space.model == .rgb ? 32 : 8
        guard (1...32768).contains(width), (1...32768).contains(height), alpha != .first, alpha != .last,
            let layout = CGPixelLayout(
                bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
                model: space.model, bitmapInfo: info)
        else { return nil }
        let rowBytes = bytesPerRow == 0 ? (width * bitsPerPixel / 8 + 63) / 64 * 64 : bytesPerRow
        guard rowBytes >= width * bitsPerPixel / 8 else { return nil }
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.bitsPerPixel = bitsPerPixel
        self.bytesPerRow = rowBytes
        colorSpace = space
        self.bitmapInfo = info
        self.layout = layout
        if let data {
            self.data = data
            ownsMemory = false
        } else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * height, alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
            self.data = memory
            ownsMemory = true
        }
    }

    deinit {
        if ownsMemory { data?.deallocate() }
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state (transform, colours, line width, alpha).
    public func saveGState() { saved.append(state) }

    /// Pops the graphics state pushed last (nothing when none is).
    public func restoreGState() {
        if let last = saved.popLast() { state = last }
    }

    /// The current transform from user space to device space (pixels, origin bottom-left).
    public var ctm: CGAffineTransform { state.ctm }

    /// Moves the origin by (`tx`, `ty`).
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { state.ctm = state.ctm.translatedBy(x: tx, y: ty) }

    /// Scales user space by (`sx`, `sy`) (`scaleBy(x: 1, y: -1)` flips it).
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { state.ctm = state.ctm.scaledBy(x: sx, y: sy) }

    /// Rotates user space by `angle` radians.
    public func rotate(by angle: CGFloat) { state.ctm = state.ctm.rotated(by: angle) }

    /// Applies `transform` before the current one.
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }

    /// The fill colour (sRGB or gray).
    public func setFillColor(_ color: CGColor) {
        let c = color.rgba
        state.fill = (Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
    }

    /// The fill colour.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setFillColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// The fill colour, gray.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(CGColor(gray: gray, alpha: alpha)) }

    /// The stroke colour (sRGB or gray).
    public func setStrokeColor(_ color: CGColor) {
        let c = color.rgba
        state.stroke = (Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha))
    }

    /// The stroke colour.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        setStrokeColor(CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// The stroke colour, gray.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(CGColor(gray: gray, alpha: alpha)) }

    /// The line width in user units (1 by default).
    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }

    /// The opacity applied to everything drawn (0...1).
    public func setAlpha(_ alpha: CGFloat) { state.alpha = max(0, min(1, alpha)) }

    /// Whether edges are antialiased (by default they are).
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.antialias = shouldAntialias }

    /// How images are sampled when drawn scaled.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolation }
        set { state.interpolation = newValue }
    }

    // MARK: The current path

    /// Empties the current path.
    public func beginPath() { path = CGMutablePath() }

    /// Whether the current path is empty.
    public var isPathEmpty: Bool { path.isEmpty }

    /// The current path's current point, in user space.
    public var currentPointOfPath: CGPoint { path.currentPoint.applying(state.ctm.inverted()) }

    /// The current path's bounding box, in user space.
    public var boundingBoxOfPath: CGRect { path.boundingBox.applying(state.ctm.inverted()) }

    /// Starts a subpath at `point`.
    public func move(to point: CGPoint) { path.move(to: point, transform: state.ctm) }

    /// A line from the current point.
    public func addLine(to point: CGPoint) { path.addLine(to: point, transform: state.ctm) }

    /// A subpath through `points`.
    public func addLines(between points: [CGPoint]) { path.addLines(between: points, transform: state.ctm) }

    /// A closed rectangle subpath.
    public func addRect(_ rect: CGRect) { path.addRect(rect, transform: state.ctm) }

    /// Closed rectangle subpaths.
    public func addRects(_ rects: [CGRect]) { path.addRects(rects, transform: state.ctm) }

    /// A closed ellipse subpath inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { path.addEllipse(in: rect, transform: state.ctm) }

    /// A cubic curve from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        path.addCurve(to: end, control1: control1, control2: control2, transform: state.ctm)
    }

    /// A quadratic curve from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        path.addQuadCurve(to: end, control: control, transform: state.ctm)
    }

    /// An arc (see `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:transform:)`).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(
            center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise,
            transform: state.ctm)
    }

    /// `path`'s elements, through the current transform.
    public func addPath(_ path: CGPath) { self.path.addPath(path, transform: state.ctm) }

    /// Closes the current subpath.
    public func closePath() { path.closeSubpath() }

    // MARK: Painting

    /// Fills the current path (every subpath closed) and empties it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        paintFill(path.path, evenOdd: rule == .evenOdd)
        beginPath()
    }

    /// Strokes the current path and empties it.
    public func strokePath() {
        paintStroke(path.path)
        beginPath()
    }

    /// Fills and/or strokes the current path, then empties it.
    public func drawPath(using mode: CGPathDrawingMode) {
        switch mode {
        case .fill, .fillStroke: paintFill(path.path, evenOdd: false)
        case .eoFill, .eoFillStroke: paintFill(path.path, evenOdd: true)
        case .stroke: break
        }
        if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke { paintStroke(path.path) }
        beginPath()
    }

    /// Fills `rect` (the current path is left alone).
    public func fill(_ rect: CGRect) { fill([rect]) }

    /// Fills each rectangle (with exact pixel coverage while the transform keeps rectangles axis-aligned).
    public func fill(_ rects: [CGRect]) {
        let t = state.ctm
        if t.b == 0, t.c == 0, let canvas {
            for rect in rects where !rect.isNull {
                let r = rect.applying(t)
                try? canvas.fill(
                    rect: CGRect(x: r.minX, y: CGFloat(height) - r.maxY, width: r.width, height: r.height),
                    components: components(state.fill), alpha: state.fill.alpha * Double(state.alpha))
            }
            return
        }
        let shape = CGMutablePath()
        shape.addRects(rects, transform: state.ctm)
        paintFill(shape.path, evenOdd: false)
    }

    /// Strokes `rect`'s outline with the line width.
    public func stroke(_ rect: CGRect) {
        let shape = CGMutablePath()
        shape.addRect(rect, transform: state.ctm)
        paintStroke(shape.path)
    }

    /// Strokes `rect`'s outline `width` wide.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let kept = state.lineWidth
        state.lineWidth = width
        stroke(rect)
        state.lineWidth = kept
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        let shape = CGMutablePath()
        shape.addEllipse(in: rect, transform: state.ctm)
        paintFill(shape.path, evenOdd: false)
    }

    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        let shape = CGMutablePath()
        shape.addEllipse(in: rect, transform: state.ctm)
        paintStroke(shape.path)
    }

    /// Strokes separate segments: points 0–1, 2–3, … (an odd last point is ignored).
    public func strokeLineSegments(between points: [CGPoint]) {
        let shape = CGMutablePath()
        for i in stride(from: 0, to: points.count - 1, by: 2) {
            shape.addLines(between: [points[i], points[i + 1]], transform: state.ctm)
        }
        paintStroke(shape.path)
    }

    /// Sets the pixels of `rect` (its device-space bounding box) to transparent black.
    public func clear(_ rect: CGRect) {
        let r = rect.applying(state.ctm)
        guard !r.isNull, let canvas else { return }
        let x0 = Int(r.minX.rounded())
        let x1 = Int(r.maxX.rounded())
        let y0 = height - Int(r.maxY.rounded())
        let y1 = height - Int(r.minY.rounded())
        try? canvas.clear(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Draws `image` scaled to fill `rect` (upright in user space, its top row at `rect.maxY`), blended source-over
    /// with its alpha, sampled as `interpolationQuality` says.
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard let canvas, image.width > 0, image.height > 0, !rect.isNull, rect.width != 0, rect.height != 0 else {
            return
        }
        let w = CGFloat(image.width)
        let h = CGFloat(image.height)
        let imageToUser = CGAffineTransform(
            a: rect.width / w, b: 0, c: 0, d: -rect.height / h,
            tx: rect.minX + 0.5 * rect.width / w, ty: rect.maxY - 0.5 * rect.height / h)
        let total = imageToUser.concatenating(state.ctm).concatenating(deviceToPixel)
        let matrix = [total.a, total.c, total.tx, total.b, total.d, total.ty].map(Double.init)
        let interpolate = state.interpolation != .none
        // The image's own bytes when Core Graphics' layout of them is known, else its pixels as OpenVision reads them.
        if let provider = image.dataProvider, let space = image.colorSpace,
            !(layout.channels == 1 && space.model == .rgb),
            let source = CGPixelLayout(
                bitsPerComponent: image.bitsPerComponent, bitsPerPixel: image.bitsPerPixel,
                model: space.model, bitmapInfo: image.bitmapInfo)
        {
            let map = channelMap(from: source)
            let bytes = provider.storage
            bytes.withUnsafeBytes { raw in
                try? canvas.draw(
                    raw, sourceWidth: image.width, sourceHeight: image.height,
                    sourceBytesPerRow: image.bytesPerRow, sourceLayout: source.canvas, transform: matrix,
                    channelMap: map, alpha: Double(state.alpha), interpolate: interpolate)
            }
            return
        }
        guard let pixels = try? image.visionImage().pixels(in: layout.channels == 1 ? .gray8 : .rgba8) else { return }
        let source = BitmapCanvas.Layout(channels: layout.channels == 1 ? 1 : 4, alphaIndex: nil, premultiplied: false)
        let map: [Int?] = (0..<layout.channels).map { k in
            if k == layout.alphaIndex { return nil }
            return layout.channels == 1 ? 0 : layout.colorIndices.firstIndex(of: k)
        }
        pixels.data.withUnsafeBytes { raw in
            try? canvas.draw(
                raw, sourceWidth: pixels.width, sourceHeight: pixels.height,
                sourceBytesPerRow: pixels.bytesPerRow, sourceLayout: source, transform: matrix,
                channelMap: map, alpha: Double(state.alpha), interpolate: interpolate)
        }
    }

    /// A snapshot of the pixels as an image in the context's layout (later drawing does not change it).
    public func makeImage() -> CGImage? {
        guard let data, let space = colorSpace else { return nil }
        let bytes = Data(bytes: data, count: bytesPerRow * height)
        guard let provider = CGDataProvider(data: bytes as CFData) else { return nil }
        return CGImage(
            width: width, height: height, bitsPerComponent: bitsPerComponent, bitsPerPixel: bitsPerPixel,
            bytesPerRow: bytesPerRow, space: space, bitmapInfo: bitmapInfo, provider: provider, decode: nil,
            shouldInterpolate: true, intent: .defaultIntent)
    }

    // MARK: Drawing through OpenVision's canvas

    /// Device space (origin bottom-left, y up, pixel squares between integers) to pixel coordinates (origin
    /// top-left, pixel centres at integers).
    private var deviceToPixel: CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: -0.5, ty: CGFloat(height) - 0.5)
    }

    private var canvas: BitmapCanvas? {
        guard let data else { return nil }
        return try? BitmapCanvas(
            pixels: UnsafeMutableRawBufferPointer(start: data, count: bytesPerRow * height),
            width: width, height: height, bytesPerRow: bytesPerRow, layout: layout.canvas)
    }

    /// A colour's components in the pixels' order (0...255; gray as the sRGB luma), alpha slot 0.
    private func components(_ color: (red: Double, green: Double, blue: Double, alpha: Double)) -> [Double] {
        if layout.channels == 1 { return [255 * (0.299 * color.red + 0.587 * color.green + 0.114 * color.blue)] }
        var values = [Double](repeating: 0, count: layout.channels)
        for (index, value) in zip(layout.colorIndices, [color.red, color.green, color.blue]) {
            values[index] = 255 * value
        }
        return values
    }

    /// For each of the context's components, the component of a source in `source`'s layout that feeds it.
    private func channelMap(from source: CGPixelLayout) -> [Int?] {
        (0..<layout.channels).map { k -> Int? in
            if k == layout.alphaIndex { return nil }
            if layout.channels == 1 { return source.colorIndices[0] }
            guard let colour = layout.colorIndices.firstIndex(of: k) else { return nil }  // a skipped byte
            return source.colorIndices.count == 1 ? source.colorIndices[0] : source.colorIndices[colour]
        }
    }

    private func paintFill(_ shape: VectorPath, evenOdd: Bool) {
        guard let canvas, !shape.isEmpty else { return }
        let polygons = shape.applying { $0.applying(deviceToPixel) }.polygons().map(\.points)
        try? canvas.fill(
            polygons: polygons, evenOdd: evenOdd, antialias: state.antialias,
            components: components(state.fill), alpha: state.fill.alpha * Double(state.alpha))
    }

    private func paintStroke(_ shape: VectorPath) {
        guard let canvas, !shape.isEmpty else { return }
        let t = state.ctm
        let width = Double(state.lineWidth) * Double(abs(t.a * t.d - t.b * t.c)).squareRoot()
        let lines = shape.applying { $0.applying(deviceToPixel) }.polygons()
        try? canvas.stroke(
            polylines: lines, lineWidth: width, antialias: state.antialias,
            components: components(state.stroke), alpha: state.stroke.alpha * Double(state.alpha))
    }
}
