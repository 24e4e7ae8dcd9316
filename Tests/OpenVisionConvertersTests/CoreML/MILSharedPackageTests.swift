import Foundation
import Testing
@testable import OpenVisionConverters

/// The shared `.mlpackage` files (../shared/models/coreml) read and lowered.
@Suite struct MILSharedPackageTests {
    @Test func writesMobileNetLikeONNX() throws {
        let (program, blobs) = try MILTestSupport.package(MILTestSupport.coreml.appendingPathComponent("MobileNetLike.mlpackage"))
        let model = try MILTestSupport.onnxModel(program, blobs: blobs)
        if let out = ProcessInfo.processInfo.environment["MIL_ONNX_OUT"] {
            try model.serialized().write(to: URL(fileURLWithPath: out))
        }
        #expect(program.opset == "CoreML5")
    }

    @Test func writesYoloFastestONNX() throws {
        let (program, blobs) = try MILTestSupport.package(MILTestSupport.coreml.appendingPathComponent("YoloFastestPipeline.mlpackage"))
        let model = try MILTestSupport.onnxModel(program, blobs: blobs)
        if let out = ProcessInfo.processInfo.environment["MIL_YOLO_OUT"] {
            try model.serialized().write(to: URL(fileURLWithPath: out))
        }
    }
}
