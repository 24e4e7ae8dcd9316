// libFuzzer target: the TensorFlow and Caffe graph readers and the checks OpenVision runs before
// OpenCV reads such files (OpenVisionConverters/TensorFlow, Caffe, Protobuf/ProtoTextReader.swift), on
// each input read both as a binary file and as text. Any input must read or give a ConversionError:
// never a trap, an out-of-bounds read (ASan), unbounded recursion or a size beyond the limits.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelGraphs(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let text = String(decoding: data, as: UTF8.self)
    if let graph = try? TensorFlowGraph(binary: data, fileName: "fuzz.pb") {
        precondition(graph.nodes.count <= TensorFlowLimits.maxNodes)
        _ = try? graph.check(as: .modelAlone)
        _ = try? graph.check(as: .modelWithTextGraph)
    }
    if let graph = try? TensorFlowGraph(text: text, fileName: "fuzz.pbtxt") {
        precondition(graph.nodes.count <= TensorFlowLimits.maxNodes)
        _ = try? graph.check(as: .textGraph)
    }
    if let net = try? CaffeNet(binary: data, fileName: "fuzz.caffemodel") {
        precondition(net.layers.count <= CaffeLimits.maxLayers)
    }
    if let net = try? CaffeNet(text: text, fileName: "fuzz.prototxt") {
        precondition(net.layers.count <= CaffeLimits.maxLayers)
    }
    return 0
}
