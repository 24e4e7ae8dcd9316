import Foundation

extension StringProtocol {
    /// The data of `types` in this text, in order of position, as DataDetection's
    /// `dataDetectorMatches(_:options:)`: an asynchronous sequence that ends after the last match. Each match's range
    /// is in `String(self)`.
    public func dataDetectorMatches(
        _ types: DataDetector.MatchType,
        options: DataDetector.Options = DataDetector.Options()
    ) -> AsyncStream<DataDetector.Match> {
        let matches = DataDetector.matches(in: String(self), types: types, options: options)
        return AsyncStream { continuation in
            for match in matches { continuation.yield(match) }
            continuation.finish()
        }
    }
}

extension DataDetector {
    /// The matches of `types` in `text`, in order of position; where two overlap, the one found first in the order
    /// email address, link, date, phone number is kept ("x@example.com" is not also a link, "2024-03-15" not a
    /// phone number).
    ///
    /// The rules: an email address is `local@domain.tld`; a link starts with `http://`, `https://` or `www.`, or is
    /// a domain with a common top-level domain (`.com`, `.org`, …), trailing punctuation left out; a date is ISO
    /// (`2024-03-15`), numeric (`15/03/2024`, `03/15/2024` — day first when the first number is above 12, or with
    /// dots —, two-digit years in 1970…2069), or with an English month name (`March 15, 2024`, `15 Mar 2024`,
    /// `March 15`: the year of `options.documentDate`, else this year; `March 3–5, 2025` is a range), optionally
    /// followed by a time (`10:30`, `at 3:05 pm`); a phone number has 7 to 15 digits, starts with "+", "(" or a
    /// digit, and is written with "+", parentheses or at least one separator (space, "-", "."), or is 10 or 11 digits
    /// long. Matches never cross a line break.
    public static func matches(in text: String, types: MatchType, options: Options = Options()) -> [Match] {
        guard !text.isEmpty, !types.isEmpty else { return [] }
        let ns = text as NSString
        let whole = NSRange(location: 0, length: ns.length)
        var taken: [NSRange] = []
        var found: [(NSRange, Match.SemanticDetails)] = []
        func free(_ r: NSRange) -> Bool { !taken.contains { NSIntersectionRange($0, r).length > 0 } }
        func add(_ r: NSRange, _ details: Match.SemanticDetails) {
            taken.append(r)
            found.append((r, details))
        }
        if types.contains(.emailAddress) {
            for m in Patterns.email.matches(in: text, range: whole) where free(m.range) {
                add(m.range, .emailAddress(.init(emailAddress: ns.substring(with: m.range))))
            }
        }
        if types.contains(.link) {
            for pattern in [Patterns.schemeLink, Patterns.bareLink] {
                for m in pattern.matches(in: text, range: whole) {
                    var r = m.range
                    while r.length > 0,
                        ".,;:!?)]}'\"".contains(
                            ns.substring(with: NSRange(location: r.location + r.length - 1, length: 1)))
                    {
                        r.length -= 1
                    }
                    let written = ns.substring(with: r)
                    guard r.length > 0, free(r) else { continue }
                    let lower = written.lowercased()
                    let absolute =
                        lower.hasPrefix("http://") || lower.hasPrefix("https://") ? written : "http://" + written
                    guard let url = URL(string: absolute), url.host != nil else { continue }
                    add(r, .link(.init(url: url)))
                }
            }
        }
        if types.contains(.calendarEvent) {
            for (r, event) in Self.dates(in: text, ns: ns, options: options) where free(r) {
                add(r, .calendarEvent(event))
            }
        }
        if types.contains(.phoneNumber) {
            for m in Patterns.phone.matches(in: text, range: whole) where free(m.range) {
                let written = ns.substring(with: m.range)
                let digits = written.filter(\.isASCIIDigit).count
                let separated = written.contains { " -.()+".contains($0) }
                guard (7...15).contains(digits), separated || (10...11).contains(digits) else { continue }
                add(m.range, .phoneNumber(.init(phoneNumber: written)))
            }
        }
        return found.sorted { $0.0.location < $1.0.location }.compactMap { r, details in
            guard let range = Range(r, in: text) else { return nil }
            return Match(details: details, range: range)
        }
    }

