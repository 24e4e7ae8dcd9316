import CNative
import Foundation
import Testing

/// Attention saliency's spectral residual is computed by our own form of OpenCV contrib's
/// `StaticSaliencySpectralResidual` (a real-input DFT, the phase kept by scaling, buffers kept per thread:
/// ov_saliency.cpp, "Decisions"); these tests hold it to OpenCV's own class, within 1e-4 on its 0...1 map (the
/// photos measure ≤ 5e-5), on real photos at the 68 × 68 map size attention uses and at other sizes, one after
/// another on the same thread (so the kept buffers change size), and on edge cases.
@Suite struct SpectralResidualSaliencyTests {
    /// The largest difference allowed between the two maps (values in 0...1).
    static let tolerance: Float = 1e-4

    /// The number of values further apart than `tolerance`, and the largest difference.
    static func compare(_ ours: [Float], _ theirs: [Float]) -> (differing: Int, largest: Float) {
        let gaps = zip(ours, theirs).map { abs($0 - $1) }
        return (gaps.filter { !($0 <= tolerance) }.count, gaps.max() ?? 0)
    }

    /// Both implementations' maps of one gray image: (ours, OpenCV's).
    static func maps(_ gray: [UInt8], _ width: Int, _ height: Int, stride: Int? = nil) throws -> ([Float], [Float]) {
        try FineGrainedSaliencyTests.maps(gray, width, height, stride: stride, using: ov_spectral_residual_saliency)
    }

    @Test(arguments: ["dog.jpg", "eagle.jpg", "giraffe.jpg", "horses.jpg", "person.jpg", "astronaut.png"])
    func matchesOpenCVOnAPhoto(name: String) throws {
        // 68 (attention's map), then a larger and a smaller working size on the same thread.
        for side in [68, 160, 40] {
            let (photo, w0, h0) = try FineGrainedSaliencyTests.photo(name, longSide: side)
            // Square, as attention uses it: the top-left side × side block (the photo's longer side is `side`).
            let n = min(w0, h0)
            var gray = [UInt8](repeating: 0, count: n * n)
            for y in 0..<n { for x in 0..<n { gray[y * n + x] = photo[y * w0 + x] } }
            let (ours, theirs) = try Self.maps(gray, n, n)
            let (differing, largest) = Self.compare(ours, theirs)
            #expect(
                ours.count == theirs.count && differing == 0,
                "\(name) at \(n)x\(n): \(differing) pixels differ, by up to \(largest)")
            #expect(theirs.contains { $0 > 0.99 } && theirs.contains { $0 < 0.2 }, "\(name): the map should span 0...1")
        }
    }

    @Test func matchesOpenCVOnEdgeCases() throws {
        // A single bright pixel, a non-square image with a padded stride, a thin strip, a tiny image, and one above
        // 256 × 256 (computed without the buffers kept per thread).
        let dot: [UInt8] = (0..<(33 * 21)).map { (i: Int) -> UInt8 in i == 33 * 10 + 16 ? 255 : 0 }
        let padded: [UInt8] = (0..<(50 * 20)).map { (i: Int) -> UInt8 in UInt8((i * 37 + i / 50 * 11) % 256) }
        let strip: [UInt8] = (0..<(300 * 2)).map { (i: Int) -> UInt8 in UInt8((i * 7) % 256) }
        let tiny: [UInt8] = [10, 200, 30, 40, 250, 60]
        let large: [UInt8] = (0..<(300 * 300)).map { (i: Int) -> UInt8 in
            UInt8((i % 300 * 3 + i / 300 * 5 + (i % 97) * (i % 89)) % 256)
        }
        let cases: [([UInt8], Int, Int, Int)] = [
            (dot, 33, 21, 33), (padded, 40, 20, 50), (strip, 300, 2, 300), (tiny, 3, 2, 3),
            (large, 300, 300, 300),
        ]
        for (gray, w, h, stride) in cases {
            let (ours, theirs) = try Self.maps(gray, w, h, stride: stride)
            let (differing, largest) = Self.compare(ours, theirs)
            #expect(
                ours.count == theirs.count && differing == 0, "\(w)x\(h) stride \(stride): differs by up to \(largest)")
        }
    }

    @Test func refusesBadGeometry() {
        FineGrainedSaliencyTests.expectRefusesBadGeometry(ov_spectral_residual_saliency)
    }
}
