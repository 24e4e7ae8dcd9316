import ArgumentParser
import Foundation
import OpenVision

/// Loads a model named on the command line, with a one-line error for bad input.
enum ModelOptions {
    /// `--pixel-scale`, `--pixel-mean`, `--pixel-std` (see `VisionModel.Configuration.pixelMean`).
    struct Normalization {
        var scale: Float?
        var mean: String?
        var std: String?

        func apply(to configuration: inout VisionModel.Configuration) throws {
            func values(_ text: String?, _ flag: String) throws -> [Float]? {
                guard let text else { return nil }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                let floats = parts.compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
                guard floats.count == parts.count, floats.count == 1 || floats.count == 3 else {
                    throw ValidationError("\(flag) takes one number or three, comma-separated (R,G,B)")
                }
                return floats
            }
            configuration.pixelScale = scale
            configuration.pixelMean = try values(mean, "--pixel-mean")
            configuration.pixelStd = try values(std, "--pixel-std")
        }
    }

    static func load(_ name: String, backend: String, threads: Int, normalization: Normalization? = nil) throws -> VisionModel {
        guard let url = ModelLocator.find(name) else {
            FileHandle.standardError.write(Data("openvision: error: model '\(name)' not found (searched \(ModelLocator.searchPaths.map(\.path).joined(separator: ", ")))\n".utf8))
            throw ExitCode(1)
        }
        return try load(url, backend: backend, threads: threads, normalization: normalization)
    }

    /// The built-in detector (`VisionModel.defaultDetectorURL`) with the command's backend and threads.
    static func loadDefaultDetector(backend: String, threads: Int) throws -> VisionModel {
        guard let url = VisionModel.defaultDetectorURL else {
            FileHandle.standardError.write(Data("openvision: error: the built-in detector is missing from OpenVision's resources; rebuild, or pass --model\n".utf8))
            throw ExitCode(1)
        }
        return try load(url, backend: backend, threads: threads)
    }

    private static func load(_ url: URL, backend: String, threads: Int, normalization: Normalization? = nil) throws -> VisionModel {
        guard let choice = BackendChoice(rawValue: backend) else {
            throw ValidationError("unknown backend '\(backend)'; choose from \(BackendChoice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var configuration = VisionModel.Configuration()
        configuration.backend = choice
        configuration.threads = threads
        try normalization?.apply(to: &configuration)
        do {
            return try VisionModel(contentsOf: url, configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
            throw ExitCode(1)
        }
    }
}
