import Foundation

/// A minimal writer of ONNX models: just the parts of `onnx.proto` a converted feed-forward
/// network needs, encoded by hand as protobuf (no protobuf library).
///
/// Field numbers are those of onnx/onnx `onnx/onnx.proto` (ModelProto, GraphProto, NodeProto,
/// AttributeProto, TensorProto, ValueInfoProto, TypeProto, TensorShapeProto, OperatorSetIdProto,
/// StringStringEntryProto).
package enum ONNXWriter {
    /// `TensorProto.DataType`.
    package enum DataType: Int64, Sendable {
        case float = 1
        case uint8 = 2
        case int8 = 3
        case int32 = 6
        case int64 = 7
        /// UTF-8 strings (`string_data`; no raw form).
        case string = 8
        case bool = 9
        case float16 = 10
        case double = 11

        /// Bytes per element (0 for strings, which have no fixed size).
        package var size: Int {
            switch self {
            case .string: 0
            case .uint8, .int8, .bool: 1
            case .float16: 2
            case .float, .int32: 4
            case .int64, .double: 8
            }
        }
    }

    /// A constant tensor (an initializer, or the value of a tensor attribute).
    package struct Tensor {
        enum Storage {
            /// Written as little-endian `raw_data`.
            case float([Float])
            /// Written as `int64_data`.
            case int64([Int64])
            /// Little-endian bytes of any element type, written as `raw_data`.
            case raw(DataType, [UInt8])
            /// Written as `string_data`.
            case strings([String])
        }

        var name: String
        var dims: [Int]
        var storage: Storage

        package init(name: String, dims: [Int], floats: [Float]) {
            precondition(dims.reduce(1, *) == floats.count, "tensor \(name): \(floats.count) values for dims \(dims)")
            self.name = name
            self.dims = dims
            storage = .float(floats)
        }

        package init(name: String, dims: [Int], int64s: [Int64]) {
            precondition(dims.reduce(1, *) == int64s.count, "tensor \(name): \(int64s.count) values for dims \(dims)")
            self.name = name
            self.dims = dims
            storage = .int64(int64s)
        }

        /// A tensor of `type` from its little-endian bytes (`bytes.count` = elements × `type.size`).
        package init(name: String, dims: [Int], type: DataType, rawBytes: [UInt8]) {
            precondition(
                dims.reduce(1, *) * type.size == rawBytes.count,
                "tensor \(name): \(rawBytes.count) bytes for dims \(dims) of \(type)")
            self.name = name
            self.dims = dims
            storage = .raw(type, rawBytes)
        }

        /// A string tensor.
        package init(name: String, dims: [Int], strings: [String]) {
            precondition(
                dims.reduce(1, *) == strings.count, "tensor \(name): \(strings.count) strings for dims \(dims)")
            self.name = name
            self.dims = dims
            storage = .strings(strings)
        }

        /// A double tensor.
        package init(name: String, dims: [Int], doubles: [Double]) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(doubles.count * 8)
            for v in doubles {
                for shift in stride(from: 0, to: 64, by: 8) {
                    bytes.append(UInt8(truncatingIfNeeded: v.bitPattern >> UInt64(shift)))
                }
            }
            self.init(name: name, dims: dims, type: .double, rawBytes: bytes)
        }

        /// An int32 tensor.
        package init(name: String, dims: [Int], int32s: [Int32]) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(int32s.count * 4)
            for v in int32s {
                for shift in stride(from: 0, to: 32, by: 8) {
                    bytes.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: v) >> UInt32(shift)))
                }
            }
            self.init(name: name, dims: dims, type: .int32, rawBytes: bytes)
        }

        /// A bool tensor.
        package init(name: String, dims: [Int], bools: [Bool]) {
            self.init(name: name, dims: dims, type: .bool, rawBytes: bools.map { $0 ? 1 : 0 })
        }

        /// The element type.
        package var dataType: DataType {
            switch storage {
            case .float: .float
            case .int64: .int64
            case .raw(let type, _): type
            case .strings: .string
            }
        }
    }

    /// `AttributeProto` values.
    package enum AttributeValue {
        case float(Float)
        case int(Int)
        case string(String)
        case tensor(Tensor)
        case floats([Float])
        case ints([Int])
        case strings([String])
    }

    package struct Attribute {
        var name: String
        var value: AttributeValue
        package init(_ name: String, _ value: AttributeValue) {
            self.name = name
            self.value = value
        }
    }

    package struct Node {
        var opType: String
        var name: String
        var inputs: [String]
        var outputs: [String]
        var attributes: [Attribute] = []
        /// The operator's domain: "" for `ai.onnx`, "ai.onnx.ml" for ONNX-ML operators.
        var domain: String = ""

        package init(
            opType: String, name: String, inputs: [String], outputs: [String], attributes: [Attribute] = [],
            domain: String = ""
        ) {
            self.opType = opType
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            self.attributes = attributes
            self.domain = domain
        }
    }

    /// A dimension of a declared input or output shape.
    package enum Dimension {
        case value(Int)
        case param(String)
    }

    /// `ValueInfoProto` for a dense tensor, or (with `mapKey`) an ONNX-ML map.
    package struct ValueInfo {
        var name: String
        /// The tensor's element type; a map's value type.
        var elementType: DataType
        var shape: [Dimension]
        /// A map's key type (int64 or string): the value is `map(mapKey, tensor(elementType))`, `shape` unused.
        var mapKey: DataType?

        package init(name: String, elementType: DataType, shape: [Dimension]) {
            self.name = name
            self.elementType = elementType
            self.shape = shape
        }

        /// An ONNX-ML map from `key` to `value` scalars (a Core ML dictionary input).
        package init(name: String, mapKey key: DataType, value: DataType) {
            self.init(name: name, elementType: value, shape: [])
            mapKey = key
        }
    }

    package struct Graph {
        var name: String
        package var nodes: [Node] = []
        package var initializers: [Tensor] = []
        package var inputs: [ValueInfo] = []
        package var outputs: [ValueInfo] = []
        var valueInfo: [ValueInfo] = []
        var docString: String?

        package init(name: String) { self.name = name }
    }

    package struct Model {
        var irVersion: Int = 7
        /// Version of the default (`ai.onnx`) operator set.
        var opsetVersion: Int = 11
        /// Other operator sets the graph uses, by domain ("ai.onnx.ml": version).
        package var domainOpsets: [(domain: String, version: Int)] = []
        var producerName: String = "openvision"
        var producerVersion: String = ""
        var graph: Graph
        /// `metadata_props`, in order.
        var metadata: [(key: String, value: String)] = []

        package init(
            opsetVersion: Int = 11, producerName: String = "openvision", graph: Graph,
            metadata: [(key: String, value: String)] = []
        ) {
            self.opsetVersion = opsetVersion
            self.producerName = producerName
            self.graph = graph
            self.metadata = metadata
        }

        /// The protobuf encoding of `ModelProto`.
        package func serialized() -> Data {
            var e = ONNXProtobufEncoder()
            e.int64(1, Int64(irVersion))  // ir_version
            e.string(2, producerName)  // producer_name
            if !producerVersion.isEmpty { e.string(3, producerVersion) }  // producer_version
            e.message(7) { $0.graph(graph) }  // graph
            e.message(8) { opset in  // opset_import: OperatorSetIdProto
                opset.string(1, "")  //   domain ("" = ai.onnx)
                opset.int64(2, Int64(opsetVersion))  //   version
            }
            for (domain, version) in domainOpsets {
                e.message(8) { opset in
                    opset.string(1, domain)
                    opset.int64(2, Int64(version))
                }
            }
            for entry in metadata {  // metadata_props: StringStringEntryProto
                e.message(14) {
                    $0.string(1, entry.key)
                    $0.string(2, entry.value)
                }
            }
            return Data(e.bytes)
        }
    }
}

