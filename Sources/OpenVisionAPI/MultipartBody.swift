/// The parts of a whole `multipart/*` body (RFC 2046 §5.1.1), read in one pass over its bytes
/// without copying them: each part's header fields and the range of its content.
///
/// What is taken: an optional preamble, `--boundary` (with transport padding) to start each part,
/// header lines `name: value` (a token name; a value of visible characters, spaces, tabs and UTF-8,
/// as RFC 7578 §4.2 allows in file names; folded lines joined), an empty line, the content up to the
/// next `CRLF--boundary`, and `--boundary--` to close. A part counts once its closing delimiter is
/// read, so a truncated body yields only the parts before the cut. Anything else is `Malformed`.
///
/// Written here rather than taken from MultipartKit 4.7.1 (the latest 4.x), whose parser traps on any
/// byte ≥ 0x80 in a part's header name (an index into a 128-entry table): one request could end the
/// server (found by scripts/fuzz upload-reader). Pure Swift without Foundation, fuzzed on its own.
struct MultipartBody<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    /// One part: its header fields (names as sent) and where its content lies in the body.
    struct Part: Sendable, Equatable {
        var headers: [(name: String, value: String)]
        var content: Range<Int>

        static func == (a: Part, b: Part) -> Bool {
            a.content == b.content && a.headers.elementsEqual(b.headers) { $0.name == $1.name && $0.value == $1.value }
        }

        /// The values of the header `name` (case-insensitive).
        func values(of name: String) -> [String] {
            let key = name.lowercased()
            return headers.filter { $0.name.lowercased() == key }.map(\.value)
        }
    }

    /// Header lines a part may have, and bytes its header section may take: far beyond any form's
    /// (browsers and curl send two or three short lines) while bounding the fields a body can make us hold.
    static var maximumHeaderLines: Int { 64 }
    static var maximumHeaderBytes: Int { 16 * 1024 }

    let bytes: Bytes
    private let delimiter: [UInt8]  // CRLF "--" boundary

    /// `boundary` as checked by `UploadFormat.isValidBoundary` (1 to 70 characters, none a CR or LF).
    init(_ bytes: Bytes, boundary: String) {
        self.bytes = bytes
        self.delimiter = Array("\r\n--\(boundary)".utf8)
    }

    /// Calls `visit` with each complete part in order until it returns false; returns the number of parts read.
    @discardableResult
    func forEachPart(_ visit: (Part) throws(HeaderSyntax.Malformed) -> Bool) throws(HeaderSyntax.Malformed) -> Int {
        // The first delimiter may open the body, without the CRLF before it.
        let dashBoundary = delimiter[2...]
        var position: Int
        if bytes.starts(with: dashBoundary) {
            position = bytes.startIndex + dashBoundary.count
        } else if let found = find(delimiter, from: bytes.startIndex) {
            position = found + delimiter.count
        } else {
            return 0
        }
        var count = 0
        while true {
            // After a delimiter: "--" closes the body; else transport padding and CRLF open a part.
            if match([UInt8(ascii: "-"), UInt8(ascii: "-")], at: position) { return count }
            while position < bytes.endIndex, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            if position >= bytes.endIndex { return count }  // truncated after a delimiter
            guard match([0x0D, 0x0A], at: position) else {
                throw HeaderSyntax.Malformed(reason: "part \(count + 1): the boundary line goes on after the boundary")
            }
            position += 2
            guard let (headers, contentStart) = try headerFields(from: position, part: count + 1) else { return count }
            guard let end = find(delimiter, from: contentStart) else { return count }  // the body ends inside the part
            count += 1
            guard try visit(Part(headers: headers, content: contentStart..<end)) else { return count }
            position = end + delimiter.count
        }
    }

    /// The header fields from `start` to the empty line, and where the content starts; nil if the body ends first.
    private func headerFields(from start: Int, part: Int) throws(HeaderSyntax.Malformed) -> (
        [(name: String, value: String)], Int
    )? {
        var fields: [(name: String, value: String)] = []
        var position = start
        while true {
            guard let lineEnd = find([0x0D, 0x0A], from: position) else { return nil }
            if lineEnd == position { return (fields, position + 2) }  // the empty line
            guard lineEnd - start <= Self.maximumHeaderBytes, fields.count < Self.maximumHeaderLines else {
                throw HeaderSyntax.Malformed(
                    reason:
                        "part \(part): more than \(Self.maximumHeaderLines) header lines or \(Self.maximumHeaderBytes) bytes of headers"
                )
            }
            let line = bytes[position..<lineEnd]
            position = lineEnd + 2
            if let first = line.first, first == 0x20 || first == 0x09 {
                // obs-fold (RFC 5322 §2.2.3): the line continues the previous field's value.
                guard !fields.isEmpty else {
                    throw HeaderSyntax.Malformed(reason: "part \(part): a folded line before any header field")
                }
                fields[fields.count - 1].value += " " + (try Self.value(line, part: part))
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(HeaderSyntax.isTokenByte)
            else {
                throw HeaderSyntax.Malformed(reason: "part \(part): a header line that is not 'name: value'")
            }
            fields.append(
                (String(decoding: line[..<colon], as: UTF8.self), try Self.value(line[(colon + 1)...], part: part)))
        }
    }

    /// A field value without its surrounding whitespace: visible ASCII, space, tab and bytes ≥ 0x80 only.
    private static func value(_ raw: Bytes.SubSequence, part: Int) throws(HeaderSyntax.Malformed) -> String {
        guard raw.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw HeaderSyntax.Malformed(reason: "part \(part): a control character in a header value")
        }
        let trimmed = raw.drop { $0 == 0x20 || $0 == 0x09 }
        let end = trimmed.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { $0 + 1 } ?? trimmed.startIndex
        return String(decoding: trimmed[..<end], as: UTF8.self)
    }

    private func match(_ pattern: [UInt8], at position: Int) -> Bool {
        position + pattern.count <= bytes.endIndex
            && bytes[position..<(position + pattern.count)].elementsEqual(pattern)
    }

    /// The first position at or after `start` where `pattern` (which begins with CR, found nowhere else in
    /// it) occurs. Linear: a partial match cannot contain the start of another, so the scan never backs up.
    private func find(_ pattern: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
        var i = start
        let last = bytes.endIndex - pattern.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < pattern.count, bytes[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return i }
                i += max(1, k)
            } else {
                i += 1
            }
        }
        return nil
    }
}
