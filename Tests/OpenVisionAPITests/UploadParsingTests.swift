import Foundation
import Testing

@testable import OpenVisionAPI

/// The upload's header parsing on its own: media types as RFC 9110 §8.3.1 defines them, multipart
/// boundaries (RFC 2046 §5.1.1) and the image part's Content-Disposition (RFC 6266, RFC 8187).
@Suite struct UploadParsingTests {
    // MARK: Media types

    @Test(arguments: [
        // (field value, essence, parameters) — the examples of RFC 9110 §8.3.1 are all the same type.
        ("text/html;charset=utf-8", "text/html", [("charset", "utf-8")]),
        ("text/html;charset=UTF-8", "text/html", [("charset", "UTF-8")]),
        ("Text/HTML;Charset=\"utf-8\"", "text/html", [("charset", "utf-8")]),
        ("text/html; charset=\"utf-8\"", "text/html", [("charset", "utf-8")]),
        ("  image/PNG  ", "image/png", []),
        ("image/jpeg ;  q=1 ;;", "image/jpeg", [("q", "1")]),
        ("multipart/form-data; boundary=\"a; b=\\\"c\\\"\"", "multipart/form-data", [("boundary", "a; b=\"c\"")]),
        ("application/octet-stream;x=\"\"", "application/octet-stream", [("x", "")]),
    ])
    func wellFormedMediaTypes(_ text: String, _ essence: String, _ parameters: [(String, String)]) throws {
        let media = try MediaType(parsing: text)
        #expect(media.essence == essence)
        #expect(media.parameters == parameters.map { HeaderSyntax.Parameter(name: $0.0, value: $0.1) })
        // The canonical form parses to the same value.
        #expect(try MediaType(parsing: media.description) == media)
    }

    @Test(arguments: [
        ";", " ; ", "", "   ", "/", "image/", "/png", "image", "image/png/x", "image png", "image/png;charset",
        "image/png; charset = utf-8", "image/png;=x", "image/png;a=\"unterminated", "image/png;a=\"x\\",
        "image/png, image/jpeg", "image/png;a=b c", "image/pn\u{0}g", "image/png;a=\"x\u{1}\"", "imagé/png",
    ])
    func malformedMediaTypes(_ text: String) {
        #expect(throws: HeaderSyntax.Malformed.self) { try MediaType(parsing: text) }
    }

    // MARK: The upload's format

