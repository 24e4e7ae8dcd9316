import Foundation

extension CoreMLToONNX {
    /// Leaves out the nodes a classic model's graph does not need, which cost ONNX Runtime more than these models'
    /// arithmetic (a few microseconds a node): the `Identity` naming each output (its producer writes the output
    /// itself), a graph input's casts to float when float is all its readers take (the input is then float: its
    /// caller gives floats), and a `Reshape` of a `Reshape` read by nothing else (a network's `[n]` output made a row).
    mutating func simplifyClassicGraph() {
        collapseReshapes()
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

    /// `Reshape(Reshape(x, a), b)` as `Reshape(x, b)` when the inner one has no other reader and is no graph output.
    mutating func collapseReshapes() {
        var producers: [String: Int] = [:]
        var readers: [String: Int] = [:]
        for (i, node) in graph.nodes.enumerated() {
            for o in node.outputs { producers[o] = i }
            for v in node.inputs { readers[v, default: 0] += 1 }
        }
        let outputs = Set(graph.outputs.map(\.name))
        var dropped = Set<Int>()
        for i in graph.nodes.indices where graph.nodes[i].opType == "Reshape" {
            let inner = graph.nodes[i].inputs[0]
            guard let j = producers[inner], graph.nodes[j].opType == "Reshape", readers[inner] == 1,
                !outputs.contains(inner),
                !dropped.contains(j)
            else { continue }
            graph.nodes[i].inputs[0] = graph.nodes[j].inputs[0]
            dropped.insert(j)
        }
        removing(dropped, renaming: [:])
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
