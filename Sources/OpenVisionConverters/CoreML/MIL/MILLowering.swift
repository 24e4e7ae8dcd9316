/// The state of one lowering: the graph being written, the values of the program so far (constants or
/// ONNX values), initializers shared by MIL name, and the operation being lowered (for errors). The
/// operations themselves are in the `MILLowering+…` extensions.
struct MILLowering {
    var graph: ONNXWriter.Graph
    let blobs: (String) throws -> MILWeightBlobFile
    let prefix: String
    let opset: String
    var values: [String: MILLowered] = [:]
    var blobFiles: [String: MILWeightBlobFile] = [:]
    var usedNames = Set<String>()
    /// Initializer names by the MIL constant they hold (and by content key for generated scalars).
    var initializers: [String: String] = [:]
    var nodeCount = 0
    /// The operation being lowered (for error messages).
    var current: MILOperation?
    /// An error found while writing a constant, thrown when the operation is done.
    var deferredError: ConversionError?

    init(graph: ONNXWriter.Graph, blobs: @escaping (String) throws -> MILWeightBlobFile, prefix: String, opset: String)
    {
        self.graph = graph
        self.blobs = blobs
        self.prefix = prefix
        self.opset = opset
        for input in graph.inputs { usedNames.insert(input.name) }
        for output in graph.outputs { usedNames.insert(output.name) }
        for tensor in graph.initializers { usedNames.insert(tensor.name) }
        for node in graph.nodes {
            usedNames.insert(node.name)
            node.outputs.forEach { usedNames.insert($0) }
        }
    }

    static func onnxType(_ type: MILDataType) -> ONNXWriter.DataType {
        if type.isFloat { return .float }
        switch type {
        case .bool: return .bool
        case .int8: return .int8
        case .uint8: return .uint8
        default: return .int64
        }
    }

    // MARK: Driver

    mutating func lower(_ function: MILFunction, inputs: [String: String]) throws -> [String: MILLoweredOutput] {
        for input in function.inputs {
            guard let onnxName = inputs[input.name] else {
                throw ConversionError(.invalidValue, "no ONNX value was given for the program input '\(input.name)'")
            }
            guard case .tensor(let dataType, let shape)? = input.type else {
                throw ConversionError(.unsupported, "the program input '\(input.name)' is not a tensor")
            }
            var name = onnxName
            if let external = MILToONNX.onnxElementType(for: dataType.rawValue), external != Self.onnxType(dataType) {
                name = fresh(input.name + "_int64")
                emit("Cast", [onnxName], [name], [.init("to", .int(Int(Self.onnxType(dataType).rawValue)))])
            }
            values[input.name] = .tensor(MILRuntime(name: name, dataType: dataType, shape: shape))
        }
        guard let block = function.block else {
            throw ConversionError(.syntax, "the function has no block for its opset")
        }
        for op in block.operations {
            current = op
            try lowerOperation(op)
            if let error = deferredError { throw error }
        }
        current = nil
        var result: [String: MILLoweredOutput] = [:]
        for output in block.outputs {
            guard let value = values[output] else {
                throw ConversionError(.syntax, "the program output '\(output)' is not defined")
            }
            result[output] = try outputValue(value, name: output)
        }
        return result
    }

