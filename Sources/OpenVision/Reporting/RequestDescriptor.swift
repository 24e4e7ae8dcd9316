/// How one built-in request kind is declared (`RequestKind.descriptor`): its help, the options it reads, the
/// report key its results go under, and how the request is built from the options. The CLI, the HTTP API, the
/// OpenAPI document, job payloads and the JSON schema read it; nothing else names a kind's parts.
public struct RequestDescriptor: Sendable {
    /// One line for `--help` and the OpenAPI document.
    public let help: String
    /// The top-level key of `AnalysisReport` (JSON) that its results go under.
    public let reportKey: String
    /// The options it reads (`RequestOption.all` declares them).
    public let options: [RequestOption]
    /// Peak working memory per image pixel while it runs, the decode included (bytes; measured, see
    /// `RequestKind.descriptor`): what `openvision serve` budgets per request (`--max-request-memory`).
    public let bytesPerPixel: Int
    let build: @Sendable (RequestOptions) -> any VisionRequest

    init(_ help: String, reportKey: String, options: [RequestOption] = [], bytesPerPixel: Int,
         build: @escaping @Sendable (RequestOptions) -> any VisionRequest) {
        self.help = help
        self.reportKey = reportKey
        self.options = options
        self.bytesPerPixel = bytesPerPixel
        self.build = build
    }

    /// A new request with `options` applied (options it does not read are ignored).
    public func makeRequest(_ options: RequestOptions = RequestOptions()) -> any VisionRequest { build(options) }

    /// True for the requests that compare each frame with earlier ones (`StatefulRequest`s): a fresh instance
    /// each run, and only `video` and `live` (which feed them a sequence) accept them.
    public var isSequence: Bool { build(RequestOptions()) is any StatefulRequest }
}
