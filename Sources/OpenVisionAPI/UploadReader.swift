import Foundation
import Hummingbird

/// Reads an uploaded image from a request: the raw body or a part of a `multipart/form-data` body, as
/// its Content-Type says (`UploadFormat`: malformed 400, not an image 415; `MultipartImage`). The body
/// is read as it streams, never past `limit` bytes (413 as soon as it would grow past; a larger
/// Content-Length is refused before reading), and must arrive before `deadline` (408).
struct UploadReader: Sendable {
    var limit: Int
    var deadline: ContinuousClock.Instant

    /// The image bytes and, from a multipart part, its file name.
    struct Upload: Sendable {
        var data: Data
        var filename: String?
    }

    /// Checks the request's headers before anything is read: its Content-Type and Content-Length.
    func checkHeaders(_ request: Request) throws(APIError) -> UploadFormat {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw Self.tooLarge(limit)
        }
        do {
            return try UploadFormat(contentType: request.headers[.contentType])
        } catch {
            throw APIError(error)
        }
    }

    /// Reads the body (see the type's contract) and extracts the image.
    func read(_ request: Request) async throws(APIError) -> Upload {
        let kind = try checkHeaders(request)
        let body = try await collect(request.body)
        let upload: Upload
        switch kind {
        case .raw: upload = Upload(data: body, filename: nil)
        case .multipart(let boundary):
            do {
                let part = try MultipartImage(body: body, boundary: boundary)
                upload = Upload(data: part.data, filename: part.filename)
            } catch {
                throw APIError(error)
            }
        }
        guard !upload.data.isEmpty else {
            throw APIError(
                .badRequest, "badRequest",
                "the request has no image: send it as the body or as the 'image' part of multipart/form-data")
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
        let limit = self.limit
        let deadline = self.deadline
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
            throw APIError(
                .requestTimeout, "requestTimeout", "the request body did not arrive within the request timeout",
                closeConnection: true)
        case .failed(let message):
            throw APIError(
                .badRequest, "badRequest", "reading the request body failed: \(message)", closeConnection: true)
        }
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(
            .contentTooLarge, "payloadTooLarge", "the request body is larger than the server's limit of \(limit) bytes",
            closeConnection: true)
    }
}
