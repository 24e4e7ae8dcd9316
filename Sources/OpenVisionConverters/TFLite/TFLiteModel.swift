import Foundation

/// A `.tflite` file parsed: the parts of TensorFlow Lite's schema (`tensorflow/lite/schema/schema.fbs`)
/// the converter reads. Field numbers below are the schema's field order.
///
/// Parsing checks every offset (see `FlatBuffer`) and the cross references (tensor, buffer and
/// operator-code indices): a corrupt file throws `ConversionError(.syntax)`, never traps.
package struct TFLiteModel: Sendable {
    /// `TensorType`.
    package enum ElementType: Int8, Sendable, CustomStringConvertible {
        case float32 = 0
        case float16 = 1
        case int32 = 2
        case uint8 = 3
        case int64 = 4
        case string = 5
        case bool = 6
        case int16 = 7
        case complex64 = 8
        case int8 = 9
        case float64 = 10

        package var description: String {
            switch self {
            case .float32: "float32"
            case .float16: "float16"
            case .int32: "int32"
            case .uint8: "uint8"
            case .int64: "int64"
            case .string: "string"
            case .bool: "bool"
            case .int16: "int16"
            case .complex64: "complex64"
            case .int8: "int8"
            case .float64: "float64"
            }
        }
    }

    /// `DimensionMetadata` of a sparse tensor.
    package struct SparseDimension: Sendable {
        package var isSparse: Bool
        package var denseSize: Int
        package var segments: [Int]
        package var indices: [Int]
    }

    /// `SparsityParameters` (without block maps, which are rejected when converting).
    package struct Sparsity: Sendable {
        package var traversalOrder: [Int]
        package var blockMap: [Int]
        package var dimensions: [SparseDimension]
    }

    /// `Tensor`: 0 shape, 1 type, 2 buffer, 3 name, 4 quantization, 5 is_variable, 6 sparsity.
    package struct Tensor: Sendable {
        package var name: String
        package var shape: [Int]
        /// Nil for a type this reader does not know.
        package var type: ElementType?
        package var rawType: Int8
        package var buffer: Int
        package var scale: [Float]
        package var zeroPoint: [Int64]
        package var sparsity: Sparsity?
    }

    /// `OperatorCode`: 0 deprecated_builtin_code, 1 custom_code, 2 version, 3 builtin_code.
    package struct OperatorCode: Sendable {
        package var builtin: Int32
        package var custom: String?
        package var version: Int32

        /// The builtin's schema name (`CONV_2D`), or the custom op's name.
        package var name: String {
            if builtin == TFLiteBuiltin.custom, let custom { return custom }
            return TFLiteBuiltin.name(builtin)
        }
    }

    /// `Operator`: 0 opcode_index, 1 inputs, 2 outputs, 3 builtin_options_type, 4 builtin_options,
    /// 5 custom_options.
    package struct Operator: Sendable {
        package var opcodeIndex: Int
        /// Tensor indices; -1 for an omitted optional input.
        package var inputs: [Int]
        package var outputs: [Int]
        /// Position of the options table (read with `TFLiteModel.options`).
        var options: FlatBuffer.Table?
        package var customOptions: Range<Int>?
    }

    let file: FlatBuffer
    package let version: UInt32
    package let description: String?
    package let operatorCodes: [OperatorCode]
    package let tensors: [Tensor]
    package let operators: [Operator]
    package let inputs: [Int]
    package let outputs: [Int]
    /// Byte ranges of the buffers (`Buffer`: 0 data, 1 offset, 2 size); empty for buffer 0 and intermediates.
    let buffers: [Range<Int>]
    /// `Metadata` entries: name → buffer index.
    package let metadata: [(name: String, buffer: Int)]
    /// The number of subgraphs (only the first is converted).
    package let subgraphCount: Int

    /// Parses a serialized model. Throws `syntax` when `bytes` is not a TFLite FlatBuffer or is corrupt.
    package init(bytes: [UInt8]) throws {
        guard bytes.count >= 8 else { throw ConversionError(.syntax, "is not a TFLite model (\(bytes.count) bytes)") }
        guard bytes[4..<8].elementsEqual("TFL3".utf8) else {
            throw ConversionError(.syntax, "is not a TFLite model (no 'TFL3' FlatBuffer identifier)")
        }
        let fb = FlatBuffer(bytes)
        file = fb
        let model = try fb.root()
        version = try fb.uint32(model, 0)
        description = try fb.string(model, 3)

        operatorCodes = try fb.tables(model, 1).map { code in
            let deprecated = Int32(try fb.int8(code, 0))
            let builtin = try fb.int32(code, 3)
            return OperatorCode(
                builtin: max(deprecated, builtin), custom: try fb.string(code, 1),
                version: try fb.int32(code, 2, default: 1))
        }

        var ranges: [Range<Int>] = []
        for buffer in try fb.tables(model, 4) {
            if let data = try fb.byteRange(buffer, 0) {
                ranges.append(data)
            } else {
                let offset = try fb.uint64(buffer, 1)
                let size = try fb.uint64(buffer, 2)
                if offset > 1, size > 0 {  // data after the FlatBuffer (models over 2 GB)
                    guard offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset else {
                        throw FlatBuffer.corrupt("buffer out of range")
                    }
                    ranges.append(Int(offset)..<Int(offset + size))
                } else {
                    ranges.append(0..<0)
                }
            }
        }
        buffers = ranges

        var entries: [(String, Int)] = []
        for entry in try fb.tables(model, 6) {
            let buffer = Int(try fb.uint32(entry, 1))
            guard buffer < ranges.count else { throw FlatBuffer.corrupt("metadata buffer index") }
            entries.append((try fb.string(entry, 0) ?? "", buffer))
        }
        metadata = entries

        let subgraphs = try fb.tables(model, 2)
        subgraphCount = subgraphs.count
        guard let graph = subgraphs.first else { throw ConversionError(.syntax, "has no subgraph") }

        var parsedTensors: [Tensor] = []
        for t in try fb.tables(graph, 0) {
            let buffer = Int(try fb.uint32(t, 2))
            guard buffer < max(ranges.count, 1) else { throw FlatBuffer.corrupt("tensor buffer index") }
            var scale: [Float] = []
            var zero: [Int64] = []
            if let q = try fb.table(t, 4) {
                scale = try fb.float32s(q, 2) ?? []
                zero = try fb.int64s(q, 3) ?? []
            }
            let rawType = try fb.int8(t, 1)
            parsedTensors.append(
                Tensor(
                    name: try fb.string(t, 3) ?? "", shape: (try fb.int32s(t, 0) ?? []).map(Int.init),
                    type: ElementType(rawValue: rawType), rawType: rawType, buffer: buffer,
                    scale: scale, zeroPoint: zero, sparsity: try Self.sparsity(fb, t)))
        }
        tensors = parsedTensors
        let tensorCount = parsedTensors.count
        func indices(_ table: FlatBuffer.Table, _ field: Int, optional: Bool) throws -> [Int] {
            let values = (try fb.int32s(table, field) ?? []).map(Int.init)
            for v in values where v >= tensorCount || v < (optional ? -1 : 0) {
                throw FlatBuffer.corrupt("tensor index \(v)")
            }
            return values
        }
        inputs = try indices(graph, 1, optional: false)
        outputs = try indices(graph, 2, optional: false)
        let codeCount = operatorCodes.count
        operators = try fb.tables(graph, 3).map { op in
            let code = Int(try fb.uint32(op, 0))
            guard code < codeCount else { throw FlatBuffer.corrupt("operator code index \(code)") }
            return Operator(
                opcodeIndex: code, inputs: try indices(op, 1, optional: true),
                outputs: try indices(op, 2, optional: false),
                options: try fb.table(op, 4), customOptions: try fb.byteRange(op, 5))
        }
    }

    /// Reads and parses the file at `url`.
    package init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ConversionError.unreadable(url, what: "TFLite model", error)
        }
        do {
            try self.init(bytes: [UInt8](data))
        } catch let error as ConversionError {
            throw ConversionError(error.code, "\(url.lastPathComponent) \(error.message)", file: nil)
        }
    }

    /// `SparsityParameters`: 0 traversal_order, 1 block_map, 2 dim_metadata → `DimensionMetadata`:
    /// 0 format, 1 dense_size, 2/3 array_segments (type, table), 4/5 array_indices (type, table).
    private static func sparsity(_ fb: FlatBuffer, _ tensor: FlatBuffer.Table) throws -> Sparsity? {
        guard let s = try fb.table(tensor, 6) else { return nil }
        var dims: [SparseDimension] = []
        for d in try fb.tables(s, 2) {
            func indexVector(_ typeField: Int, _ tableField: Int) throws -> [Int] {
                guard let table = try fb.table(d, tableField) else { return [] }
                switch try fb.uint8(d, typeField) {
                case 1: return (try fb.int32s(table, 0) ?? []).map(Int.init)  // Int32Vector
                case 2: return (try fb.uint16s(table, 0) ?? []).map(Int.init)  // Uint16Vector
                case 3: return try fb.byteRange(table, 0).map { fb.bytes[$0].map(Int.init) } ?? []  // Uint8Vector
                default: throw FlatBuffer.corrupt("sparse index vector type")
                }
            }
            let sparse = try fb.int8(d, 0) == 1
            dims.append(
                SparseDimension(
                    isSparse: sparse, denseSize: Int(try fb.int32(d, 1)),
                    segments: sparse ? try indexVector(2, 3) : [],
                    indices: sparse ? try indexVector(4, 5) : []))
        }
        return Sparsity(
            traversalOrder: (try fb.int32s(s, 0) ?? []).map(Int.init),
            blockMap: (try fb.int32s(s, 1) ?? []).map(Int.init), dimensions: dims)
    }

    // MARK: Access

    /// The bytes of buffer `index` (empty when it holds none).
    package func bufferBytes(_ index: Int) -> ArraySlice<UInt8> {
        guard index >= 0, index < buffers.count else { return [] }
        return file.bytes[buffers[index]]
    }

    /// The bytes of the metadata entry named `name`.
    package func metadataBytes(_ name: String) -> ArraySlice<UInt8>? {
        metadata.first { $0.name == name }.map { bufferBytes($0.buffer) }
    }

    /// The operator's builtin options table fields, read with bounds checks.
    func optionInt(_ op: Operator, _ field: Int, default value: Int32 = 0) throws -> Int32 {
        guard let table = op.options else { return value }
        return try file.int32(table, field, default: value)
    }

    func optionInt8(_ op: Operator, _ field: Int) throws -> Int8 {
        guard let table = op.options else { return 0 }
        return try file.int8(table, field)
    }

    func optionBool(_ op: Operator, _ field: Int) throws -> Bool {
        guard let table = op.options else { return false }
        return try file.bool(table, field)
    }

    func optionFloat(_ op: Operator, _ field: Int, default value: Float = 0) throws -> Float {
        guard let table = op.options else { return value }
        return try file.float32(table, field, default: value)
    }

    func optionInts(_ op: Operator, _ field: Int) throws -> [Int]? {
        guard let table = op.options else { return nil }
        return try file.int32s(table, field).map { $0.map(Int.init) }
    }

    /// The custom options as little-endian int32 values (MediaPipe's ops store a plain C struct there).
    func customInt32s(_ op: Operator) -> [Int32] {
        guard let range = op.customOptions else { return [] }
        let bytes = file.bytes[range]
        return stride(from: range.lowerBound, to: range.upperBound - 3, by: 4).map { i in
            Int32(
                bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(
                    bytes[i + 3]) << 24)
        }
    }
}
