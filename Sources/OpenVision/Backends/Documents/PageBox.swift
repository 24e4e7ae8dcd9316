import Foundation

/// A box in a page image's pixels (top-left origin, continuous coordinates): the documents pipeline's working geometry.
struct PageBox: Sendable, Hashable {
    var x0: Double, y0: Double, x1: Double, y1: Double

    var width: Double { max(0, x1 - x0) }
    var height: Double { max(0, y1 - y0) }
    var area: Double { width * height }
    var midX: Double { (x0 + x1) / 2 }
    var midY: Double { (y0 + y1) / 2 }

    /// The box around both.
    func union(_ o: PageBox) -> PageBox {
        PageBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    /// The area both cover (0 when apart).
    func intersectionArea(_ o: PageBox) -> Double {
        max(0, min(x1, o.x1) - max(x0, o.x0)) * max(0, min(y1, o.y1) - max(y0, o.y0))
    }

    /// The box around `points` (x, y pairs).
    init(points: [(Double, Double)]) {
        x0 = points.map(\.0).min() ?? 0
        y0 = points.map(\.1).min() ?? 0
        x1 = points.map(\.0).max() ?? 0
        y1 = points.map(\.1).max() ?? 0
    }

    init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}
