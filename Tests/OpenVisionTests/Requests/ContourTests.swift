import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct ContourTests {
    /// 600 × 400, white: on the left a dark square frame (40...360) holding a dark square (120...280)
    /// with a white disc (r 60) in it, and a dark disc (r 30) in the disc; on the right a dark triangle.
    static func scene() throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: 600, height: 400)
        try Fixtures.fill([(40, 40), (360, 40), (360, 360), (40, 360)], on: &canvas, gray: 20)
        try Fixtures.fill([(70, 70), (330, 70), (330, 330), (70, 330)], on: &canvas, gray: 255)
        try Fixtures.fill([(120, 120), (280, 120), (280, 280), (120, 280)], on: &canvas, gray: 20)
        try canvas.dot(at: CGPoint(x: 200, y: 200), radius: 60, color: Fixtures.grayColor(255))
        try canvas.dot(at: CGPoint(x: 200, y: 200), radius: 30, color: Fixtures.grayColor(20))
        try Fixtures.fill([(420, 320), (560, 320), (490, 100)], on: &canvas, gray: 20)
        return canvas.makeImage()
    }

    @Test func nestingCountsAndPolygons() async throws {
        let result = try await ImageRequestHandler(image: try Self.scene()).perform(DetectContoursRequest())
        // frame outside, frame hole, square, square's hole (the white disc), the dark disc; the triangle.
        #expect(result.contourCount == 6)
        #expect(result.topLevelContourCount == 2)
        let frame = try #require(result.topLevelContours.first { $0.boundingBox.width > 0.5 })
        let triangle = try #require(result.topLevelContours.first { $0.boundingBox.minX > 0.6 })
        // The chain frame → hole → square → disc hole → disc.
        var depth = 0
        var node: Contour? = frame
        while let n = node {
            depth += 1
            node = n.childContours.first
        }
        #expect(depth == 5)
        let innermost = try #require(result.contour(at: frame.indexPath.appending([0, 0, 0, 0])))
        // The dark disc: r 30 px → width 60 / 600 of the image.
        #expect(abs(innermost.boundingBox.width - 60.0 / 600) < 0.01 && abs(innermost.boundingBox.midY - 0.5) < 0.01)
        // Frame: x 40...360 of 600, y (lower-left) 40...360 of 400.
        #expect(abs(frame.boundingBox.minX - 40.0 / 600) < 0.005 && abs(frame.boundingBox.maxY - 360.0 / 400) < 0.005)
        #expect(frame.aspectRatio == 1.5)
        // Douglas–Peucker corner counts.
        #expect(try frame.polygonApproximation(epsilon: 0.01).pointCount == 4)
        #expect(try triangle.polygonApproximation(epsilon: 0.01).pointCount == 3)
        #expect(try innermost.polygonApproximation(epsilon: 0.002).pointCount >= 8)
        #expect(throws: VisionError.self) { try frame.polygonApproximation(epsilon: .nan) }
    }

    @Test func lightOnDarkSeesTheBackgroundAsHoles() async throws {
        var request = DetectContoursRequest()
        request.detectsDarkOnLight = false
        let result = try await ImageRequestHandler(image: try Self.scene()).perform(request)
        // The white parts: the background (with the frame and the triangle as holes), the frame's inside
        // (the square its hole), the white disc (the dark disc its hole): 4 shapes, 3 holes.
        #expect(result.topLevelContourCount == 1)
        #expect(result.contourCount == 7)
        #expect(result.topLevelContours.first?.childContourCount == 2)
    }

    @Test func flatImageHasNoContours() async throws {
        let flat = try Fixtures.canvas(width: 200, height: 100, gray: 128).makeImage()
        let result = try await ImageRequestHandler(image: flat).perform(DetectContoursRequest())
        #expect(result.contourCount == 0 && result.topLevelContours.isEmpty)
    }

    @Test(arguments: [0, -5])
    func nonPositiveMaximumImageDimensionIsRejected(_ dimension: Int) async throws {
        var request = DetectContoursRequest()
        request.maximumImageDimension = dimension
        await #expect(throws: VisionError.self) {
            try await ImageRequestHandler(image: try Self.scene()).perform(request)
        }
    }

    @Test func nonFiniteContrastIsRejected() async throws {
        for change in [
            { (r: inout DetectContoursRequest) in r.contrastAdjustment = .nan },
            { r in r.contrastAdjustment = .infinity }, { r in r.contrastPivot = .nan }, { r in r.contrastPivot = 2 },
        ] {
            var request = DetectContoursRequest()
            change(&request)
            do {
                _ = try await ImageRequestHandler(image: try Self.scene()).perform(request)
                Issue.record("accepted \(request.contrastAdjustment) / \(String(describing: request.contrastPivot))")
            } catch {
                #expect((error as? VisionError)?.code == .invalidArgument)
            }
        }
    }

    /// The same pipeline in OpenCV 4.10 from Python gives 1935 contours, 132 at the top level:
    /// g=cv2.imread('horses.jpg',0); w=cv2.resize(g,(773,512),interpolation=cv2.INTER_AREA)
    /// a=np.clip(w*2.0-127.5,0,255).round().astype(np.uint8); _,b=cv2.threshold(a,0,255,cv2.THRESH_BINARY_INV|cv2.THRESH_OTSU)
    /// c,h=cv2.findContours(b,cv2.RETR_TREE,cv2.CHAIN_APPROX_SIMPLE); len(c), (h[0][:,3]<0).sum()
    @Test func matchesOpenCVFromPythonOnAPhoto() async throws {
        let result = try await DetectContoursRequest().perform(on: Fixtures.sharedImage("horses.jpg"))
        #expect(abs(result.contourCount - 1935) <= 20, "\(result.contourCount)")
        #expect(abs(result.topLevelContourCount - 132) <= 3, "\(result.topLevelContourCount)")
    }
}
