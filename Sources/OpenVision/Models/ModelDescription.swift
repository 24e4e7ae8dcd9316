import Foundation
// CoreMLModelInfo, a Core ML model's own description, is the converter's type (one type from file to API).
public import OpenVisionConverters

/// What a loaded model is: its inputs and outputs, labels and preprocessing, as Core ML's
/// `MLModelDescription`.
public struct ModelDescription: Sendable, Hashable, Codable {
    /// The file format the model came from.
    public enum Format: String, Sendable, Hashable, Codable {
        /// ONNX, Darknet (.cfg + .weights), Caffe and TensorFlow frozen graphs, loaded as they are.
        case onnx, darknet, caffe, tensorflow
        /// A TensorFlow Lite file, converted to ONNX on first load (see `VisionModel(contentsOf:)`).
        case tflite
        /// A Core ML model (`.mlmodel`, `.mlpackage`, `.mlmodelc`), converted to ONNX on first load.
        case coreML = "coreml"
        /// A model wrapped around an `InferenceBackend` of the caller's (`VisionModel(backend:url:)`).
        case custom
    }

    /// The file format the model came from.
    public var format: Format
    /// The backend running it ("onnxruntime 1.20.1", "opencv-dnn 4.6.0").
    public var backend: String
    /// The model's inputs, in the model's order.
    public var inputs: [TensorDescription]
    /// The model's outputs, in the model's order.
    public var outputs: [TensorDescription]
    /// Class labels in class-index order (empty when none were found).
    public var labels: [String]
    /// Where the labels came from ("metadata:names", "file:coco.names", "given").
    public var labelsSource: String?
    /// How images are turned into the model's input tensor.
    public var preprocessing: ModelPreprocessing
    /// Metadata strings stored in the model (author, version, task, ...).
    public var metadata: [String: String]
    /// A Core ML model's own description (inputs, outputs, labels, metadata, NMS settings); nil for other formats.
    public var coreML: CoreMLModelInfo? = nil
}
