import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Errors about files say what happened: a symlink loop, a dangling link, a directory where a
/// model file was expected are not "no such file" or "no weights".
@Suite struct FileMessageTests {
    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func symlinkLoopIsNamed() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.jpg").path
        let b = dir.appendingPathComponent("b.jpg").path
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        #expect { _ = try VisionImage(contentsOf: URL(fileURLWithPath: a)) } throws: {
            guard let e = $0 as? VisionError else { return false }
            return e.code == .ioError && e.message.contains("symlink loop")
        }
        #expect {
            _ = try VisionModel(contentsOf: URL(fileURLWithPath: a.replacingOccurrences(of: ".jpg", with: ".onnx")))
        } throws: { ($0 as? VisionError)?.code == .fileNotFound }
    }

    @Test func danglingLinkAndMissingFileDiffer() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("photo.jpg").path
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: dir.appendingPathComponent("gone.jpg").path)
        #expect { _ = try VisionImage(contentsOf: URL(fileURLWithPath: link)) } throws: {
            ($0 as? VisionError)?.message.contains("symbolic link to a missing image file") == true
        }
        #expect { _ = try VisionImage(contentsOf: dir.appendingPathComponent("nothing.jpg")) } throws: {
            guard let e = $0 as? VisionError else { return false }
            return e.code == .fileNotFound && e.message.hasPrefix("no such image file")
        }
    }

    @Test func directoryNamedLikeAModelIsSaidToBeADirectory() throws {
        let dir = try Self.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let cfg = dir.appendingPathComponent("x.cfg")
        try FileManager.default.createDirectory(at: cfg, withIntermediateDirectories: true)
        #expect { _ = try VisionModel(contentsOf: cfg) } throws: {
            guard let e = $0 as? VisionError else { return false }
            return e.code == .ioError && e.message.contains("is a directory, not a model file")
        }
        // A real .cfg whose .weights is a directory.
        let real = dir.appendingPathComponent("y.cfg")
        try FileManager.default.copyItem(
            at: Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco/yolo-fastest-1.1.cfg"), to: real)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("y.weights"), withIntermediateDirectories: true)
        #expect { _ = try VisionModel(contentsOf: real) } throws: {
            ($0 as? VisionError)?.message.contains("y.weights is a directory, not a Darknet .weights file") == true
        }
    }
}
