import Foundation
import Testing
import Vision

// MLImageConstraint has no public initializer (as Apple's): the tests make one.
@testable import CoreML

/// Core ML's image feature values with an EXIF orientation (CoreMLHelpers' `featureValue(fromCGImage:…)` uses them):
/// the image is turned upright before it is fitted, by hand-worked rotations of a 3 × 2 gray image.
@Suite struct MLFeatureValueOrientationTests {
    /// Rows a b c / d e f as gray 10…60.
    static let stored: CGImage = {
        let bytes: [UInt8] = [10, 20, 30, 40, 50, 60]
        return CGImage(
            width: 3, height: 2, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 3,
            space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGBitmapInfo(rawValue: 0),
            provider: CGDataProvider(data: Data(bytes) as CFData)!, decode: nil, shouldInterpolate: false,
            intent: .defaultIntent)!
    }()

    static func gray(_ value: MLFeatureValue) throws -> [[UInt8]] {
        let buffer = try #require(value.imageBufferValue)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        return (0..<CVPixelBufferGetHeight(buffer)).map { row in
            (0..<CVPixelBufferGetWidth(buffer)).map { base[row * stride + $0] }
        }
    }

    @Test func orientationTurnsTheImageUprightFirst() throws {
        let format = kCVPixelFormatType_OneComponent8
        let up = try MLFeatureValue(cgImage: Self.stored, pixelsWide: 3, pixelsHigh: 2, pixelFormatType: format)
        #expect(try Self.gray(up) == [[10, 20, 30], [40, 50, 60]])
        // .right (EXIF 6): the stored top row is the visual right side; upright is the stored image turned 90° CW.
        let right = try MLFeatureValue(
            cgImage: Self.stored, orientation: .right, pixelsWide: 2, pixelsHigh: 3, pixelFormatType: format)
        #expect(try Self.gray(right) == [[40, 10], [50, 20], [60, 30]])
        // .down (EXIF 3): turned 180°.
        let constraint = MLImageConstraint(pixelsWide: 3, pixelsHigh: 2, pixelFormatType: format)
        let down = try MLFeatureValue(cgImage: Self.stored, orientation: .down, constraint: constraint)
        #expect(try Self.gray(down) == [[60, 50, 40], [30, 20, 10]])
        #expect(try Self.gray(MLFeatureValue(cgImage: Self.stored, constraint: constraint)) == Self.gray(up))
    }

    @Test func fromAFileWithOrientation() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("orientation-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        let destination = try #require(CGImageDestinationCreateWithURL(url as CFURL, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, Self.stored, nil)
        #expect(CGImageDestinationFinalize(destination))
        let format = kCVPixelFormatType_OneComponent8
        let left = try MLFeatureValue(
            imageAt: url, orientation: .left, pixelsWide: 2, pixelsHigh: 3, pixelFormatType: format)
        // .left (EXIF 8): upright is the stored image turned 90° counter-clockwise.
        #expect(try Self.gray(left) == [[30, 60], [20, 50], [10, 40]])
        let constraint = MLImageConstraint(pixelsWide: 3, pixelsHigh: 2, pixelFormatType: format)
        #expect(
            try Self.gray(MLFeatureValue(imageAt: url, orientation: .up, constraint: constraint))
                == Self.gray(
                    MLFeatureValue(cgImage: Self.stored, pixelsWide: 3, pixelsHigh: 2, pixelFormatType: format)))
        #expect(throws: MLModelError.self) {
            try MLFeatureValue(
                imageAt: URL(fileURLWithPath: "/nonexistent.png"), orientation: .left, constraint: constraint)
        }
    }
}
