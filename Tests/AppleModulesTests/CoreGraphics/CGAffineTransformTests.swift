import CoreGraphics
import Testing

@Suite struct CGAffineTransformTests {
    static func close(_ a: CGPoint, _ b: CGPoint) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    /// Hand-computed: rotating (1, 0) by 90° gives (0, 1); scale then translate maps (1, 1) to (2·1 + 5, 3·1 − 1).
    @Test func pointsThroughTransforms() {
        #expect(
            Self.close(CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2)), CGPoint(x: 0, y: 1)))
        let t = CGAffineTransform(scaleX: 2, y: 3).concatenating(CGAffineTransform(translationX: 5, y: -1))
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 7, y: 2))
        // translatedBy / scaledBy / rotated apply their step first: (1, 1) + (5, −1), then × (2, 3).
        let u = CGAffineTransform(scaleX: 2, y: 3).translatedBy(x: 5, y: -1)
        #expect(CGPoint(x: 1, y: 1).applying(u) == CGPoint(x: 12, y: 0))
        let r = CGAffineTransform(translationX: 10, y: 0).rotated(by: .pi)
        #expect(Self.close(CGPoint(x: 1, y: 0).applying(r), CGPoint(x: 9, y: 0)))
        #expect(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6) == CGAffineTransform(1, 2, 3, 4, 5, 6))
        #expect(CGAffineTransform.identity.isIdentity && !t.isIdentity && CGAffineTransform().a == 0)
    }

    @Test func inversion() {
        let t = CGAffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 4, ty: -2)
        let p = CGPoint(x: 3.5, y: -7)
        #expect(Self.close(p.applying(t).applying(t.inverted()), p))
        #expect(t.concatenating(t.inverted()).a == 1)
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 1, ty: 1)
        #expect(singular.inverted() == singular)  // returned unchanged, as Apple's
    }

    /// A rectangle's image is the bounding box of its transformed corners; a size takes only the linear part.
    @Test func rectsAndSizes() {
        let rotated = CGRect(x: 0, y: 0, width: 4, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(
            abs(rotated.minX + 2) < 1e-9 && abs(rotated.minY) < 1e-9 && abs(rotated.width - 2) < 1e-9
                && abs(rotated.height - 4) < 1e-9)
        let moved = CGRect(x: 1, y: 1, width: 2, height: 2).applying(
            CGAffineTransform(translationX: 3, y: 4).scaledBy(x: 2, y: 2))
        #expect(moved == CGRect(x: 5, y: 6, width: 4, height: 4))
        #expect(
            CGSize(width: 2, height: 3).applying(CGAffineTransform(a: 1, b: 1, c: 0, d: 2, tx: 100, ty: 100))
                == CGSize(width: 2, height: 8))
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
        // Vision's normalised → pixel (y flipped) transform, as apps build it.
        let toImage = CGAffineTransform(scaleX: 640, y: -480).translatedBy(x: 0, y: -1)
        #expect(
            CGRect(x: 0.25, y: 0.5, width: 0.5, height: 0.25).applying(toImage)
                == CGRect(x: 160, y: 120, width: 320, height: 120))
    }

    @Test func vector() {
        #expect(CGVector(dx: 3, dy: -4).dx == 3 && CGVector.zero == CGVector(dx: 0, dy: 0) && CGVector().dy == 0)
        #expect(CGVector(dx: 1.5, dy: 2.5) == CGVector(dx: CGFloat(1.5), dy: CGFloat(2.5)))
    }
}
