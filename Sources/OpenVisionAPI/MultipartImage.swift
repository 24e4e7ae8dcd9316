import Foundation

/// The image in a `multipart/form-data` body (RFC 7578): the part named `image`, else the first part
/// with a file name, else the first part; its file name from the part's `Content-Disposition`
/// (RFC 6266, `filename*` included). A malformed body (`MultipartBody`), one without a complete part,
/// or a chosen part with a malformed Content-Disposition is 400. Reading stops at the `image` part.
struct MultipartImage: Sendable, Equatable {
    var data: Data
    var filename: String?

    init(body: Data, boundary: String) throws(UploadRefusal) {
        precondition(UploadFormat.isValidBoundary(boundary), "the boundary is checked with the headers")
        var named: (MultipartBody<Data>.Part, ContentDisposition)?
        var withFilename: (MultipartBody<Data>.Part, ContentDisposition)?
        var first: (MultipartBody<Data>.Part, ContentDisposition?)?
        var index = 0
        do throws(HeaderSyntax.Malformed) {
            try MultipartBody(body, boundary: boundary).forEachPart { part throws(HeaderSyntax.Malformed) in
                index += 1
                let values = part.values(of: "Content-Disposition")
                guard values.count <= 1 else {
                    throw HeaderSyntax.Malformed(reason: "part \(index) has more than one Content-Disposition")
                }
                var disposition: ContentDisposition?
                if let value = values.first {
                    do throws(HeaderSyntax.Malformed) {
                        disposition = try ContentDisposition(parsing: value)
                    } catch {
                        throw HeaderSyntax.Malformed(
                            reason: "part \(index): malformed Content-Disposition: \(error.reason)")
                    }
                }
                if first == nil { first = (part, disposition) }
                if let disposition, disposition.filename != nil, withFilename == nil {
                    withFilename = (part, disposition)
                }
                if let disposition, disposition.name == "image" {
                    named = (part, disposition)
                    return false
                }
                return true
            }
        } catch {
            throw .badRequest("malformed multipart/form-data body: \(error.reason)")
        }
        guard
            let (part, disposition) = named.map({ ($0.0, Optional($0.1)) }) ?? withFilename.map({
                ($0.0, Optional($0.1))
            }) ?? first
        else {
            throw .badRequest("the multipart/form-data body has no complete part: send the image as its 'image' part")
        }
        data = body[part.content]
        filename = disposition?.filename
    }
}