    /// The ONNX value for a program output, in the boundary convention (int32 integers, float32 floats).
    mutating func outputValue(_ value: MILLowered, name: String) throws -> MILLoweredOutput {
        switch value {
        case .tensor(let t):
            let external = MILToONNX.onnxElementType(for: t.dataType.rawValue) ?? t.onnxType
            let isInput = graph.inputs.contains { $0.name == t.name }
            if external != t.onnxType {
                let out = fresh(name)
                emit("Cast", [t.name], [out], [.init("to", .int(Int(external.rawValue)))])
                return MILLoweredOutput(name: out, elementType: external, shape: t.shape)
            }
            if isInput || usedAsOutput(t.name) {
                let out = fresh(name)
                emit("Identity", [t.name], [out])
                return MILLoweredOutput(name: out, elementType: external, shape: t.shape)
            }
            return MILLoweredOutput(name: t.name, elementType: external, shape: t.shape)
        case .constant(let c):
            var c = c
            if c.data.count > 0, !c.dataType.isFloat, c.dataType != .bool, c.dataType != .int8, c.dataType != .uint8 {
                c.dataType = .int32
            }
            let type = MILToONNX.onnxElementType(for: c.dataType.rawValue) ?? Self.onnxType(c.dataType)
            let source = try initializer(c, as: type)
            let out = fresh(name)
            emit("Identity", [source], [out])
            return MILLoweredOutput(name: out, elementType: type, shape: c.shape)
        case .list, .opaque:
            throw ConversionError(.unsupported, "the program output '\(name)' is not a tensor")
        }
    }

    private var returned = Set<String>()
    mutating func usedAsOutput(_ name: String) -> Bool {
        defer { returned.insert(name) }
        return returned.contains(name)
    }

    // MARK: Names and nodes

    /// A new value name: the prefix and `base`, made unique.
    mutating func fresh(_ base: String) -> String {
        let clean = base.isEmpty ? "v" : base
        var candidate = prefix + clean
        var k = 1
        while usedNames.contains(candidate) {
            candidate = "\(prefix)\(clean)__\(k)"
            k += 1
        }
        usedNames.insert(candidate)
        return candidate
    }

    mutating func emit(
        _ opType: String, _ inputs: [String], _ outputs: [String], _ attributes: [ONNXWriter.Attribute] = []
    ) {
        nodeCount += 1
        let base = current?.name ?? "mil"
        graph.nodes.append(
            ONNXWriter.Node(
                opType: opType, name: "\(prefix)\(base)/\(opType)_\(nodeCount)",
                inputs: inputs, outputs: outputs, attributes: attributes))
    }

    /// Emits a one-output node into a fresh value named after `base`.
    mutating func node(
        _ opType: String, _ inputs: [String], _ attributes: [ONNXWriter.Attribute] = [], base: String = "t"
    ) -> String {
        let out = fresh(base)
        emit(opType, inputs, [out], attributes)
        return out
    }

    // MARK: Errors

    func unsupported(_ detail: String = "") -> ConversionError {
        let op = current
        return ConversionError(
            .unsupported,
            "ML Program operation '\(op?.type ?? "?")' (output '\(op?.outputs.first?.name ?? "?")') is not supported\(detail.isEmpty ? "" : ": " + detail)"
        )
    }

    func invalid(_ detail: String) -> ConversionError {
        let op = current
        return ConversionError(
            .invalidValue,
            "ML Program operation '\(op?.type ?? "?")' (output '\(op?.outputs.first?.name ?? "?")'): \(detail)")
    }

    // MARK: Constants

    /// The element count of `shape`, checked against `MILLimits.maximumElements`.
    func elementCount(_ shape: [Int]) throws -> Int {
        var n = 1
        for d in shape {
            guard d >= 0 else { throw invalid("negative dimension in \(shape)") }
            let (p, overflow) = n.multipliedReportingOverflow(by: d)
            guard !overflow, p <= MILLimits.maximumElements else {
                throw ConversionError(
                    .limitExceeded,
                    "a tensor of shape \(shape) is beyond the converter's limit of \(MILLimits.maximumElements) elements"
                )
            }
            n = p
        }
        return n
    }

    mutating func blobFile(_ path: String) throws -> MILWeightBlobFile {
        if let file = blobFiles[path] { return file }
        let file = try blobs(path)
        blobFiles[path] = file
        return file
    }

