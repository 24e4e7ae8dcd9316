import Foundation
import OpenVision

// The data of NSDataDetector's results: Apple's NSTextCheckingResult properties that swift-corelibs-foundation's
// lacks (its results are regular-expression matches only). Each is nil (0 for `duration`) on a result that is not of
// its type, as on Apple platforms.
extension NSTextCheckingResult {
    /// A `.date` result's date (the start of a range such as "March 3–5, 2025"; midnight when no time of day is
    /// written), in the current time zone; nil for other results.
    public var date: Date? { (self as? DataDetectorCheckingResult)?.foundDate }

    /// A `.date` result's length in seconds: to the end of a range ("March 3–5, 2025"), else 0.
    public var duration: TimeInterval { (self as? DataDetectorCheckingResult)?.foundDuration ?? 0 }

    /// A `.link` result's URL ("www.…" and bare domains get `http://`, email addresses `mailto:`); nil for others.
    public var url: URL? { (self as? DataDetectorCheckingResult)?.foundURL }

    /// A `.phoneNumber` result's number as written; nil for others.
    public var phoneNumber: String? { (self as? DataDetectorCheckingResult)?.foundPhoneNumber }
}

/// One match of an `NSDataDetector`: a date, a link or a phone number at a range of the scanned string.
final class DataDetectorCheckingResult: NSTextCheckingResult {
    /// `.date`, `.link` or `.phoneNumber`.
    let type: NSTextCheckingResult.CheckingType
    /// Where the match is in the scanned string (UTF-16 units).
    let matchRange: NSRange
    /// A date's start.
    let foundDate: Date?
    /// A date range's length in seconds.
    let foundDuration: TimeInterval
    /// A link's URL.
    let foundURL: URL?
    /// A phone number as written.
    let foundPhoneNumber: String?

    /// The result for `details` at `range`; nil for a date without a start.
    init?(_ details: DataDetector.Match.SemanticDetails, range: NSRange) {
        var date: Date?
        var duration: TimeInterval = 0
        var url: URL?
        var phoneNumber: String?
        switch details {
        case .calendarEvent(let event):
            guard let start = event.startDate else { return nil }
            type = .dateType
            date = start
            duration = event.endDate.map { $0.timeIntervalSince(start) } ?? 0
        case .link(let link):
            type = .linkType
            url = link.url
        case .emailAddress(let address):
            guard let mailto = URL(string: "mailto:" + address.emailAddress) else { return nil }
            type = .linkType
            url = mailto
        case .phoneNumber(let number):
            type = .phoneNumberType
            phoneNumber = number.phoneNumber
        }
        (matchRange, foundDate, foundDuration, foundURL, foundPhoneNumber) =
            (range, date, duration, url, phoneNumber)
        super.init()
    }

    /// Results are not archived (Foundation's coder on Linux knows only regular-expression results): decoding one
    /// gives nil.
    required init?(coder aDecoder: NSCoder) {
        return nil
    }

    override var resultType: NSTextCheckingResult.CheckingType { type }

    override func range(at idx: Int) -> NSRange {
        idx == 0 ? matchRange : NSRange(location: NSNotFound, length: 0)
    }

    override func range(withName: String) -> NSRange {
        NSRange(location: NSNotFound, length: 0)
    }
}
