import CNative
import Foundation
import Testing

/// Objectness's fine-grained saliency is computed by a parallel replay of OpenCV contrib's
/// `StaticSaliencyFineGrained` (ov_saliency.cpp, "Decisions"); these tests hold it to OpenCV's own class,
/// byte for byte, on real photos at the size objectness uses and at full size, and on edge cases.
@Suite struct FineGrainedSaliencyTests {
    static let shared: URL = {
        if let env = ProcessInfo.processInfo.environment["OPENVISION_SHARED"] { return URL(fileURLWithPath: env) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }()

    /// A saliency entry point of ov_saliency.h: (gray, width, height, stride, reference, out) → status.
    typealias MapFunction = (UnsafePointer<UInt8>?, Int32, Int32, Int, Int32, UnsafeMutablePointer<Float>?) -> ov_status

    /// Both implementations' maps of one gray image by `function` (default the fine-grained one): (ours, OpenCV's).
    static func maps(
        _ gray: [UInt8], _ width: Int, _ height: Int, stride: Int? = nil,
        using function: MapFunction = ov_fine_grained_saliency
    ) throws -> ([Float], [Float]) {
        var ours = [Float](repeating: 7, count: width * height)
        var theirs = ours
        let rowBytes = stride ?? width
        try #require(function(gray, Int32(width), Int32(height), rowBytes, 0, &ours) == OV_OK)
        try #require(function(gray, Int32(width), Int32(height), rowBytes, 1, &theirs) == OV_OK)
        return (ours, theirs)
    }

    /// The luma plane of a photo, its longer side resized to `longSide` (nil: as decoded).
    static func photo(_ name: String, longSide: Int?) throws -> ([UInt8], Int, Int) {
        let data = try Data(contentsOf: shared.appendingPathComponent("images").appendingPathComponent(name))
        var decoded: OpaquePointer?
        try data.withUnsafeBytes { raw in
            try #require(ov_image_decode(raw.baseAddress, raw.count, 1, 1, 0, &decoded) == OV_OK)
        }
        defer { ov_image_free(decoded) }
        var image = decoded
        var resized: OpaquePointer?
        defer { ov_image_free(resized) }
        if let longSide {
            let w = Int(ov_image_width(decoded))
            let h = Int(ov_image_height(decoded))
            let f = Double(longSide) / Double(max(w, h))
            try #require(
                ov_image_resize(decoded, Int32((Double(w) * f).rounded()), Int32((Double(h) * f).rounded()), &resized)
                    == OV_OK)
            image = resized
        }
        let w = Int(ov_image_width(image))
        let h = Int(ov_image_height(image))
        var stride = 0
        let base = try #require(ov_image_gray(image, &stride))
        var pixels = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { pixels[y * w + x] = base[y * stride + x] } }
        return (pixels, w, h)
    }

    @Test(arguments: ["dog.jpg", "eagle.jpg", "giraffe.jpg", "horses.jpg", "person.jpg", "astronaut.png"])
    func matchesOpenCVByteForByteOnAPhoto(name: String) throws {
        for longSide in [272, nil] as [Int?] {
            let (gray, w, h) = try Self.photo(name, longSide: longSide)
            let (ours, theirs) = try Self.maps(gray, w, h)
            let differing = zip(ours, theirs).filter { $0 != $1 }.count
            #expect(differing == 0, "\(name) at \(w)x\(h): \(differing) pixels differ")
            #expect(theirs.contains { $0 > 0.8 } && theirs.contains { $0 < 0.2 }, "\(name): the map should span 0...1")
        }
    }

    @Test func matchesOpenCVOnEdgeCases() throws {
        // Flat (all sums zero), a single bright pixel, a thin strip, a tiny image, and a padded stride.
        let flat = [UInt8](repeating: 90, count: 40 * 30)
        let dot: [UInt8] = (0..<(33 * 21)).map { (i: Int) -> UInt8 in i == 33 * 10 + 16 ? 255 : 0 }
        let strip: [UInt8] = (0..<(300 * 2)).map { (i: Int) -> UInt8 in UInt8((i * 7) % 256) }
        let tiny: [UInt8] = [10, 200, 30, 40, 250, 60]
        let padded: [UInt8] = (0..<(50 * 20)).map { (i: Int) -> UInt8 in UInt8((i * 37 + i / 50 * 11) % 256) }
        let cases: [([UInt8], Int, Int, Int)] = [
            (flat, 40, 30, 40), (dot, 33, 21, 33), (strip, 300, 2, 300), (tiny, 3, 2, 3),
            (padded, 40, 20, 50),
        ]
        for (index, (gray, w, h, stride)) in cases.enumerated() {
            let (ours, theirs) = try Self.maps(gray, w, h, stride: stride)
            #expect(ours == theirs, "\(w)x\(h) stride \(stride)")
            if index == 0 { #expect(ours.allSatisfy { $0 == 0 }, "a flat image has no saliency") }
        }
    }

    /// `function` refuses a stride shorter than a row, an empty image and a missing image.
    static func expectRefusesBadGeometry(_ function: MapFunction) {
        var out = [Float](repeating: 0, count: 16)
        let gray = [UInt8](repeating: 0, count: 16)
        #expect(function(gray, 4, 4, 3, 0, &out) == OV_ERR_INVALID_ARGUMENT)
        #expect(function(gray, 0, 4, 4, 0, &out) == OV_ERR_INVALID_ARGUMENT)
        #expect(function(nil, 4, 4, 4, 0, &out) == OV_ERR_INVALID_ARGUMENT)
    }

    @Test func refusesBadGeometry() {
        Self.expectRefusesBadGeometry(ov_fine_grained_saliency)
    }
}
