import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct RectangleTests {
    static let size = CGSize(width: 800, height: 600)

    /// A canvas with the given quads (pixels, top-left origin, clockwise from top-left) filled dark.
    static func scene(_ quads: [[(Double, Double)]], background: UInt8 = 235) throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: Int(size.width), height: Int(size.height), gray: background)
        for quad in quads { try Fixtures.fill(quad, on: &canvas, gray: 40) }
        return canvas.makeImage()
    }

    static func rotated(centre: (Double, Double), width: Double, height: Double, degrees: Double) -> [(Double, Double)]
    {
        let a = degrees * .pi / 180
        return [(-width / 2, -height / 2), (width / 2, -height / 2), (width / 2, height / 2), (-width / 2, height / 2)]
            .map { p in
                (centre.0 + p.0 * cos(a) - p.1 * sin(a), centre.1 + p.0 * sin(a) + p.1 * cos(a))
            }
    }

    /// Every expected corner (pixels, top-left origin) has an observed corner within `tolerance` pixels.
    static func expectCorners(
        _ observation: RectangleObservation, _ expected: [(Double, Double)], tolerance: Double = 3,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let observed = observation.corners.map { $0.toImageCoordinates(size, origin: .upperLeft) }
        for (x, y) in expected {
            let nearest = observed.map { hypot($0.x - x, $0.y - y) }.min()!
            #expect(
                nearest < tolerance, "corner (\(x), \(y)) nearest observed \(nearest) px: \(observed)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func axisAlignedRectangleCornersInOrder() async throws {
        let quad = [(200.0, 150.0), (560.0, 150.0), (560.0, 420.0), (200.0, 420.0)]
        let results = try await ImageRequestHandler(image: try Self.scene([quad])).perform(DetectRectanglesRequest())
        #expect(results.count == 1)
        let r = try #require(results.first)
        Self.expectCorners(r, quad)
        // Named corners in Vision's lower-left coordinates.
        let tl = r.topLeft.toImageCoordinates(Self.size, origin: .upperLeft)
        let br = r.bottomRight.toImageCoordinates(Self.size, origin: .upperLeft)
        #expect(hypot(tl.x - 200, tl.y - 150) < 3 && hypot(br.x - 560, br.y - 420) < 3)
        #expect(r.topLeft.y > r.bottomLeft.y)
        #expect(r.confidence > 0.5)
    }

    @Test(arguments: [20.0, 45.0, 70.0])
    func rotatedRectangle(_ degrees: Double) async throws {
        let quad = Self.rotated(centre: (400, 300), width: 300, height: 240, degrees: degrees)
        let results = try await ImageRequestHandler(image: try Self.scene([quad])).perform(DetectRectanglesRequest())
        let r = try #require(results.first)
        Self.expectCorners(r, quad)
    }

    @Test func severalRectanglesAndMaximumObservations() async throws {
        let a = [(60.0, 80.0), (330.0, 80.0), (330.0, 330.0), (60.0, 330.0)]
        let b = Self.rotated(centre: (580, 360), width: 260, height: 200, degrees: 15)
        let image = try Self.scene([a, b])
        var request = DetectRectanglesRequest()
        request.maximumObservations = 0
        let all = try await ImageRequestHandler(image: image).perform(request)
        #expect(all.count == 2)
        #expect(all.contains { $0.boundingBox.midX < 0.5 } && all.contains { $0.boundingBox.midX > 0.5 })
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
        request.maximumObservations = 1
        #expect(try await ImageRequestHandler(image: image).perform(request).count == 1)
    }

    @Test func aspectRatioLimits() async throws {
        // A 3:1 strip (aspect 0.33): rejected by Vision's default minimum 0.5, found at 0.3.
        let strip = [(100.0, 250.0), (700.0, 250.0), (700.0, 450.0), (100.0, 450.0)]
        let image = try Self.scene([strip])
        var request = DetectRectanglesRequest()
        #expect(try await ImageRequestHandler(image: image).perform(request).isEmpty)
        request.minimumAspectRatio = 0.3
        let found = try await ImageRequestHandler(image: image).perform(request)
        #expect(found.count == 1)
        if let r = found.first { Self.expectCorners(r, strip) }
    }

    @Test func minimumSize() async throws {
        // 80 px square: 0.13 of the 600 px short side; below the default minimum size 0.2.
        let small = [(100.0, 100.0), (180.0, 100.0), (180.0, 180.0), (100.0, 180.0)]
        let image = try Self.scene([small])
        var request = DetectRectanglesRequest()
        #expect(try await ImageRequestHandler(image: image).perform(request).isEmpty)
        request.minimumSize = 0.1
        #expect(try await ImageRequestHandler(image: image).perform(request).count == 1)
    }

    @Test func blankImageHasNoRectangles() async throws {
        let results = try await ImageRequestHandler(image: try Self.scene([])).perform(DetectRectanglesRequest())
        #expect(results.isEmpty)
    }

    @Test(arguments: [(Float(0.9), Float(0.5)), (Float(-0.1), Float(1)), (Float(0.5), Float(1.5))])
    func invalidAspectRatios(_ limits: (Float, Float)) async throws {
        var request = DetectRectanglesRequest()
        request.minimumAspectRatio = limits.0
        request.maximumAspectRatio = limits.1
        do {
            _ = try await ImageRequestHandler(image: try Self.scene([])).perform(request)
            Issue.record("expected invalidArgument")
        } catch let error as VisionError {
            #expect(error.code == .invalidArgument)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
