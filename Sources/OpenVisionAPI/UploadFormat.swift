/// How a request body carries the image, decided from its `Content-Type` (RFC 9110 §8.3) before
/// the body is read:
/// - `raw`: no Content-Type, `image/*`, `application/octet-stream`, or `application/x-www-form-urlencoded`
///   (what `curl --data-binary @photo.jpg` sends unless told otherwise; no form is ever expected here);
/// - `multipart`: `multipart/form-data` with a valid `boundary` (RFC 2046 §5.1.1: 1 to 70 characters
///   of its set, not ending in a space), the image in one of its parts.
///
/// A malformed Content-Type, or multipart/form-data without exactly one valid boundary, is 400; a
/// well-formed type of any other kind is 415.
enum UploadFormat: Sendable, Equatable {
    case raw
    case multipart(boundary: String)

    init(contentType: String?) throws(UploadRefusal) {
        guard let contentType else {
            self = .raw
            return
        }
        let media: MediaType
        do {
            media = try MediaType(parsing: contentType)
        } catch {
            throw .badRequest("malformed Content-Type '\(Self.excerpt(contentType))': \(error.reason)")
        }
        switch (media.type, media.subtype) {
        case ("image", _), ("application", "octet-stream"), ("application", "x-www-form-urlencoded"):
            self = .raw
        case ("multipart", "form-data"):
            let boundaries = media.values(of: "boundary")
            guard boundaries.count == 1, let boundary = boundaries.first else {
                throw .badRequest(
                    boundaries.isEmpty
                        ? "multipart/form-data without a boundary parameter"
                        : "multipart/form-data with more than one boundary parameter")
            }
            guard Self.isValidBoundary(boundary) else {
                throw .badRequest(
                    "invalid multipart boundary '\(Self.excerpt(boundary))': RFC 2046 allows 1 to 70 characters "
                        + "(letters, digits, space and '()+_,-./:=?), not ending in a space")
            }
            self = .multipart(boundary: boundary)
        default:
            throw .unsupportedMediaType(
                "Content-Type '\(media.essence)' is not an image: send the image as the raw body "
                    + "(image/*, application/octet-stream) or as the 'image' part of multipart/form-data")
        }
    }

    /// RFC 2046 §5.1.1: `boundary := 0*69<bchars> bcharsnospace`.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count), bytes.last != 0x20 else { return false }
        return bytes.allSatisfy { b in
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return Array("'()+_,-./:=? ".utf8).contains(b)
            }
        }
    }

    /// At most 100 characters of a client's value, for messages.
    static func excerpt(_ text: String) -> String {
        text.count <= 100 ? text : String(text.prefix(100)) + "…"
    }
}
