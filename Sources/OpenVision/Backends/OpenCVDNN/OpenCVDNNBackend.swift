internal import CNative
import Foundation

/// Runs models with OpenCV 4.6's DNN module: Darknet (.cfg + .weights), Caffe, TensorFlow,
/// and ONNX where ONNX Runtime is absent. Runs on one network are serialised.
final class OpenCVDNNBackend: InferenceBackend, @unchecked Sendable {
    private let net: OpaquePointer
    let name = "opencv-dnn 4.6"
    let inputs: [TensorDescription]
    let outputs: [TensorDescription]
    private let fileMetadata: [String: String]
    /// An ONNX file's graph inputs with defaults. OpenCV DNN runs them at those defaults and cannot set them:
    /// `run(_:overriding:)` refuses (the protocol's default).
    let overridableInputs: Set<String>

    /// Loads a checked model file (`ModelFileChecks.check`); for ONNX files the declared inputs, outputs and metadata
    /// are read from the file, since OpenCV does not report them.
    init(_ file: ModelFileChecks.RuntimeFile, threads: Int) throws(VisionError) {
        let info = file.isONNX ? try ModelFileChecks.onnxInfo(file.model) : nil
        var handle: OpaquePointer?
        let status = ov_dnn_load(file.model.path, file.config?.path, Int32(threads), &handle)
        guard status == OV_OK, let handle else { throw NativeError.error(for: status) }
        net = handle
        // OpenCV DNN does not report input shapes before a run; the model description fills them in.
        inputs = info?.inputs ?? [TensorDescription(name: "input", shape: [1, 3, nil, nil])]
        outputs =
            info?.outputs
            ?? (0..<ov_dnn_output_count(handle)).map {
                TensorDescription(name: String(cString: ov_dnn_output_name(handle, $0)), shape: [])
            }
        fileMetadata = info?.metadata ?? [:]
        overridableInputs = Set(info?.overridable ?? [])
    }

    deinit { ov_dnn_free(net) }

    func metadata(_ key: String) -> String? { fileMetadata[key] }

    func run(_ inputs: [Tensor]) throws(VisionError) -> [Tensor] {
        guard inputs.count == 1, let input = inputs.first else {
            throw VisionError(.invalidArgument, "the OpenCV DNN backend takes one input, got \(inputs.count)")
        }
        let shape = input.shape.map(Int64.init)
        var out: OpaquePointer?
        let status = input.scalars.withUnsafeBufferPointer { data in
            shape.withUnsafeBufferPointer {
                ov_dnn_run(net, data.baseAddress, $0.baseAddress, Int32(shape.count), &out)
            }
        }
        try NativeError.check(status, "OpenCV DNN run")
        return NativeTensors.take(out)
    }
}
