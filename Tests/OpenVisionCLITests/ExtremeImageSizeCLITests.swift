import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Issue 37, row 15: images OpenCV's warps assert on (a side of 32767 pixels or more: 100000 × 1, 1 × 100000, and
/// 65535 × 2) with the requests that sample through them: each request's error is `invalidImage` saying what the
/// limit is, never OpenCV's assertion text (which the CLI's JSON and serve's 200 answers carried).
@Suite struct ExtremeImageSizeCLITests {
    @Test(arguments: [(100_000, 1), (1, 100_000), (65_535, 2)])
    func samplingRequestsRefuseSidesOpenCVCannotWarp(width: Int, height: Int) async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("strip.png")
        try PNGFile.make(width: width, height: height, colorType: 0, dataBytes: height * (width + 1)).write(to: file)
        let run = try await CLIProcess.run([
            "analyze", file.path, "--requests", "landmarks,bodypose,bodypose3d,personinstances,handpose",
            "--format", "json",
        ])
        #expect(!run.stdout.contains("OpenCV(") && !run.stderr.contains("OpenCV("), "\(run.stdout.prefix(1500))")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        let errors = report["errors"] as? [String: [String: Any]] ?? [:]
        for kind in ["landmarks", "bodypose", "bodypose3d", "personinstances", "handpose"] {
            // A request may also find nothing on a strip it reads another way (no error); when it errs, it is this one.
            guard let error = errors.first(where: { $0.key.lowercased().hasPrefix(kind.prefix(8).lowercased()) })?.value
            else { continue }
            #expect(
                error["code"] as? String == "invalidImage"
                    && (error["message"] as? String ?? "").contains("32766 pixels a side"),
                "\(kind): \(error)")
        }
        #expect(!errors.isEmpty, "\(run.stdout.prefix(800))")
    }
}
