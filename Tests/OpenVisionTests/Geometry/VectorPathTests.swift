import Foundation
import OpenVision
import Testing

@Suite struct VectorPathTests {
    /// Quadratic (0,0)–(1,2)–(2,0): control bounds reach y = 2, the curve itself y = 1 at t = ½ (¼·0 + ½·2 + ¼·0);
    /// cubic (0,0)–(0,1)–(1,1)–(1,0): the curve's top is ¾ at t = ½ (3·⅛ + 3·⅛).
    @Test func boundsWithAndWithoutControlPoints() {
        let quad = VectorPath(elements: [
            .move(to: .zero), .quadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 1, y: 2)),
        ])
        #expect(quad.controlPointBounds == CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(abs(quad.bounds.height - 1) < 1e-12 && quad.bounds.width == 2)
        let cubic = VectorPath(elements: [
            .move(to: .zero),
            .curve(
                to: CGPoint(x: 1, y: 0), control1: CGPoint(x: 0, y: 1),
                control2: CGPoint(x: 1, y: 1)),
        ])
        #expect(cubic.controlPointBounds == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(abs(cubic.bounds.height - 0.75) < 1e-12)
        #expect(VectorPath().bounds.isNull && VectorPath().controlPointBounds.isNull)
    }

    /// A square with a square hole wound the same way: non-zero winding fills the hole, even-odd does not.
    @Test func fillRules() {
        func square(_ x: Double, _ y: Double, _ side: Double) -> [VectorPath.Element] {
            [
                .move(to: CGPoint(x: x, y: y)), .line(to: CGPoint(x: x + side, y: y)),
                .line(to: CGPoint(x: x + side, y: y + side)),
                .line(to: CGPoint(x: x, y: y + side)), .close,
            ]
        }
        let path = VectorPath(elements: square(0, 0, 10) + square(3, 3, 4))
        #expect(path.contains(CGPoint(x: 5, y: 5), rule: .nonZeroWinding))
        #expect(!path.contains(CGPoint(x: 5, y: 5), rule: .evenOdd))
        #expect(path.contains(CGPoint(x: 1, y: 1), rule: .evenOdd) && path.contains(CGPoint(x: 1, y: 1)))
        #expect(!path.contains(CGPoint(x: 11, y: 5)) && !path.contains(CGPoint(x: -0.5, y: 5)))
        // An open subpath counts as closed when filled.
        let open = VectorPath(elements: [
            .move(to: .zero), .line(to: CGPoint(x: 4, y: 0)), .line(to: CGPoint(x: 0, y: 4)),
        ])
        #expect(open.contains(CGPoint(x: 1, y: 1)) && !open.contains(CGPoint(x: 3, y: 3)))
    }

    /// A semicircle as one cubic: its flattened points stay within the tolerance of the curve.
    @Test func polygonsFollowCurvesWithinTolerance() {
        let c1 = CGPoint(x: 0, y: 4.0 / 3)
        let c2 = CGPoint(x: 2, y: 4.0 / 3)
        let path = VectorPath(elements: [
            .move(to: .zero), .curve(to: CGPoint(x: 2, y: 0), control1: c1, control2: c2), .close,
        ])
        let polygons = path.polygons(tolerance: 0.001)
        #expect(polygons.count == 1 && polygons[0].closed)
        let points = polygons[0].points
        #expect(points.first == .zero && points.last == CGPoint(x: 2, y: 0) && points.count > 10)
        // Chords between consecutive samples: their midpoints within 0.001 of the curve at the mid parameter.
        let n = points.count - 1
        for i in 0..<n {
            let t = (Double(i) + 0.5) / Double(n)
            let u = 1 - t
            let curve = CGPoint(
                x: 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * 2,
                y: 3 * u * u * t * c1.y + 3 * u * t * t * c2.y)
            let mid = CGPoint(x: (points[i].x + points[i + 1].x) / 2, y: (points[i].y + points[i + 1].y) / 2)
            #expect(hypot(mid.x - curve.x, mid.y - curve.y) < 0.001)
        }
    }

    @Test func mapping() {
        let path = VectorPath(elements: [.move(to: CGPoint(x: 1, y: 1)), .line(to: CGPoint(x: 2, y: 3))])
        let moved = path.applying { CGPoint(x: $0.x * 2, y: $0.y + 1) }
        #expect(moved.elements == [.move(to: CGPoint(x: 2, y: 2)), .line(to: CGPoint(x: 4, y: 4))])
    }
}
