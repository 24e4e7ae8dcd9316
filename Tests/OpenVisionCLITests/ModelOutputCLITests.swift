import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Issue 37, row 9: `models compile` and `models convert` never write into or over their input, never replace what
/// exists without `--force`, and runs at once into one folder end with one result and true messages.
@Suite struct ModelOutputCLITests {
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")
    static let layer = Fixtures.packageRoot.appendingPathComponent(
        "Tests/Fixtures/coreml/layers/conv_valid_padded_stride2.mlmodel")

    /// Every file under `url`, relative path → bytes.
    static func contents(_ url: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let base = url.standardizedFileURL.path
        for case let file as URL in FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) ?? .init()
        {
            if let data = try? Data(contentsOf: file) {
                result[String(file.standardizedFileURL.path.dropFirst(base.count))] = data
            }
        }
        return result
    }

    /// Xcode's compiled folder compiled where it is (no -o: beside the input, under the same name) would have replaced
    /// it; now refused, the folder unchanged. `convert X -o X` likewise.
    @Test func theInputIsNeverWrittenOver() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let compiled = dir.appendingPathComponent("X.mlmodelc")
        try FileManager.default.copyItem(
            at: Fixtures.shared.appendingPathComponent("models/coreml-wild/yolov8n.mlmodelc"), to: compiled)
        let before = Self.contents(compiled)
        let run = try await CLIProcess.run(["models", "compile", compiled.path])
        #expect(run.status == 1 && run.stderr.contains("would replace the model being compiled"), "\(run.stderr)")
        #expect(Self.contents(compiled) == before)
        let model = dir.appendingPathComponent("m.mlmodel")
        try FileManager.default.copyItem(at: Self.layer, to: model)
        let original = try Data(contentsOf: model)
        for output in [model.path, dir.path + "/./m.mlmodel"] {
            let convert = try await CLIProcess.run(["models", "convert", model.path, "-o", output, "--force"])
            #expect(convert.status == 1 && convert.stderr.contains("is its input"), "\(convert.stderr)")
        }
        #expect(try Data(contentsOf: model) == original)
    }

    /// An existing `NAME.mlmodelc` (a folder of the user's, or a file) is an error naming it unless `--force`, and is
    /// left as it was; with `--force` it is replaced as a whole. The same for `convert`'s output file.
    @Test func existingTargetsNeedForce() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let target = out.appendingPathComponent("conv_valid_padded_stride2.mlmodelc")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: target.appendingPathComponent("notes.txt"))
        let refused = try await CLIProcess.run(["models", "compile", Self.layer.path, "-o", out.path])
        #expect(
            refused.status == 1 && refused.stderr.contains("already exists") && refused.stderr.contains("--force"),
            "\(refused.stderr)")
        #expect(try Data(contentsOf: target.appendingPathComponent("notes.txt")) == Data("keep me".utf8))
        let forced = try await CLIProcess.run(["models", "compile", Self.layer.path, "-o", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: target.path)) == ["coreml.json", "model.onnx"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [target.lastPathComponent])
        let onnx = dir.appendingPathComponent("m.onnx")
        try Data("mine".utf8).write(to: onnx)
        let convert = try await CLIProcess.run(["models", "convert", Self.layer.path, "-o", onnx.path])
        #expect(convert.status == 1 && convert.stderr.contains("already exists"), "\(convert.stderr)")
        #expect(try Data(contentsOf: onnx) == Data("mine".utf8))
        let again = try await CLIProcess.run(["models", "convert", Self.layer.path, "-o", onnx.path, "--force"])
        let written = try Data(contentsOf: onnx)
        #expect(again.status == 0 && written.count > 100, "\(again.stderr)")
    }

    /// Four compiles into one folder at once: one writes the folder, the others say it already exists; with
    /// `--force` all succeed; no temporary folder is left either way.
    @Test func concurrentCompilesGiveTrueMessages() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for force in [false, true] {
            let runs = try await withThrowingTaskGroup(of: CLIProcess.Run.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await CLIProcess.run(
                            ["models", "compile", Self.layer.path, "-o", dir.path] + (force ? ["--force"] : []))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let succeeded = runs.filter { $0.status == 0 }.count
            if force {
                #expect(succeeded == 4, "\(runs.map(\.stderr))")
            } else {
                // The first run of the round without --force may find the folder of the one before (none here).
                #expect(succeeded == 1, "\(runs.map(\.stderr))")
                #expect(
                    runs.filter { $0.status != 0 }.allSatisfy { $0.stderr.contains("already exists") },
                    "\(runs.map(\.stderr))")
                try FileManager.default.removeItem(at: dir.appendingPathComponent("conv_valid_padded_stride2.mlmodelc"))
                _ = try await CLIProcess.run(["models", "compile", Self.layer.path, "-o", dir.path])
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["conv_valid_padded_stride2.mlmodelc"])
            let compiled = dir.appendingPathComponent("conv_valid_padded_stride2.mlmodelc")
            #expect(
                Set(try FileManager.default.contentsOfDirectory(atPath: compiled.path)) == [
                    "coreml.json", "model.onnx",
                ])
        }
    }
}
