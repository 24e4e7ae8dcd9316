// libFuzzer target: Core ML's classic model types (OpenVisionConverters/CoreML: CoreMLClassicModel+Reader.swift and
// the CoreMLToONNX+Classic*.swift lowerings). The first byte picks the model type, the second the description around
// it (the inputs and outputs it is converted with); the rest is the type's parameter message. Any input must give an
// ONNX model or a ConversionError: never a trap, an out-of-bounds read (ASan), unbounded allocation or a leak — tree
// ensembles with cycles or millions of nodes, kNN indexes and support vectors of absurd sizes included.
// Seeds: Fuzz/corpus/coreml-classic, made from Tests/Fixtures/coreml/classic by scripts/models/coreml_classic_seeds.py.
import Foundation

/// Minimal protobuf writing for the wrapping `Model` message.
struct Writer {
    var bytes: [UInt8] = []
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
    mutating func field(_ number: Int, _ body: [UInt8]) {
        varint(UInt64(number) << 3 | 2)
        varint(UInt64(body.count))
        bytes += body
    }
    mutating func int(_ number: Int, _ value: UInt64) {
        varint(UInt64(number) << 3)
        varint(value)
    }
}

/// A FeatureDescription: name and FeatureType (1 int64, 2 double, 3 string, 5 multiArray of `width` doubles,
/// 6 dictionary with string keys).
func feature(_ name: String, _ kind: Int, width: Int = 4) -> [UInt8] {
    var type = Writer()
    switch kind {
    case 5:
        var array = Writer()
        array.int(1, UInt64(width))
        array.int(2, 65600)
        type.field(5, array.bytes)
    case 6:
        type.field(6, [0x12, 0x00])  // stringKeyType
    default:
        type.field(kind, [])
    }
    var f = Writer()
    f.field(1, Array(name.utf8))
    f.field(3, type.bytes)
    return f.bytes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreMLClassic(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    guard input.count >= 2 else { return 0 }
    let types = CoreMLClassicModel.ModelType.allCases
    let type = types[Int(input[0]) % types.count]
    let shape = Int(input[1])
    // Inputs: the kind the second byte picks (a multi-array of 1...16 doubles, a double, an int64, a string, a
    // dictionary); outputs: a classifier's label and probabilities, or one value of the kind its high bits pick.
    let inputKinds = [5, 2, 1, 3, 6]
    var description = Writer()
    description.field(1, feature("x", inputKinds[shape % inputKinds.count], width: 1 + (shape >> 3) % 16))
    if type.isClassifier {
        description.field(10, feature("label", shape & 0x80 == 0 ? 3 : 1))
        description.field(10, feature("probabilities", 6))
        description.field(11, Array("label".utf8))
        description.field(12, Array("probabilities".utf8))
    } else {
        description.field(10, feature("y", [5, 2, 1, 3][(shape >> 5) % 4], width: 1 + (shape >> 3) % 16))
    }
    var model = Writer()
    model.int(1, 4)
    model.field(2, description.bytes)
    model.field(type.field, Array(input[2...]))
    if let spec = try? CoreMLSpec(bytes: model.bytes), case .classic(let classic) = spec.kind {
        precondition(classic.parameters.upperBound <= model.bytes.count)
    }
    if let onnx = try? CoreMLConverter.onnxData(bytes: model.bytes) {
        precondition((try? ONNXModelInfo(data: onnx)) != nil, "the converter wrote an unreadable ONNX model")
    }
    return 0
}
