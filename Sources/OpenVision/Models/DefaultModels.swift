import Foundation
import Synchronization

/// Models that requests use when none is given, loaded once per process.
enum DefaultModels {
    /// The default classifier's file name, installed by scripts/setup.
    static let classifierName = "efficientnet-lite0.onnx"
    /// The default detector's resource name: Yolo-Fastest-1.1-XL (COCO-80, Darknet, public domain), converted
    /// to ONNX at build time by Plugins/DefaultDetectorPlugin and bundled with OpenVision.
    static let detectorName = "yolo-fastest-1.1-xl"

    private static let classifierCache = Mutex<VisionModel?>(nil)
    private static let detectorCache = Mutex<VisionModel?>(nil)

    /// EfficientNet-Lite0 (ImageNet-1k), found through `ModelLocator`.
    static func classifier() throws(VisionError) -> VisionModel {
        try classifierCache.withLock { cached throws(VisionError) -> VisionModel in
            if let cached { return cached }
            guard let url = ModelLocator.find(classifierName) else {
                throw VisionError(
                    .missingModelData,
                    "the default classifier \(classifierName) is not installed in "
                        + ModelLocator.searchPaths.map(\.path).joined(separator: ", ")
                        + "; run scripts/setup or pass a model")
            }
            let model = try VisionModel(contentsOf: url)
            cached = model
            return model
        }
    }

    /// The bundled default detector's ONNX file.
    static var detectorURL: URL? { Bundle.module.url(forResource: detectorName, withExtension: "onnx") }

    /// Yolo-Fastest-1.1-XL on ONNX Runtime (its labels are in the ONNX metadata).
    static func detector() throws(VisionError) -> VisionModel {
        try detectorCache.withLock { cached throws(VisionError) -> VisionModel in
            if let cached { return cached }
            guard let url = detectorURL else {
                throw VisionError(
                    .missingModelData,
                    "the default detector \(detectorName).onnx is missing from OpenVision's "
                        + "resource bundle (built by DefaultDetectorPlugin); rebuild the package or pass a model")
            }
            let model = try VisionModel(contentsOf: url)
            cached = model
            return model
        }
    }
}
