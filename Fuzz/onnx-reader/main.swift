// libFuzzer target: the ONNX protobuf reader (OpenVisionConverters/ONNX/ONNXReader.swift) and the
// static tensor sizes read before a model is loaded (ONNXStaticTensors.swift).
// Built by scripts/fuzz together with the converter sources. Any input must give a model
// description or a ConversionError: never a trap, an out-of-bounds read (ASan) or a leak.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzONNXReader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let info = try? ONNXModelInfo(data: data) {
        precondition(!info.inputs.isEmpty)
        for value in info.inputs + info.outputs { precondition(value.shape.allSatisfy { ($0 ?? 1) > 0 }) }
    }
    if let tensors = try? ONNXStaticTensors(data: data), let largest = tensors.largest {
        precondition(largest.bytes >= 0 && largest.shape.allSatisfy { $0 >= 0 })
    }
    return 0
}
