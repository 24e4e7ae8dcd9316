import Foundation

extension VisionModel {
    /// The built-in COCO-80 detector's ONNX file (Yolo-Fastest-1.1-XL, public domain), bundled with
    /// OpenVision: what `DetectObjectsRequest()` uses without a model. Load it yourself to choose a backend
    /// or threads. Nil only if the package's resources are missing.
    public static var defaultDetectorURL: URL? { DefaultModels.detectorURL }
}
