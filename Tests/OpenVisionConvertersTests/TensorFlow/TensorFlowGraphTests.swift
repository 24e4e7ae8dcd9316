import Foundation
import Testing

@testable import OpenVisionConverters

/// Issue 28, item 11: the TensorFlow graph check. OpenCV 4.6's importer loops forever on an
/// `Identity` node that reads itself (the 18-byte `.pb` below), on a two-node identity cycle, and
/// took minutes on large or identity-chained graphs (a 300,000-node `.pbtxt`); these are refused
/// before OpenCV sees them, with the graphs OpenCV reads well left alone.
@Suite struct TensorFlowGraphTests {
    typealias Spec = (name: String, op: String, inputs: [String])

    /// A binary GraphDef (GraphDef.node = 1; NodeDef name 1, op 2, input 3), as TensorFlow writes it.
    static func binary(_ nodes: [Spec]) -> Data {
        var e = ONNXProtobufEncoder()
        for node in nodes {
            e.message(1) { n in
                n.string(1, node.name)
                n.string(2, node.op)
                for input in node.inputs { n.string(3, input) }
            }
        }
        return Data(e.bytes)
    }

    /// The same graph as text (`node { name: … op: … input: … }`).
    static func text(_ nodes: [Spec]) -> String {
        nodes.map { node in
            "node {\n  name: \"\(node.name)\"\n  op: \"\(node.op)\"\n"
                + node.inputs.map { "  input: \"\($0)\"\n" }.joined() + "}\n"
        }.joined()
    }

