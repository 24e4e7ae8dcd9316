import Foundation
import PackagePlugin

/// Xcode's model classes for SwiftPM: for each `.mlmodel` file, `.mlpackage` folder and Xcode-compiled `.mlmodelc` folder
/// (what an app's source tree sometimes holds instead of the model) in a target, generates the
/// Swift classes Xcode would (`MobileNet`, `MobileNetInput`, `MobileNetOutput` for `MobileNet.mlmodel`, over the
/// `CoreML` module of OpenVision's `Vision` product) and bundles the model compiled (`MobileNet.mlmodelc`, OpenVision's
/// layout) as the target's resource, where `MobileNet.urlOfModelInThisBundle` and `MobileNet(configuration:)` find it.
/// Add it to a target that depends on the `Vision` product: `plugins: [.plugin(name: "CoreMLModelClasses", package: "OpenVision")]`.
@main
struct CoreMLModelClasses: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // An .mlpackage or .mlmodelc is a folder: SwiftPM lists the files inside it. Group them by the folder they are in.
        var models: [URL: [URL]] = [:]
        let folder = { (component: String) in component.hasSuffix(".mlpackage") || component.hasSuffix(".mlmodelc") }
        for file in target.sourceFiles {
            let url = file.url
            if url.pathExtension == "mlmodel" && !url.pathComponents.contains(where: folder) {
                models[url, default: []].append(url)
            } else if let index = url.pathComponents.firstIndex(where: folder) {
                var package = URL(fileURLWithPath: "/")
                for component in url.pathComponents[1...index] { package.appendPathComponent(component) }
                models[package, default: []].append(url)
            }
        }
        let tool = try context.tool(named: "openvision-coreml-classes").url
        return models.keys.sorted { $0.path < $1.path }.map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let swift = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
            let compiled = context.pluginWorkDirectoryURL.appending(path: "\(name).mlmodelc")
            return .buildCommand(
                displayName: "Generating the Core ML model class \(name) and compiling \(model.lastPathComponent)",
                executable: tool, arguments: [model.path, name, swift.path, compiled.path],
                inputFiles: models[model] ?? [model], outputFiles: [swift, compiled])
        }
    }
}
