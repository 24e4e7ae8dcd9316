// libFuzzer target: the TFLite FlatBuffer reader and the TFLite → ONNX converter
// (OpenVisionConverters/TFLite). Built by scripts/fuzz together with the converter sources. Any
// input must give an ONNX model or a ConversionError: never a trap, an out-of-bounds read (ASan),
// unbounded allocation or a leak.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTFLiteReader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    if let model = try? TFLiteModel(bytes: bytes) {
        precondition(model.inputs.allSatisfy { $0 >= 0 && $0 < model.tensors.count })
        if let data = model.metadataBytes("TFLITE_METADATA") { _ = TFLiteMetadata(bytes: data) }
    }
    if let onnx = try? TFLiteConverter.onnxData(bytes: bytes) {
        precondition((try? ONNXModelInfo(data: onnx)) != nil, "the converter wrote an unreadable ONNX model")
    }
    return 0
}
