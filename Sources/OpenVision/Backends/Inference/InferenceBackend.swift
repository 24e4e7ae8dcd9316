/// An engine that runs a loaded model: ONNX Runtime or OpenCV DNN here, or one of yours wrapped
/// with `VisionModel(backend:url:)`. Implementations are loaded once and must be safe to run from
/// many tasks at once.
public protocol InferenceBackend: Sendable {
    /// "onnxruntime 1.20.1", "opencv-dnn 4.6.0".
    var name: String { get }
    var inputs: [TensorDescription] { get }
    var outputs: [TensorDescription] { get }
    /// A metadata value stored in the model file (e.g. Ultralytics' "names"), if any.
    func metadata(_ key: String) -> String?
    /// Runs the model on one tensor per input, in input order, and returns every output.
    func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor]
}

/// Which backend `VisionModel` uses.
public enum BackendChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// ONNX Runtime for .onnx files when its library is installed, OpenCV DNN otherwise.
    case automatic
    /// ONNX Runtime (from the onnxruntime PyPI wheel; see scripts/setup).
    case onnxRuntime
    /// OpenCV 4.6's DNN module: Darknet, Caffe, TensorFlow and ONNX.
    case openCV
}
