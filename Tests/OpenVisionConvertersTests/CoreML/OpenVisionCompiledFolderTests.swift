import Foundation
import Testing

@testable import OpenVisionConverters

/// OpenVision's compiled `.mlmodelc` folder (`model.onnx` + `coreml.json`), as `openvision models compile` and the
/// CoreMLModelClasses plugin write it.
@Suite struct OpenVisionCompiledFolderTests {
    @Test func compiledFolderLoadsBackAsTheSameModel() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let conversion = try CoreMLConverter.conversion(
            contentsOf: CoreMLReaderTests.coreml.appendingPathComponent("MobileNetLike.mlmodel"))
        let target = dir.appendingPathComponent("MobileNet.mlmodelc")
        try CoreMLConverter.writeCompiledFolder(conversion, to: target)
        // Written twice: the second is refused unless it replaces the first.
        #expect(throws: ConversionError.self) { try CoreMLConverter.writeCompiledFolder(conversion, to: target) }
        try CoreMLConverter.writeCompiledFolder(conversion, to: target, replacing: true)
        let back = try CoreMLConverter.conversion(contentsOf: target)
        #expect(back.onnx == conversion.onnx && back.info == conversion.info)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["MobileNet.mlmodelc"])
    }
}
