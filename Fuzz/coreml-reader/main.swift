// libFuzzer target: the Core ML `Model` reader (OpenVisionConverters/CoreML: protobuf messages, feature
// types, neural network layers, pipelines, NMS) and the NeuralNetwork → ONNX converter, weights decoding
// (float16, linear and lookup-table quantization) included. Built by scripts/fuzz together with the converter
// sources. Any input must give an ONNX model or a ConversionError: never a trap, an out-of-bounds read (ASan),
// unbounded allocation or a leak.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreMLReader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    if let spec = try? CoreMLSpec(bytes: bytes) {
        precondition(spec.specificationVersion >= 1 && spec.specificationVersion <= 10)
        if case .neuralNetwork(let nn) = spec.kind {
            precondition(nn.layers.allSatisfy { $0.parameters.upperBound <= bytes.count })
        }
    }
    if let onnx = try? CoreMLConverter.onnxData(bytes: bytes) {
        precondition((try? ONNXModelInfo(data: onnx)) != nil, "the converter wrote an unreadable ONNX model")
    }
    return 0
}
