import CoreImage
import CoreVideo
import Foundation
import Testing

/// `CIDetector(ofType: CIDetectorTypeRectangle, …)`, as WeScan's document scanner builds it: corners in the image's
/// coordinates (lower-left origin, offset by the extent), against a rectangle drawn at known pixels.
@Suite struct CIDetectorTests {
    static let width = 200, height = 160

    /// An opaque 32BGRA image, black, with a white rectangle over columns 40..<160 and rows 30..<130 (rows counted
    /// from the top): in Core Image's lower-left coordinates its corners are x 40 / 160, y 30 / 130.
    static func card() throws -> CIImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                let i = (row * width + column) * 4
                let inside = (40..<160).contains(column) && (30..<130).contains(row)
                for c in 0..<3 { pixels[i + c] = inside ? 255 : 0 }
                pixels[i + 3] = 255
            }
        }
        var made: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &made) == kCVReturnSuccess)
        let buffer = try #require(made)
        CoreImageTests.write(pixels, rowBytes: width * 4, to: buffer)
        return CIImage(cvPixelBuffer: buffer)
    }

    static func near(_ a: CGPoint, _ x: CGFloat, _ y: CGFloat) -> Bool { abs(a.x - x) <= 2.5 && abs(a.y - y) <= 2.5 }

    @Test func findsTheRectangleInImageCoordinates() throws {
        let detector = try #require(
            CIDetector(
                ofType: CIDetectorTypeRectangle, context: CIContext(),
                options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let features = detector.features(in: try Self.card())
        #expect(features.count == 1)
        let r = try #require(features.first as? CIRectangleFeature)
        #expect(r.type == CIFeatureTypeRectangle)
        #expect(Self.near(r.topLeft, 40, 130), "\(r.topLeft)")
        #expect(Self.near(r.topRight, 160, 130), "\(r.topRight)")
        #expect(Self.near(r.bottomLeft, 40, 30), "\(r.bottomLeft)")
        #expect(Self.near(r.bottomRight, 160, 30), "\(r.bottomRight)")
        #expect(abs(r.bounds.minX - 40) <= 2.5 && abs(r.bounds.maxY - 130) <= 2.5, "\(r.bounds)")
        #expect(abs(r.bounds.width - 120) <= 5 && abs(r.bounds.height - 100) <= 5, "\(r.bounds)")
    }

    @Test func cornersFollowTheExtent() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil))
        let moved = try Self.card().transformed(by: CGAffineTransform(translationX: 100, y: -20))
        let r = try #require(detector.features(in: moved).first as? CIRectangleFeature)
        #expect(Self.near(r.topLeft, 140, 110), "\(r.topLeft)")
        #expect(Self.near(r.bottomRight, 260, 10), "\(r.bottomRight)")
    }

    @Test func otherTypesAndEmptyImagesGiveNothing() throws {
        #expect(CIDetector(ofType: "CIDetectorTypeFace", context: nil) == nil)
        #expect(CIDetector(ofType: "no such detector", context: nil) == nil)
        let detector = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil))
        // A plain colour has an infinite extent (nothing to render) and no rectangle.
        #expect(detector.features(in: CIImage(color: CIColor(red: 1, green: 1, blue: 1))).isEmpty)
        let blank = CIImage(color: CIColor(red: 0, green: 0, blue: 0)).cropped(
            to: CGRect(x: 0, y: 0, width: 200, height: 160))
        #expect(detector.features(in: blank).isEmpty)
    }
}