    /// A compile-time value (immediate or from a weight file) with its declared type.
    mutating func lowered(_ value: MILValue, fallbackType: MILType?, milName: String?) throws -> MILLowered {
        let type = value.type ?? fallbackType
        switch value.content {
        case .immediate(.list(let items)), .immediate(.tuple(let items)):
            return .list(try items.map { try lowered($0, fallbackType: nil, milName: nil) })
        case .immediate(.dictionary):
            return .opaque(type)
        case .immediate(.tensor(let storage)):
            guard case .tensor(let dataType, let dims)? = type else {
                // An untyped immediate: take the storage as it is (a scalar or a vector).
                let data: MILTensorData
                let dataType: MILDataType
                switch storage {
                case .floats(let v):
                    data = .floats(v)
                    dataType = .fp32
                case .doubles(let v):
                    data = .floats(v.map { Float($0) })
                    dataType = .fp32
                case .ints(let v):
                    data = .ints(v.map(Int64.init))
                    dataType = .int32
                case .longInts(let v):
                    data = .ints(v)
                    dataType = .int64
                case .bools(let v):
                    data = .bools(v)
                    dataType = .bool
                case .strings(let v):
                    data = .strings(v)
                    dataType = .string
                case .bytes(let v):
                    data = .ints(v.map { Int64($0) })
                    dataType = .uint8
                }
                return .constant(
                    MILConstant(
                        dataType: dataType, shape: data.count == 1 ? [] : [data.count], data: data, milName: milName))
            }
            let shape = try staticShape(dims, what: "a constant")
            let count = try elementCount(shape)
            try charge(count, dataType, "a constant")
            return .constant(
                MILConstant(
                    dataType: dataType, shape: shape,
                    data: try MILTensorData.immediate(storage, as: dataType, count: count), milName: milName))
        case .blob(let file, let offset):
            guard case .tensor(let dataType, let dims)? = type else {
                throw invalid("a weight-file value without a tensor type")
            }
            let shape = try staticShape(dims, what: "a weight-file constant")
            let count = try elementCount(shape)
            // Each reference is decoded on its own: a blob named a thousand times costs a thousand times.
            try charge(count, dataType, "a weight-file constant")
            let data = try blobFile(file).values(at: offset, as: dataType, count: count)
            return .constant(MILConstant(dataType: dataType, shape: shape, data: data, milName: milName))
        case .none:
            throw invalid("a value without content")
        }
    }

    func staticShape(_ dims: [Int?]?, what: String) throws -> [Int] {
        guard let dims, dims.allSatisfy({ $0 != nil }) else { throw invalid("\(what) has an unknown shape") }
        return dims.map { $0! }
    }

    /// An initializer holding `c` as `type` (shared per MIL constant and type).
    mutating func initializer(_ c: MILConstant, as type: ONNXWriter.DataType) throws -> String {
        let key = c.milName.map { "\($0)#\(type.rawValue)" }
        if let key, let existing = initializers[key] { return existing }
        guard Self.product(c.shape) == c.data.count else {
            throw invalid("\(c.data.count) values for a constant of shape \(c.shape)")
        }
        let name = fresh(c.milName ?? "const")
        let tensor: ONNXWriter.Tensor
        switch type {
        case .float:
            guard case .floats = c.data.converted(to: .fp32) else {
                throw invalid("a \(c.dataType.rawValue) constant is used as a float tensor")
            }
            tensor = ONNXWriter.Tensor(name: name, dims: c.shape, floats: c.data.floats)
        case .int64:
            tensor = ONNXWriter.Tensor(name: name, dims: c.shape, int64s: c.data.ints)
        case .int32:
            tensor = ONNXWriter.Tensor(name: name, dims: c.shape, int32s: c.data.ints.map { Int32(clamping: $0) })
        case .bool:
            tensor = ONNXWriter.Tensor(name: name, dims: c.shape, bools: c.data.ints.map { $0 != 0 })
        case .int8:
            tensor = ONNXWriter.Tensor(
                name: name, dims: c.shape, type: .int8,
                rawBytes: c.data.ints.map { UInt8(bitPattern: Int8(clamping: $0)) })
        case .uint8:
            tensor = ONNXWriter.Tensor(
                name: name, dims: c.shape, type: .uint8, rawBytes: c.data.ints.map { UInt8(clamping: $0) })
        default:
            throw invalid("constants of ONNX type \(type) are not written")
        }
        graph.initializers.append(tensor)
        if let key { initializers[key] = name }
        return name
    }

