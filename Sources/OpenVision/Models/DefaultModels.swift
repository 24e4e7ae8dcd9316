import Foundation
import Synchronization

/// Models that requests use when none is given, loaded once per process.
enum DefaultModels {
    /// The default classifier's file name, installed by scripts/setup.
    static let classifierName = "efficientnet-lite0.onnx"

    private static let cache = Mutex<VisionModel?>(nil)

    /// EfficientNet-Lite0 (ImageNet-1k), found through `ModelLocator`.
    static func classifier() throws(VisionError) -> VisionModel {
        try cache.withLock { cached throws(VisionError) -> VisionModel in
            if let cached { return cached }
            guard let url = ModelLocator.find(classifierName) else {
                throw VisionError(.missingModelData, "the default classifier \(classifierName) is not installed in "
                    + ModelLocator.searchPaths.map(\.path).joined(separator: ", ") + "; run scripts/setup or pass a model")
            }
            let model = try VisionModel(contentsOf: url)
            cached = model
            return model
        }
    }
}
