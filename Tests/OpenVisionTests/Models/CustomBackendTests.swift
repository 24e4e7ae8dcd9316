import Foundation
import OpenVision
import OpenVisionTestSupport
import Synchronization
import Testing

/// A caller's own `InferenceBackend` wrapped as a `VisionModel`: model requests run it through the
/// same pipeline (fitting, decoding, mapping back) as the built-in backends.
@Suite struct CustomBackendTests {
    /// A detector with an NMS-included output [1, 2, 6] (x1, y1, x2, y2, score, class in input pixels)
    /// that records the input it was given.
    final class FixedDetector: InferenceBackend {
        let name = "fixed-detector"
        let inputs = [TensorDescription(name: "images", shape: [1, 3, 64, 64])]
        let outputs = [TensorDescription(name: "output0", shape: [1, 2, 6])]
        let seenShapes = Mutex<[[Int]]>([])

        func metadata(_ key: String) -> String? { nil }

        func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] {
            seenShapes.withLock { $0.append(inputs[0].shape) }
            return [
                Tensor(
                    name: "output0", shape: [1, 2, 6],
                    scalars: [
                        16, 16, 48, 32, 0.9, 1,
                        0, 0, 8, 8, 0.1, 0,
                    ])
            ]
        }
    }

    @Test func detectionsFromACustomBackendAreMappedBackToTheImage() async throws {
        let backend = FixedDetector()
        var configuration = VisionModel.Configuration()
        configuration.labels = ["cat", "dog"]
        let model = try VisionModel(
            backend: backend, url: URL(fileURLWithPath: "/models/fixed"), configuration: configuration)
        #expect(model.modelDescription.format == .custom && model.modelDescription.backend == "fixed-detector")
        #expect(model.modelDescription.preprocessing.width == 64 && model.modelDescription.preprocessing.height == 64)

        var request = DetectObjectsRequest(model: model)
        request.imageCropAndScaleOption = .scaleFill  // 128×128 → 64×64: input pixels × 2 are image pixels
        let image = try Fixtures.canvas(width: 128, height: 128).makeImage()
        let objects = try await ImageRequestHandler(image: image).perform(request)
        #expect(backend.seenShapes.withLock { $0 } == [[1, 3, 64, 64]])
        // The 0.1 box is under the 0.25 threshold; the other is (16,16)-(48,32) of 64: lower-left (0.25, 0.5), 0.5 × 0.25.
        #expect(objects.count == 1)
        let box = try #require(objects.first?.boundingBox)
        #expect(
            abs(box.x - 0.25) < 1e-6 && abs(box.y - 0.5) < 1e-6 && abs(box.width - 0.5) < 1e-6
                && abs(box.height - 0.25) < 1e-6)
        #expect(objects.first?.labels.first?.identifier == "dog")
    }

    @Test func aBackendWithoutInputsIsAnInvalidModel() {
        final class NoInputs: InferenceBackend {
            let name = "none"
            let inputs: [TensorDescription] = []
            let outputs: [TensorDescription] = []
            func metadata(_ key: String) -> String? { nil }
            func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] { [] }
        }
        #expect(throws: VisionError.self) {
            try VisionModel(backend: NoInputs(), url: URL(fileURLWithPath: "/models/none"))
        }
    }
}
