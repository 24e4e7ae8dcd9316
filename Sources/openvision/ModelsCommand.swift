import ArgumentParser
import Foundation
import OpenVision
import OpenVisionConverters

/// `openvision models list|info|convert`.
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List, describe and convert models.",
        subcommands: [List.self, Info.self, Convert.self]
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
                loaded = try ModelOptions.load(model, backend: backend, threads: 1)
            } catch {
                // A .tflite that does not convert: still show what it declares and which operators are missing.
                if model.lowercased().hasSuffix(".tflite"), let url = ModelLocator.find(model) {
                    try? Self.describeTFLite(url)
                }
                throw error
            }
            let d = loaded.modelDescription
            print("model:    \(loaded.url.path)")
            print("format:   \(d.format.rawValue), backend \(d.backend)")
            for i in d.inputs { print("input:    \(i)") }
            for o in d.outputs { print("output:   \(o)") }
            let p = d.preprocessing
            print("input size \(p.width)×\(p.height) \(p.layout.rawValue) \(p.colorOrder.rawValue), scale \(p.scale), mean \(p.mean), std \(p.std), fit \(p.cropAndScale.rawValue)")
            print("labels:   \(d.labels.count)" + (d.labelsSource.map { " from \($0)" } ?? "") + (d.labels.isEmpty ? "" : ": " + d.labels.prefix(8).joined(separator: ", ") + (d.labels.count > 8 ? ", …" : "")))
            for (k, v) in d.metadata.sorted(by: { $0.key < $1.key }) where k != "names" && k != "labels" {
                print("metadata: \(k) = \(v.prefix(120))")
            }
            if loaded.url.pathExtension.lowercased() == "tflite" { try Self.describeTFLite(loaded.url) }
        }

        /// What the .tflite file itself declares: its tensors' TFLite types, operators and metadata.
        static func describeTFLite(_ url: URL) throws {
            let summary = try TFLiteModelSummary(contentsOf: url)
            print("tflite:   schema \(summary.schemaVersion), \(summary.tensorCount) tensors"
                  + (summary.description.map { ", \"\($0)\"" } ?? ""))
            for i in summary.inputs { print("tflite input:  \(i.name) \(i.shape) \(i.type)") }
            for o in summary.outputs { print("tflite output: \(o.name) \(o.shape) \(o.type)") }
            print("tflite ops:    " + summary.operatorCounts.map { "\($0.name) ×\($0.count)" }.joined(separator: ", "))
            for op in summary.unsupported { print("tflite unsupported: \(op.name) (first at operator \(op.index))") }
            if !summary.metadataNames.isEmpty { print("tflite metadata entries: " + summary.metadataNames.joined(separator: ", ")) }
            if let m = summary.metadata {
                if let name = m.name { print("tflite metadata: name \"\(name)\"") }
                if let mean = m.inputMean, let std = m.inputStd {
                    print("tflite metadata: input normalisation (pixel - \(mean)) / \(std)"
                          + (m.inputMin.map { ", range \($0) ... \(m.inputMax ?? [])" } ?? ""))
                }
            }
        }
    }

    struct Convert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Convert a Darknet .cfg (+ .weights beside it) or a TensorFlow Lite .tflite model to ONNX.")
        @Argument(help: "The Darknet .cfg or .tflite file.") var cfg: String
        @Option(name: .shortAndLong, help: "Output .onnx path (default: beside the input).") var output: String?
        @Option(help: "Class names file (Darknet; default: a .names file beside the .cfg).") var names: String?
        func run() async throws {
            let cfgURL = URL(fileURLWithPath: cfg)
            if cfgURL.pathExtension.lowercased() == "tflite" {
                let out = URL(fileURLWithPath: output ?? cfgURL.deletingPathExtension().appendingPathExtension("onnx").path)
                do {
                    let start = ContinuousClock.now
                    try TFLiteConverter.convert(cfgURL, to: out)
                    print("wrote \(out.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
                } catch {
                    FileHandle.standardError.write(Data("openvision: error: \(error)\n".utf8))
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
                try DarknetConverter.convert(cfg: cfgURL, weights: weights, names: namesURL, to: out)
                print("wrote \(out.path) (\(String(format: "%.0f", (ContinuousClock.now - start).milliseconds)) ms)")
            } catch {
                FileHandle.standardError.write(Data("openvision: error: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
