import CoreGraphics
import Testing

@Suite struct CGPathTests {
    @Test func rectangleAndEllipse() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 1, y: 2, width: 4, height: 3))
        #expect(path.boundingBox == CGRect(x: 1, y: 2, width: 4, height: 3) && path.currentPoint == CGPoint(x: 1, y: 2))
        #expect(path.contains(CGPoint(x: 3, y: 3.5)) && !path.contains(CGPoint(x: 0.5, y: 3)))
        var rect = CGRect.zero
        #expect(path.isRect(&rect) && rect == CGRect(x: 1, y: 2, width: 4, height: 3))
        // The ellipse in (0, 0, 4, 2): (x − 2)²/4 + (y − 1)² < 1 inside.
        let ellipse = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 2), transform: nil)
        #expect(ellipse.boundingBox == CGRect(x: 0, y: 0, width: 4, height: 2))
        #expect(ellipse.contains(CGPoint(x: 3.9, y: 1)) && ellipse.contains(CGPoint(x: 2, y: 1.95)))
        #expect(!ellipse.contains(CGPoint(x: 0.1, y: 0.1)) && !ellipse.contains(CGPoint(x: 3.8, y: 1.8)))
        #expect(!ellipse.isRect(nil))
    }

    /// Bounding boxes against hand-computed values: the control points count in `boundingBox`, not in
    /// `boundingBoxOfPath` (quadratic top at y = 1, cubic top at y = ¾).
    @Test func curves() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 1, y: 2))
        #expect(path.boundingBox == CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(abs(path.boundingBoxOfPath.height - 1) < 1e-12)
        let cubic = CGMutablePath()
        cubic.move(to: CGPoint(x: 10, y: 0))
        cubic.addCurve(to: CGPoint(x: 11, y: 0), control1: CGPoint(x: 10, y: 1), control2: CGPoint(x: 11, y: 1))
        #expect(cubic.boundingBox == CGRect(x: 10, y: 0, width: 1, height: 1))
        #expect(abs(cubic.boundingBoxOfPath.maxY - 0.75) < 1e-12)
        // A quarter arc of the unit circle: ends at (0, 1), its own box the unit square.
        let arc = CGMutablePath()
        arc.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(abs(arc.currentPoint.x) < 1e-9 && abs(arc.currentPoint.y - 1) < 1e-9)
        #expect(abs(arc.boundingBoxOfPath.width - 1) < 1e-9 && abs(arc.boundingBoxOfPath.height - 1) < 1e-9)
        // A full circle contains its centre; a point at radius 0.999 on the diagonal is inside, 1.001 outside.
        let circle = CGMutablePath()
        circle.addArc(center: CGPoint(x: 5, y: 5), radius: 2, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        circle.closeSubpath()
        let d = 2 / 2.0.squareRoot()
        #expect(circle.contains(CGPoint(x: 5, y: 5)) && circle.contains(CGPoint(x: 5 + 0.999 * d, y: 5 + 0.999 * d)))
        #expect(!circle.contains(CGPoint(x: 5 + 1.001 * d, y: 5 + 1.001 * d)))
    }

    @Test func linesFillRulesAndTransforms() {
        let path = CGMutablePath()
        path.addLine(to: CGPoint(x: 5, y: 5))  // no current point: nothing, as Apple's
        #expect(path.isEmpty && path.boundingBox.isNull)
        path.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 0, y: 10)])
        path.closeSubpath()
        path.addRect(CGRect(x: 3, y: 3, width: 4, height: 4))
        #expect(
            path.contains(CGPoint(x: 5, y: 5), using: .winding) && !path.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
        // The path is transformed, not the point.
        #expect(path.contains(CGPoint(x: 15, y: 15), using: .evenOdd, transform: CGAffineTransform(scaleX: 2, y: 2)))
        var shift = CGAffineTransform(translationX: 100, y: 0)
        let moved = path.copy(using: &shift)!
        #expect(moved.boundingBox == CGRect(x: 100, y: 0, width: 10, height: 10))
        let mutable = moved.mutableCopy()!
        mutable.addLine(to: CGPoint(x: 200, y: 0), transform: CGAffineTransform(scaleX: 1, y: 1))
        #expect(mutable.boundingBox.maxX == 200 && moved.boundingBox.maxX == 110)
        let other = CGMutablePath()
        other.addPath(path, transform: shift)
        #expect(other == moved && other.hashValue == moved.hashValue)
    }

    @Test func elementWalk() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 1))
        path.addLine(to: CGPoint(x: 2, y: 1))
        path.addQuadCurve(to: CGPoint(x: 3, y: 3), control: CGPoint(x: 3, y: 1))
        path.addCurve(to: CGPoint(x: 0, y: 0), control1: CGPoint(x: 2, y: 4), control2: CGPoint(x: 0, y: 2))
        path.closeSubpath()
        var walked: [(CGPathElementType, [CGPoint])] = []
        path.applyWithBlock { element in
            let count = [
                .moveToPoint: 1, .addLineToPoint: 1, .addQuadCurveToPoint: 2, .addCurveToPoint: 3,
                .closeSubpath: 0,
            ][element.pointee.type]!
            walked.append((element.pointee.type, (0..<count).map { element.pointee.points[$0] }))
        }
        #expect(
            walked.map(\.0) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(walked[2].1 == [CGPoint(x: 3, y: 1), CGPoint(x: 3, y: 3)])
        #expect(walked[3].1 == [CGPoint(x: 2, y: 4), CGPoint(x: 0, y: 2), .zero])
        #expect(path.currentPoint == CGPoint(x: 1, y: 1))  // back at the subpath's start after close
    }

    @Test func roundedRectAndTangentArc() {
        let rounded = CGPath(
            roundedRect: CGRect(x: 0, y: 0, width: 10, height: 6), cornerWidth: 2, cornerHeight: 2, transform: nil)
        #expect(rounded.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 6))
        #expect(rounded.contains(CGPoint(x: 1, y: 3)) && !rounded.contains(CGPoint(x: 0.1, y: 0.1)))
        // A corner rounded with radius 1 between (0,0)→(5,0) and (5,0)→(5,5): tangent points (4, 0) and (5, 1).
        let corner = CGMutablePath()
        corner.move(to: .zero)
        corner.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 5, y: 5), radius: 1)
        #expect(abs(corner.currentPoint.x - 5) < 1e-9 && abs(corner.currentPoint.y - 1) < 1e-9)
        #expect(abs(corner.boundingBoxOfPath.maxX - 5) < 1e-9)
    }
}
