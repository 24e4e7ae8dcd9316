import Foundation
import Hummingbird
import OpenVision

/// What an endpoint answers when it cannot do what was asked: an HTTP status and the body
/// `{"error": {"code": "...", "message": "..."}}`, the keys of the CLI's JSON `errors` entries. A
/// `VisionError` keeps its code (`invalidImage`, `imageTooLarge`, …); the server's own refusals have
/// codes of their own (`payloadTooLarge`, `unsupportedMediaType`, `unauthorized`, `queueFull`,
/// `timeout`, `requestTimeout`, `modelNotFound`, `badRequest`). Listed in docs/serve.md.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Extra headers (`Retry-After`, `WWW-Authenticate`).
    var headers: HTTPFields = [:]
    /// True: answer with `Connection: close` (the request's body was not read to its end).
    var closeConnection = false

    init(
        _ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:],
        closeConnection: Bool = false
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.closeConnection = closeConnection
    }

    /// The HTTP form of a library error: the image's own faults are 422 (the request was well formed
    /// but the image cannot be analysed), bad arguments 400, a missing model 404, the rest 500.
    init(_ error: VisionError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .invalidImage, .unsupportedImageFormat, .imageTooLarge: .unprocessableContent
            case .invalidArgument, .unsupportedLanguage: .badRequest
            case .missingModelData, .fileNotFound: .notFound
            case .cancelled: .serviceUnavailable
            default: .internalServerError
            }
        self.init(status, error.code.description, error.message)
    }

    /// The answer to an error loading a model request's model: the model store's own refusal (`modelNotFound`) when it
    /// is one, else as `init(_:)`.
    init(loading error: VisionError) {
        if let refusal = error.cause as? APIError { self = refusal } else { self.init(error) }
    }

    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
        }
        var error: Detail
    }

    /// The JSON body.
    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(Body(error: .init(code: code, message: message)))) ?? Data("{}".utf8)
    }
}

extension APIError {
    /// The answer to a refused upload (400 or 415).
    init(_ refusal: UploadRefusal) {
        self.init(HTTPResponse.Status(code: refusal.status), refusal.code, refusal.message)
    }
}
