import Foundation

/// The largest tensors an ONNX graph declares or fixes before it runs: static shapes of its outputs
/// and `value_info`, and the outputs of `ConstantOfShape`, `Expand`, `Tile`, `Resize`,
/// `Upsample` and `Range` whose shape, repeats, sizes or bounds are constants (initializers or
/// `Constant` nodes). A 158-byte model of `ConstantOfShape([1, 84, 5e7])` declares a 16.8 GB tensor:
/// this reading finds it without running anything. Shapes computed at run time are not seen here
/// (ONNX Runtime's memory cap bounds those). Subgraphs (`If`, `Loop`) are not read.
///
/// It also sums what a runtime materialises when it loads the model (`loadBytes`): every initializer, and every
/// tensor of those ops whose inputs are all constants, twice (ONNX Runtime folds such a node at load: the computed
/// tensor and the initializer it becomes; OpenCV's importer evaluates it): six 4 GB `ConstantOfShape`s are 48 GB
/// there, though none alone passes a 4 GiB limit. And it counts the graph's nodes (`nodeCount`).
package struct ONNXStaticTensors: Sendable {
    /// One tensor the graph fixes the size of.
    package struct Tensor: Sendable, Equatable {
        /// The tensor's name (a node output or a graph value).
        package var name: String
        /// Where its size comes from: `input`, `output`, `value_info`, or the op that makes it.
        package var source: String
        /// Its dimensions (a lower bound for `Expand`, and for `Tile` of an input of unknown shape).
        package var shape: [Int]
        /// `TensorProto.DataType`.
        package var elementType: Int32
        /// Elements × element size; `Int.max` when that overflows.
        package var bytes: Int
    }

    /// The largest tensor found (graph inputs aside: the caller allocates those and checks them as it
    /// does any input), nil for a graph that fixes no other size.
    package private(set) var largest: Tensor?
    /// Bytes of the graph's initializers, plus twice those of the tensors its constant-only nodes fix (folded at
    /// load); `Int.max` when that overflows.
    package private(set) var loadBytes = 0
    /// The main graph's nodes.
    package private(set) var nodeCount = 0
    /// The most nodes a graph may have (as TensorFlow graphs are bounded); `init` stops reading past it.
    package static let maximumNodes = 50_000

    /// Constants small enough to be shapes (at most `maxConstantValues` values).
    private static let maxConstantValues = 64

    /// Bytes per element of `TensorProto.DataType` `type` (8 for strings and unknown types).
    static func elementSize(_ type: Int32) -> Int {
        switch type {
        case 2, 3, 9: 1
        case 4, 5, 10, 16: 2
        case 1, 6, 12: 4
        case 15: 16
        default: 8
        }
    }

    /// `a × b`, or `Int.max` when that overflows.
    static func saturatingProduct(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : product
    }

    /// `value` as an `Int` (`Int.max` past 2⁶³, 0 below 0 or for NaN).
    static func saturatingInt(_ value: Double) -> Int {
        guard value.isFinite || value == .infinity, value > 0 else { return 0 }
        return value >= 9.2e18 ? Int.max : Int(value)
    }

    /// A constant: its values as doubles (integers are exact up to 2⁵³, far beyond any size here).
    private struct Constant { var values: [Double] }

    /// Reads the file at `url` (memory-mapped).
    package init(url: URL) throws {
        self = try ONNXFile.read(url) { try ONNXStaticTensors(data: $0) }
    }

    /// Reads the graph of a serialized ModelProto. Throws `syntax` for malformed protobuf.
    package init(data: Data) throws {
        let ok: Bool = data.withUnsafeBytes { raw in
            var model = ProtoReader(raw[...])
            while let (field, value) = model.next() {
                guard field == 7, case .bytes(let graph) = value else { continue }
                guard read(graph: graph) else { return false }
            }
            return !model.failed
        }
        guard ok else { throw ConversionError(.syntax, "is not a readable ONNX model") }
        guard nodeCount <= Self.maximumNodes else {
            throw ConversionError(.limitExceeded, "has more than \(Self.maximumNodes) nodes")
        }
    }

    /// Adds `bytes` to `loadBytes`, saturating.
    private mutating func addLoad(_ bytes: Int) {
        let (sum, overflow) = loadBytes.addingReportingOverflow(bytes)
        loadBytes = overflow ? Int.max : sum
    }

    /// Elements × element size of `shape`, saturating.
    static func byteCount(_ shape: [Int], _ type: Int32) -> Int {
        var count = 1
        for d in shape { count = saturatingProduct(count, max(d, 0)) }
        return saturatingProduct(count, elementSize(type))
    }

    private mutating func consider(_ name: String, _ source: String, _ shape: [Int], _ type: Int32) {
        var count = 1
        for d in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: max(d, 0))
            count = overflow ? Int.max : product
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: Self.elementSize(type))
        let tensor = Tensor(
            name: name, source: source, shape: shape, elementType: type, bytes: overflow ? Int.max : bytes)
        if largest.map({ tensor.bytes > $0.bytes }) ?? true { largest = tensor }
    }

    /// Reads one GraphProto (node 1, initializer 5, input 11, output 12, value_info 13).
    private mutating func read(graph body: Slice<UnsafeRawBufferPointer>) -> Bool {
        var constants: [String: Constant] = [:]
        // Every value known before the graph runs (initializers, Constant nodes, what folds from them).
        var constantNames = Set<String>()
        var shapes: [String: (shape: [Int?], type: Int32)] = [:]
        var nodes: [Slice<UnsafeRawBufferPointer>] = []
        var reader = ProtoReader(body)
        while let (field, value) = reader.next() {
            guard case .bytes(let b) = value else { continue }
            switch field {
            case 1:
                nodeCount += 1
                // Past the bound the graph is refused: no need to read on.
                guard nodeCount <= Self.maximumNodes else { return true }
                nodes.append(b)
            case 5:
                guard let (name, constant) = Self.tensor(b) else { return false }
                if let constant { constants[name] = constant }
                constantNames.insert(name)
                addLoad(Self.initializerBytes(b))
            case 11, 12, 13:
                guard let (name, shape, type) = Self.valueInfo(b) else { return false }
                shapes[name] = (shape, type)
                if field != 11, shape.allSatisfy({ $0 != nil }) {
                    consider(name, field == 12 ? "output" : "value_info", shape.map { $0! }, type)
                }
            default: break
            }
        }
        guard !reader.failed else { return false }
        // Nodes in file order (ONNX requires topological order): Constant nodes feed the later ones.
        for body in nodes {
            guard let node = Self.node(body) else { return false }
            let input = { (k: Int) -> Constant? in k < node.inputs.count ? constants[node.inputs[k]] : nil }
            let output = node.outputs.first ?? node.name
            let firstType = node.inputs.first.flatMap { shapes[$0]?.type }
            func staticShape(_ k: Int) -> [Int]? {
                guard k < node.inputs.count, let known = shapes[node.inputs[k]], known.shape.allSatisfy({ $0 != nil })
                else {
                    return nil
                }
                return known.shape.map { $0! }
            }
            func dims(_ constant: Constant?) -> [Int]? {
                guard let values = constant?.values, values.allSatisfy({ $0 >= 0 && $0 < 9.0e15 }) else { return nil }
                return values.map { Int($0) }
            }
            // A node whose inputs are all constants is folded when the model loads: its output is materialised twice.
            let folded = !node.inputs.isEmpty && node.inputs.allSatisfy { $0.isEmpty || constantNames.contains($0) }
            func fixed(_ shape: [Int], _ type: Int32) {
                consider(output, node.op, shape, type)
                if folded {
                    addLoad(Self.saturatingProduct(Self.byteCount(shape, type), 2))
                    constantNames.insert(output)
                }
            }
            switch node.op {
            case "Constant":
                if let constant = node.value, let name = node.outputs.first { constants[name] = constant }
                if let name = node.outputs.first { constantNames.insert(name) }
            case "ConstantOfShape":
                if let shape = dims(input(0)) { fixed(shape, node.valueType ?? 1) }
            case "Expand":
                if let shape = dims(input(1)) { fixed(shape, firstType ?? 1) }
            case "Tile":
                if let repeats = dims(input(1)) {
                    let base = staticShape(0) ?? []
                    let shape = repeats.indices.map {
                        $0 < base.count ? Self.saturatingProduct(base[$0], repeats[$0]) : repeats[$0]
                    }
                    fixed(shape, firstType ?? 1)
                }
            case "Resize", "Upsample":
                let type = node.inputs.first.flatMap { shapes[$0]?.type } ?? 1
                if node.op == "Resize", let sizes = dims(input(3)) {
                    fixed(sizes, type)
                } else if let scales = input(node.op == "Resize" ? 2 : 1)?.values, let base = staticShape(0),
                    scales.count == base.count, scales.allSatisfy({ $0 >= 0 && $0 < 1e12 })
                {
                    fixed(zip(base, scales).map { Self.saturatingInt((Double($0) * $1).rounded(.down)) }, type)
                }
            case "Range":
                if let start = input(0)?.values.first, let limit = input(1)?.values.first,
                    let delta = input(2)?.values.first,
                    delta != 0
                {
                    let count = max(0, ((limit - start) / delta).rounded(.up))
                    fixed([Self.saturatingInt(count)], firstType ?? 7)
                }
            default:
                break
            }
        }
        return true
    }

    /// A TensorProto's size in memory: its dims' product × its element size (dims 1, data_type 2), saturating;
    /// external data included (the runtime loads it too).
    private static func initializerBytes(_ body: Slice<UnsafeRawBufferPointer>) -> Int {
        var reader = ProtoReader(body)
        var dims: [Int] = []
        var type: Int32 = 1
        while let (field, value) = reader.next() {
            switch (field, value) {
            case (1, .varint(let d)): dims.append(Int(clamping: Int64(bitPattern: d)))
            case (1, .bytes(let b)):
                dims += (ProtoReader.packedVarints(b) ?? []).map { Int(clamping: Int64(bitPattern: $0)) }
            case (2, .varint(let t)): type = Int32(truncatingIfNeeded: t)
            default: break
            }
        }
        return byteCount(dims, type)
    }

    /// A TensorProto's name and, when it is small and numeric, its values (dims 1, data_type 2,
    /// float_data 4, int32_data 5, int64_data 7, name 8, raw_data 9, double_data 10). Nil when malformed.
    private static func tensor(_ body: Slice<UnsafeRawBufferPointer>) -> (String, Constant?)? {
        var reader = ProtoReader(body)
        var name = ""
        var type: Int32 = 0
        var values: [Double] = []
        var raw: Slice<UnsafeRawBufferPointer>?
        var dims: [Int64] = []
        var tooMany = false
        func add(_ more: [Double]) {
            if values.count + more.count > maxConstantValues { tooMany = true } else { values += more }
        }
        while let (field, value) = reader.next() {
            switch (field, value) {
            case (1, .varint(let d)): dims.append(Int64(bitPattern: d))
            case (1, .bytes(let b)):
                guard let packed = ProtoReader.packedVarints(b) else { return nil }
                dims += packed.map { Int64(bitPattern: $0) }
            case (2, .varint(let t)): type = Int32(truncatingIfNeeded: t)
            case (4, .fixed32(let bits)): add([Double(Float(bitPattern: bits))])
            case (4, .bytes(let b)):
                guard b.count <= 4 * maxConstantValues else {
                    tooMany = true
                    continue
                }
                guard let floats = ProtoReader.packedFloats(b) else { return nil }
                add(floats.map(Double.init))
            case (5, .varint(let v)), (7, .varint(let v)): add([Double(Int64(bitPattern: v))])
            case (5, .bytes(let b)), (7, .bytes(let b)):
                guard b.count <= 10 * maxConstantValues else {
                    tooMany = true
                    continue
                }
                guard let packed = ProtoReader.packedVarints(b) else { return nil }
                add(packed.map { field == 5 ? Double(Int32(truncatingIfNeeded: $0)) : Double(Int64(bitPattern: $0)) })
            case (8, .bytes(let b)): name = String(decoding: b, as: UTF8.self)
            case (9, .bytes(let b)): raw = b
            case (10, .bytes(let b)):
                guard b.count <= 8 * maxConstantValues else {
                    tooMany = true
                    continue
                }
                guard let doubles = ProtoReader.packedDoubles(b) else { return nil }
                add(doubles)
            default: break
            }
        }
        guard !reader.failed else { return nil }
        if let raw {
            let size = elementSize(type)
            guard raw.count <= size * maxConstantValues, raw.count % size == 0, [1, 6, 7, 11].contains(type) else {
                return (name, nil)
            }
            values = stride(from: raw.startIndex, to: raw.endIndex, by: size).map { i in
                var bits: UInt64 = 0
                for k in 0..<size { bits |= UInt64(raw[i + k]) << (8 * UInt64(k)) }
                switch type {
                case 1: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
                case 6: return Double(Int32(truncatingIfNeeded: bits))
                case 7: return Double(Int64(bitPattern: bits))
                default: return Double(bitPattern: bits)
                }
            }
        }
        // A constant is its values only when they fill its shape (a scalar or a 1-D list here).
        let count = dims.reduce(Int64(1)) { $0 &* $1 }
        guard !tooMany, dims.count <= 1, count == values.count else { return (name, nil) }
        return (name, Constant(values: values))
    }

    /// ValueInfoProto: name 1, type 2 → TypeProto.tensor_type 1 → elem_type 1, shape 2 → dim 1 → dim_value 1.
    private static func valueInfo(_ body: Slice<UnsafeRawBufferPointer>) -> (String, [Int?], Int32)? {
        var r = ProtoReader(body)
        var name = ""
        var shape: [Int?] = []
        var type: Int32 = 1
        while let (f, v) = r.next() {
            guard case .bytes(let b) = v else { continue }
            if f == 1 { name = String(decoding: b, as: UTF8.self) }
            guard f == 2 else { continue }
            var t = ProtoReader(b)
            while let (tf, tv) = t.next() {
                guard tf == 1, case .bytes(let tensor) = tv else { continue }
                var tt = ProtoReader(tensor)
                while let (ttf, ttv) = tt.next() {
                    if ttf == 1, case .varint(let e) = ttv { type = Int32(truncatingIfNeeded: e) }
                    guard ttf == 2, case .bytes(let s) = ttv else { continue }
                    var sr = ProtoReader(s)
                    while let (sf, sv) = sr.next() {
                        guard sf == 1, case .bytes(let dim) = sv else { continue }
                        var d = ProtoReader(dim)
                        var size: Int?
                        while let (df, dv) = d.next() {
                            if df == 1, case .varint(let n) = dv { size = Int(Int64(bitPattern: n)) }
                        }
                        if d.failed { return nil }
                        shape.append(size.flatMap { $0 >= 0 ? $0 : nil })
                    }
                    if sr.failed { return nil }
                }
                if tt.failed { return nil }
            }
            if t.failed { return nil }
        }
        return r.failed ? nil : (name, shape, type)
    }

    /// What the checks need of a NodeProto (input 1, output 2, name 3, op_type 4, attribute 5).
    private struct Node {
        var inputs: [String] = [], outputs: [String] = [], name = "", op = ""
        /// A `Constant` node's value, or `ConstantOfShape`'s `value` element type.
        var value: Constant?
        var valueType: Int32?
    }

    private static func node(_ body: Slice<UnsafeRawBufferPointer>) -> Node? {
        var r = ProtoReader(body)
        var node = Node()
        while let (f, v) = r.next() {
            guard case .bytes(let b) = v else { continue }
            switch f {
            case 1: node.inputs.append(String(decoding: b, as: UTF8.self))
            case 2: node.outputs.append(String(decoding: b, as: UTF8.self))
            case 3: node.name = String(decoding: b, as: UTF8.self)
            case 4: node.op = String(decoding: b, as: UTF8.self)
            case 5:
                // AttributeProto: name 1, t 5 (TensorProto), ints 8; value_int 3 as `value_int`.
                var a = ProtoReader(b)
                var name = ""
                var ints: [Double] = []
                var tensor: Slice<UnsafeRawBufferPointer>?
                var int: Double?
                while let (af, av) = a.next() {
                    switch (af, av) {
                    case (1, .bytes(let n)): name = String(decoding: n, as: UTF8.self)
                    case (3, .varint(let i)): int = Double(Int64(bitPattern: i))
                    case (5, .bytes(let t)): tensor = t
                    case (8, .varint(let i)):
                        if ints.count < maxConstantValues { ints.append(Double(Int64(bitPattern: i))) }
                    case (8, .bytes(let p)):
                        guard let packed = ProtoReader.packedVarints(p) else { return nil }
                        ints += packed.prefix(maxConstantValues).map { Double(Int64(bitPattern: $0)) }
                    default: break
                    }
                }
                if a.failed { return nil }
                if name == "value", let tensor {
                    var t = ProtoReader(tensor)
                    while let (tf, tv) = t.next() {
                        if tf == 2, case .varint(let ty) = tv { node.valueType = Int32(truncatingIfNeeded: ty) }
                    }
                    node.value = Self.tensor(tensor)?.1
                }
                if name == "value_ints" { node.value = Constant(values: ints) }
                if name == "value_int", let int { node.value = Constant(values: [int]) }
            default: break
            }
        }
        return r.failed ? nil : node
    }
}
