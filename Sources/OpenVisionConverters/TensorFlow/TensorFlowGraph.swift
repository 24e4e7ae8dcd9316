import Foundation

/// The bounds the TensorFlow graph check puts on a GraphDef before OpenCV 4.6's importer reads it.
/// Its graph passes are linear in the nodes except three, which these budget: following chains of
/// `Identity` nodes for every input (`RemoveIdentityOps`), deleting each `Identity` node from the
/// node list one at a time, and, for a `.pb` read without a text graph, scanning every input of
/// every node once per `Switch`/`Merge`/`NoOp` node (`removePhaseSwitches`). Measured here with
/// OpenCV 4.6: ~45 µs a node, ~1 µs an identity link followed, ~2 ns a node moved by a deletion,
/// ~0.2 µs an input scanned; each budget is about 2 s of loading on 2 cores. Real graphs are far
/// inside them (OpenCV's face detector: ~150 nodes; frozen detection graphs: a few thousand).
public enum TensorFlowLimits {
    /// The most nodes in a graph (`.pb` or `.pbtxt`).
    public static let maxNodes = 50_000
    /// The most node inputs in a graph, summed over its nodes.
    public static let maxInputs = 1_000_000
    /// Identity links OpenCV would follow, summed over every node input.
    public static let maxIdentityLinks = 2_000_000
    /// Identity nodes × nodes: the node moves OpenCV makes deleting identity nodes one by one.
    public static let maxIdentityMoves = 1_000_000_000
    /// `Switch`/`Merge`/`NoOp` nodes × (nodes + inputs), for a `.pb` read without a text graph.
    public static let maxPhaseSwitchWork = 20_000_000
    /// The largest `.pbtxt` text graph read, in bytes.
    public static let maxTextBytes = 64 << 20
}