/// Protobuf wire-format encoding (varints and length-delimited fields), plus the ONNX messages.
struct ONNXProtobufEncoder {
    private(set) var bytes: [UInt8] = []

    // MARK: Wire format

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Field key: field number and wire type (0 varint, 2 length-delimited, 5 32-bit).
    mutating func key(_ field: Int, _ wireType: UInt8) {
        varint(UInt64(field) << 3 | UInt64(wireType))
    }

    /// An `int64`/`int32`/enum field (negative values take ten bytes, as protobuf specifies).
    mutating func int64(_ field: Int, _ value: Int64) {
        key(field, 0)
        varint(UInt64(bitPattern: value))
    }

    /// A `float` field.
    mutating func float(_ field: Int, _ value: Float) {
        key(field, 5)
        appendLittleEndian(value.bitPattern)
    }

    /// A `double` field.
    mutating func double(_ field: Int, _ value: Double) {
        key(field, 1)
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> UInt64(shift)))
        }
    }

    mutating func bytes<C: Collection>(_ field: Int, _ value: C) where C.Element == UInt8 {
        key(field, 2)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: Int, _ value: String) {
        bytes(field, Array(value.utf8))
    }

    /// An embedded message, built by `body`.
    mutating func message(_ field: Int, _ body: (inout ONNXProtobufEncoder) -> Void) {
        var inner = ONNXProtobufEncoder()
        body(&inner)
        bytes(field, inner.bytes)
    }

    /// A packed `repeated int64`.
    mutating func packedInt64(_ field: Int, _ values: [Int64]) {
        var inner = ONNXProtobufEncoder()
        for value in values { inner.varint(UInt64(bitPattern: value)) }
        bytes(field, inner.bytes)
    }

    /// Little-endian float32 bytes of `values` as one length-delimited field.
    mutating func rawFloats(_ field: Int, _ values: [Float]) {
        key(field, 2)
        varint(UInt64(values.count * 4))
        bytes.reserveCapacity(bytes.count + values.count * 4)
        #if _endian(little)
            values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
            for value in values { appendLittleEndian(value.bitPattern) }
        #endif
    }

    private mutating func appendLittleEndian(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    // MARK: ONNX messages

    /// GraphProto.
    mutating func graph(_ graph: ONNXWriter.Graph) {
        for node in graph.nodes { message(1) { $0.node(node) } }  // node
        string(2, graph.name)  // name
        for tensor in graph.initializers { message(5) { $0.tensor(tensor) } }  // initializer
        if let doc = graph.docString { string(10, doc) }  // doc_string
        for info in graph.inputs { message(11) { $0.valueInfo(info) } }  // input
        for info in graph.outputs { message(12) { $0.valueInfo(info) } }  // output
        for info in graph.valueInfo { message(13) { $0.valueInfo(info) } }  // value_info
    }

    /// NodeProto.
    mutating func node(_ node: ONNXWriter.Node) {
        for input in node.inputs { string(1, input) }  // input
        for output in node.outputs { string(2, output) }  // output
        string(3, node.name)  // name
        string(4, node.opType)  // op_type
        for attribute in node.attributes { message(5) { $0.attribute(attribute) } }  // attribute
        if !node.domain.isEmpty { string(7, node.domain) }  // domain
    }

    /// AttributeProto (type discriminator in field 20).
    mutating func attribute(_ attribute: ONNXWriter.Attribute) {
        string(1, attribute.name)  // name
        switch attribute.value {
        case .float(let value):
            float(2, value)  // f
            int64(20, 1)  // type FLOAT
        case .int(let value):
            int64(3, Int64(value))  // i
            int64(20, 2)  // type INT
        case .string(let value):
            string(4, value)  // s
            int64(20, 3)  // type STRING
        case .tensor(let value):
            message(5) { $0.tensor(value) }  // t
            int64(20, 4)  // type TENSOR
        case .floats(let values):
            for value in values { float(7, value) }  // floats
            int64(20, 6)  // type FLOATS
        case .ints(let values):
            for value in values { int64(8, Int64(value)) }  // ints
            int64(20, 7)  // type INTS
        case .strings(let values):
            for value in values { string(9, value) }  // strings
            int64(20, 8)  // type STRINGS
        }
    }

    /// TensorProto.
    mutating func tensor(_ tensor: ONNXWriter.Tensor) {
        for dim in tensor.dims { int64(1, Int64(dim)) }  // dims
        switch tensor.storage {
        case .float(let values):
            int64(2, ONNXWriter.DataType.float.rawValue)  // data_type
            string(8, tensor.name)  // name
            rawFloats(9, values)  // raw_data
        case .int64(let values):
            int64(2, ONNXWriter.DataType.int64.rawValue)  // data_type
            if !values.isEmpty { packedInt64(7, values) }  // int64_data
            string(8, tensor.name)  // name
        case .raw(let type, let bytes):
            int64(2, type.rawValue)  // data_type
            string(8, tensor.name)  // name
            self.bytes(9, bytes)  // raw_data
        case .strings(let values):
            int64(2, ONNXWriter.DataType.string.rawValue)  // data_type
            for value in values { string(6, value) }  // string_data
            string(8, tensor.name)  // name
        }
    }

    /// ValueInfoProto with a TypeProto.Tensor (or a TypeProto.Map of scalar tensors).
    mutating func valueInfo(_ info: ONNXWriter.ValueInfo) {
        string(1, info.name)  // name
        if let key = info.mapKey {
            message(2) { type in  // type: TypeProto
                type.message(5) { map in  //   map_type
                    map.int64(1, key.rawValue)  //     key_type
                    map.message(2) { value in  //     value_type: TypeProto
                        value.message(1) { $0.int64(1, info.elementType.rawValue) }  // tensor_type.elem_type
                    }
                }
            }
            return
        }
        message(2) { type in  // type: TypeProto
            type.message(1) { tensorType in  //   tensor_type
                tensorType.int64(1, info.elementType.rawValue)  //     elem_type
                tensorType.message(2) { shape in  //     shape: TensorShapeProto
                    for dim in info.shape {
                        shape.message(1) { d in  //       dim
                            switch dim {
                            case .value(let value): d.int64(1, Int64(value))  // dim_value
                            case .param(let name): d.string(2, name)  // dim_param
                            }
                        }
                    }
                }
            }
        }
    }
}
