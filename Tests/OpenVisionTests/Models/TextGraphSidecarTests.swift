import Foundation
import Testing

@testable import OpenVision

/// Which text graph a Caffe / TensorFlow model is loaded with (`VisionModel.textGraph(beside:)`).
@Suite struct TextGraphSidecarTests {
    static func folder(_ names: [String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-pbtxt-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in names { try Data().write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    @Test func sameNameThenPrefixThenTheOnlyOne() throws {
        // OpenCV's face detector ships opencv_face_detector_uint8.pb with opencv_face_detector.pbtxt.
        let face = try Self.folder(["opencv_face_detector_uint8.pb", "opencv_face_detector.pbtxt", "other.pbtxt"])
        defer { try? FileManager.default.removeItem(at: face) }
        #expect(
            VisionModel.textGraph(beside: face.appendingPathComponent("opencv_face_detector_uint8.pb"))?
                .lastPathComponent
                == "opencv_face_detector.pbtxt")
        let same = try Self.folder(["net.pb", "net.pbtxt", "net_v2.pbtxt"])
        defer { try? FileManager.default.removeItem(at: same) }
        #expect(VisionModel.textGraph(beside: same.appendingPathComponent("net.pb"))?.lastPathComponent == "net.pbtxt")
        let only = try Self.folder(["res10_300x300_ssd_iter_140000.caffemodel", "deploy.prototxt"])
        defer { try? FileManager.default.removeItem(at: only) }
        #expect(
            VisionModel.textGraph(beside: only.appendingPathComponent("res10_300x300_ssd_iter_140000.caffemodel"))?
                .lastPathComponent
                == "deploy.prototxt")
        let none = try Self.folder(["a.pb", "x.pbtxt", "y.pbtxt"])
        defer { try? FileManager.default.removeItem(at: none) }
        #expect(VisionModel.textGraph(beside: none.appendingPathComponent("a.pb")) == nil)
    }
}
