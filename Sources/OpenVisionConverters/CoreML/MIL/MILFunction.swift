/// A function: typed inputs and one block per opset specialization (`opset` names the active one).
package struct MILFunction: Sendable {
    package var inputs: [MILNamedType]
    package var opset: String
    package var blockSpecializations: [String: MILBlock]
    package var attributes: [String: MILValue]

    package init(
        inputs: [MILNamedType], opset: String, blockSpecializations: [String: MILBlock],
        attributes: [String: MILValue] = [:]
    ) {
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

    package init(
        inputs: [MILNamedType] = [], outputs: [String] = [], operations: [MILOperation] = [],
        attributes: [String: MILValue] = [:]
    ) {
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

    package init(
        type: String, inputs: [String: [MILBinding]] = [:], outputs: [MILNamedType] = [],
        blocks: [MILBlock] = [], attributes: [String: MILValue] = [:]
    ) {
        self.type = type
        self.inputs = inputs
        self.outputs = outputs
        self.blocks = blocks
        self.attributes = attributes
    }

    /// The name to report in errors: the `name` attribute, else the first output's name.
    package var name: String {
        if case .immediate(.tensor(.strings(let s)))? = attributes["name"]?.content, let first = s.first {
            return first
        }
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