    /// A float32 initializer of `values` with `dims` (shared by content for small ones). A count that
    /// does not fill `dims` (a malformed program) is recorded in `deferredError`, thrown once the
    /// operation is lowered.
    mutating func floatConstant(_ values: [Float], dims: [Int]) -> String {
        guard Self.product(dims) == values.count else {
            deferredError = deferredError ?? invalid("\(values.count) values for a constant of shape \(dims)")
            return floatConstant([], dims: [0])
        }
        let key = values.count <= 16 ? "f\(dims):\(values.map { $0.bitPattern })" : nil
        if let key, let existing = initializers[key] { return existing }
        let name = fresh("const")
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims, floats: values))
        if let key { initializers[key] = name }
        return name
    }

    /// An int64 initializer of `values` with `dims` (default: a vector; mismatches as `floatConstant`).
    mutating func int64Constant(_ values: [Int64], dims: [Int]? = nil) -> String {
        if let dims, Self.product(dims) != values.count {
            deferredError = deferredError ?? invalid("\(values.count) values for a constant of shape \(dims)")
            return int64Constant([], dims: [0])
        }
        let key = values.count <= 16 ? "i\(dims ?? [-1]):\(values)" : nil
        if let key, let existing = initializers[key] { return existing }
        let name = fresh("const")
        graph.initializers.append(ONNXWriter.Tensor(name: name, dims: dims ?? [values.count], int64s: values))
        if let key { initializers[key] = name }
        return name
    }

    mutating func scalar(_ value: Float) -> String { floatConstant([value], dims: []) }

    /// The element count of `dims` (−1 when negative or overflowing).
    static func product(_ dims: [Int]) -> Int {
        var n = 1
        for d in dims {
            guard d >= 0 else { return -1 }
            let (p, overflow) = n.multipliedReportingOverflow(by: d)
            if overflow { return -1 }
            n = p
        }
        return n
    }

    // MARK: Operation inputs

    /// The value bound to parameter `key` (inputs first, then — for iOS 16 `constexpr_*` — attributes).
    mutating func argument(_ op: MILOperation, _ key: String) throws -> MILLowered? {
        if let bindings = op.inputs[key] {
            guard bindings.count == 1 else {
                return .list(try bindings.map { try lowered(binding: $0) })
            }
            return try lowered(binding: bindings[0])
        }
        if key != "name", let value = op.attributes[key] {
            return try lowered(value, fallbackType: nil, milName: nil)
        }
        return nil
    }

    mutating func lowered(binding: MILBinding) throws -> MILLowered {
        switch binding {
        case .name(let n):
            guard let v = values[n] else {
                throw ConversionError(.syntax, "the value '\(n)' is used before it is defined")
            }
            return v
        case .value(let v):
            return try lowered(v, fallbackType: nil, milName: nil)
        }
    }

    /// The bindings of a variadic parameter (`concat`'s `values`), each resolved.
    mutating func arguments(_ op: MILOperation, _ key: String) throws -> [MILLowered] {
        guard let bindings = op.inputs[key] else { return [] }
        var result: [MILLowered] = []
        for b in bindings {
            let v = try lowered(binding: b)
            if case .list(let items) = v { result += items } else { result.append(v) }
        }
        return result
    }

    mutating func required(_ op: MILOperation, _ key: String) throws -> MILLowered {
        guard let v = try argument(op, key) else { throw invalid("the required input '\(key)' is missing") }
        return v
    }

    /// A parameter that must be known at conversion time.
    mutating func constant(_ op: MILOperation, _ key: String) throws -> MILConstant? {
        guard let v = try argument(op, key) else { return nil }
        switch v {
        case .constant(let c): return c
        case .list(let items):
            // A tuple of scalar constants (older writers): one vector.
            var ints: [Int64] = []
            for item in items {
                guard case .constant(let c) = item, c.count == 1 else {
                    throw unsupported("'\(key)' must be a constant")
                }
                ints += c.data.ints
            }
            return MILConstant(dataType: .int32, shape: [ints.count], data: .ints(ints))
        default:
            throw unsupported("its input '\(key)' must be known at conversion time")
        }
    }

    mutating func ints(_ op: MILOperation, _ key: String) throws -> [Int]? {
        try constant(op, key).map { $0.data.ints.map { Int(clamping: $0) } }
    }

    mutating func int(_ op: MILOperation, _ key: String, default value: Int? = nil) throws -> Int {
        guard let c = try constant(op, key) else {
            guard let value else { throw invalid("the required input '\(key)' is missing") }
            return value
        }
        guard c.count == 1, let v = c.data.ints.first else { throw invalid("'\(key)' must be one integer") }
        return Int(clamping: v)
    }

    mutating func float(_ op: MILOperation, _ key: String, default value: Float? = nil) throws -> Float {
        guard let c = try constant(op, key) else {
            guard let value else { throw invalid("the required input '\(key)' is missing") }
            return value
        }
        guard c.count == 1, let v = c.data.floats.first else { throw invalid("'\(key)' must be one number") }
        return v
    }

    mutating func bool(_ op: MILOperation, _ key: String, default value: Bool) throws -> Bool {
        guard let c = try constant(op, key) else { return value }
        guard c.count == 1, let v = c.data.ints.first else { throw invalid("'\(key)' must be one bool") }
        return v != 0
    }

    mutating func string(_ op: MILOperation, _ key: String, default value: String? = nil) throws -> String {
        guard let c = try constant(op, key) else {
            guard let value else { throw invalid("the required input '\(key)' is missing") }
            return value
        }
        guard case .strings(let s) = c.data, s.count == 1 else { throw invalid("'\(key)' must be one string") }
        return s[0]
    }

    /// The ONNX value of a tensor argument (constants become initializers of the runtime type of
    /// their MIL type, or of `type` when given).
    mutating func tensor(_ value: MILLowered, as type: ONNXWriter.DataType? = nil) throws -> String {
        switch value {
        case .tensor(let t):
            if let type, type != t.onnxType {
                return node("Cast", [t.name], [.init("to", .int(Int(type.rawValue)))], base: t.name + "_cast")
            }
            return t.name
        case .constant(let c):
            return try initializer(c, as: type ?? Self.onnxType(c.dataType))
        case .list:
            throw unsupported("a list is used as a tensor")
        case .opaque:
            throw unsupported("a string or dictionary value is used as a tensor")
        }
    }

    mutating func input(_ op: MILOperation, _ key: String, as type: ONNXWriter.DataType? = nil) throws -> String {
        try tensor(try required(op, key), as: type)
    }

    /// What is known of a value's type: MIL element type and declared dimensions.
    func info(_ value: MILLowered) -> (dataType: MILDataType?, shape: [Int?]?) {
        switch value {
        case .tensor(let t): return (t.dataType, t.shape)
        case .constant(let c): return (c.dataType, c.shape.map { Optional($0) })
        case .list(let items): return (nil, [items.count])
        case .opaque: return (nil, nil)
        }
    }

    func rank(_ value: MILLowered) throws -> Int {
        guard let r = info(value).shape?.count else { throw unsupported("the input's rank is unknown") }
        return r
    }

    // MARK: Outputs

    /// The declared type of output `index`.
    func outputType(_ op: MILOperation, _ index: Int = 0) -> (dataType: MILDataType?, shape: [Int?]?) {
        guard index < op.outputs.count, case .tensor(let d, let s)? = op.outputs[index].type else { return (nil, nil) }
        return (d, s)
    }

    /// A fresh ONNX name for output `index` of `op`.
    mutating func outputName(_ op: MILOperation, _ index: Int = 0) -> String {
        fresh(index < op.outputs.count ? op.outputs[index].name : "out")
    }

    /// Records that output `index` of `op` is the ONNX value `name` of MIL type `dataType` (default:
    /// the declared type, else `fallback`).
    mutating func define(
        _ op: MILOperation, _ index: Int = 0, _ name: String, dataType: MILDataType? = nil,
        fallback: MILDataType = .fp32
    ) throws {
        guard index < op.outputs.count else { throw invalid("has no output \(index)") }
        let declared = outputType(op, index)
        values[op.outputs[index].name] = .tensor(
            MILRuntime(
                name: name, dataType: dataType ?? declared.dataType ?? fallback,
                shape: declared.shape))
    }

    /// Emits `opType` with `inputs` into output `index` of `op`.
    mutating func emitOutput(
        _ op: MILOperation, _ opType: String, _ inputs: [String],
        _ attributes: [ONNXWriter.Attribute] = [], index: Int = 0, dataType: MILDataType? = nil
    ) throws {
        let out = outputName(op, index)
        emit(opType, inputs, [out], attributes)
        try define(op, index, out, dataType: dataType)
    }

    /// Makes output `index` of `op` the same value as `value` (no node).
    mutating func alias(_ op: MILOperation, _ index: Int = 0, _ value: MILLowered) throws {
        guard index < op.outputs.count else { throw invalid("has no output \(index)") }
        switch value {
        case .tensor(var t):
            let declared = outputType(op, index)
            if let d = declared.dataType { t.dataType = d }
            if let s = declared.shape { t.shape = s }
            values[op.outputs[index].name] = .tensor(t)
        default:
            values[op.outputs[index].name] = value
        }
    }

    /// `value` as an integer, or `.invalidValue` when it is not finite or beyond ±2^53.
    func integer(_ value: Float) throws -> Int64 {
        guard value.isFinite, abs(value) <= 0x1p53 else { throw invalid("\(value) is not a usable integer") }
        return Int64(value.rounded(.towardZero))
    }

    /// Checks the size of a tensor made up by the converter (not read from the file), and charges it to the
    /// conversion's budget.
    func generated(_ count: Int) throws -> Int {
        guard count >= 0, count <= MILLimits.maximumGeneratedElements else {
            throw ConversionError(
                .limitExceeded,
                "ML Program operation '\(current?.type ?? "?")' would need a made-up tensor of \(count) elements")
        }
        try ConversionBudget.charge(count * 8, "ML Program operation '\(current?.type ?? "?")': a made-up tensor")
        return count
    }

    /// Charges `count` elements of `dataType` as the converter holds them (floats 4 bytes, integers 8, bools 1) to
    /// the conversion's budget (`ConversionBudget`), before they are decoded.
    func charge(_ count: Int, _ dataType: MILDataType, _ what: String) throws {
        try chargeBytes(count.multipliedReportingOverflow(by: Self.heldSize(dataType)).partialValue, what)
    }

    /// Charges `bytes` of working memory of the current operation to the conversion's budget.
    func chargeBytes(_ bytes: Int, _ what: String) throws {
        try ConversionBudget.charge(
            bytes,
            "ML Program operation '\(current?.type ?? "const")' (output "
                + "'\(current?.outputs.first?.name ?? "?")'): \(what)")
    }

    /// Bytes per element of `dataType` as `MILTensorData` holds it.
    static func heldSize(_ dataType: MILDataType) -> Int {
        switch dataType {
        case .fp16, .bf16, .fp32, .fp64, .fp8e4m3fn, .fp8e5m2: 4
        case .bool: 1
        case .string: 16
        default: 8
        }
    }

    /// A normalized axis in 0..<rank.
    func axis(_ a: Int, rank: Int) throws -> Int {
        let v = a < 0 ? a + rank : a
        guard v >= 0, v < max(rank, 1) else { throw invalid("axis \(a) is out of range for rank \(rank)") }
        return v
    }
}
