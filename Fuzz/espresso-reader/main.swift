// libFuzzer target: the reader of Xcode's compiled neural networks (OpenVisionConverters/CoreML/Compiled:
// EspressoNetwork's JSON layer list, shapes and weights blob table; EspressoToCoreML's translation) and the converter
// of what it gives. An input is the three files joined by NUL bytes: model.espresso.net, NUL, model.espresso.shape,
// NUL, model.espresso.weights (which may hold NULs). The network reads one RGB image "image" of the size the shape file
// gives it (8 × 8 otherwise) and gives the last layer's top. Any input must give an ONNX model or a ConversionError:
// never a trap, an out-of-bounds read (ASan), unbounded allocation or a leak.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEspressoReader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else { return 0 }
    guard let network = try? EspressoNetwork(net: Array(parts[0]), shape: Array(parts[1]), weights: Array(parts[2]))
    else {
        return 0
    }
    let input = network.shapes["image"]
    var description = CoreMLModelDescription()
    let side = { (n: Int?) in min(max(n ?? 8, 1), 64) }
    description.inputs = [
        CoreMLFeature(
            name: "image",
            type: .image(
                .init(
                    width: side(input?.w), height: side(input?.h),
                    colorSpace: input?.k == 1 ? .grayscale : .rgb)))
    ]
    let top = network.layers.last?.tops.first ?? "out"
    description.outputs = [CoreMLFeature(name: top, type: .multiArray(.init(shape: [], dataType: .float32)))]
    var encoded = ONNXProtobufEncoder()
    encoded.message(1) { i in
        i.string(1, "image")
        i.message(3) { t in
            t.message(4) { image in
                image.int64(1, Int64(side(input?.w)))
                image.int64(2, Int64(side(input?.h)))
                image.int64(3, input?.k == 1 ? 10 : 20)
            }
        }
    }
    encoded.message(10) { o in
        o.string(1, top)
        o.message(3) { t in t.message(5) { a in a.int64(2, 65568) } }
    }
    guard
        let model = try? EspressoToCoreML.model(
            network, modelType: 500, specificationVersion: 4, description: description,
            descriptionBytes: encoded.bytes[...], labels: [])
    else { return 0 }
    guard let spec = try? CoreMLSpec(bytes: model) else { return 0 }
    if let conversion = try? CoreMLConverter.conversion(spec: spec, name: "fuzz", blob: { _ in [] }) {
        precondition((try? ONNXModelInfo(data: conversion.onnx)) != nil, "the converter wrote an unreadable ONNX model")
    }
    return 0
}
