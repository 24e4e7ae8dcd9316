import Foundation

extension CoreMLToONNX {
    /// Leaves out the nodes a classic model's graph does not need, which cost ONNX Runtime more than these models'
    /// arithmetic (a few microseconds a node): the `Identity` naming each output (its producer writes the output
    /// itself), a graph input's casts to float when float is all its readers take (the input is then float: its
    /// caller gives floats), a `Reshape` of a `Reshape` read by nothing else (a network's `[n]` output made a row), also
    /// across an activation between them, and a `Reshape` to the shape its input already has.
    mutating func simplifyClassicGraph() {
        collapseReshapes()
        removeNoOpReshapes()
        var producers: [String: Int] = [:]
        var readers: [String: [Int]] = [:]
        for (i, node) in graph.nodes.enumerated() {
            for o in node.outputs { producers[o] = i }
            for v in node.inputs { readers[v, default: []].append(i) }
        }
        let inputs = Set(graph.inputs.map(\.name))
        let outputs = Set(graph.outputs.map(\.name))
        var rename: [String: String] = [:]
        var dropped = Set<Int>()
        for (i, node) in graph.nodes.enumerated()
        where node.opType == "Identity" && node.outputs.count == 1 && node.inputs.count == 1 {
            let value = node.inputs[0]
            let output = node.outputs[0]
            guard outputs.contains(output), producers[value] != nil, !inputs.contains(value), !outputs.contains(value),
                rename[value] == nil
            else { continue }
            rename[value] = output
            dropped.insert(i)
        }
        func castsToFloat(_ node: ONNXWriter.Node) -> Bool {
            guard node.opType == "Cast", let to = node.attributes.first(where: { $0.name == "to" }),
                case .int(1) = to.value
            else { return false }
            return !outputs.contains(node.outputs[0]) && rename[node.outputs[0]] == nil
        }
        for (k, input) in graph.inputs.enumerated() where input.elementType == .double && input.mapKey == nil {
            let uses = readers[input.name] ?? []
            guard !uses.isEmpty, !outputs.contains(input.name), uses.allSatisfy({ castsToFloat(graph.nodes[$0]) })
            else { continue }
            for i in uses {
                rename[graph.nodes[i].outputs[0]] = input.name
                dropped.insert(i)
            }
            graph.inputs[k].elementType = .float
        }
        removing(dropped, renaming: rename)
    }

    /// Operators that map each element on its own (one tensor input): a reshape commutes with them.
    static let elementwiseOperators: Set<String> = [
        "Relu", "Sigmoid", "Tanh", "Exp", "Log", "Abs", "Neg", "Sqrt", "Reciprocal", "Erf", "LeakyRelu", "Elu", "Selu",
        "Softplus", "Softsign", "HardSigmoid", "ThresholdedRelu", "Floor", "Ceil",
    ]

    /// `Reshape(Reshape(x, a), b)` as `Reshape(x, b)`, and `Reshape(U(Reshape(x, a)), b)` as `Reshape(U(x), b)` for an
    /// elementwise `U` (a network's innerProduct gives `[n]` back as Core ML's shape, its activation runs, and the
    /// classic model after it makes a row again), when the values left out have no other reader and are no graph
    /// outputs.
    mutating func collapseReshapes() {
        var producers: [String: Int] = [:]
        var readers: [String: Int] = [:]
        for (i, node) in graph.nodes.enumerated() {
            for o in node.outputs { producers[o] = i }
            for v in node.inputs { readers[v, default: 0] += 1 }
        }
        let outputs = Set(graph.outputs.map(\.name))
        // Whether `value` is read once and is no graph output.
        func onlyReadHere(_ value: String) -> Bool { readers[value] == 1 && !outputs.contains(value) }
        var dropped = Set<Int>()
        for i in graph.nodes.indices where graph.nodes[i].opType == "Reshape" {
            // The node whose input the inner reshape feeds: this reshape, or an elementwise node between.
            var reader = i
            if let u = producers[graph.nodes[i].inputs[0]], Self.elementwiseOperators.contains(graph.nodes[u].opType),
                graph.nodes[u].domain.isEmpty, graph.nodes[u].inputs.count == 1, onlyReadHere(graph.nodes[i].inputs[0])
            {
                reader = u
            }
            let inner = graph.nodes[reader].inputs[0]
            guard let j = producers[inner], graph.nodes[j].opType == "Reshape", onlyReadHere(inner),
                !dropped.contains(j)
            else { continue }
            graph.nodes[reader].inputs[0] = graph.nodes[j].inputs[0]
            dropped.insert(j)
        }
        removing(dropped, renaming: [:])
    }