/// The nodes of a TensorFlow GraphDef (a frozen `.pb` or its `.pbtxt` text form) and the checks
/// OpenVision runs before OpenCV's importer reads one: OpenCV looped forever on an `Identity` node
/// reading itself (an 18-byte `.pb`), went quadratic on long identity chains and many `NoOp`s, and
/// indexed missing inputs. Only node names, ops and inputs are read (attributes and tensors are
/// skipped, not copied); malformed files are a `ConversionError`, never a trap.
package struct TensorFlowGraph: Sendable {
    /// One NodeDef.
    package struct Node: Sendable {
        package var name: String
        package var op: String
        /// Input references as written: `name`, `name:1` (an output index), `^name` (a control input).
        package var inputs: [String]
        /// The line of the node in a `.pbtxt` (nil in a `.pb`).
        package var line: Int?
    }

    package var fileName: String
    package var nodes: [Node] = []

    private init(fileName: String) { self.fileName = fileName }

    /// The fewest inputs OpenCV's handler for an op reads without checking (found by loading a graph
    /// with each op and 0...4 inputs: fewer gave a protobuf CHECK failure out of OpenCV, not an error).
    static let minimumInputs: [String: Int] = [
        "Identity": 1, "Dropout": 1, "PlaceholderWithDefault": 1, "MaxPool": 1, "MaxPool3D": 1,
        "ArgMax": 2, "ArgMin": 2, "Max": 2, "Mean": 2, "Sum": 2, "MirrorPad": 2, "Pad": 2, "Reshape": 2, "Transpose": 2,
    ]
    /// The ops OpenCV removes as identities (`RemoveIdentityOps`).
    static let identityOps: Set<String> = ["Identity", "Dropout", "PlaceholderWithDefault"]
    /// The ops OpenCV removes as training switches (`removePhaseSwitches`, a `.pb` without a text graph).
    static let phaseSwitchOps: Set<String> = ["Switch", "Merge", "NoOp"]

    // MARK: Reading

    /// Reads a binary GraphDef (GraphDef.node = 1; NodeDef: name = 1, op = 2, input = 3).
    package init(binary data: Data, fileName: String) throws {
        self.init(fileName: fileName)
        let nodes: [Node]? = try data.withUnsafeBytes { raw in
            var graph = ProtoReader(raw[...])
            var nodes: [Node] = []
            var inputs = 0
            while let (field, value) = graph.next() {
                guard field == 1, case .bytes(let body) = value else { continue }
                guard nodes.count < TensorFlowLimits.maxNodes else {
                    throw ConversionError(
                        .limitExceeded, "the graph has more than \(TensorFlowLimits.maxNodes) nodes",
                        file: fileName)
                }
                var reader = ProtoReader(body)
                var node = Node(name: "", op: "", inputs: [], line: nil)
                while let (f, v) = reader.next() {
                    guard case .bytes(let b) = v else { continue }
                    switch f {
                    case 1: node.name = String(decoding: b, as: UTF8.self)
                    case 2: node.op = String(decoding: b, as: UTF8.self)
                    case 3:
                        inputs += 1
                        guard inputs <= TensorFlowLimits.maxInputs else {
                            throw ConversionError(
                                .limitExceeded,
                                "the graph's nodes have more than "
                                    + "\(TensorFlowLimits.maxInputs) inputs", file: fileName)
                        }
                        node.inputs.append(String(decoding: b, as: UTF8.self))
                    default: break
                    }
                }
                if reader.failed { return nil }
                nodes.append(node)
            }
            return graph.failed ? nil : nodes
        }
        guard let nodes else {
            throw ConversionError(.syntax, "is not a TensorFlow GraphDef (malformed protobuf)", file: fileName)
        }
        self.nodes = nodes
    }

    /// Reads a text GraphDef (`node { name: "…" op: "…" input: "…" attr { … } }`, other fields skipped).
    package init(text: String, fileName: String) throws {
        self.init(fileName: fileName)
        var reader = ProtoTextReader(text, fileName: fileName)
        var inputs = 0
        while let event = try reader.next() {
            guard case .begin(let name, let line) = event else { continue }
            guard name == "node" else {
                try reader.skipMessage()
                continue
            }
            guard nodes.count < TensorFlowLimits.maxNodes else {
                throw ConversionError(
                    .limitExceeded, "the graph has more than \(TensorFlowLimits.maxNodes) nodes",
                    file: fileName, line: line)
            }
            var node = Node(name: "", op: "", inputs: [], line: line)
            fields: while let field = try reader.next() {
                switch field {
                case .end:
                    break fields
                case .begin:
                    try reader.skipMessage()
                case .scalar(let key, let value, let fieldLine):
                    switch key {
                    case "name": node.name = value
                    case "op": node.op = value
                    case "input":
                        inputs += 1
                        guard inputs <= TensorFlowLimits.maxInputs else {
                            throw ConversionError(
                                .limitExceeded,
                                "the graph's nodes have more than "
                                    + "\(TensorFlowLimits.maxInputs) inputs", file: fileName, line: fieldLine)
                        }
                        node.inputs.append(value)
                    default: break
                    }
                }
            }
            nodes.append(node)
        }
    }

    // MARK: Checks

    /// How OpenCV will read the graph.
    package enum Role: Sendable {
        /// A `.pb` read alone: every pass runs on it, training switches included.
        case modelAlone
        /// A `.pb` whose weights OpenCV takes while a text graph beside it gives the structure.
        case modelWithTextGraph
        /// The `.pbtxt` text graph OpenCV builds the network from.
        case textGraph
    }

    /// A `ConversionError` about `node` (its line in a `.pbtxt`).
    private func error(_ code: ConversionError.Code, _ message: String, node: Node? = nil) -> ConversionError {
        ConversionError(code, message, file: fileName, line: node?.line)
    }

    /// The node an input reference names: `^name` (control) and `name:2` (output 2) both name `name`.
    static func nodeName(_ input: String) -> Substring {
        var name = input[...]
        if name.first == "^" { name = name.dropFirst() }
        if let colon = name.lastIndex(of: ":"), name[name.index(after: colon)...].allSatisfy(\.isNumber) {
            name = name[..<colon]
        }
        return name
    }

    /// Throws unless OpenCV can read the graph in bounded time and without an unchecked index:
    /// unique node names, no cycles (OpenCV has no loops, and loops forever on a cycle of identity
    /// nodes; a `.pb` read with a text graph may keep its while loops, which OpenCV never builds),
    /// enough inputs for the ops that read them unchecked, and the budgets of `TensorFlowLimits`.
    package func check(as role: Role) throws {
        var index: [Substring: Int] = [:]
        index.reserveCapacity(nodes.count)
        var inputCount = 0
        for (i, node) in nodes.enumerated() {
            guard !node.name.isEmpty else { throw error(.invalidValue, "node \(i) has no name", node: node) }
            if let first = index.updateValue(i, forKey: node.name[...]) {
                throw error(.invalidValue, "node '\(node.name)' is defined twice (nodes \(first) and \(i))", node: node)
            }
            inputCount += node.inputs.count
        }
        for node in nodes {
            // OpenCV builds layers from the text graph when there is one; it only removes identities from the .pb.
            let needed =
                role == .modelWithTextGraph
                ? (Self.identityOps.contains(node.op) ? 1 : 0)
                : Self.minimumInputs[node.op] ?? 0
            guard node.inputs.count >= needed else {
                throw error(
                    .invalidValue,
                    "node '\(node.name)' (\(node.op)) has \(node.inputs.count) inputs; "
                        + "\(node.op) needs \(needed)", node: node)
            }
        }
        // Edges from each node to the nodes it reads (inputs naming no node are OpenCV's to report).
        let edges: [[Int]] = nodes.map { node in node.inputs.compactMap { index[Self.nodeName($0)] } }
        if role != .modelWithTextGraph { try checkAcyclic(edges) }

        // Identity chains, as RemoveIdentityOps follows them (from an identity node to the identity
        // node its first input names) for every input of every node.
        let next: [Int?] = nodes.map { node in
            guard Self.identityOps.contains(node.op), let j = index[Self.nodeName(node.inputs[0])],
                Self.identityOps.contains(nodes[j].op)
            else { return nil }
            return j
        }
        var chain = [Int](repeating: 0, count: nodes.count)  // identity links from a node on; 0: not computed
        for start in nodes.indices where Self.identityOps.contains(nodes[start].op) && chain[start] == 0 {
            var path: [Int] = []
            var onPath = Set<Int>()
            var i: Int? = start
            while let current = i, chain[current] == 0 {
                guard onPath.insert(current).inserted else {
                    let cycle = path[path.firstIndex(of: current)!...].map { "'\(nodes[$0].name)'" }
                    throw error(
                        .invalidValue,
                        "the identity nodes " + cycle.joined(separator: " → ")
                            + " → '\(nodes[current].name)' form a cycle", node: nodes[current])
                }
                path.append(current)
                i = next[current]
            }
            var length = i.map { chain[$0] } ?? 0
            for node in path.reversed() {
                length += 1
                chain[node] = length
            }
        }
        var links = 0
        for i in nodes.indices {
            for j in edges[i] { links += 1 + chain[j] }
            guard links <= TensorFlowLimits.maxIdentityLinks else {
                throw error(
                    .limitExceeded,
                    "the graph's identity chains are too long: OpenCV would follow more than "
                        + "\(TensorFlowLimits.maxIdentityLinks) links removing them (by node '\(nodes[i].name)')")
            }
        }
        let identities = nodes.count(where: { Self.identityOps.contains($0.op) })
        guard identities * nodes.count <= TensorFlowLimits.maxIdentityMoves else {
            throw error(
                .limitExceeded,
                "the graph has \(identities) identity nodes among \(nodes.count): OpenCV would "
                    + "make more than \(TensorFlowLimits.maxIdentityMoves) node moves removing them")
        }
        if role == .modelAlone {
            let switches = nodes.count(where: { Self.phaseSwitchOps.contains($0.op) })
            guard switches * (nodes.count + inputCount) <= TensorFlowLimits.maxPhaseSwitchWork else {
                throw error(
                    .limitExceeded,
                    "the graph has \(switches) Switch/Merge/NoOp nodes among \(nodes.count) "
                        + "nodes with \(inputCount) inputs: OpenCV would make more than "
                        + "\(TensorFlowLimits.maxPhaseSwitchWork) steps removing them")
            }
        }
    }

    /// The nodes in an order where every node comes after the nodes it reads (the graph is acyclic).
    private func topologicalOrder(_ edges: [[Int]]) -> [Int] {
        var consumers = [[Int]](repeating: [], count: nodes.count)
        var pending = [Int](repeating: 0, count: nodes.count)
        for (i, inputs) in edges.enumerated() {
            for j in inputs { consumers[j].append(i) }
            pending[i] = inputs.count
        }
        var order = nodes.indices.filter { pending[$0] == 0 }
        var k = 0
        while k < order.count {
            for c in consumers[order[k]] {
                pending[c] -= 1
                if pending[c] == 0 { order.append(c) }
            }
            k += 1
        }
        return order
    }

    /// Throws naming a node on a cycle when there is one (a node reading itself included).
    private func checkAcyclic(_ edges: [[Int]]) throws {
        let order = topologicalOrder(edges)
        guard order.count < nodes.count else { return }
        // Every node left out reads another node left out: walk such inputs until a node repeats.
        var sorted = [Bool](repeating: false, count: nodes.count)
        for i in order { sorted[i] = true }
        var seen = [Int: Int]()  // node → position on the walk
        var walk: [Int] = []
        var current = nodes.indices.first { !sorted[$0] }!
        while seen[current] == nil {
            seen[current] = walk.count
            walk.append(current)
            current = edges[current].first { !sorted[$0] }!
        }
        let cycle = walk[seen[current]!...].map { "'\(nodes[$0].name)'" }
        let node = nodes[current]
        if cycle.count == 1 {
            throw error(
                .invalidValue, "node '\(node.name)' (\(node.op)) reads its own output: the graph has a cycle",
                node: node)
        }
        throw error(
            .invalidValue,
            "the graph has a cycle: " + cycle.joined(separator: " reads ")
                + " reads '\(node.name)'", node: node)
    }

    // MARK: Loading

    /// Checks a `.pb` and, when OpenCV will read one with it, its `.pbtxt` text graph, as OpenCV will
    /// read them. Throws `ConversionError`: `io` for unreadable files, `syntax` for malformed ones,
    /// `invalidValue` or `limitExceeded` for graphs OpenCV would hang, crash or take minutes on.
    package static func checkForLoading(model: URL, textGraph: URL?) throws {
        let data: Data
        do {
            data = try Data(contentsOf: model, options: .mappedIfSafe)
        } catch {
            throw ConversionError.unreadable(model, what: "TensorFlow model", error)
        }
        try TensorFlowGraph(binary: data, fileName: model.lastPathComponent)
            .check(as: textGraph == nil ? .modelAlone : .modelWithTextGraph)
        guard let textGraph else { return }
        let text = try TextFile.read(textGraph, limit: TensorFlowLimits.maxTextBytes, what: "text graph")
        try TensorFlowGraph(text: text, fileName: textGraph.lastPathComponent).check(as: .textGraph)
    }
}
