import Foundation

/// Reads and writes the MOTChallenge text format (one `MOTRecord` per line, comma-separated), as the
/// benchmark's detection, ground-truth and result files and py-motmetrics use it. Pure Swift, no other
/// OpenVision file than `VisionError.swift` (scripts/fuzz builds it alone).
public enum MOTFormat {
    /// The records of `text`, in file order. Blank lines are skipped; columns after the score are kept
    /// in `extra`; spaces around values, `\r\n` line ends and a trailing comma are accepted.
    ///
    /// Throws `invalidArgument` whose message starts with `line N:` (1-based) for a line with fewer than six
    /// columns, a value that is not a decimal number (hexadecimal such as `0x10`, `inf` and `nan` are refused), a
    /// frame or ID that is not a whole decimal number in range (`1`, `-1`, `1.0`; not `1e0`), a frame below 1, or
    /// a negative width or height.
    public static func parse(_ text: String) throws(VisionError) -> [MOTRecord] {
        var records: [MOTRecord] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
            records.append(try parseLine(line, number: lineNumber))
        }
        return records
    }

    /// `parse` on a file's contents; errors name the file. Throws `fileNotFound` / `ioError` when it cannot be read.
    public static func read(contentsOf url: URL) throws(VisionError) -> [MOTRecord] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let missing = !FileManager.default.fileExists(atPath: url.path)
            throw VisionError(missing ? .fileNotFound : .ioError, "\(url.path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw VisionError(.invalidArgument, "\(url.path): not UTF-8 text")
        }
        do {
            return try parse(text)
        } catch {
            throw VisionError(error.code, "\(url.path): \(error.message)", cause: error.cause)
        }
    }

    /// The records as MOTChallenge lines (`frame,id,x,y,w,h,score,extra…`, one per record, each ending in a
    /// newline); integral values without a decimal point, others with the shortest exact decimal, so `parse`
    /// gives back the same records.
    public static func format(_ records: [MOTRecord]) -> String {
        var out = ""
        out.reserveCapacity(records.count * 40)
        for r in records {
            out +=
                "\(r.frame),\(r.id),\(number(r.x)),\(number(r.y)),\(number(r.width)),\(number(r.height)),\(number(r.score))"
            for value in r.extra { out += ",\(number(value))" }
            out += "\n"
        }
        return out
    }

    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }

    private static func parseLine(_ line: Substring, number: Int) throws(VisionError) -> MOTRecord {
        var fields = line.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r"))) }
        if fields.count > 6, fields.last?.isEmpty == true { fields.removeLast() }
        guard fields.count >= 6 else {
            throw VisionError(
                .invalidArgument,
                "line \(number): expected at least 6 comma-separated columns (frame,id,x,y,w,h), found \(fields.count)")
        }
        let names = ["frame", "id", "x", "y", "width", "height", "score"]
        var values: [Double] = []
        values.reserveCapacity(fields.count)
        for (column, field) in fields.enumerated() {
            let name = column < names.count ? names[column] : "column \(column + 1)"
            guard let value = Double(field) else {
                throw VisionError(.invalidArgument, "line \(number): \(name) is not a number: \"\(field.prefix(40))\"")
            }
            guard value.isFinite else {
                throw VisionError(.invalidArgument, "line \(number): \(name) must be finite (got \(field.prefix(40)))")
            }
            // Swift's Double reads hexadecimal ("0x10" is 16) and more: only decimal text is a MOTChallenge number.
            guard isDecimal(field, integral: column < 2) else {
                throw VisionError(
                    .invalidArgument,
                    "line \(number): \(name) is not a decimal number\(column < 2 ? " without exponent" : ""): "
                        + "\"\(field.prefix(40))\"")
            }
            values.append(value)
        }
        guard let frame = integer(values[0]), frame >= 1 else {
            throw VisionError(
                .invalidArgument,
                "line \(number): frame must be a whole number of at least 1 (got \(fields[0].prefix(40)))")
        }
        guard let id = integer(values[1]) else {
            throw VisionError(
                .invalidArgument, "line \(number): id must be a whole number (got \(fields[1].prefix(40)))")
        }
        guard values[4] >= 0, values[5] >= 0 else {
            throw VisionError(
                .invalidArgument,
                "line \(number): width and height must not be negative (got \(fields[4].prefix(40)), \(fields[5].prefix(40)))"
            )
        }
        return MOTRecord(
            frame: frame, id: id, x: values[2], y: values[3], width: values[4], height: values[5],
            score: values.count > 6 ? values[6] : 1, extra: Array(values.dropFirst(7)))
    }

    /// Whether `text` is a decimal number: an optional sign, digits with an optional fraction (`.5`, `5.`), and unless
    /// `integral` an optional exponent (`1e-3`). Not hexadecimal, `inf` or `nan`, which Swift's `Double` also reads.
    public static func isDecimal(_ text: String, integral: Bool) -> Bool {
        var s = Substring(text)
        if s.first == "+" || s.first == "-" { s = s.dropFirst() }
        let digits = s.prefix { ("0"..."9").contains($0) }
        s = s.dropFirst(digits.count)
        var fraction = Substring("")
        if s.first == "." {
            s = s.dropFirst()
            fraction = s.prefix { ("0"..."9").contains($0) }
            s = s.dropFirst(fraction.count)
        }
        guard !digits.isEmpty || !fraction.isEmpty else { return false }
        if integral { return s.isEmpty }
        if s.first == "e" || s.first == "E" {
            s = s.dropFirst()
            if s.first == "+" || s.first == "-" { s = s.dropFirst() }
            let exponent = s.prefix { ("0"..."9").contains($0) }
            guard !exponent.isEmpty else { return false }
            s = s.dropFirst(exponent.count)
        }
        return s.isEmpty
    }

    private static func integer(_ value: Double) -> Int? {
        guard value == value.rounded(), abs(value) <= 2_000_000_000 else { return nil }
        return Int(value)
    }
}
