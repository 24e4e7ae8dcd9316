// The build-time tool behind Plugins/CoreMLModelClasses: for one Core ML model (.mlmodel, .mlpackage or Xcode's .mlmodelc) it
// writes the Swift classes Xcode generates for it (CoreMLClassGenerator) and the compiled .mlmodelc folder
// (OpenVision's layout, as `openvision models compile` writes it) that the plugin bundles as the target's resource.
//   openvision-coreml-classes MODEL CLASS_NAME OUT.swift OUT.mlmodelc
import Foundation
import OpenVisionConverters
import OpenVisionCoreMLClasses

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 4 else {
    FileHandle.standardError.write(
        Data("usage: openvision-coreml-classes MODEL CLASS_NAME OUT.swift OUT.mlmodelc\n".utf8))
    exit(2)
}
let model = URL(fileURLWithPath: arguments[0])
do {
    let conversion = try CoreMLConverter.conversion(contentsOf: model)
    let source = try CoreMLClassGenerator.source(
        className: arguments[1], info: conversion.info, modelFileName: model.lastPathComponent)
    // The plugin's own output, rewritten on every build.
    try CoreMLConverter.writeCompiledFolder(conversion, to: URL(fileURLWithPath: arguments[3]), replacing: true)
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
    } catch {
        throw ConversionError(.io, "cannot write \(arguments[2]): \(error.localizedDescription)", file: arguments[2])
    }
} catch {
    // One line a build log shows as the build's error, naming the model file (control characters escaped).
    let line = TerminalText.escaped("error: openvision-coreml-classes: \(model.lastPathComponent): \(error)")
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(1)
}
