import ArgumentParser
import Foundation
import OpenVision

/// Loads the models the command line names (`--model`: a path, or a file name in the model search path), through the
/// process's `LocalModels`; a model that cannot be loaded is one line on standard error and exit status 1.
enum ModelOptions {
    /// Prints `error` as the CLI does (`openvision: error: MESSAGE [code]`) and returns exit status 1 to throw.
    static func failure(_ error: VisionError) -> ExitCode {
        FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
        return ExitCode(1)
    }

    /// The model `name` names, loaded with `configuration`.
    static func load(_ name: String, configuration: VisionModel.Configuration = VisionModel.Configuration()) throws
        -> VisionModel
    {
        do { return try LocalModels.shared.loadModel(named: name, configuration: configuration) } catch {
            throw failure(error)
        }
    }

    /// The model `kind` runs under `options` (`RequestKind.model(for:loader:)`); nil for its built-in default.
    static func model(for kind: RequestKind, options: RequestOptions) async throws -> VisionModel? {
        do { return try await kind.model(for: options, loader: LocalModels.shared) } catch { throw failure(error) }
    }

    /// Loads the models of `analysis`'s model requests.
    static func loadModels(_ analysis: inout StillAnalysis) async throws {
        do { try await analysis.loadModels(with: LocalModels.shared) } catch { throw failure(error) }
    }

    /// The kind called `name` (one of the CLI's own commands' kinds).
    static func kind(_ name: String) throws -> RequestKind {
        guard let kind = RequestKind.named(name) else { throw ValidationError("no request kind '\(name)'") }
        return kind
    }
}
