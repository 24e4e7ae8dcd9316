import Foundation

/// Cells the structure model split where the page draws no line between them (not in rapid-table). SLANet-plus reads
/// spans from the picture as a whole and now and then misses one: on the timetable turned −2°, "Biology" over two
/// columns came back as a cell and an empty one beside it. In a ruled table (most boundaries between neighbouring
/// cells show a drawn line) a cell with text and its empty neighbour to the right (over the same rows) or below (over
/// the same columns) with no line between them are one cell. A table without rulings is left as read.
enum TableRulings {
    /// A grid cell: its rows, columns and box (the table image's pixels), and the text pieces matched into it.
    typealias Cell = (rows: ClosedRange<Int>, columns: ClosedRange<Int>, box: PageBox, members: [Int])

    /// A boundary with a line across this share of it or more is drawn.
    static let drawn = 0.8
    /// A boundary with a line across less than this share of it is open.
    static let open = 0.3

    /// `cells` with each open boundary between a cell with text and an empty neighbour merged, when most boundaries
    /// of that direction are drawn. `line(a, b, right)` measures the boundary between `a` and `b` (`b` right of `a`
    /// when `right`, else below it), 0…1 (`lineShare`).
    static func merged(_ cells: [Cell], line: (PageBox, PageBox, Bool) -> Double) -> [Cell] {
        var cells = cells
        for right in [true, false] {
            // Neighbouring pairs in this direction: the same rows and the next column, or the same columns and the
            // next row.
            func neighbours(_ a: Cell, _ b: Cell) -> Bool {
                right
                    ? a.rows == b.rows && b.columns.lowerBound == a.columns.upperBound + 1
                    : a.columns == b.columns && b.rows.lowerBound == a.rows.upperBound + 1
            }
            var pairs: [(Int, Int, Double)] = []
            for i in cells.indices {
                for j in cells.indices where neighbours(cells[i], cells[j]) {
                    pairs.append((i, j, line(cells[i].box, cells[j].box, right)))
                }
            }
            let drawnCount = pairs.filter { $0.2 >= drawn }.count
            guard drawnCount >= 2, 2 * drawnCount > pairs.count else { continue }
            var absorbed = Set<Int>()
            for (i, j, share) in pairs
            where share < open && !cells[i].members.isEmpty && cells[j].members.isEmpty && !absorbed.contains(i)
                && !absorbed.contains(j)
            {
                if right {
                    cells[i].columns = cells[i].columns.lowerBound...cells[j].columns.upperBound
                } else {
                    cells[i].rows = cells[i].rows.lowerBound...cells[j].rows.upperBound
                }
                cells[i].box = cells[i].box.union(cells[j].box)
                absorbed.insert(j)
            }
            cells = cells.indices.filter { !absorbed.contains($0) }.map { cells[$0] }
        }
        return cells
    }

    /// How far a drawn line runs along the boundary between `a` and `b` (the table image's pixels; `b` right of `a`
    /// when `right`, else below): over the middle 60 % of the span both cells share, the largest share of dark pixels
    /// (under half the image's median gray) along one column (row) near the boundary (between the two boxes' facing
    /// edges, 8 pixels more each side). 0 when the cells share no span.
    static func lineShare(
        gray: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, median: UInt8, a: PageBox, b: PageBox,
        right: Bool
    ) -> Double {
        // The model's boxes may lie partly outside the image (or be garbage): every index is clamped to it.
        guard [a.x0, a.y0, a.x1, a.y1, b.x0, b.y0, b.x1, b.y1].allSatisfy(\.isFinite) else { return 0 }
        let dark = median / 2
        let (e0, e1) = right ? (a.x1, b.x0) : (a.y1, b.y0)
        let limit = right ? width : height
        let along = right ? height : width
        func index(_ v: Double, _ n: Int) -> Int { Int(min(max(v, -16), Double(n) + 16)) }
        let lo = max(0, index(min(e0, e1), limit) - 8)
        let hi = min(limit - 1, index(max(e0, e1), limit) + 8)
        let (s0, s1) = right ? (max(a.y0, b.y0), min(a.y1, b.y1)) : (max(a.x0, b.x0), min(a.x1, b.x1))
        let first = max(0, index(s0 + 0.2 * (s1 - s0), along))
        let last = min(along - 1, index(s1 - 0.2 * (s1 - s0), along))
        guard lo <= hi, first < last else { return 0 }
        var best = 0.0
        for k in lo...hi {
            var count = 0
            for t in first...last where (right ? gray[t * stride + k] : gray[k * stride + t]) < dark { count += 1 }
            best = max(best, Double(count) / Double(last - first + 1))
        }
        return best
    }
}