    @Test func formatsFromContentType() throws {
        #expect(try UploadFormat(contentType: nil) == .raw)
        #expect(try UploadFormat(contentType: "IMAGE/JPEG") == .raw)
        #expect(try UploadFormat(contentType: "application/octet-stream; x=1") == .raw)
        #expect(try UploadFormat(contentType: "application/x-www-form-urlencoded") == .raw)
        #expect(
            try UploadFormat(contentType: "Multipart/Form-Data; BOUNDARY=\"----x y\"")
                == .multipart(boundary: "----x y"))
        #expect(try UploadFormat(contentType: "multipart/form-data;boundary=AaB03x") == .multipart(boundary: "AaB03x"))
    }

    @Test func refusedContentTypes() {
        func refusal(_ value: String) -> UploadRefusal? {
            do {
                _ = try UploadFormat(contentType: value)
                return nil
            } catch { return error }
        }
        // The crash of issue 28: `Content-Type: ;` (and ` ; `) was an index out of range.
        for value in [";", " ; ", "", ";;", "image/"] {
            #expect(refusal(value)?.status == 400, "\(value)")
            #expect(refusal(value)?.code == "badRequest")
        }
        #expect(refusal("text/plain")?.status == 415)
        #expect(refusal("application/json; charset=utf-8")?.code == "unsupportedMediaType")
        #expect(refusal("multipart/mixed; boundary=x")?.status == 415)
        // multipart/form-data: exactly one boundary of 1...70 allowed characters, not ending in a space.
        #expect(refusal("multipart/form-data")?.status == 400)
        #expect(refusal("multipart/form-data; boundary=\"\"")?.status == 400)
        #expect(refusal("multipart/form-data; boundary=a; boundary=b")?.status == 400)
        #expect(refusal("multipart/form-data; boundary=\"ends in space \"")?.status == 400)
        #expect(refusal("multipart/form-data; boundary=\"\(String(repeating: "x", count: 71))\"")?.status == 400)
        #expect(refusal("multipart/form-data; boundary=\"a\u{7f}b\"")?.status == 400)
        #expect(refusal("multipart/form-data; boundary=\(String(repeating: "x", count: 70))") == nil)
    }

    // MARK: Multipart bodies

    static func body(_ boundary: String, _ parts: [(headers: [String], content: String)], close: Bool = true) -> Data {
        var text = "preamble\r\n"
        for part in parts {
            text += "--\(boundary)\r\n" + part.headers.map { $0 + "\r\n" }.joined() + "\r\n" + part.content + "\r\n"
        }
        if close { text += "--\(boundary)--\r\nepilogue" }
        return Data(text.utf8)
    }

    /// RFC 2046's grammar: preamble, transport padding after a delimiter, folded header lines, a UTF-8
    /// file name (RFC 7578 §4.2), an empty part, and the content's own CRLFs and near-delimiters kept.
    @Test func multipartBodyGrammar() throws {
        let text =
            "preamble --b\r\n\r\n--b \t\r\nX-A: 1\r\n  folded\r\n\r\n\r\nx\r\n--c\r\n-\r\n--b\r\n"
            + "Content-Disposition: form-data; name=\"f\"; filename=\"été.png\"\r\n\r\n\r\n--b--\r\nepilogue --b\r\n"
        var parts: [(headers: [String], content: String)] = []
        let bytes = Array(text.utf8)
        try MultipartBody(bytes, boundary: "b").forEachPart { part in
            parts.append(
                (part.headers.map { "\($0.name)=\($0.value)" }, String(decoding: bytes[part.content], as: UTF8.self)))
            return true
        }
        #expect(parts.count == 2)
        #expect(parts.first?.headers == ["X-A=1 folded"])
        #expect(parts.first?.content == "\r\nx\r\n--c\r\n-")
        #expect(parts.last?.headers == ["Content-Disposition=form-data; name=\"f\"; filename=\"été.png\""])
        #expect(parts.last?.content == "")
        let image = try MultipartImage(body: Data(text.utf8), boundary: "b")
        #expect(image.filename == "été.png" && image.data.isEmpty)
    }

    @Test func theImagePartIsChosen() throws {
        let parts: [(headers: [String], content: String)] = [
            (["Content-Disposition: form-data; name=\"note\""], "hello"),
            (["Content-Disposition: form-data; name=\"other\"; filename=\"a.png\""], "AAA"),
            (
                ["content-disposition: form-data; name=image; filename=\"x; y.png\"", "Content-Type: image/png"],
                "PNG\r\n--not-the-boundary"
            ),
        ]
        let image = try MultipartImage(body: Self.body("b0undary", parts), boundary: "b0undary")
        #expect(image.data == Data("PNG\r\n--not-the-boundary".utf8))
        #expect(image.filename == "x; y.png")
        // Without an `image` part: the first with a file name, else the first.
        let named = try MultipartImage(body: Self.body("b", Array(parts.prefix(2))), boundary: "b")
        #expect(named.data == Data("AAA".utf8) && named.filename == "a.png")
        let first = try MultipartImage(body: Self.body("b", Array(parts.prefix(1))), boundary: "b")
        #expect(first.data == Data("hello".utf8) && first.filename == nil)
        // RFC 8187's filename* wins over filename.
        let star = try MultipartImage(
            body: Self.body(
                "b",
                [
                    (
                        [
                            "Content-Disposition: form-data; name=image; filename=\"e.png\"; filename*=UTF-8''%C3%A9t%C3%A9.png"
                        ], "x"
                    )
                ]), boundary: "b")
        #expect(star.filename == "été.png")
    }

    @Test func malformedMultipartBodies() {
        func refusal(_ body: Data, _ boundary: String = "b") -> UploadRefusal? {
            do {
                _ = try MultipartImage(body: body, boundary: boundary)
                return nil
            } catch { return error }
        }
        // No part completes: no delimiter at all, or the body ends inside the first part.
        #expect(refusal(Data("just bytes".utf8))?.status == 400)
        #expect(refusal(Data("--b\r\nContent-Disposition: form-data; name=image\r\n\r\nPNG".utf8))?.status == 400)
        // Broken header lines (a name that is not a token, a byte >= 0x80 in one, a control character
        // in a value), a boundary line that goes on, and a broken Content-Disposition.
        #expect(refusal(Data("--b\r\nbad header\r\n\r\nx\r\n--b--".utf8))?.status == 400)
        #expect(
            refusal(
                Data("--b\r\nContent-Dis".utf8) + Data([0xED]) + Data("position: form-data\r\n\r\nx\r\n--b--".utf8))?
                .status == 400)
        #expect(refusal(Data("--b\r\nX: a\u{1}b\r\n\r\nx\r\n--b--".utf8))?.status == 400)
        #expect(refusal(Data("--bx\r\nX: a\r\n\r\nx\r\n--b--".utf8))?.status == 400)
        #expect(refusal(Self.body("b", [(["Content-Disposition: form-data; name=\"image"], "x")]))?.status == 400)
        #expect(refusal(Self.body("b", [(["Content-Disposition: ; name=image"], "x")]))?.status == 400)
        #expect(
            refusal(
                Self.body(
                    "b",
                    [(["Content-Disposition: form-data; name=a", "Content-Disposition: form-data; name=image"], "x")]))?
                .status == 400)
    }
}
