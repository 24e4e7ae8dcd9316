/// A value of the program during lowering.
enum MILLowered {
    /// Known at conversion time.
    case constant(MILConstant)
    /// Computed by the graph: an ONNX value, with the MIL type the program declares for it.
    case tensor(MILRuntime)
    /// An immediate list or tuple (of constants).
    case list([MILLowered])
    /// A value the graph does not carry (a string or dictionary output).
    case opaque(MILType?)
}

/// A constant tensor: MIL element type, shape and values.
struct MILConstant {
    var dataType: MILDataType
    var shape: [Int]
    var data: MILTensorData
    /// The MIL name of the `const` that defined it (initializers are shared by name).
    var milName: String?

    var count: Int { data.count }
    var isScalar: Bool { shape.isEmpty || count == 1 }
}

/// A tensor computed by the ONNX graph.
struct MILRuntime {
    var name: String
    var dataType: MILDataType
    /// The dimensions the program declares (nil: unknown rank; nil entries: unknown sizes).
    var shape: [Int?]?

    var rank: Int? { shape?.count }
    /// The shape when every dimension is known.
    var staticShape: [Int]? {
        guard let shape, shape.allSatisfy({ $0 != nil }) else { return nil }
        return shape.map { $0! }
    }
    var onnxType: ONNXWriter.DataType { MILLowering.onnxType(dataType) }
}
