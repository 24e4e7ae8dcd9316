import Foundation
import OpenVision
import Testing

@Suite struct GeometryTests {
    @Test func normalizedRectToPixelsBothOrigins() {
        // A 100×50 box whose top-left pixel is (20, 10) in a 200×100 image (top-left origin).
        let pixelTopLeft = CGRect(x: 20, y: 10, width: 100, height: 50)
        let n = NormalizedRect(imageRect: pixelTopLeft, in: CGSize(width: 200, height: 100), origin: .upperLeft)
        #expect(abs(n.x - 0.1) < 1e-12 && abs(n.width - 0.5) < 1e-12 && abs(n.height - 0.5) < 1e-12)
        // Lower-left origin: the bottom edge is 100 - 60 = 40 px up.
        #expect(abs(n.y - 0.4) < 1e-12)
        #expect(n.toImageCoordinates(CGSize(width: 200, height: 100), origin: .upperLeft).isClose(to: pixelTopLeft))
        #expect(
            n.toImageCoordinates(CGSize(width: 200, height: 100)).isClose(
                to: CGRect(x: 20, y: 40, width: 100, height: 50)))
        // The seed blog's arithmetic: y_layer = H - y_max.
        let lowerLeft = imageRect(forNormalizedRect: n, width: 200, height: 100)
        #expect(abs(100 - lowerLeft.maxY - pixelTopLeft.minY) < 1e-9)
        let back = normalizedRect(forImageRect: lowerLeft, width: 200, height: 100)
        #expect(abs(back.x - n.x) + abs(back.y - n.y) + abs(back.width - n.width) + abs(back.height - n.height) < 1e-12)
    }

    @Test func pointsRoundTrip() {
        let size = CGSize(width: 640, height: 480)
        let p = NormalizedPoint(imagePoint: CGPoint(x: 160, y: 120), in: size, origin: .upperLeft)
        #expect(p == NormalizedPoint(x: 0.25, y: 0.75))
        #expect(p.toImageCoordinates(size, origin: .upperLeft) == CGPoint(x: 160, y: 120))
        #expect(p.toImageCoordinates(size) == CGPoint(x: 160, y: 360))
    }

    @Test func regionOfInterestMapping() {
        let roi = NormalizedRect(x: 0.5, y: 0.25, width: 0.5, height: 0.5)
        let inROI = NormalizedRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
        let full = inROI.toFullImage(fromRegionOfInterest: roi)
        #expect(full == NormalizedRect(x: 0.75, y: 0.5, width: 0.25, height: 0.25))
        #expect(NormalizedPoint(x: 0, y: 1).toFullImage(fromRegionOfInterest: roi) == NormalizedPoint(x: 0.5, y: 0.75))
    }

    @Test func intersectionOverUnion() {
        let a = NormalizedRect(x: 0, y: 0, width: 0.5, height: 0.5)
        let b = NormalizedRect(x: 0.25, y: 0, width: 0.5, height: 0.5)
        #expect(abs(a.intersectionOverUnion(b) - (0.125 / 0.375)) < 1e-12)
        #expect(a.intersectionOverUnion(NormalizedRect(x: 0.6, y: 0.6, width: 0.1, height: 0.1)) == 0)
    }

    @Test(arguments: [
        NormalizedRect(x: -0.1, y: 0, width: 0.5, height: 0.5),
        NormalizedRect(x: 0.6, y: 0, width: 0.5, height: 0.5),
        NormalizedRect(x: 0, y: 0, width: 0, height: 0.5),
        NormalizedRect(x: .nan, y: 0, width: 0.5, height: 0.5),
    ])
    func invalidRegions(_ roi: NormalizedRect) {
        #expect(!roi.isWithinUnitSquare)
    }
}

extension CGRect {
    func isClose(to other: CGRect, tolerance: Double = 1e-9) -> Bool {
        abs(minX - other.minX) < tolerance && abs(minY - other.minY) < tolerance
            && abs(width - other.width) < tolerance && abs(height - other.height) < tolerance
    }
}
