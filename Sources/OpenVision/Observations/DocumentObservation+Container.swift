import Foundation

extension DocumentObservation {
    /// A region of a document's content, as Vision's `DocumentObservation.Container`: the whole document
    /// (`DocumentObservation.document`), a table cell (`Table.Cell.content`) or a list item (`List.Item.content`).
    public struct Container: Sendable, Hashable, Codable, BoundingRegionProviding {
        /// All the text in the container, in reading order: title, paragraphs, list items and table cells (row by row)
        /// as they come on the page.
        public var text: Text
        /// The document's title: its largest text near the top of the page, when it stands out (at least 1.3 times
        /// the height of the body text); nil for a page without one and for cells and list items. Not repeated in
        /// `paragraphs`.
        public var title: Text?
        /// The text outside the title, lists and tables, one entry per paragraph, in reading order.
        public var paragraphs: [Text]
        /// The lists, in reading order.
        public var lists: [List]
        /// The tables, in reading order.
        public var tables: [Table]
        /// The barcodes on the page (`RecognizeDocumentsRequest.barcodeDetectionOptions`); empty in cells and items.
        public var barcodes: [BarcodeObservation]
        /// The region around the container's content.
        public var boundingRegion: NormalizedRegion

        /// A container of the given parts.
        public init(
            text: Text, title: Text? = nil, paragraphs: [Text] = [], lists: [List] = [], tables: [Table] = [],
            barcodes: [BarcodeObservation] = [], boundingRegion: NormalizedRegion
        ) {
            self.text = text
            self.title = title
            self.paragraphs = paragraphs
            self.lists = lists
            self.tables = tables
            self.barcodes = barcodes
            self.boundingRegion = boundingRegion
        }
    }
}

extension DocumentObservation.Container {
    /// A piece of the document's data (an email address, a link, a phone number, a date) with where it is, as
    /// Vision's `DocumentObservation.Container.DataDetectorMatch`.
    public struct DataDetectorMatch: Sendable, Hashable, Codable, BoundingRegionProviding {
        /// What was found; its range is in the `transcript` of the text it was found in.
        public var match: DataDetector.Match
        /// The region around the characters of the match.
        public var boundingRegion: NormalizedRegion

        /// A match found at `boundingRegion`.
        public init(match: DataDetector.Match, boundingRegion: NormalizedRegion) {
            self.match = match
            self.boundingRegion = boundingRegion
        }
    }
}
