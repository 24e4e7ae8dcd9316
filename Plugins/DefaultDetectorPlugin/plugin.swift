import PackagePlugin

/// Converts the committed default detector (Yolo-Fastest-1.1-XL, Darknet, public domain; see
/// Sources/OpenVision/DefaultDetector) to ONNX at build time with our own converter; the ONNX file and
/// the licence become OpenVision's bundled resources (`DefaultModels.detector()`).
@main
struct DefaultDetectorPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "DefaultDetector")
        let cfg = folder.appending(path: "yolo-fastest-1.1-xl.cfg")
        let weights = folder.appending(path: "yolo-fastest-1.1-xl.weights")
        let names = folder.appending(path: "coco.names")
        let onnx = context.pluginWorkDirectoryURL.appending(path: "yolo-fastest-1.1-xl.onnx")
        return [
            .buildCommand(
                displayName: "Converting the default detector (Yolo-Fastest-1.1-XL) to ONNX",
                executable: try context.tool(named: "openvision-darknet2onnx").url,
                arguments: [cfg.path, weights.path, names.path, onnx.path],
                inputFiles: [cfg, weights, names], outputFiles: [onnx])
        ]
    }
}
