import HTTPTypes
import Hummingbird
import OpenVisionNetworking

/// Refuses what a web page could make a browser send to the server, before any route runs:
/// - bound to a loopback address, a `Host` that does not name loopback or `localhost` (403
///   `forbiddenHost`: DNS rebinding, as the live viewer checks with the same `HostHeader`), and
///   a request with more than one `Host` (400, RFC 9112 §3.2);
/// - any request with an `Origin` header (403 `forbiddenOrigin`). Browsers send `Origin` with every
///   POST (the Fetch standard, forms included) and with every cross-origin fetch, while curl and
///   HTTP libraries send none. The server has no page of its own, so no browser origin is served:
///   a cross-site page can neither upload an image (even as a CORS-simple request, which needs no
///   preflight) nor read an answer. Content types cannot draw that line: no Content-Type,
///   `multipart/form-data` and `application/x-www-form-urlencoded` are both what curl sends and what
///   a page can send without a preflight.
struct BrowserGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Whether the server is bound to loopback (the Host check applies then only).
    let checkHost: Bool

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let refusal = refusal(of: request) { return AnalysisServer.error(refusal) }
        return try await next(request, context)
    }

    func refusal(of request: Request) -> APIError? {
        // The first Host is the request's authority; HTTPFields keeps any other.
        if !request.headers[values: .repeatedHost].isEmpty {
            return APIError(.badRequest, "badRequest", "more than one Host header")
        }
        if checkHost, !HostHeader.isLoopback(request.head.authority) {
            return APIError(
                .forbidden, "forbiddenHost",
                "Host '\(UploadFormat.excerpt(request.head.authority ?? ""))' is not this server: bound to loopback, it answers "
                    + "only Host localhost, 127.x.y.z or [::1] (DNS-rebinding protection)")
        }
        if let origin = request.headers[.origin] {
            return APIError(
                .forbidden, "forbiddenOrigin",
                "requests from web pages (Origin '\(UploadFormat.excerpt(origin))') are refused: call the API from a "
                    + "server, a script or curl, which send no Origin header")
        }
        return nil
    }
}

extension HTTPField.Name {
    /// `Host`, as HTTPFields keeps a repeated one (the first becomes the request's authority).
    static let repeatedHost = HTTPField.Name("Host")!
}
