// libFuzzer target: the ML Program reader, the weight blob reader and the MIL → ONNX lowering
// (OpenVisionConverters/CoreML/MIL). Built by scripts/fuzz together with the converter sources.
// Input: a 2-byte little-endian length L, L bytes of a serialized MIL Program, then a weight file
// (blob storage v2) that every weight reference of the program resolves to. Any input must give a
// program and a graph, or a ConversionError: never a trap, an out-of-bounds read (ASan), a leak or
// an allocation the input does not justify (libFuzzer's -rss_limit_mb).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMILProgram(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard bytes.count >= 2 else { return 0 }
    let length = min(Int(bytes[0]) | Int(bytes[1]) << 8, bytes.count - 2)
    let programBytes = bytes[2..<(2 + length)]
    let weightBytes = Array(bytes[(2 + length)...])

    // The blob reader alone: every record offset, every type, a few elements.
    if let file = try? MILWeightBlobFile(bytes: weightBytes) {
        for offset in stride(from: 64, to: weightBytes.count, by: 64) {
            guard let blob = try? file.blob(at: UInt64(offset)) else { continue }
            let type = blob.dataType.milType
            let values = try? file.values(at: UInt64(offset), as: type, count: min(blob.byteCount, 64))
            precondition(values == nil || values!.count == min(blob.byteCount, 64))
        }
    }

    guard let program = try? MILProgram(serialized: programBytes) else { return 0 }
    _ = program.mainInputs
    _ = program.mainOutputs
    _ = program.opCounts
    _ = program.classifier
    var graph = ONNXWriter.Graph(name: "fuzz")
    let inputs = Dictionary(program.mainInputs.map { ($0.name, $0.name) }, uniquingKeysWith: { a, _ in a })
    if let outputs = try? MILToONNX.lower(
        program, blobs: { _ in try MILWeightBlobFile(bytes: weightBytes) },
        inputs: inputs, into: &graph, namePrefix: "f/")
    {
        _ = ONNXWriter.Model(opsetVersion: MILToONNX.opsetVersion, graph: graph).serialized()
        precondition(outputs.count <= program.mainOutputs.count)
    }
    return 0
}
