import Foundation

/// One kind of request that `openvision analyze|detect|classify|video|live`, `openvision serve` and job workers run by
/// name. A kind is one entry of one table (`RequestKind.allCases`, RequestKind+BuiltIn.swift) and the single source of
/// its name (on the command line, in the HTTP API, in job payloads, and the key of its `errors` and `timingsMs`
/// entries), its one-line summary, the report key its results go under, its working memory, the model it runs (for
/// model requests) and how its request is built. The options it reads follow from the options' declarations
/// (`RequestOption`): those that set a property of its request type, and for model requests how the model is loaded.
public struct RequestKind: Sendable, Hashable, CustomStringConvertible {
    /// The model a model request runs when the `model` option names none.
    public enum DefaultModel: Sendable, Hashable {
        /// The built-in COCO-80 detector (`VisionModel.defaultDetectorURL`).
        case builtInDetector
        /// The model file of this name in the model search path (`ModelLocator`).
        case named(String)
        /// None: a model must be given.
        case required
    }

    /// "barcodes": the name in `--requests`, HTTP `requests=`, job payloads, and the key of the kind's errors and
    /// timings in the report.
    public let name: String
    /// One line for `--help` and the OpenAPI document.
    public let summary: String
    /// The top-level key of `AnalysisReport` (JSON) that its results go under.
    public let reportKey: String
    /// Peak working memory per image pixel while it runs, the decode included (bytes; measured, see
    /// RequestKind+BuiltIn.swift): what `openvision serve` budgets per request (`--max-request-memory`).
    public let bytesPerPixel: Int
    /// For model requests (`detect`, `classify`, `model`): the model they run when none is given; nil for the others.
    public let defaultModel: DefaultModel?
    /// The kinds this one stands in for when both are asked: it finds the same things and reports them under the
    /// same key (landmarks find the faces `faces` would).
    public let supersedes: [String]
    /// True for the requests that compare each frame with earlier ones (`StatefulRequest`s): a fresh instance each
    /// run, and only `video` and `live` (which feed them a sequence) accept them.
    public let isSequence: Bool
    /// For sequence kinds: the command comparing two still images instead (" or `openvision flow A B`"), if any.
    let pairCommand: String?
    let requestType: ObjectIdentifier
    let make: @Sendable (VisionModel?) throws(VisionError) -> any VisionRequest

    /// A kind whose requests `make` builds (with the model given, for model requests); the options set their
    /// properties afterwards.
    init<R: VisionRequest>(
        _ name: String, _ summary: String, reportKey: String, bytesPerPixel: Int,
        defaultModel: DefaultModel? = nil, supersedes: [String] = [], pairCommand: String? = nil,
        make: @escaping @Sendable (VisionModel?) throws(VisionError) -> R
    ) {
        self.name = name
        self.summary = summary
        self.reportKey = reportKey
        self.bytesPerPixel = bytesPerPixel
        self.defaultModel = defaultModel
        self.supersedes = supersedes
        self.pairCommand = pairCommand
        self.isSequence = R.self is any StatefulRequest.Type
        self.requestType = ObjectIdentifier(R.self)
        self.make = { model throws(VisionError) in try make(model) }
    }

    /// The value as short text, for logs and command-line output.
    public var description: String { name }

    /// Kinds are equal when their names are.
    public static func == (a: RequestKind, b: RequestKind) -> Bool { a.name == b.name }
    /// Hashes the name (names are unique among kinds).
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// True for the kinds that run a model the user may choose (`detect`, `classify`, `model`).
    public var isModelRequest: Bool { defaultModel != nil }

    /// The options this kind reads: those setting its request's properties and, for model requests, the model and
    /// how it is loaded; in declaration order.
    public var options: [RequestOption] {
        RequestOption.all.filter { $0.isRead(by: requestType) || isModelRequest && $0.role != .request }
    }

    /// A new request with `options` applied (those it does not read are ignored), running `model` when it is a model
    /// request (nil: its default model, loaded on first use). `invalidArgument` when a model request that has no
    /// default model is given none.
    public func makeRequest(_ options: RequestOptions = RequestOptions(), model: VisionModel? = nil) throws(VisionError)
        -> any VisionRequest
    {
        if defaultModel == .required, model == nil {
            throw VisionError(.invalidArgument, "'\(name)' runs a model of yours: give one (model)")
        }
        var request = try make(model)
        options.apply(to: &request)
        return request
    }

    // MARK: The table

    /// The kind called `name` (case-insensitive), if any.
    public static func named(_ name: String) -> RequestKind? {
        let key = name.lowercased()
        return allCases.first { $0.name.lowercased() == key }
    }

    /// The kind a request of this type belongs to, if it is a built-in kind's (the first in table order).
    public static func kind(of request: any VisionRequest) -> RequestKind? {
        byType[ObjectIdentifier(type(of: request))]
    }

    private static let byType: [ObjectIdentifier: RequestKind] = allCases.reduce(into: [:]) { table, kind in
        if table[kind.requestType] == nil { table[kind.requestType] = kind }
    }

    /// The kinds named in `values` (each comma-separated, case-insensitive), without repeats, in order;
    /// an unknown or missing name is `invalidArgument`.
    public static func kinds(from values: [String]) throws(VisionError) -> [RequestKind] {
        var kinds: [RequestKind] = []
        let names = values.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        for name in names where !name.isEmpty {
            guard let kind = named(name) else {
                throw VisionError(
                    .invalidArgument,
                    "unknown request '\(name.prefix(80))'; choose from "
                        + allCases.map(\.name).joined(separator: ", "))
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { throw VisionError(.invalidArgument, "no requests given") }
        return kinds
    }

    /// The kinds with their one line each, "name: summary; …" (help texts, the OpenAPI document).
    public static func listing(_ kinds: [RequestKind]) -> String {
        kinds.map { "\($0.name): \($0.summary)" }.joined(separator: "; ")
    }

    /// The help text of a `--requests` option: every still kind (and the sequence kinds) with its one line, and the
    /// default list.
    public static func help(includingSequences: Bool) -> String {
        var text = "Requests to run, comma-separated. " + listing(allCases.filter { !$0.isSequence }) + "."
        if includingSequences {
            text +=
                " Sequence requests, comparing each analysed frame with the previous one: "
                + listing(allCases.filter(\.isSequence)) + "."
        }
        return text
    }

    /// Still-image callers refuse the sequence requests with a pointer to where they work (`invalidArgument`).
    public static func validateStill(_ kinds: [RequestKind]) throws(VisionError) {
        if let kind = kinds.first(where: \.isSequence) {
            throw VisionError(
                .invalidArgument,
                "'\(kind.name)' compares frames of a sequence: use `openvision video IN "
                    + "--requests \(kind.name)`" + (kind.pairCommand.map { " or `\($0)`" } ?? ""))
        }
    }

    /// `kinds` without those another of them stands in for (`supersedes`), in order.
    public static func running(_ kinds: [RequestKind]) -> [RequestKind] {
        let superseded = Set(kinds.flatMap(\.supersedes))
        return kinds.filter { !superseded.contains($0.name) }
    }
}
