import Foundation
import Synchronization

/// MediaPipe's TFLite models (from the pinned `mediapipe==0.10.14` wheel, installed by scripts/setup into
/// the models folder), found through `ModelLocator` and loaded once per process.
enum MediaPipeModels {
    static let palmDetectionFull = "palm_detection_full.tflite"
    static let palmDetectionLite = "palm_detection_lite.tflite"
    static let handLandmarkFull = "hand_landmark_full.tflite"
    static let handLandmarkLite = "hand_landmark_lite.tflite"
    static let faceShortRange = "face_detection_short_range.tflite"
    static let faceFullRange = "face_detection_full_range_sparse.tflite"

    private static let cache = Mutex<[String: VisionModel]>([:])

    /// The model `name` (a file name in the models folder, or a path), loaded once.
    static func model(_ name: String) throws(VisionError) -> VisionModel {
        try cache.withLock { models throws(VisionError) -> VisionModel in
            if let model = models[name] { return model }
            guard let url = ModelLocator.find(name) else {
                throw VisionError(
                    .missingModelData,
                    "the MediaPipe model \(name) is not installed in "
                        + ModelLocator.searchPaths.map(\.path).joined(separator: ", ")
                        + "; run scripts/setup (it extracts the "
                        + "models of the pinned mediapipe 0.10.14 wheel)")
            }
            let model = try VisionModel(contentsOf: url)
            models[name] = model
            return model
        }
    }
}
