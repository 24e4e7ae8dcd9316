// libFuzzer target: the Darknet .cfg parser (OpenVisionConverters/Darknet/DarknetConfig.swift),
// the lenient bounds pass OpenVision runs before OpenCV reads a network, and, for the networks the
// parser accepts, the ONNX graph built from them (zero weights) read back by the ONNX reader.
// Any input must parse or give a ConversionError: never a trap (overflow, index), and never a
// size beyond DarknetLimits.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDarknetCfg(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? DarknetConfig.inputSize(text: text, fileName: "fuzz.cfg")
    // The lenient pass OpenVision runs on networks the converter cannot read in full.
    if let sections = try? DarknetSection.parse(text, fileName: "fuzz.cfg", lastKeyWins: true) {
        _ = try? DarknetConfig.checkBounds(sections, fileName: "fuzz.cfg")
    }
    guard let config = try? DarknetConfig(text: text, fileName: "fuzz.cfg") else { return 0 }
    precondition(config.width <= DarknetLimits.maxSide && config.height <= DarknetLimits.maxSide)
    precondition(config.weightFloatCount <= DarknetLimits.maxWeightFloats)
    for layer in config.layers {
        let o = layer.output
        precondition(o.width <= DarknetLimits.maxSide && o.height <= DarknetLimits.maxSide
                     && o.channels <= DarknetLimits.maxChannels)
    }
    // Build the graph for small networks only (the fuzzer's memory limit, not the converter's).
    let rows = config.layers.reduce(0) { total, layer in
        if case .yolo(let yolo) = layer.kind { return total + layer.input.height * layer.input.width * yolo.mask.count }
        return total
    }
    guard config.weightFloatCount <= 1 << 16, rows <= 1 << 12 else { return 0 }
    var header = Data([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    header.append(Data(count: config.weightFloatCount * 4))
    guard let weights = try? DarknetWeights(data: header, config: config) else {
        preconditionFailure("zero weights of the right size were refused")
    }
    var converter = DarknetToONNX(config: config, weights: weights, classNames: nil)
    guard let model = try? converter.makeModel() else { return 0 }  // no [yolo] head
    let info = try? ONNXModelInfo(data: model.serialized())
    precondition(info?.inputs.first?.shape == [1, config.channels, config.height, config.width])
    return 0
}
