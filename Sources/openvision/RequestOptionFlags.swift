import ArgumentParser
import OpenVision

/// The options of the built-in requests as command-line flags (`analyze`, `video`, `live`, `jobs submit`): one flag
/// per `RequestOption`, named as its kebab case (`maxRectangles` → `--max-rectangles`), with the registry's help,
/// parsed and validated by the registry. A test holds the flags to `RequestOption.all`.
struct RequestOptionFlags: ParsableArguments {
    @Option(help: ArgumentHelp(RequestOption.maxRectangles.help)) var maxRectangles: String?
    @Option(help: ArgumentHelp(RequestOption.languages.help)) var languages: String?
    @Option(help: ArgumentHelp(RequestOption.recognitionLevel.help)) var recognitionLevel: String?
    @Option(help: ArgumentHelp(RequestOption.textOrientation.help)) var textOrientation: String?
    @Option(help: ArgumentHelp(RequestOption.faceRevision.help)) var faceRevision: String?
    @Option(help: ArgumentHelp(RequestOption.faceLandmarksRevision.help)) var faceLandmarksRevision: String?
    @Option(help: ArgumentHelp(RequestOption.maxHands.help)) var maxHands: String?
    @Option(help: ArgumentHelp(RequestOption.bodyHands.help)) var bodyHands: String?

    /// The flags given, by option name.
    var given: [String: String] {
        var values: [String: String] = [:]
        for (option, value) in zip([RequestOption.maxRectangles, .languages, .recognitionLevel, .textOrientation, .faceRevision,
                                    .faceLandmarksRevision, .maxHands, .bodyHands],
                                   [maxRectangles, languages, recognitionLevel, textOrientation, faceRevision, faceLandmarksRevision, maxHands,
                                    bodyHands]) {
            if let value { values[option.name] = value }
        }
        return values
    }

    /// `base` with the flags given applied; a bad value is a usage error naming the flag.
    func options(base: RequestOptions) throws -> RequestOptions {
        var options = base
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            do { try options.set(name, to: value) } catch {
                throw ValidationError("--\(RequestOption.named(name)?.flag ?? name): \(error.message)")
            }
        }
        return options
    }

    func validate() throws { _ = try options(base: RequestOptions()) }
}
