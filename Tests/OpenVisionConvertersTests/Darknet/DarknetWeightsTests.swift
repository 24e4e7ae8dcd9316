import Foundation
import Testing

@testable import OpenVisionConverters

/// The `.weights` size check OpenVision runs before OpenCV reads a Darknet model (issue 14, finding 6).
@Suite struct DarknetWeightsTests {
    @Test func truncatedWeightsAreRejectedWithoutReadingThem() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cfg = SharedFiles.models.appendingPathComponent("yolo-fastest-1.1-xl.cfg")
        let full = try Data(contentsOf: SharedFiles.models.appendingPathComponent("yolo-fastest-1.1-xl.weights"))
        let truncated = dir.appendingPathComponent("net.weights")
        try full.prefix(2_000_000).write(to: truncated)
        let config = try DarknetConfig.load(cfg)
        do {
            try DarknetWeights.check(truncated, config: config)
            Issue.record("truncated weights accepted")
        } catch let error as ConversionError {
            #expect(error.code == .weights)
            #expect(error.message.contains("has 499995 floats, the cfg needs 923486"), "\(error)")
        }
        #expect(throws: ConversionError.self) {
            _ = try DarknetConfig.checkForLoading(cfg: cfg, weights: truncated)
        }
        // The full file passes both checks.
        try DarknetWeights.check(
            SharedFiles.models.appendingPathComponent("yolo-fastest-1.1-xl.weights"), config: config)
        let size = try DarknetConfig.checkForLoading(
            cfg: cfg, weights: SharedFiles.models.appendingPathComponent("yolo-fastest-1.1-xl.weights"))
        #expect(size.width == 320 && size.height == 320 && size.channels == 3)
    }

    @Test func headersThatDoNotFit() throws {
        let config = try DarknetConfig(text: SharedFiles.cfgText("yolo-fastest-1.1"))
        for data in [
            Data(), Data(count: 15), Data([0, 0, 0, 0] + [2, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0]),
            Data([255, 255, 255, 255] + Array(repeating: 0, count: 16)),
        ] {
            #expect(throws: ConversionError.self) { try DarknetWeights(data: data, config: config) }
        }
    }

    /// Networks only OpenCV reads are checked in full for it too (issue 28: they used to be left to OpenCV,
    /// which crashed on their indices): layers, bounds, and the weight count.
    @Test func networksOnlyOpenCVReadsAreCheckedInFull() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cfg = dir.appendingPathComponent("net.cfg")
        let weights = dir.appendingPathComponent("net.weights")
        try "[net]\nwidth=416\nheight=416\n[reorg]\nstride=2\n".write(to: cfg, atomically: true, encoding: .utf8)
        try Data(count: 16).write(to: weights)  // a darknet 0.0 header and no floats: [reorg] has no weights
        let size = try DarknetConfig.checkForLoading(cfg: cfg, weights: weights)
        #expect(size.width == 416 && size.height == 416)
        // A key set twice: OpenCV takes the last value (the converter refuses).
        try "[net]\nwidth=416\nheight=416\nheight=320\n[reorg]\nstride=2\n".write(
            to: cfg, atomically: true, encoding: .utf8)
        #expect(try DarknetConfig.checkForLoading(cfg: cfg, weights: weights).height == 320)
        // One float too many for the network.
        try Data(count: 20).write(to: weights)
        #expect(throws: ConversionError.self) { _ = try DarknetConfig.checkForLoading(cfg: cfg, weights: weights) }
        try Data(count: 16).write(to: weights)
        for text in [
            "[net]\nwidth=416000\nheight=416\n[reorg]\nstride=2\n",
            "[net]\nwidth=416\nheight=416\n[reorg]\nstride=2\n[upsample]\nstride=4611686018427387904\n",
            "[net]\nwidth=416\nheight=416\nheight=416\n[convolutional]\nfilters=99999999\nsize=1\n",
        ] {
            try text.write(to: cfg, atomically: true, encoding: .utf8)
            do {
                _ = try DarknetConfig.checkForLoading(cfg: cfg, weights: weights)
                Issue.record("accepted: \(text)")
            } catch let error as ConversionError {
                #expect(error.code == .limitExceeded, "\(error)")
            }
        }
    }
}
