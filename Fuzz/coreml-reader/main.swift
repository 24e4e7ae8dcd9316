// libFuzzer target: the Core ML `Model` reader (OpenVisionConverters/CoreML: protobuf messages, feature
// types, neural network layers, pipelines, NMS) and the NeuralNetwork → ONNX converter, weights decoding
// (float16, linear and lookup-table quantization) included, and the updatable-model reader and writer
// (CoreMLUpdatableModel: a kNN index grown, a network's trained layers written back). Built by scripts/fuzz together with the converter
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
    if let updatable = try? CoreMLUpdatableModel(bytes: bytes) {
        switch updatable.part {
        case .nearestNeighbors(let knn):
            let grown = try? updatable.appending(
                samples: [Float](repeating: 0.5, count: knn.dimensions), stringLabels: knn.stringLabels ? ["x"] : [],
                int64Labels: knn.stringLabels ? [] : [1])
            precondition(grown != nil, "a kNN index that reads does not grow")
        case .network(var network):
            let input = [Double](repeating: 0.5, count: updatable.partInputCount)
            var target = [Double](repeating: 0, count: network.outputCount)
            if !target.isEmpty { target[0] = 1 }
            _ = network.step([(input, target)])
            precondition((try? updatable.writing(network: network)) != nil, "a trained network is not written")
        }
    }
    if let onnx = try? CoreMLConverter.onnxData(bytes: bytes) {
        precondition((try? ONNXModelInfo(data: onnx)) != nil, "the converter wrote an unreadable ONNX model")
    }
    return 0
}
