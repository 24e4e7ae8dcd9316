/// A Core ML ML Program (MIL, `MIL.proto`'s `Program`): functions of typed SSA operations, read from
/// Model.proto's `mlProgram` field (`init(serialized:)`) or from the `model.mil` text that Xcode writes
/// into a compiled `.mlmodelc` folder (`init(text:)`). Both give the same values; `MILToONNX` lowers
/// the entry function to ONNX.
///
/// Reading never traps and allocates only in proportion to the input (every count is bounded by the
/// bytes or characters that encode it); nesting of types, values and blocks is limited to
/// `MILLimits.maximumNesting`. Malformed input is `ConversionError(.syntax)` (or `.limitExceeded`).
package struct MILProgram: Sendable {
    /// `Program.version` (1 for every file coremltools and Xcode write).
    package let version: Int64
    /// Functions by name; the entry point is `mainFunctionName`.
    package let functions: [String: MILFunction]
    package let docString: String
    /// Program attributes (`buildInfo`, a dictionary of strings in files coremltools writes).
    package let attributes: [String: MILValue]

    /// "main" when present, else the only function (checked when the program is read).
    package let mainFunctionName: String

    package init(version: Int64, functions: [String: MILFunction], docString: String = "",
                 attributes: [String: MILValue] = [:]) throws {
        self.version = version
        self.functions = functions
        self.docString = docString
        self.attributes = attributes
        if functions["main"] != nil {
            mainFunctionName = "main"
        } else if functions.count == 1, let only = functions.keys.first {
            mainFunctionName = only
        } else {
            throw ConversionError(.syntax, functions.isEmpty ? "the ML Program has no function"
                                  : "the ML Program has no function 'main' among \(functions.keys.sorted())")
        }
        for (name, function) in functions where function.block == nil {
            throw ConversionError(.syntax, "function '\(name)' has no block for its opset '\(function.opset)'")
        }
    }

    /// The entry function.
    package var main: MILFunction { functions[mainFunctionName]! }

    /// The entry function's opset ("CoreML5" for iOS 15, "CoreML6"/"iOS16", … as the file names it).
    package var opset: String { main.opset }

    /// The entry function's inputs, in declaration order.
    package var mainInputs: [MILValueDescription] {
        main.inputs.map { MILValueDescription(name: $0.name, type: $0.type) }
    }

    /// The entry function's outputs, in order, typed by the operations (or inputs) that produce them.
    package var mainOutputs: [MILValueDescription] {
        let block = main.block!
        var types: [String: MILType] = [:]
        for input in main.inputs { types[input.name] = input.type }
        for op in block.operations { for output in op.outputs { types[output.name] = output.type } }
        return block.outputs.map { MILValueDescription(name: $0, type: types[$0]) }
    }

    /// How many operations of each type the entry function has (nested blocks included).
    package var opCounts: [String: Int] {
        var counts: [String: Int] = [:]
        func walk(_ block: MILBlock) {
            for op in block.operations {
                counts[op.type, default: 0] += 1
                op.blocks.forEach(walk)
            }
        }
        walk(main.block!)
        return counts
    }

    /// Default shapes of flexible inputs when the entry function declares them: model.mil files of
    /// compiled models carry a `FlexibleShapeInformation` attribute; the pairs found under its
    /// "DefaultShapes" key (input name → integer shape) are returned. Empty when absent (`.mlpackage`
    /// files keep their defaults in Model.proto's feature descriptions instead).
    package var defaultShapes: [String: [Int]] {
        var result: [String: [Int]] = [:]
        func strings(_ v: MILValue) -> [String] {
            if case .immediate(.tensor(.strings(let s))) = v.content { return s }
            return []
        }
        func ints(_ v: MILValue) -> [Int]? {
            switch v.content {
            case .immediate(.tensor(.longInts(let i))): return i.map { Int(clamping: $0) }
            case .immediate(.tensor(.ints(let i))): return i.map { Int($0) }
            default: return nil
            }
        }
        func walk(_ v: MILValue, depth: Int) {
            guard depth < MILLimits.maximumNesting, case .immediate(let immediate) = v.content else { return }
            switch immediate {
            case .tuple(let items), .list(let items):
                if items.count == 2, strings(items[0]) == ["DefaultShapes"], case .immediate(.dictionary(let entries)) = items[1].content {
                    for entry in entries {
                        if let name = strings(entry.key).first, let shape = ints(entry.value), shape.allSatisfy({ $0 > 0 }) { result[name] = shape }
                    }
                } else {
                    items.forEach { walk($0, depth: depth + 1) }
                }
            default: break
            }
        }
        if let info = main.attributes["FlexibleShapeInformation"] { walk(info, depth: 0) }
        return result
    }

    /// The entry function's `classify` operation, when the program is a classifier (coremltools ends a
    /// classifier with one: probabilities in, a label and a label → probability dictionary out).
    package var classifier: MILClassifier? {
        guard let op = main.block!.operations.first(where: { $0.type == "classify" }), op.outputs.count == 2,
              let probabilities = op.inputs["probabilities"]?.first, case .name(let source) = probabilities,
              let classes = op.inputs["classes"]?.first else { return nil }
        var labels: [String] = []
        var value: MILValue?
        switch classes {
        case .value(let v): value = v
        case .name(let n):
            value = main.block!.operations.first { $0.type == "const" && $0.outputs.first?.name == n }?.attributes["val"]
        }
        guard let value else { return nil }
        func collect(_ v: MILValue) {
            switch v.content {
            case .immediate(.list(let items)), .immediate(.tuple(let items)): items.forEach(collect)
            case .immediate(.tensor(let storage)):
                switch storage {
                case .strings(let s): labels += s
                case .longInts(let i): labels += i.map(String.init)
                case .ints(let i): labels += i.map(String.init)
                default: break
                }
            default: break
            }
        }
        collect(value)
        return MILClassifier(labels: labels, probabilitiesSource: source, labelOutput: op.outputs[0].name,
                             probabilitiesOutput: op.outputs[1].name)
    }
}

