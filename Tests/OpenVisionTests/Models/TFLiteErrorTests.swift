import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Bad `.tflite` files give typed `invalidModel` errors that say what is wrong, never a crash.
@Suite struct TFLiteErrorTests {
    static func expectInvalidModel(
        _ url: URL, containing texts: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try VisionModel(contentsOf: url)
            Issue.record("expected invalidModel for \(url.lastPathComponent)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .invalidModel, "\(error)", sourceLocation: sourceLocation)
            for text in texts {
                #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
            }
        }
    }

    static func temp(_ name: String, _ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-\(name)")
        try data.write(to: url)
        return url
    }

    @Test func unsupportedOperatorIsNamedWithItsIndex() {
        // scripts/models/tflite_fixtures.py: RELU (operator 0) then SIN (operator 1).
        let url = TFLiteImportTests.fixtures.appendingPathComponent("ops/unsupported_sin.tflite")
        Self.expectInvalidModel(url, containing: ["operator 1", "SIN", "not supported"])
    }

    /// A photo renamed .tflite (astronaut.png holds a JPEG).
    @Test func imageNamedTFLite() throws {
        let image = try Data(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let url = try Self.temp("photo.tflite", image)
        defer { try? FileManager.default.removeItem(at: url) }
        Self.expectInvalidModel(url, containing: ["not a TFLite model"])
    }

    @Test func emptyFile() throws {
        let url = try Self.temp("empty.tflite", Data())
        defer { try? FileManager.default.removeItem(at: url) }
        Self.expectInvalidModel(url, containing: ["not a TFLite model"])
    }

    /// A real model cut to a twelfth, a third and a half (its tables point past the end). A cut into the
    /// file's final alignment padding still converts, so the last bytes are not tried.
    @Test(arguments: [12, 3, 2])
    func truncatedModel(_ divisor: Int) throws {
        let file = try #require(ModelLocator.find("pose_detection.tflite"), "installed by scripts/setup")
        let data = try Data(contentsOf: file)
        let length = data.count / divisor
        let url = try Self.temp("truncated-\(divisor).tflite", data.prefix(length))
        defer { try? FileManager.default.removeItem(at: url) }
        Self.expectInvalidModel(url, containing: ["corrupt or truncated"])
    }

    /// The cache of converted models follows the file's content: a file replaced at the same path is converted again.
    @Test func replacedFileIsConvertedAgain() throws {
        let ops = TFLiteImportTests.fixtures.appendingPathComponent("ops")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-\(UUID())-model.tflite")
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.copyItem(at: ops.appendingPathComponent("relu.tflite"), to: url)
        #expect(try VisionModel(contentsOf: url).modelDescription.outputs.map(\.shape) == [[1, 7, 9, 4]])
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: ops.appendingPathComponent("conv2d_same_stride2_relu6.tflite"), to: url)
        #expect(try VisionModel(contentsOf: url).modelDescription.outputs.map(\.shape) == [[1, 4, 5, 6]])
    }
}
