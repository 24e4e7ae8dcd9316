import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Issue 37, rows 3, 6, 8, 13 and 14 as a user meets them: the 88-byte fillStatic model is refused at once instead of
/// taking 3 GB and leaving 1 GiB in the cache; a converted model planted in the shared temporary folder does not
/// answer for the user's; a truncated cache entry is converted again; a compiled folder's `model.onnx` passes the
/// ONNX checks; model strings reach the terminal escaped (../shared/hardening3).
@Suite struct HostileCoreMLCLITests {
    static let hardening = Fixtures.shared.appendingPathComponent("hardening3")
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")

    /// A private cache and temporary folder for one test.
    static func environment(_ dir: URL, _ name: String = "1") throws -> [String: String] {
        let tmp = dir.appendingPathComponent("tmp\(name)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        return ["XDG_CACHE_HOME": dir.appendingPathComponent("xdg\(name)").path, "TMPDIR": tmp.path]
    }

    @Test func aTinyModelThatWouldMakeGigabytesIsRefused() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLIProcess.run(
            ["models", "info", Self.hardening.appendingPathComponent("fill_1x2p28.mlmodel").path],
            environment: try Self.environment(dir))
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("fill0") && run.stderr.contains("made up from a declared shape"), "\(run.stderr)")
        // Nothing was cached for it.
        let cached =
            (try? FileManager.default.contentsOfDirectory(
                atPath: dir.appendingPathComponent("xdg1/openvision/coreml").path)) ?? []
        #expect(!cached.contains { $0.hasSuffix(".onnx") }, "\(cached)")
    }

    /// The check's planted graph: the user's conversion, its labels changed, under the entry's name in
    /// `$TMPDIR/openvision-coreml/` (where the old cache looked second). The classification still says kite... and a
    /// truncated entry in the user's cache is converted again on the next run.
    @Test func thePlantedOrDamagedCacheDoesNotAnswer() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = dir.appendingPathComponent("m.mlmodel")
        try FileManager.default.copyItem(at: Self.coreml.appendingPathComponent("MobileNetLike.mlmodel"), to: model)
        let image = Self.coreml.appendingPathComponent("inputs/eagle_224.png").path
        let first = try await CLIProcess.run(
            ["classify", "--model", model.path, image, "--format", "json"], environment: try Self.environment(dir))
        #expect(first.status == 0, "\(first.stderr)")
        let folder = dir.appendingPathComponent("xdg1/openvision/coreml")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".onnx") })
        let converted = try Data(contentsOf: folder.appendingPathComponent(name))
        let planted = dir.appendingPathComponent("tmp2/openvision-coreml")
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        let poisoned =
            String(decoding: converted, as: UTF8.self).contains("kite")
            ? Data(String(decoding: converted, as: UTF8.self).replacingOccurrences(of: "kite", with: "PWN!").utf8)
            : converted
        try poisoned.write(to: planted.appendingPathComponent(name))
        let second = try await CLIProcess.run(
            ["classify", "--model", model.path, image, "--format", "json"],
            environment: try Self.environment(dir, "2"))
        #expect(second.status == 0 && !second.stdout.contains("PWN!"), "\(second.stdout.prefix(300)) \(second.stderr)")
        // Truncated: converted again, then used.
        try converted.prefix(converted.count / 2).write(to: folder.appendingPathComponent(name))
        for _ in 0..<2 {
            let run = try await CLIProcess.run(
                ["classify", "--model", model.path, image], environment: try Self.environment(dir))
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == converted)
    }

    /// OpenVision's compiled folder whose `model.onnx` fixes a 16.8 GB tensor (ConstantOfShape [1, 84, 5e7], the
    /// onnx-reader fuzz seed): refused by the ONNX checks before ONNX Runtime reads it.
    @Test func aCompiledFolderPassesTheOnnxChecks() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let compiled = dir.appendingPathComponent("bomb.mlmodelc")
        try FileManager.default.createDirectory(at: compiled, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Fuzz/corpus/onnx-reader/constantofshape.onnx"),
            to: compiled.appendingPathComponent("model.onnx"))
        let jsonURL = try await Self.compiledJSON(dir)
        let json = try String(contentsOf: jsonURL, encoding: .utf8)
        try json.write(to: compiled.appendingPathComponent("coreml.json"), atomically: true, encoding: .utf8)
        let run = try await CLIProcess.run(["models", "info", compiled.path], environment: try Self.environment(dir))
        #expect(
            run.status == 1 && run.stderr.contains("model memory limit") && run.stderr.contains("[invalidModel]"),
            "\(run.stderr)")
    }

    /// A coreml.json of a real compilation (the per-layer fixture), for a folder whose model.onnx is replaced.
    static func compiledJSON(_ dir: URL) async throws -> URL {
        let out = dir.appendingPathComponent("real")
        let layer = Fixtures.packageRoot.appendingPathComponent(
            "Tests/Fixtures/coreml/layers/conv_valid_padded_stride2.mlmodel")
        let run = try await CLIProcess.run(
            ["models", "compile", layer.path, "-o", out.path], environment: try environment(dir))
        #expect(run.status == 0, "\(run.stderr)")
        return out.appendingPathComponent("conv_valid_padded_stride2.mlmodelc/coreml.json")
    }

    /// The shared model whose metadata holds terminal escapes (window title, clear screen), and a 1 MB feature name:
    /// `models info` prints them escaped, each line cut at 1000 characters.
    @Test func modelStringsReachTheTerminalEscaped() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLIProcess.run(
            ["models", "info", Self.hardening.appendingPathComponent("meta_ansi.mlmodel").path],
            environment: try Self.environment(dir))
        let output = run.stdout + run.stderr
        #expect(
            !output.unicodeScalars.contains {
                $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value)
            },
            "\(output.prefix(2000))")
        #expect(output.contains("\\u{1b}"), "\(output.prefix(2000))")
        #expect(output.split(separator: "\n").allSatisfy { $0.count <= 1001 + 20 })
    }
}
