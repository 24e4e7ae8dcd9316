import Foundation
import Synchronization

/// MediaPipe's TFLite models (from the `mediapipe==0.10.14` wheel, installed by scripts/setup into the
/// models folder), found through `ModelLocator` and loaded once per process.
enum MediaPipeModelStore {
    private static let cache = Mutex<[String: VisionModel]>([:])

    /// The model file `name` (e.g. "pose_detection.tflite"), loaded (converted to ONNX on first use).
    /// Throws `missingModelData` when it is not installed.
    static func model(_ name: String) throws(VisionError) -> VisionModel {
        try cache.withLock { cached throws(VisionError) -> VisionModel in
            if let model = cached[name] { return model }
            guard let url = ModelLocator.find(name) else {
                throw VisionError(.missingModelData, "the MediaPipe model \(name) is not installed in "
                    + ModelLocator.searchPaths.map(\.path).joined(separator: ", ") + "; run scripts/setup")
            }
            let model = try VisionModel(contentsOf: url)
            cached[name] = model
            return model
        }
    }
}
