import ArgumentParser
import Foundation
import OpenVision

/// `openvision predict`: runs any model on inputs given by name and prints every output (coremltools' `predict`).
struct PredictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract:
            "Run a model on inputs given by name and print its outputs (segmentation maps, heat maps, regressors, …).",
        discussion: """
            Inputs: --input NAME=VALUE for numbers and strings (a multi-array as comma-separated numbers or a JSON list, \
            a dictionary as a JSON object), --input NAME=@FILE for an image or a .npy array. `openvision models info` \
            lists a model's inputs. With --out DIR each multi-array output is written as DIR/NAME.npy and each image \
            output as DIR/NAME.png.
            """
    )

    /// `--model` (required here), `--backend`, `--threads` and the pixel normalisation: the registry's declarations
    /// (`RequestOption.model` and the model-loading options), as `detect` and `classify` read them.
    @OptionGroup var modelOptions: RequestOptionFlags<PredictScope>
    @Option(
        name: .customLong("input"),
        help: "An input: NAME=VALUE, or NAME=@FILE for an image or a .npy array (repeatable).")
    var inputs: [String] = []
    @Option(help: "Folder for the outputs' files: multi-arrays as NAME.npy, images as NAME.png.") var out: String?
    @Option(help: "Output format: json or text.") var format: OutputFormat = .json

    func validate() throws {
        guard try modelOptions.options().modelName != nil else {
            throw ValidationError("Missing expected argument '--model <model>'")
        }
    }

    func run() async throws {
        let options = try modelOptions.options()
        guard let model = options.modelName else {
            throw ValidationError("Missing expected argument '--model <model>'")
        }
        let loaded = try ModelOptions.load(model, configuration: options.modelConfiguration)
        do {
            let features = try PredictInputs.parse(inputs, for: loaded)
            let outputs = try loaded.prediction(features: features)
            var files: [String: String] = [:]
            if let out { files = try Self.write(outputs, to: URL(fileURLWithPath: out)) }
            let report = PredictionReport(
                model: loaded.url.path, values: outputs, order: loaded.outputFeatures.map(\.name), files: files)
            switch format {
            case .json: BatchRunner.write(String(decoding: try report.jsonData(), as: UTF8.self))
            case .text, .table: BatchRunner.write(report.summary)
            }
        } catch let error as VisionError {
            FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Writes each multi-array output as `NAME.npy` and each image as `NAME.png` in `folder` (created); returns the
    /// paths by output name. Names are made file names (`/` and other separators become `_`).
    static func write(_ outputs: [String: FeatureValue], to folder: URL) throws(VisionError) -> [String: String] {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw VisionError(.ioError, "cannot create \(folder.path): \(error.localizedDescription)")
        }
        var files: [String: String] = [:]
        for (name, value) in outputs {
            let base = String(name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
            switch value {
            case .multiArray(let array) where array.dataType != "string":
                let url = folder.appendingPathComponent(base + ".npy")
                do { try array.npyData().write(to: url) } catch let error as VisionError { throw error } catch {
                    throw VisionError(.ioError, "cannot write \(url.path): \(error.localizedDescription)")
                }
                files[name] = url.path
            case .image(let image):
                let url = folder.appendingPathComponent(base + ".png")
                try image.write(to: url)
                files[name] = url.path
            default: break
            }
        }
        return files
    }
}