/// A `classify` operation: the class labels, and which values carry the top label and the probabilities.
package struct MILClassifier: Sendable, Equatable {
    /// Class labels in probability order (integer labels as decimal strings).
    package var labels: [String]
    /// The probability tensor the operation reads.
    package var probabilitiesSource: String
    /// The operation's first output (the top label; `MILToONNX` gives its int64 index into `labels`).
    package var labelOutput: String
    /// The operation's second output (label → probability; `MILToONNX` gives the probability tensor).
    package var probabilitiesOutput: String
}

/// An input or output of a program's entry function, as its type declares it.
package struct MILValueDescription: Sendable, Equatable {
    package var name: String
    /// "fp32", "fp16", "int32", "bool", "string", …; "list", "dict", "tuple" or "state" for those types.
    package var dataType: String
    /// Dimensions, outermost first; nil for an unknown (flexible) one. Empty for scalars and non-tensors.
    package var shape: [Int?]

    package init(name: String, dataType: String, shape: [Int?]) {
        self.name = name
        self.dataType = dataType
        self.shape = shape
    }

    init(name: String, type: MILType?) {
        self.name = name
        switch type {
        case .tensor(let dataType, let shape)?:
            self.dataType = dataType.rawValue
            self.shape = shape ?? []
        case .list?: dataType = "list"; shape = []
        case .tuple?: dataType = "tuple"; shape = []
        case .dictionary?: dataType = "dict"; shape = []
        case .state?: dataType = "state"; shape = []
        case nil: dataType = "unknown"; shape = []
        }
    }
}

