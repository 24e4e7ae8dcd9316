internal import CNative
import Foundation
internal import OpenVisionConverters

/// Runs ONNX models (and TFLite / Core ML models, converted to ONNX) with OpenVINO on the CPU, loaded at run time
/// from the C API library of the PyPI `openvino` wheel: `OPENVISION_OPENVINO_LIBRARY`, else where scripts/setup
/// installs it (`/usr/local/lib/openvision/openvino/libopenvino_c.so`). Always fp32 (INFERENCE_PRECISION_HINT f32).
final class OpenVINOBackend: InferenceBackend, @unchecked Sendable {
    // The compiled model is immutable after creation; ov_vino_run gives each concurrent run its own infer request.
    let model: OpaquePointer
    let name: String
    let inputs: [TensorDescription]
    let outputs: [TensorDescription]
    /// The ONNX file's `metadata_props` (OpenVINO's compiled model does not keep them).
    let metadataProperties: [String: String]
    /// The graph's inputs with defaults (initializers named as graph inputs: a Core ML pipeline's NMS thresholds).
    /// OpenVINO's ONNX frontend folds them into constants, so `run(_:overriding:)` refuses to set them (the
    /// protocol's default) rather than run with the model's own values silently.
    let overridableInputs: Set<String>

    /// Where scripts/setup installs the library.
    static let installedLibrary = "/usr/local/lib/openvision/openvino/libopenvino_c.so"

    /// The library path in use: the environment variable, else the installed one.
    static var libraryPath: String {
        ProcessInfo.processInfo.environment["OPENVISION_OPENVINO_LIBRARY"] ?? installedLibrary
    }

    /// Loads the library once; throws `unsupported` naming the path and the fix.
    static func load() throws(VisionError) {
        try load(path: libraryPath)
    }

    /// Loads the library at `path` (once per process); throws `unsupported` naming the path and the fix.
    static func load(path: String) throws(VisionError) {
        let status = ov_vino_load(path)
        if status != OV_OK {
            var error = NativeError.error(for: status)
            error.code = .unsupported
            throw error
        }
    }

    /// Compiles a checked ONNX file (`ModelFileChecks.check`) for the CPU with `threads` inference threads (0: one
    /// per physical core). Throws `unsupported` when OpenVINO is not installed or refuses the graph (files with Core ML
    /// custom layers included), `invalidModel` for a file it cannot read.
    init(_ file: ModelFileChecks.RuntimeFile, threads: Int) throws(VisionError) {
        guard file.isONNX else {
            throw VisionError(.unsupported, "OpenVINO reads only ONNX files here, not \(file.model.lastPathComponent)")
        }
        guard file.customLayers.isEmpty else {
            throw VisionError(
                .unsupported,
                "\(file.model.lastPathComponent) has Core ML custom layers, which run only on ONNX Runtime")
        }
        try Self.load()
        let path = file.model.path
        // The file was read by ModelFileChecks already; a failure here leaves the metadata empty, as OpenVINO decides.
        let info = try? ONNXModelInfo(url: file.model)
        metadataProperties = info?.metadata ?? [:]
        overridableInputs = Set(info?.overridable ?? [])
        // OpenVINO 2026.4's ONNX frontend runs HardSigmoid with beta 0 as beta 0.5 (EfficientNet-Lite0's ReLU6 / 6):
        // wrong answers without an error, so refused here.
        if let nodes = info?.zeroBetaHardSigmoids, let first = nodes.first {
            throw VisionError(
                .unsupported,
                "OpenVINO computes HardSigmoid with beta 0 as if beta were 0.5, so it would answer wrongly for "
                    + "\(file.model.lastPathComponent) (\(nodes.count) such node\(nodes.count == 1 ? "" : "s"), first "
                    + "'\(first)'): run it on ONNX Runtime")
        }
        var handle: OpaquePointer?
        let status = ov_vino_model_create(path, Int32(max(0, threads)), &handle)
        guard status == OV_OK, let handle else {
            throw NativeError.error(for: status, context: "OpenVINO cannot load \(path)")
        }
        model = handle
        name = "openvino " + (String(cString: ov_vino_version()).split(separator: "-").first.map(String.init) ?? "")
        func describe(_ count: Int32, _ info: (Int32, UnsafeMutablePointer<ov_tensor_info>) -> ov_status)
            -> [TensorDescription]
        {
            (0..<count).map { i in
                var t = ov_tensor_info()
                guard info(i, &t) == OV_OK else { return TensorDescription(name: "?", shape: []) }
                let name = stringFromCCharArray(t.name)
                let dims = withUnsafeBytes(of: t.shape) { Array($0.bindMemory(to: Int64.self)) }
                let shape = (0..<Int(max(0, min(t.rank, 8)))).map { dims[$0] < 0 ? nil : Int(dims[$0]) }
                return TensorDescription(
                    name: name, shape: shape, elementType: ONNXRuntimeBackend.typeName(t.element_type))
            }
        }
        inputs = describe(ov_vino_input_count(handle)) { ov_vino_input_info(handle, $0, $1) }
        outputs = describe(ov_vino_output_count(handle)) { ov_vino_output_info(handle, $0, $1) }
    }

    deinit { ov_vino_model_free(model) }

    func metadata(_ key: String) -> String? { metadataProperties[key] }

    func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] {
        guard inputs.count == self.inputs.count, !inputs.isEmpty else {
            throw VisionError(
                .invalidArgument, "the model takes \(self.inputs.count) inputs, not \(inputs.count)")
        }
        var out: OpaquePointer?
        let status = NativeTensors.withInputs(inputs) { data, shapes, ranks in
            ov_vino_run(model, Int32(inputs.count), data, shapes, ranks, &out)
        }
        try NativeError.check(status, "OpenVINO run")
        return NativeTensors.take(out)
    }
}
