import CoreGraphics
import Foundation
import Testing

/// Foundation's `NSDataDetector` as Apple documents it: results in order of position with their `resultType`, UTF-16
/// `range`, `date` / `duration`, `url` (email addresses as `mailto:` links) and `phoneNumber`; only the given
/// `range` searched; the matching methods agreeing with each other; types it cannot find refused at `init(types:)`.
/// Ranges by Python (UTF-16 offsets), e.g.
/// `python3 -c "s='…'; print(s.index('(408) 555-0123'))"` → 39.
@Suite struct NSDataDetectorTests {
    static let all: NSTextCheckingResult.CheckingType = [.date, .link, .phoneNumber]
    static let text =
        "Ordered on 03/15/2024 at 3:05 pm, call (408) 555-0123 or visit www.apple.com; mail tim@example.com."

    @Test func findsDatesLinksAndPhoneNumbersInOrder() throws {
        let detector = try NSDataDetector(types: Self.all.rawValue)
        #expect(detector.checkingTypes == Self.all.rawValue)
        let text = Self.text
        let results = detector.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
        // python3 -c "s='Ordered on …'; [print(s.index(t), len(t)) for t in
        //   ['03/15/2024 at 3:05 pm', '(408) 555-0123', 'www.apple.com', 'tim@example.com']]"
        #expect(
            results.map(\.range) == [
                NSRange(location: 11, length: 21), NSRange(location: 39, length: 14), NSRange(location: 63, length: 13),
                NSRange(location: 83, length: 15),
            ])
        #expect(results.map(\.resultType) == [.date, .phoneNumber, .link, .link])
        let date = try #require(results[0].date)
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        #expect([parts.year, parts.month, parts.day, parts.hour, parts.minute] == [2024, 3, 15, 15, 5])
        #expect(results[0].duration == 0 && results[0].url == nil && results[0].phoneNumber == nil)
        #expect(results[1].phoneNumber == "(408) 555-0123" && results[1].date == nil)
        #expect(results[2].url == URL(string: "http://www.apple.com"))
        #expect(results[3].url == URL(string: "mailto:tim@example.com"))
    }

    /// A range of days: the start as `date`, its length as `duration`.
    /// python3 -c "import datetime as d; print((d.datetime(2025,3,5) - d.datetime(2025,3,3)).total_seconds())"
    /// → 172800.0
    @Test func aDateRangeHasADuration() throws {
        let detector = try NSDataDetector(types: NSTextCheckingResult.CheckingType.date.rawValue)
        let text = "Open March 3–5, 2025 only"
        let result = try #require(
            detector.firstMatch(in: text, options: [], range: NSRange(location: 0, length: (text as NSString).length)))
        let start = try #require(result.date)
        #expect(
            Calendar.current.dateComponents([.year, .month, .day], from: start)
                == DateComponents(
                    year: 2025, month: 3, day: 3))
        #expect(result.duration == 172800)
    }

    /// Only `range` is searched, and ranges count UTF-16 units of the whole string.
    /// python3 -c "u='Café 😀 — 2024-03-15'; i=u.index('2024'); print(len(u[:i].encode('utf-16-le'))//2)" → 10
    @Test func rangesAreUTF16OffsetsInTheWholeString() throws {
        let detector = try NSDataDetector(types: NSTextCheckingResult.CheckingType.date.rawValue)
        let text = "Café 😀 — 2024-03-15"
        let whole = NSRange(location: 0, length: (text as NSString).length)
        #expect(whole.length == 20)
        #expect(detector.matches(in: text, range: whole).map(\.range) == [NSRange(location: 10, length: 10)])
        #expect(detector.numberOfMatches(in: text, range: NSRange(location: 0, length: 12)) == 0)
        #expect(detector.rangeOfFirstMatch(in: text, range: NSRange(location: 0, length: 12)).location == NSNotFound)
        // A range past the end is cut at the end.
        #expect(detector.numberOfMatches(in: text, range: NSRange(location: 5, length: 500)) == 1)
        // python3 -c "print('03/15/2024 and 04/16/2024'.index('04/16'))" → 15
        let two = "03/15/2024 and 04/16/2024"
        let all = NSRange(location: 0, length: 25)
        #expect(detector.numberOfMatches(in: two, range: all) == 2)
        #expect(
            detector.matches(in: two, options: .anchored, range: all).map(\.range) == [
                NSRange(location: 0, length: 10)
            ])
        #expect(detector.matches(in: two, options: .anchored, range: NSRange(location: 15, length: 10)).count == 1)
        #expect(detector.matches(in: two, options: .anchored, range: NSRange(location: 11, length: 14)).isEmpty)
    }

    @Test func enumerationStopsAndReportsCompletion() throws {
        let detector = try NSDataDetector(types: Self.all.rawValue)
        let text = Self.text
        let whole = NSRange(location: 0, length: (text as NSString).length)
        var seen: [NSRange] = []
        detector.enumerateMatches(in: text, range: whole) { result, _, stop in
            seen.append(result!.range)
            if seen.count == 2 { stop.pointee = true }
        }
        #expect(seen == [NSRange(location: 11, length: 21), NSRange(location: 39, length: 14)])
        var calls: [(Bool, NSRegularExpression.MatchingFlags)] = []
        detector.enumerateMatches(in: text, options: .reportCompletion, range: whole) { result, flags, _ in
            calls.append((result != nil, flags))
        }
        #expect(calls.count == 5 && calls.prefix(4).allSatisfy { $0.0 && $0.1.isEmpty })
        #expect(calls.last.map { !$0.0 && $0.1 == .completed } == true)
    }

    /// The receipts sample's test for a date line: found in "10/22/19 4:36 PM", not in "Additional shot".
    @Test func theReceiptSamplesDateTest() throws {
        let detector = try NSDataDetector(types: NSTextCheckingResult.CheckingType([.date]).rawValue)
        for (line, isDate) in [("10/22/19 4:36 PM", true), ("Additional shot", false), ("Total $4.35", false)] {
            let matches = detector.matches(in: line, options: .init(), range: NSRange(location: 0, length: line.count))
            #expect(matches.isEmpty != isDate, "\(line)")
        }
    }

    /// Types this detector does not find: a Cocoa formatting error (code 2048), as Apple's for an invalid value.
    @Test func typesItCannotFindAreRefused() {
        for types: NSTextCheckingResult.CheckingType in [
            .address, .transitInformation, .regularExpression, [],
            [
                .date, .spelling,
            ],
        ] {
            #expect(throws: (any Error).self) { try NSDataDetector(types: types.rawValue) }
            do {
                _ = try NSDataDetector(types: types.rawValue)
            } catch {
                let error = error as NSError
                #expect(error.domain == NSCocoaErrorDomain && error.code == 2048)
            }
        }
    }
}
