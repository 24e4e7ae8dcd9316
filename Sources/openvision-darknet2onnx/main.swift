// The build-time converter behind Plugins/DefaultDetectorPlugin: the committed Darknet detector
// (Sources/OpenVision/DefaultDetector) to the ONNX file bundled as OpenVision's resource, with our own
// converter (OpenVisionConverters), so the default detector runs on ONNX Runtime like any ONNX export.
//   openvision-darknet2onnx CFG WEIGHTS NAMES OUT.onnx
import Foundation
import OpenVisionConverters

let arguments = CommandLine.arguments.dropFirst().map { URL(fileURLWithPath: $0) }
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: openvision-darknet2onnx CFG WEIGHTS NAMES OUT.onnx\n".utf8))
    exit(2)
}
do {
    try DarknetConverter.convert(cfg: arguments[0], weights: arguments[1], names: arguments[2], to: arguments[3])
} catch {
    FileHandle.standardError.write(Data("openvision-darknet2onnx: \(error)\n".utf8))
    exit(1)
}
