import Foundation
import Testing
import OpenVision
import OpenVisionTestSupport

/// Issue 28, "Model files": hostile Darknet files give a one-line `invalidModel` error and exit status 1
/// from `models info` and `detect --model`, never a crash (OpenCV segfaulted on an anchor mask or route
/// index out of range, divided by a zero `groups`).
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
}
