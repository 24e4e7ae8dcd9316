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

    package init(
        version: Int64, functions: [String: MILFunction], docString: String = "",
        attributes: [String: MILValue] = [:]
    ) throws {
        self.version = version
        self.functions = functions
        self.docString = docString
        self.attributes = attributes
        if functions["main"] != nil {
            mainFunctionName = "main"
        } else if functions.count == 1, let only = functions.keys.first {
            mainFunctionName = only
        } else {
            throw ConversionError(
                .syntax,
                functions.isEmpty
                    ? "the ML Program has no function"
                    : "the ML Program has no function 'main' among \(functions.keys.sorted())")
        }
        for (name, function) in functions where function.block == nil {
            throw ConversionError(.syntax, "function '\(name)' has no block for its opset '\(function.opset)'")
        }
        var operations = 0
        func count(_ block: MILBlock) {
            operations += block.operations.count
            for op in block.operations where operations <= MILLimits.maximumOperations { op.blocks.forEach(count) }
        }
        for function in functions.values { function.block.map(count) }
        guard operations <= MILLimits.maximumOperations else {
            throw ConversionError(
                .limitExceeded, "the ML Program has more than \(MILLimits.maximumOperations) operations")
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
                if items.count == 2, strings(items[0]) == ["DefaultShapes"],
                    case .immediate(.dictionary(let entries)) = items[1].content
                {
                    for entry in entries {
                        if let name = strings(entry.key).first, let shape = ints(entry.value),
                            shape.allSatisfy({ $0 > 0 })
                        {
                            result[name] = shape
                        }
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
            let classes = op.inputs["classes"]?.first
        else { return nil }
        var labels: [String] = []
        var value: MILValue?
        switch classes {
        case .value(let v): value = v
        case .name(let n):
            value =
                main.block!.operations.first { $0.type == "const" && $0.outputs.first?.name == n }?.attributes["val"]
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
        return MILClassifier(
            labels: labels, probabilitiesSource: source, labelOutput: op.outputs[0].name,
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
        case .list?:
            dataType = "list"
            shape = []
        case .tuple?:
            dataType = "tuple"
            shape = []
        case .dictionary?:
            dataType = "dict"
            shape = []
        case .state?:
            dataType = "state"
            shape = []
        case nil:
            dataType = "unknown"
            shape = []
        }
    }
}
