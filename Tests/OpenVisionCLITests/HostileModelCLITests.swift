import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// Issue 28, "Model files": hostile Darknet and TensorFlow files give a one-line `invalidModel` error and
/// exit status 1 from `models info` and `detect --model`, never a crash (OpenCV segfaulted on an anchor
/// mask or route index out of range, divided by a zero `groups`) nor a hang (it looped forever on a
/// TensorFlow graph whose Identity node reads itself).
@Suite struct HostileModelCLITests {
    /// A 32 × 32 network: `[net]` on lines 1-4, then `layers` from line 5.
    static func darknet(_ layers: String) -> String {
        "[net]\nwidth=32\nheight=32\nchannels=3\n" + layers
    }

    /// Each case: the `.cfg`, the line the error must name, and a fragment of its message.
    static let darknetCases: [(name: String, cfg: String, line: Int, fragment: String)] = [
        // OpenCV read anchors[999999 * 2] (SIGSEGV).
        ("mask", darknet("[convolutional]\nfilters=28\nsize=1\nactivation=linear\n"
                         + "[yolo]\nclasses=2\nanchors=10,13,16,30\nnum=2\nmask=0,1,2,999999\n"), 13, "mask"),
        // OpenCV read out_channels_vec[-999999] (SIGSEGV).
        ("route-far", darknet("[convolutional]\nfilters=8\nsize=1\nactivation=linear\n[route]\nlayers=-1000000\n"), 10,
         "layers"),
        // A route to itself and one to a later layer: std::out_of_range inside OpenCV (internalError).
        ("route-self", darknet("[convolutional]\nfilters=8\nsize=1\nactivation=linear\n[route]\nlayers=1\n"), 10, "layers"),
        ("route-forward", darknet("[convolutional]\nfilters=8\nsize=1\nactivation=linear\n[route]\nlayers=3\n"
                                  + "[convolutional]\nfilters=8\nsize=1\nactivation=linear\n"), 10, "layers"),
        ("shortcut-from", darknet("[convolutional]\nfilters=8\nsize=1\nactivation=linear\n[shortcut]\nfrom=-7\n"), 10, "from"),
        // `groups=0`: OpenCV divided by it (SIGFPE).
        ("groups-zero", darknet("[convolutional]\nfilters=8\nsize=1\ngroups=0\nactivation=linear\n"), 8, "groups"),
        // `[dropout]` first: OpenCV took the layer before layer 0 (internalError).
        ("dropout-first", darknet("[dropout]\n[convolutional]\nfilters=8\nsize=1\nactivation=linear\n"), 5, "dropout"),
        // `[sam]` from a later layer: OpenCV only (the converter has no [sam]).
        ("sam-forward", darknet("[convolutional]\nfilters=8\nsize=1\nactivation=linear\n[sam]\nfrom=4\n"), 10, "from"),
    ]

    @Test(arguments: darknetCases.map(\.name))
    func hostileDarknetConfigIsRefused(_ name: String) async throws {
        let item = try #require(Self.darknetCases.first { $0.name == name })
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cfg = dir.appendingPathComponent("bad.cfg")
        try item.cfg.write(to: cfg, atomically: true, encoding: .utf8)
        // A darknet 0.2 header and no floats: the .cfg is refused before the weights are looked at.
        try Data([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).write(to: dir.appendingPathComponent("bad.weights"))
        for arguments in [["models", "info", cfg.path], ["detect", "--model", cfg.path, Fixtures.sharedImage("dog.jpg").path]] {
            let (run, timedOut) = try await CLIProcess.run(arguments, deadline: 120)
            #expect(!timedOut && run.status == 1, "\(name) \(arguments[0]): status \(run.status)\n\(run.stderr)")
            #expect(run.stderr.contains("bad.cfg:\(item.line): ") && run.stderr.contains(item.fragment)
                    && run.stderr.contains("[invalidModel]"), "\(name): \(run.stderr)")
        }
    }

    /// A binary GraphDef of `nodes` (GraphDef.node = 1; NodeDef name 1, op 2, input 3), written by hand.
    static func graphDef(_ nodes: [(String, String, [String])]) -> Data {
        func field(_ number: UInt8, _ payload: [UInt8]) -> [UInt8] {
            precondition(payload.count < 128)
            return [number << 3 | 2, UInt8(payload.count)] + payload
        }
        return Data(nodes.flatMap { name, op, inputs in
            field(1, field(1, Array(name.utf8)) + field(2, Array(op.utf8)) + inputs.flatMap { field(3, Array($0.utf8)) })
        })
    }

    /// OpenCV looped forever on these (at 100 % CPU, 13 minutes before it was killed by hand).
    @Test func hostileTensorFlowGraphIsRefused() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The issue's 18-byte .pb: one Identity node reading itself; then a two-node identity cycle.
        let selfLoop = Self.graphDef([("a", "Identity", ["a"])])
        #expect(selfLoop.count == 18)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("one"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("two"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("big"), withIntermediateDirectories: true)
        try selfLoop.write(to: dir.appendingPathComponent("one/self.pb"))
        try Self.graphDef([("a", "Identity", ["b"]), ("b", "Identity", ["a"])]).write(to: dir.appendingPathComponent("two/two.pb"))
        // The issue's 300,000-node text graph (a chain of Relu nodes) beside an empty .pb: over a minute in OpenCV.
        try Data().write(to: dir.appendingPathComponent("big/big.pb"))
        var text = "node { name: \"input\" op: \"Placeholder\" }\n"
        for i in 0..<300_000 {
            text += "node { name: \"r\(i)\" op: \"Relu\" input: \"\(i == 0 ? "input" : "r\(i - 1)")\" }\n"
        }
        try text.write(to: dir.appendingPathComponent("big/big.pbtxt"), atomically: true, encoding: .utf8)
        let cases = [("one/self.pb", "self.pb: node 'a' (Identity) reads its own output"),
                     ("two/two.pb", "two.pb: the graph has a cycle: 'a' reads 'b' reads 'a'"),
                     ("big/big.pb", "the graph has more than")]
        for (file, message) in cases {
            for arguments in [["models", "info", dir.appendingPathComponent(file).path],
                              ["detect", "--model", dir.appendingPathComponent(file).path, Fixtures.sharedImage("dog.jpg").path]] {
                let (run, timedOut) = try await CLIProcess.run(arguments, deadline: 120)
                #expect(!timedOut && run.status == 1, "\(file) \(arguments[0]): status \(run.status)\n\(run.stderr)")
                #expect(run.stderr.contains(message) && run.stderr.contains("[invalidModel]"), "\(file): \(run.stderr)")
            }
        }
    }
}
