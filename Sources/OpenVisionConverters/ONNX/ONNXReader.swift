import Foundation

/// What an .onnx file declares, read without running it: graph inputs and outputs with their
/// shapes, and `metadata_props`. A small protobuf reader over onnx.proto's ModelProto (field 7
/// graph, 14 metadata_props), GraphProto (11 input, 12 output, 5 initializer), ValueInfoProto and
/// TypeProto; malformed input is an error, never a trap, and nothing is allocated in proportion
/// to a declared size.
package struct ONNXModelInfo: Sendable {
    /// A graph input or output.
    package struct Value: Sendable, Equatable {
        package var name: String
        /// Dimensions; nil for a symbolic or missing one (and for values ≤ 0).
        package var shape: [Int?]
        /// `TensorProto.DataType` (1 float32, 7 int64, ...).
        package var elementType: Int32
    }

    /// Graph inputs that are not initializers (older exporters list weights among the inputs too).
    package var inputs: [Value] = []
    package var outputs: [Value] = []
    package var metadata: [String: String] = [:]
    /// Graph inputs with a default (an initializer of the same name): values a caller may override per run, such as a
    /// converted Core ML pipeline's NMS thresholds.
    package var overridable: [String] = []
    /// The names (else op indices, `#N`) of the main graph's `HardSigmoid` nodes whose `beta` is an explicit 0:
    /// OpenVINO 2026.4's ONNX frontend computes them with the default beta 0.5 instead, so OpenVINO refuses them.
    package var zeroBetaHardSigmoids: [String] = []

    /// Reads the file at `url` (memory-mapped).
    package init(url: URL) throws {
        self = try ONNXFile.read(url) { try ONNXModelInfo(data: $0) }
    }

    /// Parses a serialized ModelProto. Throws `syntax` for malformed protobuf or a model without inputs.
    package init(data: Data) throws {
        let parsed: ONNXModelInfo? = data.withUnsafeBytes { raw in
            var reader = ProtoReader(raw[...])
            var info = ONNXModelInfo()
            var initializers = Set<String>()
            while let (field, value) = reader.next() {
                guard case .bytes(let body) = value else { continue }
                if field == 14, let (k, v) = Self.keyValue(body) { info.metadata[k] = v }
                if field == 7 {
                    var graph = ProtoReader(body)
                    var nodeIndex = 0
                    while let (gField, gValue) = graph.next() {
                        guard case .bytes(let b) = gValue else { continue }
                        switch gField {
                        case 11: if let d = Self.valueInfo(b) { info.inputs.append(d) }
                        case 12: if let d = Self.valueInfo(b) { info.outputs.append(d) }
                        case 5: if let name = Self.tensorName(b) { initializers.insert(name) }
                        case 1:
                            if let name = Self.zeroBetaHardSigmoid(b) {
                                info.zeroBetaHardSigmoids.append(name.isEmpty ? "#\(nodeIndex)" : name)
                            }
                            nodeIndex += 1
                        default: break
                        }
                    }
                }
                if reader.failed { return nil }
            }
            guard !reader.failed else { return nil }
            info.overridable = info.inputs.filter { initializers.contains($0.name) }.map(\.name)
            info.inputs.removeAll { initializers.contains($0.name) }
            return info
        }
        guard let parsed, !parsed.inputs.isEmpty else {
            throw ConversionError(.syntax, "is not a readable ONNX model")
        }
        self = parsed
    }

    private init() {}

    private static func keyValue(_ body: Slice<UnsafeRawBufferPointer>) -> (String, String)? {
        var r = ProtoReader(body)
        var key = ""
        var value = ""
        while let (f, v) = r.next() {
            if case .bytes(let b) = v {
                if f == 1 { key = String(decoding: b, as: UTF8.self) }
                if f == 2 { value = String(decoding: b, as: UTF8.self) }
            }
        }
        return key.isEmpty ? nil : (key, value)
    }

    /// NodeProto (name 3, op_type 4, attribute 5 → AttributeProto name 1, f 2): the node's name when it is a
    /// `HardSigmoid` whose `beta` is present and 0 (else nil).
    private static func zeroBetaHardSigmoid(_ body: Slice<UnsafeRawBufferPointer>) -> String? {
        var r = ProtoReader(body)
        var name = ""
        var isHardSigmoid = false
        var zeroBeta = false
        while let (f, v) = r.next() {
            guard case .bytes(let b) = v else { continue }
            if f == 3 { name = String(decoding: b, as: UTF8.self) }
            if f == 4 { isHardSigmoid = String(decoding: b, as: UTF8.self) == "HardSigmoid" }
            if f == 5 {
                var a = ProtoReader(b)
                var attribute = ""
                var value: Float?
                while let (af, av) = a.next() {
                    if af == 1, case .bytes(let n) = av { attribute = String(decoding: n, as: UTF8.self) }
                    if af == 2, case .fixed32(let bits) = av { value = Float(bitPattern: bits) }
                }
                if attribute == "beta", value == 0 { zeroBeta = true }
            }
        }
        return isHardSigmoid && zeroBeta ? name : nil
    }

    private static func tensorName(_ body: Slice<UnsafeRawBufferPointer>) -> String? {
        var r = ProtoReader(body)
        while let (f, v) = r.next() {
            if f == 8, case .bytes(let b) = v { return String(decoding: b, as: UTF8.self) }
        }
        return nil
    }

    /// ValueInfoProto: name 1, type 2 → TypeProto.tensor_type 1 → elem_type 1, shape 2 → dim 1 → dim_value 1.
    private static func valueInfo(_ body: Slice<UnsafeRawBufferPointer>) -> Value? {
        var r = ProtoReader(body)
        var name = ""
        var shape: [Int?] = []
        var elementType: Int32 = 1
        while let (f, v) = r.next() {
            guard case .bytes(let b) = v else { continue }
            if f == 1 { name = String(decoding: b, as: UTF8.self) }
            if f == 2 {
                var type = ProtoReader(b)
                while let (tf, tv) = type.next() {
                    guard tf == 1, case .bytes(let tensor) = tv else { continue }
                    var t = ProtoReader(tensor)
                    while let (ttf, ttv) = t.next() {
                        if ttf == 1, case .varint(let e) = ttv { elementType = Int32(truncatingIfNeeded: e) }
                        guard ttf == 2, case .bytes(let shapeBytes) = ttv else { continue }
                        var s = ProtoReader(shapeBytes)
                        while let (sf, sv) = s.next() {
                            guard sf == 1, case .bytes(let dim) = sv else { continue }
                            var d = ProtoReader(dim)
                            var value: Int?
                            while let (df, dv) = d.next() {
                                if df == 1, case .varint(let n) = dv { value = Int(truncatingIfNeeded: n) }
                            }
                            shape.append(value.flatMap { $0 > 0 ? $0 : nil })
                        }
                    }
                }
            }
        }
        return name.isEmpty ? nil : Value(name: name, shape: shape, elementType: elementType)
    }
}
