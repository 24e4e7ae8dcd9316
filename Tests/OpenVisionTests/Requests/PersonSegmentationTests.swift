import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `GeneratePersonSegmentationRequest` (MediaPipe's selfie segmentation TFLite files, converted to ONNX)
/// against MediaPipe Python 0.10.14 running the same files, on the shared photos.
@Suite struct PersonSegmentationTests {
    /// MediaPipe's masks thresholded at 0.5, run-length encoded (row-major, runs of 0 then 1 alternating),
    /// for `model_selection` 0 (selfie_segmentation) and 1 (landscape). Made with (mediapipe==0.10.14):
    ///   cd ../shared/images && python Benchmarks/python/mediapipe_pose_reference.py mask person.jpg astronaut.png \
    ///       dog.jpg horses.jpg > Tests/Fixtures/MediaPipe/mask-reference.json
    struct Reference: Decodable {
        struct Mask: Decodable {
            var rle: [Int]
            var foreground: Double
        }
        struct Entry: Decodable {
            var width: Int
            var height: Int
            var model0: Mask
            var model1: Mask
        }
        var generator: String
        var images: [String: Entry]
    }

    static let reference: Reference = {
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/MediaPipe/mask-reference.json")
        guard let data = try? Data(contentsOf: url), let decoded = try? JSONDecoder().decode(Reference.self, from: data)
        else {
            return Reference(generator: "missing \(url.path)", images: [:])
        }
        return decoded
    }()

    static func decode(_ rle: [Int]) -> [Bool] {
        var out: [Bool] = []
        for (i, run) in rle.enumerated() { out += repeatElement(i % 2 == 1, count: run) }
        return out
    }

    static func iou(_ mask: PixelBufferObservation, _ expected: [Bool]) -> Double {
        var inter = 0
        var union = 0
        for (v, e) in zip(mask.values, expected) {
            let m = v > 0.5
            if m && e { inter += 1 }
            if m || e { union += 1 }
        }
        return union == 0 ? 1 : Double(inter) / Double(union)
    }

    static func mask(
        _ name: String, _ quality: GeneratePersonSegmentationRequest.QualityLevel,
        format: GeneratePersonSegmentationRequest.OutputPixelFormat = .oneComponent32Float
    ) async throws -> PixelBufferObservation {
        var request = GeneratePersonSegmentationRequest()
        request.qualityLevel = quality
        request.outputPixelFormat = format
        return try await request.perform(on: Fixtures.sharedImage(name))
    }

    /// `.balanced` is MediaPipe's model 0 and `.fast` its model 1: mask IoU ≥ 0.97 at the image's size. (Decoding
    /// dog.jpg and horses.jpg at 1/2 scale, which still covers the models' inputs, drops their IoU to 0.27–0.95:
    /// the masks need the full-size decode that MediaPipe samples.)
    @Test(
        arguments: ["person.jpg", "astronaut.png", "dog.jpg", "horses.jpg"],
        [GeneratePersonSegmentationRequest.QualityLevel.balanced, .fast])
    func maskMatchesMediaPipe(_ name: String, _ quality: GeneratePersonSegmentationRequest.QualityLevel) async throws {
        let entry = try #require(Self.reference.images[name], "\(Self.reference.generator)")
        let mask = try await Self.mask(name, quality)
        #expect(mask.width == entry.width && mask.height == entry.height && mask.channels == 1)
        #expect(mask.featureName == GeneratePersonSegmentationRequest.featureName)
        let expected = Self.decode(quality == .fast ? entry.model1.rle : entry.model0.rle)
        #expect(expected.count == entry.width * entry.height)
        let iou = Self.iou(mask, expected)
        #expect(iou >= 0.97, "\(name) \(quality): IoU \(iou)")
        #expect(mask.values.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    /// `.accurate` refines `.balanced`'s mask along the image's edges: it stays close to MediaPipe's
    /// (IoU ≥ 0.9) while differing from the unrefined mask at the outline.
    @Test(arguments: ["person.jpg", "astronaut.png"])
    func accurateRefinesTheBalancedMask(_ name: String) async throws {
        let entry = try #require(Self.reference.images[name])
        let accurate = try await Self.mask(name, .accurate)
        let balanced = try await Self.mask(name, .balanced)
        #expect(Self.iou(accurate, Self.decode(entry.model0.rle)) >= 0.9)
        let changed = zip(accurate.values, balanced.values).filter { abs($0 - $1) > 0.05 }.count
        #expect(changed > 0 && changed < accurate.values.count / 10, "\(name): \(changed) pixels changed")
    }

    /// The default output is 8-bit: every value is a multiple of 1/255.
    @Test func eightBitOutput() async throws {
        let mask = try await GeneratePersonSegmentationRequest().perform(on: Fixtures.sharedImage("astronaut.png"))
        #expect(mask.values.allSatisfy { abs($0 * 255 - ($0 * 255).rounded()) < 1e-3 })
    }

    /// Images smaller than the model input (256 × 256) give a mask at their own size.
    @Test func smallImage() async throws {
        let small = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png")).resized(width: 100, height: 90)
        var request = GeneratePersonSegmentationRequest()
        request.qualityLevel = .balanced
        let mask = try await ImageRequestHandler(image: small).perform(request)
        #expect(mask.width == 100 && mask.height == 90)
        let foreground = Double(mask.values.filter { $0 > 0.5 }.count) / Double(mask.values.count)
        let expected = try #require(Self.reference.images["astronaut.png"]).model0.foreground
        #expect(abs(foreground - expected) < 0.05, "foreground \(foreground) vs \(expected)")
    }

    /// The report names the mask's size; the overlay blends it in.
    @Test func reportAndOverlay() async throws {
        let mask = try await Self.mask("person.jpg", .fast)
        var report = AnalysisReport(image: "person.jpg", width: 640, height: 424)
        let reported = GeneratePersonSegmentationRequest().reportable(mask)
        reported.add(to: &report)
        #expect(report.personMask?.width == 640 && report.personMask?.height == 424)
        #expect(reported.overlayItems.count == 1)
    }
}