    static func expectRefused(
        _ code: ConversionError.Code, _ fragment: String, line: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch let error as ConversionError {
            #expect(error.code == code && error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
            if let line { #expect(error.line == line, "\(error)", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The issue's file: one Identity node reading itself, 18 bytes.
    @Test func selfReadingIdentityIsRefused() throws {
        let data = Self.binary([("a", "Identity", ["a"])])
        #expect(data.count == 18)
        let graph = try TensorFlowGraph(binary: data, fileName: "self.pb")
        #expect(graph.nodes.map(\.name) == ["a"] && graph.nodes[0].inputs == ["a"])
        Self.expectRefused(.invalidValue, "node 'a' (Identity) reads its own output") {
            try graph.check(as: .modelAlone)
        }
        Self.expectRefused(.invalidValue, "the identity nodes 'a' → 'a' form a cycle") {
            try graph.check(as: .modelWithTextGraph)
        }
        // Through an output index and a control input too.
        for input in ["a:0", "^a"] {
            Self.expectRefused(.invalidValue, "reads its own output") {
                try TensorFlowGraph(binary: Self.binary([("a", "Relu", [input])]), fileName: "self.pb").check(
                    as: .modelAlone)
            }
        }
    }

    @Test func cyclesAreRefused() throws {
        let two = Self.binary([("a", "Identity", ["b"]), ("b", "Identity", ["a"])])
        Self.expectRefused(.invalidValue, "the graph has a cycle: 'a' reads 'b' reads 'a'") {
            try TensorFlowGraph(binary: two, fileName: "two.pb").check(as: .modelAlone)
        }
        let text = Self.text([
            ("in", "Placeholder", []), ("x", "Add", ["in", "z"]), ("y", "Relu", ["x"]), ("z", "Relu", ["y"]),
        ])
        Self.expectRefused(.invalidValue, "cycle", line: 5) {
            try TensorFlowGraph(text: text, fileName: "loop.pbtxt").check(as: .textGraph)
        }
        // A frozen .pb read with a text graph may keep TensorFlow's while loops (OpenCV never builds them)...
        let loop: [Spec] = [
            ("in", "Placeholder", []), ("enter", "Enter", ["in"]), ("merge", "Merge", ["enter", "next"]),
            ("switch", "Switch", ["merge", "cond"]), ("cond", "LoopCond", ["merge"]),
            ("body", "Identity", ["switch:1"]), ("next", "NextIteration", ["body"]),
        ]
        try TensorFlowGraph(binary: Self.binary(loop), fileName: "frozen.pb").check(as: .modelWithTextGraph)
        // ...but not alone, where OpenCV would have to build them.
        Self.expectRefused(.invalidValue, "cycle") {
            try TensorFlowGraph(binary: Self.binary(loop), fileName: "frozen.pb").check(as: .modelAlone)
        }
    }

    @Test func inputsOpenCVReadsUncheckedAreRequired() throws {
        Self.expectRefused(.invalidValue, "node 'x' (Identity) has 0 inputs; Identity needs 1") {
            try TensorFlowGraph(binary: Self.binary([("x", "Identity", [])]), fileName: "m.pb").check(
                as: .modelWithTextGraph)
        }
        let reshape = Self.binary([("in", "Placeholder", []), ("x", "Reshape", ["in"])])
        Self.expectRefused(.invalidValue, "Reshape needs 2") {
            try TensorFlowGraph(binary: reshape, fileName: "m.pb").check(as: .modelAlone)
        }
        // With a text graph, OpenCV builds layers from the text graph: the .pb's Reshape is not read.
        try TensorFlowGraph(binary: reshape, fileName: "m.pb").check(as: .modelWithTextGraph)
    }

    @Test func namesMustBeUnique() throws {
        Self.expectRefused(.invalidValue, "node 'a' is defined twice") {
            try TensorFlowGraph(binary: Self.binary([("a", "Placeholder", []), ("a", "Relu", [])]), fileName: "m.pb")
                .check(as: .modelAlone)
        }
    }

    @Test func sizesAreBounded() throws {
        // One node past the limit, in text: refused while reading, at the node's line.
        let many =
            [("in", "Placeholder", [String]())] + (0..<TensorFlowLimits.maxNodes).map { ("r\($0)", "Relu", ["in"]) }
        Self.expectRefused(
            .limitExceeded, "more than \(TensorFlowLimits.maxNodes) nodes", line: 5 * TensorFlowLimits.maxNodes
        ) {
            _ = try TensorFlowGraph(text: Self.text(many), fileName: "big.pbtxt")
        }
        // 1,500 chained identities read by 1,500 nodes: OpenCV followed 2.25 M links (1.9 s here); 1,000 × 1,000 pass.
        func chained(_ n: Int) -> [Spec] {
            [("in", "Placeholder", [])] + (0..<n).map { ("i\($0)", "Identity", [$0 == 0 ? "in" : "i\($0 - 1)"]) }
                + (0..<n).map { ("r\($0)", "Relu", ["i\(n - 1)"]) }
        }
        Self.expectRefused(.limitExceeded, "identity chains are too long") {
            try TensorFlowGraph(binary: Self.binary(chained(1_500)), fileName: "m.pb").check(as: .modelWithTextGraph)
        }
        try TensorFlowGraph(binary: Self.binary(chained(1_000)), fileName: "m.pb").check(as: .modelWithTextGraph)
        // 5,000 NoOps among 10,001 nodes: OpenCV's removePhaseSwitches scanned 10⁸ inputs (9 s here).
        let noops: [Spec] =
            [("in", "Placeholder", [])] + (0..<5_000).map { ("n\($0)", "NoOp", ["in"]) }
            + (0..<5_000).map { ("r\($0)", "Relu", ["in"]) }
        Self.expectRefused(.limitExceeded, "Switch/Merge/NoOp") {
            try TensorFlowGraph(binary: Self.binary(noops), fileName: "m.pb").check(as: .modelAlone)
        }
        // Read with a text graph, OpenCV does not remove switches from the .pb.
        try TensorFlowGraph(binary: Self.binary(noops), fileName: "m.pb").check(as: .modelWithTextGraph)
    }

    /// Text graphs as TensorFlow and OpenCV's own scripts write them (OpenCV 4.6 reads this one).
    @Test func textFormat() throws {
        let text = """
            # written by hand
            node { name: "input" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
                   attr { key: "shape" value { shape { dim { size: -1 } } } } }
            node <
              name: 'r' op: "Re" "lu" input: ["input:0"]
              attr: { key: "T" value: { list: { i: [1, 2, 3] f: [1.5e-3, -inf] } } };
            >
            versions { producer: 21 }
            node { name: "esc\\"aped\\x41\\101" op: "NoOp" input: "^r" }
            """
        let graph = try TensorFlowGraph(text: text, fileName: "ok.pbtxt")
        #expect(graph.nodes.map(\.name) == ["input", "r", "esc\"apedAA"])
        #expect(graph.nodes.map(\.op) == ["Placeholder", "Relu", "NoOp"])
        #expect(graph.nodes.map(\.inputs) == [[], ["input:0"], ["^r"]] && graph.nodes.map(\.line) == [2, 4, 9])
        try graph.check(as: .textGraph)
    }

    @Test func malformedFilesAreSyntaxErrors() throws {
        for bytes in [
            Data([0x0A, 0x10, 0x0A]), Data([0xFF, 0xFF]), Data([0x0A, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]),
        ] {
            #expect(throws: ConversionError.self) { _ = try TensorFlowGraph(binary: bytes, fileName: "bad.pb") }
        }
        for (text, line, fragment) in [
            ("node {\n name: \"a\"\n", 3, "a message is not closed"),
            ("node { name \"a\" }", 1, "field 'name' needs ':'"), ("}", 1, "'}' closes no message"),
            ("node { name: \"a }", 1, "a string is not closed"),
            ("node {\n input: [\"a\", \n", 3, "a list is not closed"),
            // Found by scripts/fuzz model-graphs: a field name of digits at the end of the text.
            ("2ntha", 1, "expected a field name, found '2'"),
        ] {
            Self.expectRefused(.syntax, fragment, line: line) {
                _ = try TensorFlowGraph(text: text, fileName: "bad.pbtxt")
            }
        }
        let deep =
            String(repeating: "a {", count: ProtoTextReader.maxDepth + 1)
            + String(repeating: "}", count: ProtoTextReader.maxDepth + 1)
        Self.expectRefused(.limitExceeded, "nested more than") {
            _ = try TensorFlowGraph(text: deep, fileName: "deep.pbtxt")
        }
        // Separators alone, by the million, read in a loop (not one stack frame each).
        _ = try TensorFlowGraph(text: String(repeating: ";", count: 1_000_000), fileName: "semicolons.pbtxt")
    }

    @Test func inputReferencesNameTheirNode() {
        #expect(TensorFlowGraph.nodeName("conv/weights") == "conv/weights")
        #expect(TensorFlowGraph.nodeName("split:1") == "split")
        #expect(TensorFlowGraph.nodeName("^init") == "init")
        #expect(TensorFlowGraph.nodeName("^a:2") == "a")
        #expect(TensorFlowGraph.nodeName("a:b") == "a:b")
    }
}
