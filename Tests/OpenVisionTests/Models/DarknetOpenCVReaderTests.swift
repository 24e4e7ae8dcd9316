import Foundation
import OpenVision
import Testing

/// Issue 28, item 10: networks only OpenCV's Darknet reader supports are checked in full for it
/// (`DarknetReader.openCV`) and still load; the check's shapes and weight counts agree with what
/// OpenCV 4.6 builds and reads (the reference: OpenCV itself, through the OpenCV DNN backend).
@Suite struct DarknetOpenCVReaderTests {
    /// A new empty folder.
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-darknet-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `cfg` and a darknet 0.2 `.weights` holding `floats` into `dir`, and loads them.
    static func load(_ cfg: String, floats: [Float], in dir: URL) throws -> VisionModel {
        try cfg.write(to: dir.appendingPathComponent("net.cfg"), atomically: true, encoding: .utf8)
        var data = Data([0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        floats.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: dir.appendingPathComponent("net.weights"))
        return try VisionModel(contentsOf: dir.appendingPathComponent("net.cfg"))
    }

    static func input(_ side: Int) -> Tensor {
        Tensor(name: "input", shape: [1, 3, side, side], scalars: [Float](repeating: 1, count: 3 * side * side))
    }

    /// `[connected]` after a `[maxpool]` (OpenCV's defaults: 2 × 2, stride 2) and `[softmax]`: the weights
    /// are read where the check counted them, so the connected layer's biases come out through the softmax.
    @Test func connectedClassifier() throws {
        let cfg =
            "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=2\nsize=1\nactivation=linear\n"
            + "[maxpool]\n[connected]\noutput=4\nactivation=linear\n[softmax]\n"
        // conv: 2 biases + 2·3 weights; connected: 4 biases [1, 2, 3, 4] + 4·(2·4·4) weights, all 0.
        var floats = [Float](repeating: 0, count: 8 + 4 + 4 * 32)
        floats.replaceSubrange(8..<12, with: [1, 2, 3, 4])
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try Self.load(cfg, floats: floats, in: dir)
        let out = try #require(try model.prediction(from: [Self.input(8)]).first)
        // numpy: b = np.arange(1, 5.0); np.exp(b) / np.exp(b).sum()
        let expected: [Float] = [0.0320586, 0.0871443, 0.2368828, 0.6439142]
        #expect(
            out.scalars.count == 4 && zip(out.scalars, expected).allSatisfy { abs($0 - $1) < 1e-5 }, "\(out.scalars)")
        // One float short or over: refused before OpenCV reads it.
        for count in [floats.count - 1, floats.count + 1] {
            #expect(throws: VisionError.self) {
                _ = try Self.load(cfg, floats: [Float](repeating: 0, count: count), in: dir)
            }
        }
    }

    /// YOLOv2's `[reorg]` and `[region]`: OpenCV's region output has one row per cell and anchor.
    @Test func reorgAndRegion() throws {
        let cfg =
            "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=4\nsize=1\nactivation=leaky\n"
            + "[reorg]\nstride=2\n[convolutional]\nfilters=14\nsize=1\nactivation=linear\n"
            + "[region]\nclasses=2\nnum=2\nanchors=1,1,2,2\nsoftmax=1\n"
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try Self.load(cfg, floats: [Float](repeating: 0, count: (4 + 4 * 3) + (14 + 14 * 16)), in: dir)
        let out = try #require(try model.prediction(from: [Self.input(8)]).first)
        #expect(out.shape == [4 * 4 * 2, 5 + 2])
    }

    /// Squeeze-and-excitation (`[scale_channels]`), `[sam]`, `[cost]`, a grouped `[route]` and OpenCV's
    /// `[upsample]` stride of 1.
    @Test func excitationAttentionAndGroups() throws {
        let cfg =
            "[net]\nwidth=8\nheight=8\nchannels=3\n[convolutional]\nfilters=4\nsize=1\nactivation=linear\n"
            + "[avgpool]\n[convolutional]\nfilters=4\nsize=1\nactivation=logistic\n[scale_channels]\nfrom=0\n"
            + "[sam]\nfrom=-1\n[cost]\n[route]\nlayers=-1\ngroups=2\ngroup_id=1\n[upsample]\n"
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try Self.load(cfg, floats: [Float](repeating: 0, count: (4 + 4 * 3) + (4 + 4 * 4)), in: dir)
        let out = try #require(try model.prediction(from: [Self.input(8)]).first)
        #expect(out.shape == [1, 2, 8, 8])
    }
}
