import ArgumentParser
import OpenVision

/// The request kinds a command runs: their options (`RequestKind.options`) are the request-option flags its `--help`
/// shows.
protocol OptionScope {
    /// The kinds' names.
    static var kindNames: [String] { get }
    /// True when the command reads `option` (default: when one of its kinds does).
    static func reads(_ option: RequestOption) -> Bool
}

extension OptionScope {
    /// True when one of the kinds reads `option`.
    static func reads(_ option: RequestOption) -> Bool {
        kindNames.contains { optionNamesByKind[$0]?.contains(option.name) == true }
    }
}

/// The names of the options each kind reads, by kind name, worked out once: ArgumentParser builds the flags (and so
/// asks `reads` for each) many times per command line.
private let optionNamesByKind: [String: Set<String>] = Dictionary(
    uniqueKeysWithValues: RequestKind.allCases.map { ($0.name, Set($0.options.map(\.name))) })

/// `analyze` and `jobs submit`: every kind but the sequence ones.
enum StillScope: OptionScope {
    static var kindNames: [String] { RequestKind.allCases.filter { !$0.isSequence }.map(\.name) }
}

/// `video`, `live` and `jobs submit-stream`: every kind.
enum LiveScope: OptionScope {
    static var kindNames: [String] { RequestKind.allCases.map(\.name) }
}

/// `detect`.
enum DetectScope: OptionScope {
    static var kindNames: [String] { ["detect"] }
}

/// `classify`.
enum ClassifyScope: OptionScope {
    static var kindNames: [String] { ["classify"] }
}

/// `predict`: the `model` kind's model and how it is loaded (model, backend, threads, pixel normalisation), not its
/// request options (its inputs are given by name, images fitted as the model declares).
enum PredictScope: OptionScope {
    static var kindNames: [String] { ["model"] }
    static func reads(_ option: RequestOption) -> Bool {
        option.role != .request && RequestKind.named("model")?.options.contains(option) == true
    }
}

/// The options of the request kinds as command-line flags: one flag per `RequestOption`, named as its kebab case
/// (`maxRectangles` → `--max-rectangles`), with the registry's help, parsed and checked by the registry. ArgumentParser
/// needs each flag as a stored property; this is the only list of them, read back by name (a test holds it to
/// `RequestOption.all`). A command shows the flags its kinds read (`Scope`) and refuses the others.
struct RequestOptionFlags<Scope: OptionScope>: ParsableArguments {
    @Option(help: Self.help(.maxRectangles)) var maxRectangles: String?
    @Option(help: Self.help(.languages)) var languages: String?
    @Option(help: Self.help(.recognitionLevel)) var recognitionLevel: String?
    @Option(help: Self.help(.textOrientation)) var textOrientation: String?
    @Option(help: Self.help(.faceRevision)) var faceRevision: String?
    @Option(help: Self.help(.faceLandmarksRevision)) var faceLandmarksRevision: String?
    @Option(help: Self.help(.maxHands)) var maxHands: String?
    @Option(help: Self.help(.bodyHands)) var bodyHands: String?
    @Option(help: Self.help(.symbologies)) var symbologies: String?
    @Option(help: Self.help(.tryHarder)) var tryHarder: String?
    @Option(help: Self.help(.minimumAspectRatio)) var minimumAspectRatio: String?
    @Option(help: Self.help(.maximumAspectRatio)) var maximumAspectRatio: String?
    @Option(help: Self.help(.quadratureTolerance)) var quadratureTolerance: String?
    @Option(help: Self.help(.minimumSize)) var minimumSize: String?
    @Option(help: Self.help(.minimumConfidence)) var minimumConfidence: String?
    @Option(help: Self.help(.upsampling)) var upsampling: String?
    @Option(help: Self.help(.estimatesPrecision)) var estimatesPrecision: String?
    @Option(help: Self.help(.minimumTextHeight)) var minimumTextHeight: String?
    @Option(help: Self.help(.contrastAdjustment)) var contrastAdjustment: String?
    @Option(help: Self.help(.contrastPivot)) var contrastPivot: String?
    @Option(help: Self.help(.darkOnLight)) var darkOnLight: String?
    @Option(help: Self.help(.maximumImageDimension)) var maximumImageDimension: String?
    @Option(help: Self.help(.upperBodyOnly)) var upperBodyOnly: String?
    @Option(help: Self.help(.handModelComplexity)) var handModelComplexity: String?
    @Option(help: Self.help(.minimumPalmConfidence)) var minimumPalmConfidence: String?
    @Option(help: Self.help(.minimumHandConfidence)) var minimumHandConfidence: String?
    @Option(help: Self.help(.chiralityMargin)) var chiralityMargin: String?
    @Option(help: Self.help(.maxBodies)) var maxBodies: String?
    @Option(help: Self.help(.qualityLevel)) var qualityLevel: String?
    @Option(help: Self.help(.outputPixelFormat)) var outputPixelFormat: String?
    @Option(help: Self.help(.flowAccuracy)) var flowAccuracy: String?
    @Option(help: Self.help(.trajectoryLength)) var trajectoryLength: String?
    @Option(help: Self.help(.objectMinimumNormalizedRadius)) var objectMinimumNormalizedRadius: String?
    @Option(help: Self.help(.objectMaximumNormalizedRadius)) var objectMaximumNormalizedRadius: String?
    @Option(help: Self.help(.frameAnalysisSpacing)) var frameAnalysisSpacing: String?
    @Option(name: .shortAndLong, help: Self.help(.model)) var model: String?
    @Option(help: Self.help(.confidence)) var confidence: String?
    @Option(help: Self.help(.iou)) var iou: String?
    @Option(help: Self.help(.classes)) var classes: String?
    @Option(name: .shortAndLong, help: Self.help(.top)) var top: String?
    @Option(help: Self.help(.taxonomy)) var taxonomy: String?
    @Option(help: Self.help(.cropAndScale)) var cropAndScale: String?
    @Option(help: Self.help(.backend)) var backend: String?
    @Option(help: Self.help(.threads)) var threads: String?
    @Option(help: Self.help(.pixelScale)) var pixelScale: String?
    @Option(help: Self.help(.pixelMean)) var pixelMean: String?
    @Option(help: Self.help(.pixelStd)) var pixelStd: String?

    /// The option's help, shown when the command's kinds read it.
    static func help(_ option: RequestOption) -> ArgumentHelp {
        ArgumentHelp(option.help, visibility: Scope.reads(option) ? .default : .private)
    }

    /// The flags given, by option: every stored `@Option` above, named as its option.
    var given: [(option: RequestOption, text: String)] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let label = child.label, let value = (child.value as? Option<String?>)?.wrappedValue,
                let option = RequestOption.named(String(label.drop { $0 == "_" }))
            else { return nil }
            return (option, value)
        }
    }

    /// `base` with the flags given applied; a flag the command's kinds do not read, or a bad value, is a usage error
    /// naming the flag.
    func options(base: RequestOptions = RequestOptions()) throws -> RequestOptions {
        var options = base
        for (option, text) in given {
            guard Scope.reads(option) else {
                let readers = RequestKind.allCases.filter { $0.options.contains(option) }.map(\.name)
                throw ValidationError(
                    "--\(option.flag) is for \(readers.joined(separator: ", ")), which this command does not run")
            }
            do { try options.set(option, to: .text(text)) } catch {
                throw ValidationError("--\(option.flag): \(error.message)")
            }
        }
        return options
    }

    func validate() throws { _ = try options() }
}
