/// Why an upload's headers or body are refused, before any image is decoded: an HTTP status, the
/// error code and a message for the client. Free of Hummingbird (scripts/fuzz builds the upload
/// parsing on its own); `APIError(_:)` turns it into the JSON answer.
struct UploadRefusal: Error, Sendable, Equatable {
    /// 400 (malformed) or 415 (well formed, not a type we take).
    var status: Int
    var code: String
    var message: String

    static func badRequest(_ message: String) -> UploadRefusal {
        UploadRefusal(status: 400, code: "badRequest", message: message)
    }

    static func unsupportedMediaType(_ message: String) -> UploadRefusal {
        UploadRefusal(status: 415, code: "unsupportedMediaType", message: message)
    }
}
