import Foundation
import Prometheus

/// The server's Prometheus metrics (swift-prometheus), emitted at `GET /metrics`:
/// - `openvision_http_requests_total{endpoint,status}`: answered requests;
/// - `openvision_http_request_duration_seconds{endpoint}`: admission to answer, per endpoint;
/// - `openvision_request_duration_seconds{request}`: each Vision request's own run time (faces,
///   barcodes, …, detect, classify), and `decode` for the image decode;
/// - `openvision_queue_depth`: admitted requests waiting for a worker;
/// - `openvision_requests_in_flight`: admitted requests (reading, waiting or running);
/// - `openvision_requests_rejected_total{reason}`: 503s for a full queue, 413s, 401s, timeouts;
/// - `openvision_model_load_seconds{model}`: how long each shared model took to load.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    let queueDepth: Gauge
    let inFlight: Gauge
    private static let buckets: [Duration] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
        .map { .milliseconds(Int64($0 * 1000)) }

    init() {
        queueDepth = registry.makeGauge(
            name: "openvision_queue_depth", help: "Admitted requests waiting for an analysis worker")
        inFlight = registry.makeGauge(
            name: "openvision_requests_in_flight", help: "Admitted requests (reading, waiting or running)")
    }

    func answered(endpoint: String, status: Int, after duration: Duration) {
        registry.makeCounter(
            name: "openvision_http_requests_total", labels: [("endpoint", endpoint), ("status", String(status))],
            help: "HTTP requests answered, by endpoint and status"
        ).increment()
        registry.makeDurationHistogram(
            name: "openvision_http_request_duration_seconds", labels: [("endpoint", endpoint)],
            buckets: Self.buckets, help: "Time from admission to answer, by endpoint"
        ).record(duration)
    }

    func ran(request: String, for duration: Duration) {
        registry.makeDurationHistogram(
            name: "openvision_request_duration_seconds", labels: [("request", request)],
            buckets: Self.buckets, help: "Run time of each Vision request (and the decode)"
        ).record(duration)
    }

    func rejected(reason: String) {
        registry.makeCounter(
            name: "openvision_requests_rejected_total", labels: [("reason", reason)],
            help: "Requests refused before or during analysis, by reason"
        ).increment()
    }

    func modelLoaded(_ name: String, in duration: Duration) {
        registry.makeGauge(
            name: "openvision_model_load_seconds", labels: [("model", name)],
            help: "Load time of each shared model"
        ).set(duration.seconds)
    }

    /// The text exposition format (version 0.0.4).
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