/// A function: typed inputs and one block per opset specialization (`opset` names the active one).
package struct MILFunction: Sendable {
    package var inputs: [MILNamedType]
    package var opset: String
    package var blockSpecializations: [String: MILBlock]
    package var attributes: [String: MILValue]

    package init(inputs: [MILNamedType], opset: String, blockSpecializations: [String: MILBlock],
                 attributes: [String: MILValue] = [:]) {
        self.inputs = inputs
        self.opset = opset
        self.blockSpecializations = blockSpecializations
        self.attributes = attributes
    }

    /// The block of the active opset.
    package var block: MILBlock? { blockSpecializations[opset] }
}

/// A basic block: operations in topological order and the names of the values it returns.
package struct MILBlock: Sendable {
    package var inputs: [MILNamedType] = []
    package var outputs: [String] = []
    package var operations: [MILOperation] = []
    package var attributes: [String: MILValue] = [:]

    package init(inputs: [MILNamedType] = [], outputs: [String] = [], operations: [MILOperation] = [],
                 attributes: [String: MILValue] = [:]) {
        self.inputs = inputs
        self.outputs = outputs
        self.operations = operations
        self.attributes = attributes
    }
}

/// One operation: its type ("conv", "const", …), named arguments, typed outputs, nested blocks
/// (control flow) and attributes (`name`; `val` of a `const`; the operands of iOS 16 `constexpr_*` ops).
package struct MILOperation: Sendable {
    package var type: String
    /// Parameter name → bindings (one for most parameters; several for `concat`'s `values`).
    package var inputs: [String: [MILBinding]]
    package var outputs: [MILNamedType]
    package var blocks: [MILBlock]
    package var attributes: [String: MILValue]

    package init(type: String, inputs: [String: [MILBinding]] = [:], outputs: [MILNamedType] = [],
                 blocks: [MILBlock] = [], attributes: [String: MILValue] = [:]) {
        self.type = type
        self.inputs = inputs
        self.outputs = outputs
        self.blocks = blocks
        self.attributes = attributes
    }

    /// The name to report in errors: the `name` attribute, else the first output's name.
    package var name: String {
        if case .immediate(.tensor(.strings(let s)))? = attributes["name"]?.content, let first = s.first { return first }
        return outputs.first?.name ?? "?"
    }
}

/// An argument binding: a named value defined earlier, or a value written in place.
package enum MILBinding: Sendable {
    case name(String)
    case value(MILValue)
}

/// A name with its declared type.
package struct MILNamedType: Sendable {
    package var name: String
    /// nil when the file gives no type (the proto field absent).
    package var type: MILType?

    package init(name: String, type: MILType?) {
        self.name = name
        self.type = type
    }
}

/// MIL's scalar element types (`MIL.proto` `DataType`).
package enum MILDataType: String, Sendable, CaseIterable {
    case bool, string
    case fp16, fp32, fp64, bf16, fp8e4m3fn, fp8e5m2
    case int4, int8, int16, int32, int64
    case uint1, uint2, uint3, uint4, uint6, uint8, uint16, uint32, uint64

    /// From `MIL.proto`'s enum value (nil for UNUSED_TYPE and unknown codes).
    init?(protoCode: UInt64) {
        switch protoCode {
        case 1: self = .bool
        case 2: self = .string
        case 10: self = .fp16
        case 11: self = .fp32
        case 12: self = .fp64
        case 13: self = .bf16
        case 21: self = .int8
        case 22: self = .int16
        case 23: self = .int32
        case 24: self = .int64
        case 25: self = .int4
        case 31: self = .uint8
        case 32: self = .uint16
        case 33: self = .uint32
        case 34: self = .uint64
        case 35: self = .uint4
        case 36: self = .uint2
        case 37: self = .uint1
        case 38: self = .uint6
        case 39: self = .uint3
        case 40: self = .fp8e4m3fn
        case 41: self = .fp8e5m2
        default: return nil
        }
    }

    /// From the names MIL text uses ("fp32", "int32", "bool", "string", …).
    init?(textName: String) {
        switch textName {
        case "fp16", "float16": self = .fp16
        case "fp32", "float32": self = .fp32
        case "fp64", "float64": self = .fp64
        case "bf16", "bfloat16": self = .bf16
        case "str": self = .string
        default:
            guard let value = MILDataType(rawValue: textName) else { return nil }
            self = value
        }
    }

    package var isFloat: Bool { [.fp16, .fp32, .fp64, .bf16, .fp8e4m3fn, .fp8e5m2].contains(self) }
    package var isInteger: Bool { !isFloat && self != .bool && self != .string }
    package var isSigned: Bool { [.int4, .int8, .int16, .int32, .int64].contains(self) }

    /// Bits per element as stored (nil for strings).
    package var bitWidth: Int? {
        switch self {
        case .bool, .int8, .uint8, .fp8e4m3fn, .fp8e5m2: 8
        case .fp16, .bf16, .int16, .uint16: 16
        case .fp32, .int32, .uint32: 32
        case .fp64, .int64, .uint64: 64
        case .int4, .uint4: 4
        case .uint1: 1
        case .uint2: 2
        case .uint3: 3
        case .uint6: 6
        case .string: nil
        }
    }
}

