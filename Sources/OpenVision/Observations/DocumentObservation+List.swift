import Foundation

extension DocumentObservation.Container {
    /// A list in a document, as Vision's `DocumentObservation.Container.List`: two or more items in a column, each
    /// starting with a marker of the same kind (a bullet or dash, drawn or typed; a number, "1." "2)" "(3)" "1.2"; a
    /// letter, "a." "B)") at the same indentation, continuation lines indented past the marker.
    public struct List: Sendable, Hashable, Codable, BoundingRegionProviding {
        /// What starts each item, as Vision's `DocumentObservation.Container.List.Marker`.
        public enum Marker: String, Sendable, Hashable, Codable {
            /// A bullet ("•", "●", "▪", "*", or a drawn dot or square).
            case bullet
            /// Numbers with parts ("1.2", "3.1.4").
            case compositeDecimal
            /// Numbers ("1.", "2)", "(3)").
            case decimal
            /// Numbers in circles ("①").
            case decorativeDecimal
            /// A dash ("-", "–", "—", or a drawn one).
            case hyphen
            /// Lowercase letters ("a.", "b)").
            case lowercaseLatin
            /// Uppercase letters ("A.", "B)").
            case uppercaseLatin
        }

        /// One entry of a list, as Vision's `DocumentObservation.Container.List.Item`.
        public struct Item: Sendable, Hashable, Codable {
            /// The item's text, its marker included when typed.
            public var content: DocumentObservation.Container
            /// The item's text without its marker.
            public var itemString: String
            /// The marker as written ("•" for a drawn bullet, "–" for a drawn dash).
            public var markerString: String
            /// The marker's kind.
            public var markerType: Marker?

            /// An item of `content` whose marker is `markerString`.
            public init(
                content: DocumentObservation.Container, itemString: String, markerString: String, markerType: Marker?
            ) {
                self.content = content
                self.itemString = itemString
                self.markerString = markerString
                self.markerType = markerType
            }
        }

        /// The items, in order.
        public var items: [Item]
        /// The region around the items.
        public var boundingRegion: NormalizedRegion

        /// A list of `items` around `boundingRegion`.
        public init(items: [Item], boundingRegion: NormalizedRegion) {
            self.items = items
            self.boundingRegion = boundingRegion
        }
    }
}
