import Foundation
import OpenVisionTestSupport
import Testing

/// schemathesis (PyPI; installed by scripts/setup into its own venv) fuzzes a running `openvision serve`
/// from the OpenAPI document it serves: no 5xx, only documented statuses and content types, bodies that
/// match their schemas, invalid inputs rejected with 4xx, and the API key enforced.
@Suite struct ServeContractTests {
    /// $SCHEMATHESIS, else the venv scripts/setup makes, else one on PATH.
    static let schemathesis: String? = {
        let env = ProcessInfo.processInfo.environment
        let cache =
            env["OPENVISION_CACHE"]
            ?? ((env["XDG_CACHE_HOME"] ?? ((env["HOME"] ?? "/tmp") + "/.cache")) + "/openvision")
        let onPath: [String] = (env["PATH"] ?? "").split(separator: ":").map { String($0) + "/schemathesis" }
        let candidates: [String] =
            [env["SCHEMATHESIS"], cache + "/venv-schemathesis/bin/schemathesis"].compactMap { $0 } + onPath
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// In CI (`OPENVISION_REQUIRE_ALL=1`, or CI=true) the test always runs, so a missing install fails it instead of
    /// skipping it.
    static let runnable = RequiredTools.runs(schemathesis != nil) || ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(
        .enabled(
            if: runnable,
            "schemathesis is not installed: run ./scripts/setup (it makes ~/.cache/openvision/venv-schemathesis)"))
    func schemathesisFromTheSpec() async throws {
        let tool = try #require(Self.schemathesis, "schemathesis not found; ./scripts/setup installs it")
        // The shared Yolo-Fastest in the search path, so /v1/detect's example model exists.
        let server = try ServeProcess(
            ["--api-key", "contract"],
            environment: [
                "OPENVISION_MODELS": Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco").path
            ])
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await blocking { () throws -> (Int32, String) in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: tool)
            p.currentDirectoryURL = dir
            p.arguments = [
                "run", "http://127.0.0.1:\(server.port)/openapi.yaml",
                "--checks",
                "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection,ignored_auth",
                "-H", "Authorization: Bearer contract",
                "--max-examples", "30", "--seed", "13", "--workers", "1", "--request-timeout", "60",
                "--generation-database", "none", "--no-color", "--suppress-health-check", "too_slow",
            ]
            p.environment = ProcessInfo.processInfo.environment.merging(["SCHEMATHESIS_HOOKS": ""]) { $1 }
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        #expect(run.0 == 0, "schemathesis failed:\n\(run.1.suffix(6000))")
        // It did test every operation (a run that tested nothing would also exit 0).
        #expect(run.1.contains("Tested: 7"), "\(run.1.suffix(3000))")
        let generated = run.1.firstMatch(of: /(\d+) generated, (\d+) passed/)
        #expect((generated.flatMap { Int($0.1) } ?? 0) >= 100, "\(run.1.suffix(3000))")
        #expect(server.process.isRunning)
    }
}