    /// Leaves out each `Reshape` to the shape its input already has (its output no graph output), the shapes followed
    /// from the graph's fixed-size inputs and initializers through `Reshape` to constant sizes, `Gemm`, casts and
    /// elementwise operators.
    mutating func removeNoOpReshapes() {
        var shapes: [String: [Int]] = [:]
        var int64s: [String: [Int64]] = [:]
        for t in graph.initializers {
            shapes[t.name] = t.dims
            if case .int64(let v) = t.storage { int64s[t.name] = v }
        }
        for input in graph.inputs where input.mapKey == nil {
            let dims = input.shape.compactMap { d -> Int? in if case .value(let v) = d { v } else { nil } }
            if dims.count == input.shape.count { shapes[input.name] = dims }
        }
        func attribute(_ node: ONNXWriter.Node, _ name: String) -> Int {
            guard let a = node.attributes.first(where: { $0.name == name }), case .int(let v) = a.value else {
                return 0
            }
            return Int(v)
        }
        let outputs = Set(graph.outputs.map(\.name))
        var rename: [String: String] = [:]
        var dropped = Set<Int>()
        for (i, node) in graph.nodes.enumerated() where node.domain.isEmpty {
            let inputs = node.inputs.map { rename[$0] ?? $0 }
            switch node.opType {
            case "Reshape" where inputs.count == 2:
                guard let target = int64s[inputs[1]], target.allSatisfy({ $0 > 0 }) else { continue }
                let size = target.map { Int($0) }
                shapes[node.outputs[0]] = size
                if shapes[inputs[0]] == size, !outputs.contains(node.outputs[0]) {
                    rename[node.outputs[0]] = inputs[0]
                    dropped.insert(i)
                }
            case "Gemm" where inputs.count >= 2:
                guard let a = shapes[inputs[0]], let b = shapes[inputs[1]], a.count == 2, b.count == 2 else { continue }
                let m = attribute(node, "transA") == 0 ? a[0] : a[1]
                let n = attribute(node, "transB") == 0 ? b[1] : b[0]
                shapes[node.outputs[0]] = [m, n]
            case let op
            where (Self.elementwiseOperators.contains(op) || op == "Cast" || op == "Identity")
                && inputs.count == 1:
                if let s = shapes[inputs[0]] { shapes[node.outputs[0]] = s }
            default: continue
            }
        }
        removing(dropped, renaming: rename)
    }

    /// The graph without nodes `dropped` (and the initializers only they read), every value named in `rename` renamed.
    private mutating func removing(_ dropped: Set<Int>, renaming rename: [String: String]) {
        guard !dropped.isEmpty || !rename.isEmpty else { return }
        graph.nodes = graph.nodes.enumerated().compactMap { i, node in
            guard !dropped.contains(i) else { return nil }
            var n = node
            n.inputs = n.inputs.map { rename[$0] ?? $0 }
            n.outputs = n.outputs.map { rename[$0] ?? $0 }
            return n
        }
        // Initializers only the dropped nodes read.
        var used = Set(graph.nodes.flatMap(\.inputs))
        used.formUnion(graph.inputs.map(\.name))
        graph.initializers.removeAll { !used.contains($0.name) }
    }
}
