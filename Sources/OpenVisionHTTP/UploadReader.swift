import Foundation
import Hummingbird
import MultipartKit

/// Reads an uploaded image from a request: the raw body (`image/*`, `application/octet-stream`, curl's
/// default `application/x-www-form-urlencoded`, or no Content-Type) or the `image` part (else the first part with a file name, else the first part) of a
/// `multipart/form-data` body. Any other Content-Type is 415. The body is read as it streams, never
/// past `limit` bytes (413 as soon as it would grow past; a larger Content-Length is refused before
/// reading), and must arrive before `deadline` (408).
struct UploadReader: Sendable {
    var limit: Int
    var deadline: ContinuousClock.Instant

    /// The image bytes and, from a multipart part, its file name.
    struct Upload: Sendable {
        var data: Data
        var filename: String?
    }

    /// Checks the request's headers before anything is read: its Content-Type and Content-Length.
    func checkHeaders(_ request: Request) throws(APIError) -> MediaKind {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Self.tooLarge(limit)
        }
        return try Self.mediaKind(request.headers[.contentType])
    }

    enum MediaKind: Sendable {
        case raw
        case multipart(boundary: String)
    }

    static func mediaKind(_ contentType: String?) throws(APIError) -> MediaKind {
        guard let contentType, !contentType.isEmpty else { return .raw }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let type = parts[0].lowercased()
        // application/x-www-form-urlencoded: what `curl --data-binary @photo.jpg` sends unless told otherwise;
        // no form is ever expected here, so it is the raw image.
        if type == "application/octet-stream" || type.hasPrefix("image/") || type == "application/x-www-form-urlencoded" { return .raw }
        if type == "multipart/form-data" {
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2, pair[0].lowercased() == "boundary" {
                    let boundary = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    if !boundary.isEmpty { return .multipart(boundary: boundary) }
                }
            }
            throw APIError(.badRequest, "badRequest", "multipart/form-data without a boundary parameter")
        }
        throw APIError(.unsupportedMediaType, "unsupportedMediaType",
                       "Content-Type '\(parts[0])' is not an image: send the image as the raw body (image/*, application/octet-stream) or as the 'image' part of multipart/form-data")
    }

    /// Reads the body (see the type's contract) and extracts the image.
    func read(_ request: Request) async throws(APIError) -> Upload {
        let kind = try checkHeaders(request)
        let body = try await collect(request.body)
        let upload: Upload
        switch kind {
        case .raw: upload = Upload(data: body, filename: nil)
        case .multipart(let boundary): upload = try Self.imagePart(of: body, boundary: boundary)
        }
        guard !upload.data.isEmpty else {
            throw APIError(.badRequest, "badRequest", "the request has no image: send it as the body or as the 'image' part of multipart/form-data")
        }
        return upload
    }

    private enum Piece: Sendable {
        case body(Data)
        case tooLarge
        case timedOut
        case failed(String)
    }

    /// Streams the body into memory up to `limit`, racing the deadline; stops reading at the limit.
    private func collect(_ body: RequestBody) async throws(APIError) -> Data {
        let limit = self.limit, deadline = self.deadline
        let piece = await withTaskGroup(of: Piece.self) { group in
            group.addTask {
                var data = Data()
                do {
                    for try await buffer in body {
                        if data.count + buffer.readableBytes > limit { return .tooLarge }
                        buffer.withUnsafeReadableBytes { data.append(contentsOf: $0) }
                    }
                } catch is CancellationError {
                    return .timedOut
                } catch {
                    return .failed("\(error)")
                }
                return Task.isCancelled ? .timedOut : .body(data)
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return .timedOut
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        switch piece {
        case .body(let data): return data
        case .tooLarge: throw Self.tooLarge(limit)
        case .timedOut:
            throw APIError(.requestTimeout, "requestTimeout", "the request body did not arrive within the request timeout", closeConnection: true)
        case .failed(let message):
            throw APIError(.badRequest, "badRequest", "reading the request body failed: \(message)", closeConnection: true)
        }
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, "payloadTooLarge", "the request body is larger than the server's limit of \(limit) bytes",
                 closeConnection: true)
    }

    /// The image part of a multipart body (MultipartKit's parser).
    static func imagePart(of body: Data, boundary: String) throws(APIError) -> Upload {
        struct Part { var headers: [(String, String)] = []; var data = Data() }
        var parts: [Part] = []
        var current = Part()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in current.headers.append((name, value)) }
        parser.onBody = { buffer in buffer.withUnsafeReadableBytes { current.data.append(contentsOf: $0) } }
        parser.onPartComplete = {
            parts.append(current)
            current = Part()
        }
        do {
            try parser.execute(ByteBuffer(bytes: body))
        } catch {
            throw APIError(.badRequest, "badRequest", "malformed multipart/form-data body: \(error)")
        }
        func disposition(_ part: Part, _ key: String) -> String? {
            guard let value = part.headers.first(where: { $0.0.lowercased() == "content-disposition" })?.1 else { return nil }
            for item in value.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2, pair[0].lowercased() == key { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            }
            return nil
        }
        guard let part = parts.first(where: { disposition($0, "name") == "image" })
                ?? parts.first(where: { disposition($0, "filename") != nil }) ?? parts.first else {
            throw APIError(.badRequest, "badRequest", "the multipart/form-data body has no parts: send the image as its 'image' part")
        }
        return Upload(data: part.data, filename: disposition(part, "filename"))
    }
}
