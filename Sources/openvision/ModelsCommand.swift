import ArgumentParser
import Foundation
import OpenVision
import OpenVisionConverters

/// `openvision models list|info|convert`.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List, describe and convert models.",
        subcommands: [List.self, Info.self, Convert.self, Compile.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List models in the search path (OPENVISION_MODELS, ~/.cache/openvision/models, /usr/local/share/openvision/models).")
        func run() async throws {
            print("search path: " + ModelLocator.searchPaths.map(\.path).joined(separator: ":"))
            for url in ModelLocator.installedModels() {
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
                print(String(format: "  %@  (%.1f MB)", url.path, Double(size ?? 0) / 1e6))
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Describe a model: inputs, outputs, labels, preprocessing.")
        @Argument(help: "Model path or name.") var model: String
        @Option(help: "Backend: automatic, onnxRuntime, openCV.") var backend: String = "automatic"
        func run() async throws {
            let loaded: VisionModel
            do {
                guard let choice = BackendChoice(rawValue: backend) else {
                    throw ValidationError("unknown backend '\(backend)'; choose from "
                                          + BackendChoice.allCases.map(\.rawValue).joined(separator: ", "))
                }
                var configuration = VisionModel.Configuration()
                configuration.backend = choice
                configuration.threads = 1
                loaded = try ModelOptions.load(model, configuration: configuration)
            } catch {
                // A .tflite or Core ML model that does not convert: still show what it declares and what is missing.
                if model.lowercased().hasSuffix(".tflite"), let url = ModelLocator.find(model) {
                    try? Self.describeTFLite(url)
                }
                if Self.isCoreML(model), let url = ModelLocator.find(model) {
                    try? Self.describeCoreML(url)
                }
                throw error
            }
            let d = loaded.modelDescription
            Self.say("model:    \(loaded.url.path)")
            Self.say("format:   \(d.format.rawValue), backend \(d.backend)")
            for i in d.inputs { Self.say("input:    \(i)") }
            for o in d.outputs { Self.say("output:   \(o)") }
            let p = d.preprocessing
            Self.say("input size \(p.width)×\(p.height) \(p.layout.rawValue) \(p.colorOrder.rawValue), scale \(p.scale), mean \(p.mean), std \(p.std), fit \(p.cropAndScale.rawValue)")
            Self.say("labels:   \(d.labels.count)" + (d.labelsSource.map { " from \($0)" } ?? "") + (d.labels.isEmpty ? "" : ": " + d.labels.prefix(8).joined(separator: ", ") + (d.labels.count > 8 ? ", …" : "")))
            for (k, v) in d.metadata.sorted(by: { $0.key < $1.key }) where k != "names" && k != "labels" {
                Self.say("metadata: \(k) = \(v.prefix(120))")
            }
            if loaded.url.pathExtension.lowercased() == "tflite" { try Self.describeTFLite(loaded.url) }
            if Self.isCoreML(loaded.url.path) { try Self.describeCoreML(loaded.url) }
        }

        /// Prints a line of model-declared text for a terminal (`TerminalText`: control characters escaped, each
        /// line at most 1000 characters).
        static func say(_ line: String) {
            print(TerminalText.escaped(line))
        }

        static func isCoreML(_ path: String) -> Bool {
            ["mlmodel", "mlpackage", "mlmodelc"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
        }

        /// What the Core ML model declares: Core ML's inputs and outputs with their types and constraints, labels,
        /// metadata, layers by type (and those not converted) and how the weights are stored.
        static func describeCoreML(_ url: URL) throws {
            let summary = try CoreMLModelSummary(contentsOf: url)
            let info = summary.info
            Self.say("coreml:   \(info.modelType), specification \(info.specificationVersion)"
                  + (info.submodels.isEmpty ? "" : " (" + info.submodels.joined(separator: " → ") + ")"))
            for f in info.inputs { Self.say("coreml input:  " + describe(f, image: info.imageInputs[f.name])) }
            for f in info.outputs { Self.say("coreml output: " + describe(f, image: nil, output: info.imageOutputs?[f.name])) }
            if !info.classLabels.isEmpty {
                Self.say("coreml labels: \(info.classLabels.count): " + info.classLabels.prefix(8).joined(separator: ", ")
                      + (info.classLabels.count > 8 ? ", …" : ""))
            }
            if let nms = info.nms {
                Self.say("coreml nms:    IoU \(nms.iouThreshold)" + (nms.iouThresholdInput.isEmpty ? "" : " (input \(nms.iouThresholdInput))")
                      + ", confidence \(nms.confidenceThreshold)" + (nms.confidenceThresholdInput.isEmpty ? "" : " (input \(nms.confidenceThresholdInput))")
                      + (nms.perClass ? ", per class" : ", across classes") + "; outputs \(nms.confidenceOutput), \(nms.coordinatesOutput)")
            }
            let m = info.metadata
            for (key, value) in [("short description", m.shortDescription), ("author", m.author), ("license", m.license), ("version", m.versionString)]
            where !value.isEmpty {
                Self.say("coreml metadata: \(key): \(value.prefix(160))")
            }
            for (key, value) in m.userDefined.sorted(by: { $0.key < $1.key }) { Self.say("coreml metadata: \(key) = \(value.prefix(120))") }
            let layers = info.layerCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            Self.say("coreml layers: \(info.layerCounts.values.reduce(0, +)): " + layers.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
            Self.say("coreml weights: " + (info.weightFormats.isEmpty ? "none" : info.weightFormats.joined(separator: ", ")))
            for layer in summary.unsupportedLayers.prefix(20) { Self.say("coreml unsupported: \(layer)") }
            if let error = summary.conversionError { Self.say("coreml conversion: fails: \(error)") }
        }

        static func describe(_ f: CoreMLInfo.Feature, image: CoreMLInfo.ImageInput?, output: CoreMLInfo.ImageOutput? = nil) -> String {
            var text = "\(f.name): \(f.type)"
            switch f.type {
            case "image":
                text += " \(f.width ?? 0)×\(f.height ?? 0) \(f.colorSpace ?? "")"
                if let sizes = f.enumeratedSizes { text += ", sizes " + sizes.map { "\($0[0])×\($0[1])" }.joined(separator: " ") }
                if let w = f.widthRange, let h = f.heightRange {
                    text += ", width \(w[0])...\(w[1] < 0 ? "∞" : "\(w[1])"), height \(h[0])...\(h[1] < 0 ? "∞" : "\(h[1])")"
                }
                if let image { text += ", input = \(image.scale) × pixel + \(image.bias) (\(image.colorOrder))" }
                if let output { text += ", output = pixels 0...255 of [1, \(output.channels), H, W] (\(output.colorOrder))" }
            case "multiArray":
                text += " \(f.dataType ?? "") \(f.shape ?? [])"
                if let shapes = f.enumeratedShapes { text += ", shapes \(shapes)" }
                if let ranges = f.shapeRanges { text += ", ranges " + ranges.map { "\($0[0])...\($0[1] < 0 ? "∞" : "\($0[1])")" }.joined(separator: " × ") }
            case "dictionary": text += " (\(f.keyType ?? "") keys)"
            default: break
            }
            if f.optional { text += ", optional" + (f.defaultValue.map { " (default \($0))" } ?? "") }
            if !f.shortDescription.isEmpty { text += " — \(f.shortDescription.prefix(80))" }
            return text
        }

        /// What the .tflite file itself declares: its tensors' TFLite types, operators and metadata.
        static func describeTFLite(_ url: URL) throws {
            let summary = try TFLiteModelSummary(contentsOf: url)
            Self.say("tflite:   schema \(summary.schemaVersion), \(summary.tensorCount) tensors"
                  + (summary.description.map { ", \"\($0)\"" } ?? ""))
            for i in summary.inputs { Self.say("tflite input:  \(i.name) \(i.shape) \(i.type)") }
            for o in summary.outputs { Self.say("tflite output: \(o.name) \(o.shape) \(o.type)") }
            Self.say("tflite ops:    " + summary.operatorCounts.map { "\($0.name) ×\($0.count)" }.joined(separator: ", "))
            for op in summary.unsupported { Self.say("tflite unsupported: \(op.name) (first at operator \(op.index))") }
            if !summary.metadataNames.isEmpty { Self.say("tflite metadata entries: " + summary.metadataNames.joined(separator: ", ")) }
            if let m = summary.metadata {
                if let name = m.name { Self.say("tflite metadata: name \"\(name)\"") }
                if let mean = m.inputMean, let std = m.inputStd {
                    Self.say("tflite metadata: input normalisation (pixel - \(mean)) / \(std)"
                          + (m.inputMin.map { ", range \($0) ... \(m.inputMax ?? [])" } ?? ""))
                }
            }
        }
    }

    struct Convert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Convert a Darknet .cfg (+ .weights beside it), a TensorFlow Lite .tflite or a Core ML .mlmodel / .mlpackage / .mlmodelc model to ONNX.")
        @Argument(help: "The Darknet .cfg, .tflite, .mlmodel, .mlpackage or .mlmodelc.") var cfg: String
        @Option(name: .shortAndLong, help: "Output .onnx path (default: beside the input).") var output: String?
        @Option(help: "Class names file (Darknet; default: a .names file beside the .cfg).") var names: String?
        @Flag(help: "Replace an existing output file (it is an error otherwise).") var force = false
        func run() async throws {
            let cfgURL = URL(fileURLWithPath: cfg)
            let ext = cfgURL.pathExtension.lowercased()
            if ext == "tflite" || Info.isCoreML(cfg) {
                let out = URL(fileURLWithPath: output ?? cfgURL.deletingPathExtension().appendingPathExtension("onnx").path)
                do {
                    let start = ContinuousClock.now
                    try Self.checkOutput(out, inputs: [cfgURL], force: force)
                    let data = ext == "tflite" ? try TFLiteConverter.onnxData(contentsOf: cfgURL) : try CoreMLConverter.onnxData(contentsOf: cfgURL)
                    try ModelOutput.write(data, to: out, replacing: force)
                    print("wrote \(out.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
                } catch {
                    FileHandle.standardError.write(Data("openvision: error: \(Self.explained(error))\n".utf8))
                    throw ExitCode(1)
                }
                return
            }
            let weights = cfgURL.deletingPathExtension().appendingPathExtension("weights")
            let out = URL(fileURLWithPath: output ?? cfgURL.deletingPathExtension().appendingPathExtension("onnx").path)
            var namesURL = names.map { URL(fileURLWithPath: $0) }
            if namesURL == nil {
                let dir = cfgURL.deletingLastPathComponent()
                let candidates = [cfgURL.deletingPathExtension().appendingPathExtension("names")]
                    + ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".names") }.map { dir.appendingPathComponent($0) }
                namesURL = candidates.first { FileManager.default.fileExists(atPath: $0.path) }
            }
            do {
                let start = ContinuousClock.now
                try Self.checkOutput(out, inputs: [cfgURL, weights] + (namesURL.map { [$0] } ?? []), force: force)
                let data = try DarknetConverter.onnxData(cfg: cfgURL, weights: weights, names: namesURL)
                try ModelOutput.write(data, to: out, replacing: force)
                print("wrote \(out.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
            } catch {
                FileHandle.standardError.write(Data("openvision: error: \(Self.explained(error))\n".utf8))
                throw ExitCode(1)
            }
        }

        /// Before converting: the output is none of the inputs (nor inside or around one), and does not exist
        /// unless `--force`.
        static func checkOutput(_ out: URL, inputs: [URL], force: Bool) throws {
            for input in inputs { try ModelOutput.refuseOverwriting(input: input, with: out) }
            try ModelOutput.refuseExisting(out, replacing: force)
        }

        /// The error's line, with the flag that replaces an existing output.
        static func explained(_ error: any Error) -> String {
            guard let e = error as? ConversionError, e.message.hasSuffix("is left as it is") else { return "\(error)" }
            return "\(e) (--force replaces it)"
        }
    }

    struct Compile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compile a Core ML .mlmodel or .mlpackage into an .mlmodelc folder that loads without conversion (as MLModel.compileModel(at:)).")
        @Argument(help: "The .mlmodel or .mlpackage.") var model: String
        @Option(name: .shortAndLong, help: "The folder to write NAME.mlmodelc into (default: beside the input).") var output: String?
        @Flag(help: "Replace an existing NAME.mlmodelc (it is an error otherwise).") var force = false
        func run() async throws {
            let url = URL(fileURLWithPath: model)
            do {
                let start = ContinuousClock.now
                let compiled = try VisionModel.compileCoreMLModel(at: url, to: URL(fileURLWithPath: output ?? url.deletingLastPathComponent().path),
                                                                  replacing: force)
                print("wrote \(compiled.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
            } catch {
                let hint = error.message.hasSuffix("is left as it is") ? " (--force replaces it)" : ""
                FileHandle.standardError.write(Data("openvision: error: \(error.message)\(hint) [\(error.code)]\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
