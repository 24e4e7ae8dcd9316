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
        static let configuration = CommandConfiguration(
            abstract:
                "List models in the search path (OPENVISION_MODELS, ~/.cache/openvision/models, /usr/local/share/openvision/models)."
        )
        func run() async throws {
            print("search path: " + ModelLocator.searchPaths.map(\.path).joined(separator: ":"))
            for url in ModelLocator.installedModels() {
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int
                print(String(format: "  %@  (%.1f MB)", url.path, Double(size ?? 0) / 1e6))
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a model: inputs, outputs, labels, preprocessing.")
        @Argument(help: "Model path or name.") var model: String
        @Option(
            help:
                "Backend: automatic (auto: the faster of ONNX Runtime and OpenVINO, cached), onnxRuntime, openVINO, openCV."
        ) var backend: String =
            "automatic"
        func run() async throws {
            if Self.isCoreML(model), let url = ModelLocator.find(model) {
                try Self.infoCoreML(url, backend: backend)
                return
            }
            let loaded: VisionModel
            do {
                guard let choice = BackendChoice(spelling: backend) else {
                    throw ValidationError(
                        "unknown backend '\(backend)'; choose from "
                            + BackendChoice.allCases.map(\.rawValue).joined(separator: ", "))
                }
                var configuration = VisionModel.Configuration()
                configuration.backend = choice
                configuration.threads = 1
                loaded = try ModelOptions.load(model, configuration: configuration)
            } catch {
                // A .tflite model that does not convert: still show what it declares and what is missing.
                if model.lowercased().hasSuffix(".tflite"), let url = ModelLocator.find(model) {
                    try? Self.describeTFLite(url)
                }
                throw error
            }
            let d = loaded.modelDescription
            Self.say("model:    \(loaded.url.path)")
            Self.say("format:   \(d.format.rawValue), backend \(d.backend)")
            for i in d.inputs { Self.say("input:    \(i)") }
            for o in d.outputs { Self.say("output:   \(o)") }
            let p = d.preprocessing
            Self.say(
                "input size \(p.width)×\(p.height) \(p.layout.rawValue) \(p.colorOrder.rawValue), scale \(p.scale), mean \(p.mean), std \(p.std), fit \(p.cropAndScale.rawValue)"
            )
            Self.say(
                "labels:   \(d.labels.count)" + (d.labelsSource.map { " from \($0)" } ?? "")
                    + (d.labels.isEmpty
                        ? "" : ": " + d.labels.prefix(8).joined(separator: ", ") + (d.labels.count > 8 ? ", …" : "")))
            for (k, v) in d.metadata.sorted(by: { $0.key < $1.key }) where k != "names" && k != "labels" {
                Self.say("metadata: \(k) = \(v.prefix(120))")
            }
            if loaded.url.pathExtension.lowercased() == "tflite" { try Self.describeTFLite(loaded.url) }
        }

        /// Prints a line of model-declared text for a terminal (`TerminalText`: control characters escaped, each
        /// line at most 1000 characters).
        static func say(_ line: String) {
            print(TerminalText.escaped(line))
        }

        static func isCoreML(_ path: String) -> Bool {
            ["mlmodel", "mlpackage", "mlmodelc"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
        }

        /// A Core ML model as Core ML describes it — inputs and outputs with their Core ML types, labels, NMS
        /// settings, metadata, layers, weights — then whether it converts: the ONNX graph it runs as, or what does not
        /// convert and why. Exits 0 whenever the file can be read as a Core ML model, converting or not.
        static func infoCoreML(_ url: URL, backend: String) throws {
            let summary: CoreMLModelSummary
            do {
                summary = try CoreMLModelSummary(contentsOf: url)
            } catch {
                FileHandle.standardError.write(
                    Data("openvision: error: \(url.lastPathComponent): \(error) [invalidModel]\n".utf8))
                throw ExitCode(1)
            }
            var loaded: VisionModel?
            var loadError: VisionError?
            if summary.conversionError == nil {
                guard let choice = BackendChoice(spelling: backend) else {
                    throw ValidationError(
                        "unknown backend '\(backend)'; choose from "
                            + BackendChoice.allCases.map(\.rawValue).joined(separator: ", "))
                }
                var configuration = VisionModel.Configuration()
                configuration.backend = choice
                configuration.threads = 1
                do { loaded = try VisionModel(contentsOf: url, configuration: configuration) } catch {
                    loadError = error
                }
            }
            let info = summary.info
            Self.say("model:    \(url.path)")
            Self.say("format:   coreml" + (loaded.map { ", backend \($0.modelDescription.backend)" } ?? ""))
            Self.say(
                "coreml:   \(info.modelType), specification \(info.specificationVersion)"
                    + (info.submodels.isEmpty ? "" : " (" + info.submodels.joined(separator: " → ") + ")"))
            for f in info.inputs { Self.say("input:    " + describe(f, image: info.imageInputs[f.name])) }
            for f in info.outputs {
                Self.say("output:   " + describe(f, image: nil, output: info.imageOutputs?[f.name]))
            }
            if let model = loaded, let image = info.inputs.first(where: { $0.type == "image" }) {
                let p = model.modelDescription.preprocessing
                let colour =
                    image.colorSpace?.hasPrefix("GRAYSCALE") == true
                    ? "gray (the graph takes RGB and makes the luma)"
                    : p.colorOrder.rawValue
                Self.say("image:    \(image.name) \(p.width)×\(p.height) \(colour), fit \(p.cropAndScale.rawValue)")
            }
            if !info.classLabels.isEmpty {
                Self.say(
                    "coreml labels: \(info.classLabels.count): " + info.classLabels.prefix(8).joined(separator: ", ")
                        + (info.classLabels.count > 8 ? ", …" : ""))
            }
            if let nms = info.nms {
                Self.say(
                    "coreml nms:    IoU \(nms.iouThreshold)"
                        + (nms.iouThresholdInput.isEmpty ? "" : " (input \(nms.iouThresholdInput))")
                        + ", confidence \(nms.confidenceThreshold)"
                        + (nms.confidenceThresholdInput.isEmpty ? "" : " (input \(nms.confidenceThresholdInput))")
                        + (nms.perClass ? ", per class" : ", across classes")
                        + "; outputs \(nms.confidenceOutput), \(nms.coordinatesOutput)")
            }
            let m = info.metadata
            for (key, value) in [
                ("short description", m.shortDescription), ("author", m.author), ("license", m.license),
                ("version", m.versionString),
            ] where !value.isEmpty {
                Self.say("coreml metadata: \(key): \(value.prefix(160))")
            }
            for (key, value) in m.userDefined.sorted(by: { $0.key < $1.key }) {
                Self.say("coreml metadata: \(key) = \(value.prefix(120))")
            }
            let layers = info.layerCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            Self.say(
                "coreml layers: \(info.layerCounts.values.reduce(0, +)): "
                    + layers.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
            Self.say(
                "coreml weights: " + (info.weightFormats.isEmpty ? "none" : info.weightFormats.joined(separator: ", ")))
            for layer in summary.unsupportedLayers.prefix(20) { Self.say("coreml unsupported: \(layer)") }
            for layer in summary.customLayers.prefix(20) {
                Self.say("coreml custom layer: \(layer): runs only with the app's class registered (MLCustomLayer)")
            }
            if let model = loaded {
                let d = model.modelDescription
                Self.say(
                    "converts: yes, to ONNX (" + d.inputs.map { "input \($0)" }.joined(separator: ", ") + "; "
                        + d.outputs.map { "output \($0)" }.joined(separator: ", ") + ")")
            } else if let error = summary.conversionError {
                Self.say("converts: no: \(error)")
                // A bound refused it (a tiny file that would make gigabytes): an error, not a description's footnote.
                if summary.conversionRefused {
                    FileHandle.standardError.write(
                        Data(
                            TerminalText.escaped("openvision: error: \(url.lastPathComponent): \(error) [invalidModel]")
                                .utf8 + [10]))
                    throw ExitCode(1)
                }
            } else if let loadError {
                Self.say("converts: yes, but does not load: \(loadError.message) [\(loadError.code)]")
                FileHandle.standardError.write(
                    Data(
                        TerminalText.escaped(
                            "openvision: error: \(url.lastPathComponent): \(loadError.message) [\(loadError.code)]"
                        ).utf8 + [10]))
                throw ExitCode(1)
            }
        }

        static func describe(
            _ f: CoreMLModelInfo.Feature, image: CoreMLModelInfo.ImageInput?, output: CoreMLModelInfo.ImageOutput? = nil
        ) -> String {
            var text = "\(f.name): \(f.typeDescription)"
            switch f.type {
            case "image":
                if let sizes = f.enumeratedSizes {
                    text += ", sizes " + sizes.map { "\($0[0])×\($0[1])" }.joined(separator: " ")
                }
                if let w = f.widthRange, let h = f.heightRange {
                    text +=
                        ", width \(w[0])...\(w[1] < 0 ? "∞" : "\(w[1])"), height \(h[0])...\(h[1] < 0 ? "∞" : "\(h[1])")"
                }
                if let image {
                    if let scale = image.graphScale {
                        text += ", input = \(scale) × luma + \(image.graphBias ?? 0) (in the graph)"
                    } else {
                        text += ", input = \(image.scale) × pixel + \(image.bias) (\(image.colorOrder))"
                    }
                }
                if let output {
                    text += ", output = pixels 0...255 of [1, \(output.channels), H, W] (\(output.colorOrder))"
                }
            case "multiArray":
                if let shapes = f.enumeratedShapes { text += ", shapes \(shapes)" }
                if let ranges = f.shapeRanges {
                    text +=
                        ", ranges "
                        + ranges.map { "\($0[0])...\($0[1] < 0 ? "∞" : "\($0[1])")" }.joined(separator: " × ")
                }
            default: break
            }
            if f.optional { text += ", optional" + (f.defaultValue.map { " (default \($0))" } ?? "") }
            if !f.shortDescription.isEmpty { text += " — \(f.shortDescription.prefix(80))" }
            return text
        }

        /// What the .tflite file itself declares: its tensors' TFLite types, operators and metadata.
        static func describeTFLite(_ url: URL) throws {
            let summary = try TFLiteModelSummary(contentsOf: url)
            Self.say(
                "tflite:   schema \(summary.schemaVersion), \(summary.tensorCount) tensors"
                    + (summary.description.map { ", \"\($0)\"" } ?? ""))
            for i in summary.inputs { Self.say("tflite input:  \(i.name) \(i.shape) \(i.type)") }
            for o in summary.outputs { Self.say("tflite output: \(o.name) \(o.shape) \(o.type)") }
            Self.say(
                "tflite ops:    " + summary.operatorCounts.map { "\($0.name) ×\($0.count)" }.joined(separator: ", "))
            for op in summary.unsupported { Self.say("tflite unsupported: \(op.name) (first at operator \(op.index))") }
            if !summary.metadataNames.isEmpty {
                Self.say("tflite metadata entries: " + summary.metadataNames.joined(separator: ", "))
            }
            if let m = summary.metadata {
                if let name = m.name { Self.say("tflite metadata: name \"\(name)\"") }
                if let mean = m.inputMean, let std = m.inputStd {
                    Self.say(
                        "tflite metadata: input normalisation (pixel - \(mean)) / \(std)"
                            + (m.inputMin.map { ", range \($0) ... \(m.inputMax ?? [])" } ?? ""))
                }
            }
        }
    }

    struct Convert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Convert a Darknet .cfg (+ .weights beside it), a TensorFlow Lite .tflite or a Core ML .mlmodel / .mlpackage / .mlmodelc model to ONNX."
        )
        @Argument(help: "The Darknet .cfg, .tflite, .mlmodel, .mlpackage or .mlmodelc.") var cfg: String
        @Option(name: .shortAndLong, help: "Output .onnx path (default: beside the input).") var output: String?
        @Option(help: "Class names file (Darknet; default: a .names file beside the .cfg).") var names: String?
        @Flag(help: "Replace an existing output file (it is an error otherwise).") var force = false
        func run() async throws {
            let cfgURL = URL(fileURLWithPath: cfg)
            let ext = cfgURL.pathExtension.lowercased()
            if ext == "tflite" || Info.isCoreML(cfg) {
                let out = URL(
                    fileURLWithPath: output ?? cfgURL.deletingPathExtension().appendingPathExtension("onnx").path)
                do {
                    let start = ContinuousClock.now
                    try Self.checkOutput(out, inputs: [cfgURL], force: force)
                    let data =
                        ext == "tflite"
                        ? try TFLiteConverter.onnxData(contentsOf: cfgURL)
                        : try CoreMLConverter.onnxData(contentsOf: cfgURL)
                    try ModelOutput.write(data, to: out, replacing: force)
                    print(
                        "wrote \(out.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
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
                let candidates =
                    [cfgURL.deletingPathExtension().appendingPathExtension("names")]
                    + ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
                        $0.hasSuffix(".names")
                    }.map { dir.appendingPathComponent($0) }
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
            abstract:
                "Compile a Core ML .mlmodel or .mlpackage into an .mlmodelc folder that loads without conversion (as MLModel.compileModel(at:))."
        )
        @Argument(help: "The .mlmodel or .mlpackage.") var model: String
        @Option(name: .shortAndLong, help: "The folder to write NAME.mlmodelc into (default: beside the input).")
        var output: String?
        @Flag(help: "Replace an existing NAME.mlmodelc (it is an error otherwise).") var force = false
        func run() async throws {
            let url = URL(fileURLWithPath: model)
            do {
                let start = ContinuousClock.now
                let compiled = try VisionModel.compileCoreMLModel(
                    at: url, to: URL(fileURLWithPath: output ?? url.deletingLastPathComponent().path),
                    replacing: force)
                print(
                    "wrote \(compiled.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
            } catch {
                let hint = error.message.hasSuffix("is left as it is") ? " (--force replaces it)" : ""
                FileHandle.standardError.write(
                    Data("openvision: error: \(error.message)\(hint) [\(error.code)]\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
