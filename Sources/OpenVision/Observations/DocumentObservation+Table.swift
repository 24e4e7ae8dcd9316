import Foundation

extension DocumentObservation.Container {
    /// A table in a document, as Vision's `DocumentObservation.Container.Table`: its cells on a grid of rows and
    /// columns, a cell spanning several when merged.
    public struct Table: Sendable, Hashable, Codable, BoundingRegionProviding {
        /// One cell, as Vision's `DocumentObservation.Container.Table.Cell`.
        public struct Cell: Sendable, Hashable, Codable {
            /// The rows the cell covers (0-based; more than one for a merged cell).
            public var rowRange: ClosedRange<Int>
            /// The columns the cell covers (0-based).
            public var columnRange: ClosedRange<Int>
            /// What the cell holds: its text (`content.text.transcript`) and region (`content.boundingRegion`).
            public var content: DocumentObservation.Container

            /// A cell covering `rowRange` × `columnRange`.
            public init(
                rowRange: ClosedRange<Int>, columnRange: ClosedRange<Int>, content: DocumentObservation.Container
            ) {
                self.rowRange = rowRange
                self.columnRange = columnRange
                self.content = content
            }
        }

        /// Every cell once, row by row, each row left to right (by where the cell starts).
        public var cells: [Cell]
        /// The region around the table.
        public var boundingRegion: NormalizedRegion

        /// A table of `cells` around `boundingRegion`.
        public init(cells: [Cell], boundingRegion: NormalizedRegion) {
            self.cells = cells.sorted {
                ($0.rowRange.lowerBound, $0.columnRange.lowerBound) < (
                    $1.rowRange.lowerBound, $1.columnRange.lowerBound
                )
            }
            self.boundingRegion = boundingRegion
        }

        /// The number of rows (one past the last row a cell covers).
        public var rowCount: Int { (cells.map(\.rowRange.upperBound).max() ?? -1) + 1 }
        /// The number of columns.
        public var columnCount: Int { (cells.map(\.columnRange.upperBound).max() ?? -1) + 1 }

        /// The rows: for each, the cells that cover it, left to right (a cell spanning rows is in each of them).
        public var rows: [[Cell]] {
            (0..<rowCount).map { r in
                cells.filter { $0.rowRange.contains(r) }.sorted {
                    $0.columnRange.lowerBound < $1.columnRange.lowerBound
                }
            }
        }

        /// The columns: for each, the cells that cover it, top to bottom.
        public var columns: [[Cell]] {
            (0..<columnCount).map { c in
                cells.filter { $0.columnRange.contains(c) }.sorted { $0.rowRange.lowerBound < $1.rowRange.lowerBound }
            }
        }

        /// The cell covering row `row` and column `col`, if any.
        public func cell(row: Int, col: Int) -> Cell? {
            cells.first { $0.rowRange.contains(row) && $0.columnRange.contains(col) }
        }
    }
}
