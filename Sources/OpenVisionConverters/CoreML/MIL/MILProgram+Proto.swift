/// `MILProgram` from the protobuf encoding of `MIL.proto`'s `Program` (coremltools
/// mlmodel/format/MIL.proto, BSD-3-Clause, Copyright (c) 2019 Apple Inc.; field numbers below are
/// that file's). Unknown fields are skipped as protobuf specifies; a field of the wrong wire type,
/// truncated bytes, an unknown data type code or nesting deeper than `MILLimits.maximumNesting` is
/// a `ConversionError`.
extension MILProgram {
    /// Parses a serialized `Program` (Model.proto's `mlProgram`, field 502).
    package init(serialized: ArraySlice<UInt8>) throws {
        let parsed = try serialized.withUnsafeBytes { raw in
            try MILProtoDecoder.program(raw[...])
        }
        try self.init(
            version: parsed.version, functions: parsed.functions, docString: parsed.docString,
            attributes: parsed.attributes)
    }
}

enum MILProtoDecoder {
    typealias Bytes = Slice<UnsafeRawBufferPointer>

    static func malformed(_ what: String) -> ConversionError {
        ConversionError(.syntax, "the ML Program's \(what) is not well-formed protobuf")
    }

    static func string(_ b: Bytes) -> String { String(decoding: b, as: UTF8.self) }

    /// Iterates the fields of one message; throws `malformed(what)` when the bytes end mid-field.
    static func fields(_ body: Bytes, _ what: String, _ each: (Int, ProtoReader.Value) throws -> Void) throws {
        var reader = ProtoReader(body)
        while let (field, value) = reader.next() { try each(field, value) }
        if reader.failed { throw malformed(what) }
    }

    static func checkDepth(_ depth: Int) throws {
        guard depth <= MILLimits.maximumNesting else {
            throw ConversionError(
                .limitExceeded,
                "the ML Program nests types, values or blocks deeper than \(MILLimits.maximumNesting) levels")
        }
    }

    // MARK: Structure

    static func program(_ body: Bytes) throws -> (
        version: Int64, functions: [String: MILFunction], docString: String,
        attributes: [String: MILValue]
    ) {
        var version: Int64 = 0
        var functions: [String: MILFunction] = [:]
        var doc = ""
        var attributes: [String: MILValue] = [:]
        try fields(body, "Program") { field, value in
            switch (field, value) {
            case (1, .varint(let v)): version = Int64(bitPattern: v)
            case (2, .bytes(let b)):
                let (key, entry) = try mapEntry(b, "Program.functions")
                functions[key] = try function(entry, name: key)
            case (3, .bytes(let b)): doc = string(b)
            case (4, .bytes(let b)):
                let (key, entry) = try mapEntry(b, "Program.attributes")
                attributes[key] = try self.value(entry, depth: 1)
            default: break
            }
        }
        return (version, functions, doc, attributes)
    }

    /// A `map<string, Message>` entry: key (field 1) and the value message's bytes (field 2).
    static func mapEntry(_ body: Bytes, _ what: String) throws -> (String, Bytes) {
        var key = ""
        var value = body[body.endIndex...]
        try fields(body, what) { field, v in
            guard case .bytes(let b) = v else { return }
            if field == 1 { key = string(b) }
            if field == 2 { value = b }
        }
        return (key, value)
    }