    /// The dates of `text` (see `matches(in:types:options:)`), with their ranges.
    private static func dates(in text: String, ns: NSString, options: Options) -> [(
        NSRange, Match.SemanticDetails.CalendarEvent
    )] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = options.documentTimeZone ?? .current
        let defaultYear = calendar.component(.year, from: options.documentDate ?? Date())
        let whole = NSRange(location: 0, length: ns.length)
        var out: [(NSRange, Match.SemanticDetails.CalendarEvent)] = []
        func number(_ m: NSTextCheckingResult, _ group: Int) -> Int? {
            let r = m.range(at: group)
            return r.location == NSNotFound ? nil : Int(ns.substring(with: r))
        }
        func string(_ m: NSTextCheckingResult, _ group: Int) -> String? {
            let r = m.range(at: group)
            return r.location == NSNotFound ? nil : ns.substring(with: r)
        }
        func year(_ y: Int) -> Int { y >= 100 ? y : (y < 70 ? 2000 + y : 1900 + y) }
        // The time of day after a date: groups hour, minute, am/pm.
        func time(_ m: NSTextCheckingResult, from group: Int) -> (Int, Int)? {
            guard var hour = number(m, group), let minute = number(m, group + 1), hour < 24, minute < 60 else {
                return nil
            }
            if let half = string(m, group + 2)?.lowercased() {
                guard (1...12).contains(hour) else { return nil }
                hour = hour % 12 + (half.hasPrefix("p") ? 12 : 0)
            }
            return (hour, minute)
        }
        func date(_ y: Int, _ mo: Int, _ d: Int, _ t: (Int, Int)?) -> Date? {
            guard (1...12).contains(mo), (1...31).contains(d) else { return nil }
            let parts = DateComponents(year: y, month: mo, day: d, hour: t?.0 ?? 0, minute: t?.1 ?? 0)
            guard let value = calendar.date(from: parts), calendar.component(.day, from: value) == d else { return nil }
            return value
        }
        for m in Patterns.isoDate.matches(in: text, range: whole) {
            guard let y = number(m, 1), let mo = number(m, 2), let d = number(m, 3) else { continue }
            let t = time(m, from: 4)
            if let value = date(y, mo, d, t) {
                out.append((m.range, .init(allDay: t == nil, startDate: value, endDate: nil)))
            }
        }
        for m in Patterns.numericDate.matches(in: text, range: whole) {
            guard let a = number(m, 1), let b = number(m, 3), let y = number(m, 4) else { continue }
            let dayFirst = a > 12 || string(m, 2) == "."
            let t = time(m, from: 5)
            if let value = date(year(y), dayFirst ? b : a, dayFirst ? a : b, t) {
                out.append((m.range, .init(allDay: t == nil, startDate: value, endDate: nil)))
            }
        }
        for m in Patterns.monthFirstDate.matches(in: text, range: whole) {
            guard let mo = string(m, 1).flatMap(Patterns.month), let d = number(m, 2) else { continue }
            let y = number(m, 4).map(year) ?? defaultYear
            let t = time(m, from: 5)
            guard let start = date(y, mo, d, t) else { continue }
            let end = number(m, 3).flatMap { date(y, mo, $0, nil) }
            out.append((m.range, .init(allDay: t == nil, startDate: start, endDate: end)))
        }
        for m in Patterns.dayFirstDate.matches(in: text, range: whole) {
            guard let d = number(m, 1), let mo = string(m, 2).flatMap(Patterns.month) else { continue }
            let y = number(m, 3).map(year) ?? defaultYear
            let t = time(m, from: 4)
            if let value = date(y, mo, d, t) {
                out.append((m.range, .init(allDay: t == nil, startDate: value, endDate: nil)))
            }
        }
        // Overlapping readings of the same text: the longest.
        out.sort { $0.0.length != $1.0.length ? $0.0.length > $1.0.length : $0.0.location < $1.0.location }
        var kept: [(NSRange, Match.SemanticDetails.CalendarEvent)] = []
        for candidate in out where !kept.contains(where: { NSIntersectionRange($0.0, candidate.0).length > 0 }) {
            kept.append(candidate)
        }
        return kept
    }

    /// The expressions the rules are written in (NSRegularExpression is Sendable: safe to use from many threads).
    private enum Patterns {
        static func make(_ pattern: String) -> NSRegularExpression {
            // The patterns are constants of this file: a failure is a programming error caught by the tests.
            try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        }
        static let time = #"(?:[ \t]*(?:at[ \t]+)?(\d{1,2}):(\d{2})(?:[ \t]*([ap])\.?m\.?)?)?"#
        static let months =
            #"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"#
            + #"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"#
        static let email = make(#"(?<![\w.+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![\w-])"#)
        static let schemeLink = make(#"(?<![\w@])(?:https?://|www\.)[^\s<>"]+"#)
        static let bareLink = make(
            #"(?<![\w@./-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\."#
                + #"(?:com|org|net|edu|gov|io|dev|app|info|biz|co|uk|de|fr|eu|us|ca|au|jp|cn|ch|nl|se|no|es|it)(?![\w@-])(?:/[^\s<>"]*)?"#
        )
        static let phone = make(#"(?<![\w+])(?:\+|\()?\d[\d \t().-]{5,}\d(?![\w])"#)
        static let isoDate = make(#"(?<!\d)(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?!\d)"# + time)
        static let numericDate = make(#"(?<![\d.])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d])"# + time)
        static let monthFirstDate = make(
            #"(?<![a-z])"# + months
                + #"[ \t]+(\d{1,2})(?:st|nd|rd|th)?(?:[ \t]*[–-][ \t]*(\d{1,2}))?(?:,?[ \t]+(\d{4}))?(?![\d])"# + time)
        static let dayFirstDate = make(
            #"(?<!\d)(\d{1,2})(?:st|nd|rd|th)?[ \t]+"# + months
                + #"(?:,?[ \t]+(\d{4}))?(?![a-z\d])"# + time)

        /// 1...12 for an English month name or its abbreviation.
        static func month(_ name: String) -> Int? {
            let prefix = name.lowercased().prefix(3)
            return ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
                .firstIndex(of: String(prefix)).map { $0 + 1 }
        }
    }
}

extension Character {
    /// "0"..."9".
    var isASCIIDigit: Bool { isASCII && isNumber }
}