/// A MIL type.
package indirect enum MILType: Sendable {
    /// Element type and dimensions (nil: unknown rank; `[]`: a scalar; a nil dimension: unknown size).
    case tensor(MILDataType, [Int?]?)
    case list(MILType, length: Int?)
    case tuple([MILType])
    case dictionary(key: MILType, value: MILType)
    case state(MILType)

    /// The element type of a tensor type.
    package var dataType: MILDataType? {
        if case .tensor(let d, _) = self { return d }
        return nil
    }

    /// The dimensions of a tensor type (nil for unknown rank and non-tensors).
    package var shape: [Int?]? {
        if case .tensor(_, let s) = self { return s }
        return nil
    }
}

/// A compile-time value: immediate (in the file) or a reference into a weight blob file.
package struct MILValue: Sendable {
    package enum Content: Sendable {
        case immediate(MILImmediate)
        /// `BlobFileValue`: the file as the program writes it, and the offset of the blob's metadata record.
        case blob(file: String, offset: UInt64)
        /// Neither (allowed by the proto; an error where a value is needed).
        case none
    }

    package var type: MILType?
    package var content: Content
    package var docString: String = ""

    package init(type: MILType?, content: Content, docString: String = "") {
        self.type = type
        self.content = content
        self.docString = docString
    }
}

/// An immediate value.
package indirect enum MILImmediate: Sendable {
    case tensor(MILTensorStorage)
    case tuple([MILValue])
    case list([MILValue])
    case dictionary([MILKeyValue])
}

/// One entry of an immediate dictionary.
package struct MILKeyValue: Sendable {
    package var key: MILValue
    package var value: MILValue
}

/// The values of an immediate tensor, in the proto field that holds them (row-major). Which field a
/// type uses is coremltools' choice: fp16, int8, uint8, uint32 and sub-byte types as packed bytes,
/// int16/uint16/int32 as `ints`, int64 as `longInts`; the text format gives numbers as written.
package enum MILTensorStorage: Sendable {
    case floats([Float])
    case ints([Int32])
    case bools([Bool])
    case strings([String])
    case longInts([Int64])
    case doubles([Double])
    case bytes([UInt8])
}

/// Limits of the readers (a corrupt file must not recurse or allocate without bound).
package enum MILLimits {
    /// Nesting of types, values and blocks.
    package static let maximumNesting = 24
    /// A dimension's largest size.
    package static let maximumDimension = 1 << 31 - 1
    /// Elements of one tensor the converter materializes from the file (2^28: a 1 GB float32 tensor;
    /// such a constant is backed by at least that many bits of input).
    package static let maximumElements = 1 << 28
    /// Elements of a tensor the converter makes up itself (default scales, interpolation matrices):
    /// sized by declared shapes, not by data, so kept small.
    package static let maximumGeneratedElements = 1 << 22
}
