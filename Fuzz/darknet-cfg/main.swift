// libFuzzer target: the Darknet .cfg validator (OpenVisionConverters/Darknet/DarknetConfig.swift) for
// both readers it checks networks for (the converter, and OpenCV's reader, which OpenVision runs
// before OpenCV sees a file), and, for the networks the converter accepts, the ONNX graph built
// from them (zero weights) read back by the ONNX reader.
// Any input must parse or give a ConversionError: never a trap (overflow, index), never a size
// beyond DarknetLimits, and every layer index in an accepted network points at an earlier layer.
import Foundation

/// The invariants of an accepted network.
func checkInvariants(_ config: DarknetConfig) {
    precondition(config.width <= DarknetLimits.maxSide && config.height <= DarknetLimits.maxSide)
    precondition(config.weightFloatCount <= DarknetLimits.maxWeightFloats)
    for layer in config.layers {
        let o = layer.output
        precondition(
            o.width <= DarknetLimits.maxSide && o.height <= DarknetLimits.maxSide
                && o.channels <= DarknetLimits.maxChannels)
        precondition(o.width > 0 && o.height > 0 && o.channels > 0)
        let earlier = 0..<layer.index
        switch layer.kind {
        case .route(let route):
            precondition(route.layers.allSatisfy(earlier.contains) && route.groupID < route.groups)
        case .shortcut(let shortcut):
            precondition(earlier.contains(shortcut.from))
        case .scaleChannels(let from), .sam(let from):
            precondition(earlier.contains(from))
        case .yolo(let yolo):
            precondition(!yolo.mask.isEmpty && yolo.mask.allSatisfy(yolo.anchors.indices.contains))
        default:
            break
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDarknetCfg(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? DarknetConfig.inputSize(text: text, fileName: "fuzz.cfg")
    // What OpenVision checks before OpenCV reads a network.
    if let forOpenCV = try? DarknetConfig(text: text, fileName: "fuzz.cfg", reader: .openCV) {
        checkInvariants(forOpenCV)
    }
    guard let config = try? DarknetConfig(text: text, fileName: "fuzz.cfg") else { return 0 }
    checkInvariants(config)
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
