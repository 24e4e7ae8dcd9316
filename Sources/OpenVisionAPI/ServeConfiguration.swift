import Foundation
import OpenVision

/// How `openvision serve` listens and what it refuses: every limit that keeps one bad or greedy
/// client from taking the server's memory or workers. Documented in docs/serve.md.
public struct ServeConfiguration: Sendable {
    /// Address to bind (default loopback only).
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one (the bound port is printed and passed to `onListening`).
    public var port = 8080
    /// Largest request body in bytes: a larger Content-Length is refused up front, a body without one
    /// is refused (413) as soon as it grows past this, without reading the rest into memory.
    public var maximumBodyBytes = 32 * 1024 * 1024
    /// Images declaring more pixels are refused before decoding (422, `imageTooLarge`).
    public var maximumPixelCount = VisionImage.defaultMaximumPixelCount
    /// Bytes of working memory one request may take while it runs: each request's image may have at most
    /// as many pixels as its requests' measured bytes per pixel allow within it (`RequestMemory`), else it
    /// is refused before decoding (422, `imageTooLarge`). The server's memory is then bounded by
    /// `workers` × this, plus `(workers + queueLength)` × `maximumBodyBytes` of bodies, plus the models.
    public var maximumRequestMemory = 2 << 30
    /// Analyses running at once (default: the machine's cores).
    public var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests admitted beyond `workers` (reading their body or waiting for a worker); one more is
    /// refused with 503 and `Retry-After`.
    public var queueLength = 32
    /// Seconds from a request's admission to its answer: a body not received by then is 408, an
    /// analysis not finished by then is 503 (`timeout`; its worker finishes it and is then free).
    public var requestTimeout: Duration = .seconds(30)
    /// Seconds a keep-alive connection may stay idle between requests before it is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// Seconds a connection has to deliver a whole request head, from its accept or from the first byte
    /// of its next request; one that has not is closed (slow-header clients, slowloris).
    public var headerTimeout: Duration = .seconds(10)
    /// Connections open at once. At the limit a new connection evicts the longest-idle one, else the
    /// one that has waited longest for its request head; connections with a request under way are
    /// never evicted, and when every one has, the new connection gets 503 `tooManyConnections`.
    public var maximumConnections = 256
    /// When set, every endpoint but `/healthz` and `/readyz` requires `Authorization: Bearer <key>` (401 otherwise).
    public var apiKey: String?
    /// The `Retry-After` seconds sent with 503 answers.
    public var retryAfterSeconds = 1

    /// The default configuration: every property at its documented default.
    public init() {}
}
