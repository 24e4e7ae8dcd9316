/// An engine that runs a loaded model: ONNX Runtime, OpenVINO or OpenCV DNN here, or one of yours wrapped
/// with `VisionModel(backend:url:)`. Implementations are loaded once and must be safe to run from
/// many tasks at once.
public protocol InferenceBackend: Sendable {
    /// "onnxruntime 1.20.1", "openvino 2026.4.0", "opencv-dnn 4.6.0".
    var name: String { get }
    /// The model's inputs, in the order `run(_:)` takes them.
    var inputs: [TensorDescription] { get }
    /// The model's outputs, in the order `run(_:)` returns them.
    var outputs: [TensorDescription] { get }
    /// A metadata value stored in the model file (e.g. Ultralytics' "names"), if any.
    func metadata(_ key: String) -> String?
    /// Runs the model on one tensor per input, in input order, and returns every output.
    func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor]

    /// The model's inputs a caller may override per run, by name: scalar graph inputs with a default inside the model
    /// (a Core ML detector pipeline's `iouThreshold` and `confidenceThreshold`), not among `inputs`. Default: none.
    var overridableInputs: Set<String> { get }

    /// `run(_:)` with the named overridable inputs set to the given values. A backend that cannot set them throws
    /// `unsupported` naming them (never runs with them silently left at the model's defaults). Default: `run(_:)`
    /// when `overrides` is empty, else that error.
    func run(_ inputs: [Tensor], overriding overrides: [String: Float]) throws(VisionError) -> [Tensor]
}

extension InferenceBackend {
    /// Default: none.
    public var overridableInputs: Set<String> { [] }

    /// Default: `run(_:)` when `overrides` is empty, else throws `unsupported` naming them.
    public func run(_ inputs: [Tensor], overriding overrides: [String: Float]) throws(VisionError) -> [Tensor] {
        guard overrides.isEmpty else { throw refusal(overriding: overrides.keys) }
        return try run(inputs)
    }

    /// The error of a backend that cannot set the model's inputs `names`.
    func refusal(overriding names: some Collection<String>) -> VisionError {
        VisionError(
            .unsupported,
            "\(name) cannot set the model's input\(names.count == 1 ? "" : "s") "
                + names.sorted().map { "'\($0)'" }.joined(separator: ", ")
                + " (a Core ML pipeline's NMS threshold): run the model on ONNX Runtime (backend onnxRuntime), or leave "
                + "the request's threshold unset to keep the model's own")
    }
}

/// Which backend `VisionModel` uses.
public enum BackendChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// ONNX graphs (also TFLite and Core ML models, converted) on ONNX Runtime or OpenVINO, whichever ran the graph
    /// faster on a short warm-up at its first load with every output within 1e-4 relative of ONNX Runtime's (cached
    /// per graph, runtime versions, threads and machine; ONNX Runtime with one warning when OpenVINO is missing);
    /// OpenCV DNN for other formats or without ONNX Runtime. `OPENVISION_BACKEND` replaces it for the process.
    case automatic
    /// ONNX Runtime (from the onnxruntime PyPI wheel; see scripts/setup).
    case onnxRuntime
    /// OpenCV 4.6's DNN module: Darknet, Caffe, TensorFlow and ONNX.
    case openCV
    /// OpenVINO's CPU runtime (from the openvino PyPI wheel; see scripts/setup), always fp32: ONNX files, and TFLite
    /// and Core ML models converted to ONNX (not those with Core ML custom layers). `unsupported` when it is not
    /// installed or refuses the graph.
    case openVINO

    /// The choice a spelling names: a raw value in any case (`onnxRuntime`, `onnxruntime`, `openvino`, `opencv`,
    /// `automatic`) or `auto`; nil for anything else.
    public init?(spelling: String) {
        let key = spelling.trimmingCharacters(in: .whitespaces).lowercased()
        guard let choice = key == "auto" ? .automatic : Self.allCases.first(where: { $0.rawValue.lowercased() == key })
        else { return nil }
        self = choice
    }
}
