import Foundation
import OpenVision

// Foundation's NSDataDetector, which swift-corelibs-foundation does not have, over OpenVision's `DataDetector`.
// It lives in Core Graphics, the lowest of the Apple modules, which brings Foundation as Apple's does: `import Vision`,
// `import CoreML`, `import CoreImage`, … all reach it. Apple's is a subclass of NSRegularExpression; Linux's
// NSRegularExpression declares its matching methods in an extension, which a subclass cannot override, so this one
// is an NSObject with the same initializer, properties and matching methods (code that calls them builds unchanged;
// code that passes a detector where an NSRegularExpression is expected does not).

/// The bits of `NSTextCheckingResult.CheckingType` as one number, as Apple's `NSTextCheckingTypes` (`UInt64`).
public typealias NSTextCheckingTypes = UInt64

/// Finds dates, links (web addresses, and email addresses as `mailto:` links) and phone numbers in natural-language
/// text, as Foundation's `NSDataDetector`; each match is an `NSTextCheckingResult` whose `resultType` is `.date`,
/// `.link` or `.phoneNumber`, with its `date` (`duration` for a range), `url` or `phoneNumber`.
///
/// The detection is OpenVision's `DataDetector` (its written rules: English month names, ISO and numeric dates, …),
/// not Apple's trained detector: postal addresses (`.address`) and transit information (`.transitInformation`) are
/// not found, and asking for them throws.
open class NSDataDetector: NSObject, @unchecked Sendable {
    // Immutable after init: @unchecked Sendable as Foundation's NSRegularExpression.

    /// The types this detector finds, as given to `init(types:)`.
    public let checkingTypes: NSTextCheckingTypes

    /// The detector's rules' types.
    private let matchTypes: DataDetector.MatchType

    /// A detector for `checkingTypes` (a combination of `NSTextCheckingResult.CheckingType` values' `rawValue`s).
    /// Throws a Cocoa error (`NSCocoaErrorDomain`, code 2048, the value in `NSInvalidValue`) when `checkingTypes`
    /// is empty or holds a type that is not a data-detector type this detector finds (`.date`, `.link`,
    /// `.phoneNumber`).
    public init(types checkingTypes: NSTextCheckingTypes) throws {
        var found: DataDetector.MatchType = []
        var rest = checkingTypes
        for (bit, types) in NSTextCheckingResult.CheckingType.detected where checkingTypes & bit.rawValue != 0 {
            found.formUnion(types)
            rest &= ~bit.rawValue
        }
        guard rest == 0, !found.isEmpty else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: CocoaError.Code.formatting.rawValue,
                userInfo: [
                    "NSInvalidValue": checkingTypes,
                    NSLocalizedDescriptionKey:
                        "The value “\(checkingTypes)” is invalid: this NSDataDetector finds dates, links and phone "
                        + "numbers only.",
                ])
        }
        self.checkingTypes = checkingTypes
        self.matchTypes = found
        super.init()
    }

    /// Calls `block` with each match in `range` of `string`, in order of position, until the block sets its third
    /// argument to true; with `.reportCompletion` in `options`, once more at the end with a nil result and
    /// `.completed`. `.anchored` keeps only a match that starts at `range`'s start; `.withTransparentBounds` reads
    /// the text around `range` to decide what is a match (a match must still lie inside `range`). A `range` that
    /// reaches past the end of `string` is cut at its end.
    open func enumerateMatches(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange,
        using block: (NSTextCheckingResult?, NSRegularExpression.MatchingFlags, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        var stop = ObjCBool(false)
        for result in results(in: string, options: options, range: range) {
            block(result, [], &stop)
            if stop.boolValue { return }
        }
        if options.contains(.reportCompletion) {
            block(nil, [.completed], &stop)
        }
    }

    /// Every match in `range` of `string`, in order of position (see `enumerateMatches(in:options:range:using:)`).
    open func matches(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> [NSTextCheckingResult] {
        results(in: string, options: options, range: range)
    }

    /// The number of matches in `range` of `string`.
    open func numberOfMatches(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> Int {
        results(in: string, options: options, range: range).count
    }

    /// The first match in `range` of `string`, or nil.
    open func firstMatch(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> NSTextCheckingResult? {
        results(in: string, options: options, range: range).first
    }

    /// The range of the first match in `range` of `string`, or `{NSNotFound, 0}` when there is none.
    open func rangeOfFirstMatch(
        in string: String, options: NSRegularExpression.MatchingOptions = [], range: NSRange
    ) -> NSRange {
        firstMatch(in: string, options: options, range: range)?.range ?? NSRange(location: NSNotFound, length: 0)
    }

    /// The matches in `range` of `string`, as results with ranges in `string`.
    private func results(
        in string: String, options: NSRegularExpression.MatchingOptions, range: NSRange
    ) -> [NSTextCheckingResult] {
        let ns = string as NSString
        let start = min(max(range.location, 0), ns.length)
        let window = NSRange(location: start, length: min(max(range.length, 0), ns.length - start))
        guard window.length > 0 else { return [] }
        // The text scanned, and where it starts in `string`.
        let (text, offset) =
            options.contains(.withTransparentBounds) ? (string, 0) : (ns.substring(with: window), window.location)
        var found: [NSTextCheckingResult] = []
        for match in DataDetector.matches(in: text, types: matchTypes) {
            guard let r = match.range else { continue }
            let local = NSRange(r, in: text)
            let inString = NSRange(location: local.location + offset, length: local.length)
            guard NSIntersectionRange(inString, window) == inString else { continue }
            if options.contains(.anchored), inString.location != window.location { continue }
            if let result = DataDetectorCheckingResult(match.details, range: inString) {
                found.append(result)
            }
        }
        return found
    }
}

extension NSTextCheckingResult.CheckingType {
    /// The checking types a data detector finds, each with the rules' types that find it (an email address is a
    /// `mailto:` link, as on Apple platforms). Swift-corelibs-foundation's values of `.date`, `.link` and
    /// `.phoneNumber` (which it declares deprecated, as it returns no such result).
    static let detected: [(NSTextCheckingResult.CheckingType, DataDetector.MatchType)] = [
        (dateType, .calendarEvent), (linkType, [.link, .emailAddress]), (phoneNumberType, .phoneNumber),
    ]
    /// `.date` (1 << 4 in swift-corelibs-foundation).
    static let dateType = NSTextCheckingResult.CheckingType(rawValue: 1 << 4)
    /// `.link` (1 << 6 in swift-corelibs-foundation).
    static let linkType = NSTextCheckingResult.CheckingType(rawValue: 1 << 6)
    /// `.phoneNumber` (1 << 11 in swift-corelibs-foundation).
    static let phoneNumberType = NSTextCheckingResult.CheckingType(rawValue: 1 << 11)
}
