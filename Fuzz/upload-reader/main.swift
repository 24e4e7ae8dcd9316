// libFuzzer target: the upload reader's parsing (Sources/OpenVisionAPI: HeaderSyntax, MediaType,
// ContentDisposition, UploadFormat, MultipartBody, MultipartImage), built from those files alone. An
// input is a Content-Type value, a newline, and a body. Checked:
// - any Content-Type gives a format or a 400/415 refusal, never a crash (issue 28: `;` was one);
// - a media type that parses prints (description) to one that parses to the same value;
// - a multipart body gives the image part (no larger than the body) or a 400;
// - the body's bytes as the content of a well-formed two-part body (the parsed boundary, else a fixed
//   one) come back exactly, with the part's file name, unless they contain the delimiter.
// (It found MultipartKit 4.7.1 trapping on a byte >= 0x80 in a part's header name, which is why
// MultipartBody exists.)
// Seeds (Fuzz/corpus/upload-reader) are written by Fuzz/upload-reader/make-seeds.sh.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUploadReader(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? count
    let contentType = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Data(bytes[min(newline + 1, count)...])

    if let media = try? MediaType(parsing: contentType) {
        precondition((try? MediaType(parsing: media.description)) == media, "media type round trip: \(media)")
    }
    var boundary = "fuzz-boundary"
    do {
        switch try UploadFormat(contentType: contentType) {
        case .raw:
            break
        case .multipart(let parsed):
            precondition(UploadFormat.isValidBoundary(parsed))
            boundary = parsed
            do {
                let image = try MultipartImage(body: body, boundary: parsed)
                precondition(image.data.count <= body.count)
            } catch {
                precondition(error.status == 400 && !error.message.isEmpty)
            }
        }
    } catch {
        precondition((error.status == 400 || error.status == 415) && !error.message.isEmpty)
    }

    // A well-formed body around the input's bytes (after a first, unnamed part): they must come back.
    let delimiter = Data("\r\n--\(boundary)".utf8)
    if body.range(of: delimiter) == nil {
        var wrapped = Data(
            "preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n".utf8)
        wrapped.append(
            Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"f.png\"\r\n\r\n".utf8))
        wrapped.append(body)
        wrapped.append(Data("\r\n--\(boundary)--\r\n".utf8))
        do {
            let image = try MultipartImage(body: wrapped, boundary: boundary)
            precondition(image.data == body, "the part's content changed (\(image.data.count) of \(body.count) bytes)")
            precondition(image.filename == "f.png")
        } catch {
            preconditionFailure("a well-formed body was refused: \(error.message)")
        }
    }
    return 0
}
