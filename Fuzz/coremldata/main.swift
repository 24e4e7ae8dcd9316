// libFuzzer target: the reader of Xcode's `coremldata.bin` (OpenVisionConverters/CoreML/Compiled/CoreMLCompiledData:
// the header, the compilers' tags, the ModelDescription or whole Model message, a classifier's labels, a pipeline's
// sub-model count) and the parsers it hands the description or model to. Any input must give a reading or a
// ConversionError: never a trap, an out-of-bounds read (ASan), unbounded allocation or a leak.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreMLData(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard let data = try? CoreMLCompiledData(bytes: bytes) else { return 0 }
    precondition((1...10).contains(data.specificationVersion))
    _ = try? data.classifierLabels(file: "fuzz")
    if let n = try? data.pipelineModelCount(file: "fuzz") { precondition(n <= CoreMLCompiledLimits.pipelineModels) }
    switch data.body {
    case .spec(let model):
        _ = try? CoreMLConverter.onnxData(bytes: Array(model))
    case .description(let description, _):
        _ = try? Array(description).withUnsafeBytes { raw in
            try CoreMLSpec.parseDescription(try ProtoMessage(raw[...], context: "fuzz"))
        }
    }
    return 0
}
