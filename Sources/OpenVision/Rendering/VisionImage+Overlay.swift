import Foundation

extension VisionImage {
    /// A copy of this image with `heatMap` blended over `region` (see `ImageCanvas.blend(heatMap:over:opacity:)`).
    public func blended(
        with heatMap: PixelBufferObservation, over region: NormalizedRect = .fullImage,
        opacity: Double = 0.6
    ) throws(VisionError) -> VisionImage {
        var canvas = try ImageCanvas(copying: self)
        try canvas.blend(heatMap: heatMap, over: region, opacity: opacity)
        return canvas.makeImage()
    }

    /// A copy of this image with `items` drawn on it (items in this image's normalised coordinates): heat maps
    /// first, in order, then lines, dots and labels in order, so a heat map never covers a box.
    public func annotated(with items: [OverlayItem]) throws(VisionError) -> VisionImage {
        var canvas = try ImageCanvas(copying: self)
        let scale = max(0.5, Double(max(width, height)) / 1000)
        let size = self.size
        for item in items {
            guard case .heatMap(let map, let region, let opacity) = item.shape else { continue }
            try canvas.blend(heatMap: map, over: region, opacity: min(1, max(0, opacity.isNaN ? 0 : opacity)))
        }
        for item in items {
            let lineWidth = Int(max(1, (item.lineWidth * scale).rounded()))
            var labelAnchor: CGPoint?
            switch item.shape {
            case .polygon(let points, let closed):
                let pixels = points.map { $0.toImageCoordinates(size, origin: .upperLeft) }
                guard pixels.count >= 2 else { continue }
                try canvas.stroke(polyline: pixels, closed: closed, color: item.color, lineWidth: lineWidth)
                labelAnchor = CGPoint(x: pixels.map(\.x).min()!, y: pixels.map(\.y).min()!)
            case .points(let points):
                for p in points.map({ $0.toImageCoordinates(size, origin: .upperLeft) }) {
                    try canvas.dot(at: p, radius: Double(lineWidth) * 1.2, color: item.color)
                }
            case .heatMap:
                continue
            }
            if let label = item.label, !label.isEmpty, let anchor = labelAnchor {
                // Dark text on light label backgrounds, white on dark ones.
                let c = item.color
                let luma = 0.299 * Double(c.red) + 0.587 * Double(c.green) + 0.114 * Double(c.blue)
                try canvas.label(
                    label, at: CGPoint(x: anchor.x, y: anchor.y - 2), scale: scale,
                    color: luma > 150 ? OverlayColor.black : OverlayColor.white, background: c)
            }
        }
        return canvas.makeImage()
    }
}
