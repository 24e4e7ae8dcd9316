import Foundation

/// Finds data in text (email addresses, links, phone numbers and dates), as the iOS 26 `DataDetector` of Apple's
/// DataDetection framework: `text.dataDetectorMatches(.all)`, and `DocumentObservation.Container.Text.detectedData`
/// for what a document says. Ours is a set of written rules (see `DataDetector+Scanning.swift`), not Apple's trained
/// detector; the kinds of data it does not find (postal addresses, money amounts, measurements, flight and tracking
/// numbers, payment identifiers) have no case here.
public enum DataDetector {
    /// One piece of data found in a string.
    public struct Match: Sendable, Hashable, Codable {
        /// What was found, with its values.
        public let details: SemanticDetails
        /// Where in the scanned string it was found.
        public let range: Range<String.Index>?

        /// A match of `details` at `range` of the scanned string.
        public init(details: SemanticDetails, range: Range<String.Index>?) {
            self.details = details
            self.range = range
        }

        // Ranges are not Codable: a match encodes its details only.
        private enum CodingKeys: String, CodingKey { case details }

        /// Decodes a match's details; its range is nil (it belonged to the string that was scanned).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            details = try container.decode(SemanticDetails.self, forKey: .details)
            range = nil
        }

        /// Encodes the details (not the range, which only means something in the scanned string).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(details, forKey: .details)
        }

        /// The kinds of data a match can be, each with its values.
        public enum SemanticDetails: Sendable, Hashable, Codable {
            /// A date, a date and time, or a range of them.
            case calendarEvent(CalendarEvent)
            /// An email address.
            case emailAddress(EmailAddress)
            /// A web link.
            case link(Link)
            /// A phone number.
            case phoneNumber(PhoneNumber)

            /// A date, or a date and time, found in text.
            public struct CalendarEvent: Sendable, Hashable, Codable {
                /// True when the text gives no time of day.
                public let allDay: Bool
                /// The date (at midnight for an all-day date), in `DataDetector.Options.documentTimeZone`.
                public let startDate: Date?
                /// The end of a range ("March 3 – 5, 2025"), else nil.
                public let endDate: Date?

                /// An event from `startDate` (to `endDate`), `allDay` when no time of day was given.
                public init(allDay: Bool, startDate: Date?, endDate: Date?) {
                    self.allDay = allDay
                    self.startDate = startDate
                    self.endDate = endDate
                }
            }

            /// An email address.
            public struct EmailAddress: Sendable, Hashable, Codable {
                /// The address as written.
                public let emailAddress: String
                /// An address as written.
                public init(emailAddress: String) { self.emailAddress = emailAddress }
            }

            /// A web link.
            public struct Link: Sendable, Hashable, Codable {
                /// The link; "www.…" and bare domains get `http://`.
                public let url: URL
                /// A link to `url`.
                public init(url: URL) { self.url = url }
            }

            /// A phone number.
            public struct PhoneNumber: Sendable, Hashable, Codable {
                /// The number as written (its digits, separators and leading "+").
                public let phoneNumber: String
                /// A number as written.
                public init(phoneNumber: String) { self.phoneNumber = phoneNumber }
            }
        }
    }

    /// Which kinds of data to look for.
    public struct MatchType: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: Int
        /// The types of `rawValue`'s bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Dates and times.
        public static let calendarEvent = MatchType(rawValue: 1 << 0)
        /// Email addresses.
        public static let emailAddress = MatchType(rawValue: 1 << 1)
        /// Web links.
        public static let link = MatchType(rawValue: 1 << 2)
        /// Phone numbers.
        public static let phoneNumber = MatchType(rawValue: 1 << 3)
        /// Every kind this detector finds.
        public static let all: MatchType = [.calendarEvent, .emailAddress, .link, .phoneNumber]
    }

    /// Context for reading what the text leaves out.
    public struct Options: Sendable, Hashable {
        /// The date the text was written: the year of a date given without one ("March 5"). Default nil: this
        /// year.
        public var documentDate: Date?
        /// The time zone dates are read in. Default nil: the current one.
        public var documentTimeZone: TimeZone?

        /// Options with every default.
        public init() {}
    }
}
