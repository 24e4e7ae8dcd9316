import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct HorizonTests {
    /// 960 × 640: light sky with a few clouds, dark textured ground below a straight horizon through the
    /// centre tilted by `degrees` (counter-clockwise as seen).
    static func landscape(degrees: Double) throws -> VisionImage {
        let (w, h) = (960.0, 640.0)
        var canvas = try Fixtures.canvas(width: Int(w), height: Int(h), gray: 200)
        let a = degrees * .pi / 180
        // Pixel coordinates (y down): the horizon runs along (cos a, -sin a) through the centre.
        let d = (cos(a), -sin(a))
        let reach = 2000.0
        let left = (w / 2 - d.0 * reach, h / 2 - d.1 * reach)
        let right = (w / 2 + d.0 * reach, h / 2 + d.1 * reach)
        try Fixtures.fill(
            [left, right, (right.0 + d.1 * reach, right.1 + reach), (left.0 + d.1 * reach, left.1 + reach)],
            on: &canvas, gray: 80)
        var rng = SplitMix(seed: 7)
        for _ in 0..<300 {  // ground texture: small darker and lighter blobs below the line
            let x = rng.next() * w
            let y = rng.next() * h
            let side = (x - w / 2) * -d.1 + (y - h / 2) * d.0  // > 0 below the horizon
            guard side > 12 else { continue }
            try canvas.dot(
                at: CGPoint(x: x, y: y), radius: 2 + 4 * rng.next(),
                color: Fixtures.grayColor(rng.next() < 0.5 ? 50 : 110))
        }
        for (x, y) in [(200.0, 90.0), (650.0, 60.0)] {  // clouds
            try canvas.dot(at: CGPoint(x: x, y: y), radius: 28, color: Fixtures.grayColor(235))
            try canvas.dot(at: CGPoint(x: x + 30, y: y + 8), radius: 22, color: Fixtures.grayColor(235))
        }
        return canvas.makeImage()
    }

    @Test(arguments: [-20.0, -12.0, -5.0, 0.0, 3.0, 10.0, 20.0])
    func rotatedHorizonWithinOneDegree(_ degrees: Double) async throws {
        let result = try await ImageRequestHandler(image: try Self.landscape(degrees: degrees)).perform(
            DetectHorizonRequest())
        let horizon = try #require(result)
        let found = horizon.angle.converted(to: .degrees).value
        #expect(abs(found - degrees) < 1, "found \(found)° for \(degrees)°")
        // The transform levels the horizon: it maps the horizon's direction onto the x axis.
        let t = horizon.transform
        let dir = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
        let mappedY = t.m12 * dir.0 + t.m22 * dir.1
        #expect(abs(mappedY) < 0.02)
        // The centre-fixed pixel transform keeps the centre.
        let centred = horizon.transform(width: 960, height: 640)
        let cx = centred.m11 * 480 + centred.m21 * 320 + centred.tX
        let cy = centred.m12 * 480 + centred.m22 * 320 + centred.tY
        #expect(abs(cx - 480) < 1e-6 && abs(cy - 320) < 1e-6)
    }

    @Test func flatImageHasNoHorizon() async throws {
        let flat = try Fixtures.canvas(width: 300, height: 200, gray: 90).makeImage()
        #expect(try await ImageRequestHandler(image: flat).perform(DetectHorizonRequest()) == nil)
    }

    @Test func scatteredBlobsAreNoHorizon() async throws {
        var canvas = try Fixtures.canvas(width: 640, height: 480, gray: 200)
        var rng = SplitMix(seed: 3)
        for _ in 0..<60 {
            try canvas.dot(
                at: CGPoint(x: rng.next() * 640, y: rng.next() * 480), radius: 6 + 10 * rng.next(), color: .black)
        }
        #expect(try await ImageRequestHandler(image: canvas.makeImage()).perform(DetectHorizonRequest()) == nil)
    }

    /// OpenCV 4.10 from Python finds the same dominant line on person.jpg (theta = pi/2: level):
    /// g=cv2.imread('person.jpg',0); e=cv2.Canny(cv2.GaussianBlur(g,(0,0),1.5),30,90)
    /// cv2.HoughLines(e,1,np.pi/720,g.shape[1]//3,min_theta=np.pi/4,max_theta=3*np.pi/4)[0]  → [[148, 1.5707964]]
    /// and nothing on horses.jpg (HoughLines returns None).
    @Test func matchesOpenCVFromPythonOnPhotos() async throws {
        let person = try #require(try await DetectHorizonRequest().perform(on: Fixtures.sharedImage("person.jpg")))
        #expect(abs(person.angle.converted(to: .degrees).value) < 0.25)
        #expect(try await DetectHorizonRequest().perform(on: Fixtures.sharedImage("horses.jpg")) == nil)
    }
}