    static func function(_ body: Bytes, name: String) throws -> MILFunction {
        var inputs: [MILNamedType] = []
        var opset = ""
        var blocks: [String: MILBlock] = [:]
        var attributes: [String: MILValue] = [:]
        try fields(body, "function '\(name)'") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1: inputs.append(try namedValueType(b, depth: 1))
            case 2: opset = string(b)
            case 3:
                let (key, entry) = try mapEntry(b, "function '\(name)' block_specializations")
                blocks[key] = try block(entry, depth: 1)
            case 4:
                let (key, entry) = try mapEntry(b, "function '\(name)' attributes")
                attributes[key] = try self.value(entry, depth: 1)
            default: break
            }
        }
        return MILFunction(inputs: inputs, opset: opset, blockSpecializations: blocks, attributes: attributes)
    }

    static func block(_ body: Bytes, depth: Int) throws -> MILBlock {
        try checkDepth(depth)
        var result = MILBlock()
        try fields(body, "Block") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1: result.inputs.append(try namedValueType(b, depth: depth + 1))
            case 2: result.outputs.append(string(b))
            case 3:
                guard result.operations.count < MILLimits.maximumOperations else {
                    throw ConversionError(
                        .limitExceeded, "an ML Program block has more than \(MILLimits.maximumOperations) operations")
                }
                result.operations.append(try operation(b, depth: depth + 1))
            case 4:
                let (key, entry) = try mapEntry(b, "Block.attributes")
                result.attributes[key] = try self.value(entry, depth: depth + 1)
            default: break
            }
        }
        return result
    }

    static func operation(_ body: Bytes, depth: Int) throws -> MILOperation {
        var op = MILOperation(type: "")
        try fields(body, "Operation") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1: op.type = string(b)
            case 2:
                let (key, entry) = try mapEntry(b, "Operation.inputs")
                op.inputs[key] = try argument(entry, depth: depth + 1)
            case 3: op.outputs.append(try namedValueType(b, depth: depth + 1))
            case 4: op.blocks.append(try block(b, depth: depth + 1))
            case 5:
                let (key, entry) = try mapEntry(b, "Operation.attributes")
                op.attributes[key] = try self.value(entry, depth: depth + 1)
            default: break
            }
        }
        guard !op.type.isEmpty else { throw ConversionError(.syntax, "an operation of the ML Program has no type") }
        return op
    }

    /// `Argument`: repeated `Binding` (field 1), each a name (1) or a value (2).
    static func argument(_ body: Bytes, depth: Int) throws -> [MILBinding] {
        var bindings: [MILBinding] = []
        try fields(body, "Argument") { field, value in
            guard field == 1, case .bytes(let b) = value else { return }
            var binding: MILBinding?
            try fields(b, "Argument.Binding") { f, v in
                guard case .bytes(let bb) = v else { return }
                if f == 1 { binding = .name(string(bb)) }
                if f == 2 { binding = .value(try self.value(bb, depth: depth + 1)) }
            }
            guard let binding else { throw ConversionError(.syntax, "an argument binding of the ML Program is empty") }
            bindings.append(binding)
        }
        return bindings
    }

    static func namedValueType(_ body: Bytes, depth: Int) throws -> MILNamedType {
        var name = ""
        var type: MILType?
        try fields(body, "NamedValueType") { field, value in
            guard case .bytes(let b) = value else { return }
            if field == 1 { name = string(b) }
            if field == 2 { type = try valueType(b, depth: depth + 1) }
        }
        return MILNamedType(name: name, type: type)
    }

    // MARK: Types

    static func valueType(_ body: Bytes, depth: Int) throws -> MILType? {
        try checkDepth(depth)
        var type: MILType?
        try fields(body, "ValueType") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1: type = try tensorType(b)
            case 2:
                var element: MILType?
                var length: Int?
                try fields(b, "ListType") { f, v in
                    guard case .bytes(let bb) = v else { return }
                    if f == 1 { element = try valueType(bb, depth: depth + 1) }
                    if f == 2 { length = try dimension(bb) }
                }
                guard let element else {
                    throw ConversionError(.syntax, "a list type of the ML Program has no element type")
                }
                type = .list(element, length: length)
            case 3:
                var types: [MILType] = []
                try fields(b, "TupleType") { f, v in
                    guard f == 1, case .bytes(let bb) = v else { return }
                    if let t = try valueType(bb, depth: depth + 1) { types.append(t) }
                }
                type = .tuple(types)
            case 4:
                var key: MILType?
                var val: MILType?
                try fields(b, "DictionaryType") { f, v in
                    guard case .bytes(let bb) = v else { return }
                    if f == 1 { key = try valueType(bb, depth: depth + 1) }
                    if f == 2 { val = try valueType(bb, depth: depth + 1) }
                }
                guard let key, let val else {
                    throw ConversionError(.syntax, "a dictionary type of the ML Program lacks its key or value type")
                }
                type = .dictionary(key: key, value: val)
            case 5:
                var wrapped: MILType?
                try fields(b, "StateType") { f, v in
                    if f == 1, case .bytes(let bb) = v { wrapped = try valueType(bb, depth: depth + 1) }
                }
                guard let wrapped else {
                    throw ConversionError(.syntax, "a state type of the ML Program has no wrapped type")
                }
                type = .state(wrapped)
            default: break
            }
        }
        return type
    }

    static func tensorType(_ body: Bytes) throws -> MILType {
        var code: UInt64 = 0
        var rank: Int64 = 0
        var dims: [Int?] = []
        try fields(body, "TensorType") { field, value in
            switch (field, value) {
            case (1, .varint(let v)): code = v
            case (2, .varint(let v)): rank = Int64(bitPattern: v)
            case (3, .bytes(let b)): dims.append(try dimension(b))
            default: break
            }
        }
        guard let dataType = MILDataType(protoCode: code) else {
            throw ConversionError(.syntax, "a tensor type of the ML Program has the unknown data type code \(code)")
        }
        if rank < 0 { return .tensor(dataType, nil) }
        if Int64(dims.count) != rank {
            // A rank without its dimensions: unknown sizes (bounded: ranks beyond 64 are corrupt).
            guard dims.isEmpty, rank <= 64 else {
                throw ConversionError(
                    .syntax, "a tensor type of the ML Program has rank \(rank) but \(dims.count) dimensions")
            }
            return .tensor(dataType, [Int?](repeating: nil, count: Int(rank)))
        }
        return .tensor(dataType, dims)
    }

    /// `Dimension`: a constant size (nil when unknown).
    static func dimension(_ body: Bytes) throws -> Int? {
        var size: Int?
        try fields(body, "Dimension") { field, value in
            guard field == 1, case .bytes(let b) = value else { return }
            var s: UInt64 = 0
            try fields(b, "Dimension.constant") { f, v in
                if f == 1, case .varint(let n) = v { s = n }
            }
            guard s <= UInt64(MILLimits.maximumDimension) else {
                throw ConversionError(.limitExceeded, "a tensor type of the ML Program has a dimension of \(s)")
            }
            size = Int(s)
        }
        return size
    }

    // MARK: Values

    static func value(_ body: Bytes, depth: Int) throws -> MILValue {
        try checkDepth(depth)
        var result = MILValue(type: nil, content: .none)
        try fields(body, "Value") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1: result.docString = string(b)
            case 2: result.type = try valueType(b, depth: depth + 1)
            case 3: result.content = .immediate(try immediate(b, depth: depth + 1))
            case 5:
                var file = ""
                var offset: UInt64 = 0
                try fields(b, "BlobFileValue") { f, v in
                    if f == 1, case .bytes(let s) = v { file = string(s) }
                    if f == 2, case .varint(let o) = v { offset = o }
                }
                result.content = .blob(file: file, offset: offset)
            default: break
            }
        }
        return result
    }

    static func immediate(_ body: Bytes, depth: Int) throws -> MILImmediate {
        try checkDepth(depth)
        var result: MILImmediate?
        try fields(body, "ImmediateValue") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1: result = .tensor(try tensorValue(b))
            case 2, 3:
                var items: [MILValue] = []
                try fields(b, field == 2 ? "TupleValue" : "ListValue") { f, v in
                    if f == 1, case .bytes(let bb) = v { items.append(try self.value(bb, depth: depth + 1)) }
                }
                result = field == 2 ? .tuple(items) : .list(items)
            case 4:
                var entries: [MILKeyValue] = []
                try fields(b, "DictionaryValue") { f, v in
                    guard f == 1, case .bytes(let pair) = v else { return }
                    var key: MILValue?
                    var val: MILValue?
                    try fields(pair, "DictionaryValue.KeyValuePair") { pf, pv in
                        guard case .bytes(let pb) = pv else { return }
                        if pf == 1 { key = try self.value(pb, depth: depth + 1) }
                        if pf == 2 { val = try self.value(pb, depth: depth + 1) }
                    }
                    guard let key, let val else {
                        throw ConversionError(.syntax, "a dictionary entry of the ML Program lacks its key or value")
                    }
                    entries.append(MILKeyValue(key: key, value: val))
                }
                result = .dictionary(entries)
            default: break
            }
        }
        guard let result else { throw ConversionError(.syntax, "an immediate value of the ML Program is empty") }
        return result
    }

    /// `TensorValue`: one of seven `Repeated*` messages, each with its values in field 1 (packed, or
    /// one field per value as unpacked encoders write them).
    static func tensorValue(_ body: Bytes) throws -> MILTensorStorage {
        var result: MILTensorStorage?
        try fields(body, "TensorValue") { field, value in
            guard case .bytes(let b) = value else { return }
            switch field {
            case 1:
                var values: [Float] = []
                try repeated(b, "RepeatedFloats") { v in
                    switch v {
                    case .bytes(let p):
                        guard let f = ProtoReader.packedFloats(p) else { throw malformed("RepeatedFloats") }
                        values += f
                    case .fixed32(let bits): values.append(Float(bitPattern: bits))
                    default: throw malformed("RepeatedFloats")
                    }
                }
                result = .floats(values)
            case 2, 3, 5:
                var values: [UInt64] = []
                try repeated(b, "RepeatedInts") { v in
                    switch v {
                    case .bytes(let p):
                        guard let n = ProtoReader.packedVarints(p) else { throw malformed("RepeatedInts") }
                        values += n
                    case .varint(let n): values.append(n)
                    default: throw malformed("RepeatedInts")
                    }
                }
                switch field {
                case 2: result = .ints(values.map { Int32(truncatingIfNeeded: $0) })
                case 3: result = .bools(values.map { $0 != 0 })
                default: result = .longInts(values.map { Int64(bitPattern: $0) })
                }
            case 4:
                var values: [String] = []
                try repeated(b, "RepeatedStrings") { v in
                    guard case .bytes(let s) = v else { throw malformed("RepeatedStrings") }
                    values.append(string(s))
                }
                result = .strings(values)
            case 6:
                var values: [Double] = []
                try repeated(b, "RepeatedDoubles") { v in
                    switch v {
                    case .bytes(let p):
                        guard let d = ProtoReader.packedDoubles(p) else { throw malformed("RepeatedDoubles") }
                        values += d
                    case .fixed64(let bits): values.append(Double(bitPattern: bits))
                    default: throw malformed("RepeatedDoubles")
                    }
                }
                result = .doubles(values)
            case 7:
                var bytes: [UInt8] = []
                try fields(b, "RepeatedBytes") { f, v in
                    if f == 1, case .bytes(let raw) = v { bytes = [UInt8](raw) }
                }
                result = .bytes(bytes)
            default: break
            }
        }
        guard let result else { throw ConversionError(.syntax, "a tensor value of the ML Program is empty") }
        return result
    }

    /// Each occurrence of field 1 of a `Repeated*` message.
    static func repeated(_ body: Bytes, _ what: String, _ each: (ProtoReader.Value) throws -> Void) throws {
        try fields(body, what) { field, value in
            if field == 1 { try each(value) }
        }
    }
}
