// libFuzzer target: the model.mil text parser (OpenVisionConverters/CoreML/MIL/MILProgram+Text.swift) and
// the lowering of what it reads (weight references resolve to a small built-in weight file). Any input
// must give a program or a ConversionError: never a trap, an out-of-bounds read (ASan) or a leak.
import Foundation

/// One float32 blob [1, 2, 3, 4] at offset 64 (blob storage v2).
let weights: [UInt8] = {
    func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
    var b = le(1, 4) + le(2, 4) + [UInt8](repeating: 0, count: 56)
    b += le(0xDEAD_BEEF, 4) + le(2, 4) + le(16, 8) + le(128, 8) + [UInt8](repeating: 0, count: 40)
    for f: Float in [1, 2, 3, 4] { b += le(UInt64(f.bitPattern), 4) }
    return b
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMILText(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    guard let program = try? MILProgram(text: text) else { return 0 }
    _ = program.mainInputs
    _ = program.mainOutputs
    _ = program.defaultShapes
    var graph = ONNXWriter.Graph(name: "fuzz")
    let inputs = Dictionary(program.mainInputs.map { ($0.name, $0.name) }, uniquingKeysWith: { a, _ in a })
    _ = try? MILToONNX.lower(
        program, blobs: { _ in try MILWeightBlobFile(bytes: weights) }, inputs: inputs, into: &graph, namePrefix: "")
    return 0
}
