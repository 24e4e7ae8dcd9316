import Hummingbird

/// Answers what no route takes as JSON errors, like every other refusal: an unknown path is 404
/// `notFound`, a known path with another method 405 `methodNotAllowed` with `Allow` (RFC 9110
/// §15.5.6), any other `HTTPError` its status with code `badRequest` or `internalError`. A HEAD
/// request gets the status and headers without the body.
struct RouteErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods each path answers (HEAD with every GET).
    let methods: [String: [HTTPRequest.Method]]

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = AnalysisServer.error(refusal(for: request, error))
        }
        if request.method == .head { response.body = .init() }
        return response
    }

    func refusal(for request: Request, _ error: HTTPError) -> APIError {
        let path = request.uri.path
        guard error.status == .notFound else {
            return APIError(
                error.status, error.status.code < 500 ? "badRequest" : "internalError",
                error.body ?? error.status.reasonPhrase)
        }
        if let allowed = methods[path] {
            return APIError(
                .methodNotAllowed, "methodNotAllowed",
                "\(path) answers \(allowed.map(\.rawValue).joined(separator: ", ")), not \(request.method.rawValue)",
                headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        }
        return APIError(
            .notFound, "notFound", "no endpoint at '\(UploadFormat.excerpt(path))' (GET /openapi.yaml lists them)")
    }
}
