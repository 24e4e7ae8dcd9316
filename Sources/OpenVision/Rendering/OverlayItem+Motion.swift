import Foundation

/// Overlays for the motion requests: optical flow as arrows on a grid (yellow), trajectories as their
/// fitted parabolas (orange) over the detected points (red).
extension OverlayItem {
    /// Arrows on a 16-column grid over a 2-channel flow field, scaled so that the longest is one grid
    /// cell long (the label gives the scale); displacements under 0.25 px are not drawn.
    public static func flowArrows(for flow: PixelBufferObservation, columns: Int = 16) -> [OverlayItem] {
        guard flow.channels == 2, flow.width > 1, flow.height > 1 else { return [] }
        let step = max(1, flow.width / max(1, columns))
        let longest = flow.flowStatistics.maximumMagnitude
        guard longest >= 0.25, longest.isFinite else { return [] }
        let scale = Double(step) / longest
        let w = Double(flow.width)
        let h = Double(flow.height)
        func point(_ x: Double, _ y: Double) -> NormalizedPoint { NormalizedPoint(x: x / w, y: 1 - y / h) }
        var items: [OverlayItem] = []
        var y = step / 2
        while y < flow.height {
            var x = step / 2
            while x < flow.width {
                let dx = Double(flow[x, y, 0])
                let dy = Double(flow[x, y, 1])
                let length = (dx * dx + dy * dy).squareRoot()
                if length >= 0.25, length.isFinite {
                    let tx = Double(x) + dx * scale
                    let ty = Double(y) + dy * scale
                    let ux = dx / length
                    let uy = dy / length
                    let head = Double(step) * 0.3
                    let left = point(tx - head * (ux + 0.5 * uy), ty - head * (uy - 0.5 * ux))
                    let right = point(tx - head * (ux - 0.5 * uy), ty - head * (uy + 0.5 * ux))
                    items.append(
                        OverlayItem(
                            shape: .polygon([point(Double(x), Double(y)), point(tx, ty)], closed: false),
                            color: .yellow, lineWidth: 1.5))
                    items.append(
                        OverlayItem(
                            shape: .polygon([left, point(tx, ty), right], closed: false), color: .yellow, lineWidth: 1.5
                        ))
                }
                x += step
            }
            y += step
        }
        if !items.isEmpty { items[0].label = String(format: "flow x%.1f", scale) }
        return items
    }

    /// The fitted parabola across the detected points' x range (orange) and the detected points (red).
    public static func items(for trajectory: TrajectoryObservation) -> [OverlayItem] {
        let xs = trajectory.detectedPoints.map(\.x)
        guard let lo = xs.min(), let hi = xs.max(), hi > lo else { return [] }
        let curve = (0...24).map { i -> NormalizedPoint in
            let x = lo + (hi - lo) * Double(i) / 24
            return NormalizedPoint(x: x, y: trajectory.y(at: x))
        }
        return [
            OverlayItem(
                shape: .polygon(curve, closed: false), color: .orange,
                label: String(format: "trajectory %.2f", trajectory.confidence), lineWidth: 2),
            OverlayItem(shape: .points(trajectory.detectedPoints), color: .red, lineWidth: 2),
        ]
    }
}
