import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The built-in detector (Yolo-Fastest-1.1-XL converted to ONNX at build time and bundled), and the
/// requests built on it: `RecognizeAnimalsRequest` and `DetectHumanRectanglesRequest`.
@Suite struct BuiltInDetectorTests {
    // Reference: Python onnxruntime on the bundled ONNX file (from Benchmarks/python, .venv-bench):
    //   s = ort_session('.build/debug/OpenVision_OpenVision.resources/yolo-fastest-1.1-xl.onnx'); i = s.get_inputs()[0]
    //   b = np.ascontiguousarray(cv2.resize(im, (320, 320))[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255
    //   decode(np.concatenate(s.run(None, {i.name: b})), W, H)   # bench_detect.decode: score 0.25, per-class NMS 0.45
    // dog.jpg: dog 0.96 [114, 188, 272, 347], bicycle 0.89 [113, 127, 460, 371], car 0.84 [450, 78, 235, 84], truck 0.26
    // person.jpg: person 0.99 [188, 103, 84, 260], dog 0.98 [58, 252, 149, 102], cow 0.97 [389, 143, 220, 191]
    // astronaut.png: person 0.99 [11, -3, 176, 224]
    @Test func detectsWithoutAModelAsThePythonReference() async throws {
        #expect(VisionModel.defaultDetectorURL?.lastPathComponent == "yolo-fastest-1.1-xl.onnx")
        let objects = try await DetectObjectsRequest().perform(on: Fixtures.sharedImage("dog.jpg"))
        ObjectDetectionTests.check(
            objects, against: ObjectDetectionTests.reference["yolo-fastest-1.1-xl"]!["dog.jpg"]!,
            imageSize: CGSize(width: 768, height: 576), minimumIoU: 0.98)
        let people = try await DetectObjectsRequest().perform(on: Fixtures.sharedImage("person.jpg"))
        ObjectDetectionTests.check(
            people, against: ObjectDetectionTests.reference["yolo-fastest-1.1-xl"]!["person.jpg"]!,
            imageSize: CGSize(width: 640, height: 424), minimumIoU: 0.98)
    }

    @Test func animalsAreCatsAndDogsWithVisionsIdentifiers() async throws {
        #expect(RecognizeAnimalsRequest.supportedIdentifiers.map(\.rawValue) == ["Cat", "Dog"])
        let size = CGSize(width: 768, height: 576)
        let animals = try await RecognizeAnimalsRequest().perform(on: Fixtures.sharedImage("dog.jpg"))
        #expect(animals.map { $0.labels.map(\.identifier) } == [["Dog"]])
        let reference = NormalizedRect(
            imageRect: CGRect(x: 114, y: 188, width: 272, height: 347), in: size, origin: .upperLeft)
        #expect((animals.first?.boundingBox.intersectionOverUnion(reference) ?? 0) > 0.98)
        #expect(abs((animals.first?.confidence ?? 0) - 0.96) < 0.01)
        // person.jpg: the dog, not the person or the cow.
        let more = try await RecognizeAnimalsRequest().perform(on: Fixtures.sharedImage("person.jpg"))
        #expect(more.map { $0.labels[0].identifier } == ["Dog"])
        // No animals on the astronaut.
        #expect(try await RecognizeAnimalsRequest().perform(on: Fixtures.sharedImage("astronaut.png")).isEmpty)
    }

    @Test func humansWholeAndUpperBody() async throws {
        let size = CGSize(width: 640, height: 424)
        var whole = DetectHumanRectanglesRequest()
        whole.upperBodyOnly = false
        let people = try await whole.perform(on: Fixtures.sharedImage("person.jpg"))
        #expect(people.count == 1)
        let full = NormalizedRect(
            imageRect: CGRect(x: 188, y: 103, width: 84, height: 260), in: size, origin: .upperLeft)
        #expect((people.first?.boundingBox.intersectionOverUnion(full) ?? 0) > 0.98)
        #expect(people.first?.upperBodyOnly == false)

        // Upper body (the default): same top and width, min(h, max(0.55 h, 1.2 w)) = 143 px tall.
        let upper = try await DetectHumanRectanglesRequest().perform(on: Fixtures.sharedImage("person.jpg"))
        #expect(upper.count == 1)
        let top = NormalizedRect(
            imageRect: CGRect(x: 188, y: 103, width: 84, height: 143), in: size, origin: .upperLeft)
        #expect((upper.first?.boundingBox.intersectionOverUnion(top) ?? 0) > 0.97)
        #expect(upper.first?.upperBodyOnly == true)
        #expect(abs((upper.first?.confidence ?? 0) - 0.99) < 0.01)

        // The astronaut's portrait is already head and torso: the box stays whole.
        let portrait = try await DetectHumanRectanglesRequest().perform(on: Fixtures.sharedImage("astronaut.png"))
        #expect(portrait.count == 1)
        #expect((portrait.first?.boundingBox.height ?? 0) > 0.95)
        // Nobody on dog.jpg.
        #expect(try await DetectHumanRectanglesRequest().perform(on: Fixtures.sharedImage("dog.jpg")).isEmpty)
    }

    @Test func badOptionsAreInvalidArguments() async throws {
        var animals = RecognizeAnimalsRequest()
        animals.confidenceThreshold = 2
        await #expect(throws: VisionError.self) { try await animals.perform(on: Fixtures.sharedImage("dog.jpg")) }
        var humans = DetectHumanRectanglesRequest()
        humans.confidenceThreshold = -1
        do {
            _ = try await humans.perform(on: Fixtures.sharedImage("dog.jpg"))
            Issue.record("a negative threshold was accepted")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }
}
