/// rapid-table 0.3.0's `TableMatch` (`table_matcher/matcher.py`): which recognised text goes into which cell. Text
/// boxes above the table's top edge are dropped; each remaining box goes to the cell with the highest IoU, ties (and
/// no overlap) broken by the smallest corner distance (`distance`: the L1 distance of both corners plus the smaller of
/// the two); a cell's text is its boxes' strings in reading order, joined by spaces.
enum TableTextMatcher {
    /// For each cell of `cells` (boxes in the table image's pixels), the indices of `texts` (boxes in the same
    /// pixels, in reading order) that go into it, in reading order.
    static func match(texts: [PageBox], cells: [PageBox]) -> [[Int]] {
        var assigned = [[Int]](repeating: [], count: cells.count)
        guard let top = cells.map(\.y0).min() else { return assigned }
        for (i, text) in texts.enumerated() where text.y1 >= top {
            var best = -1
            var bestKey = (Double.infinity, Double.infinity)
            for (j, cell) in cells.enumerated() {
                let key = (1 - iou(text, cell), distance(text, cell))
                if key < bestKey {
                    bestKey = key
                    best = j
                }
            }
            if best >= 0 { assigned[best].append(i) }
        }
        return assigned
    }

    /// A cell's text from its pieces (`get_pred_html`): alone, as is; several, each without a leading space or
    /// `<b>`/`</b>`, empty ones skipped, joined with single spaces.
    static func join(_ pieces: [String]) -> String {
        guard pieces.count > 1 else { return pieces.first ?? "" }
        var out = ""
        for (k, piece) in pieces.enumerated() {
            var content = Substring(piece)
            if content.first == " " { content = content.dropFirst() }
            if content.hasPrefix("<b>") { content = content.dropFirst(3) }
            if content.hasSuffix("</b>") { content = content.dropLast(4) }
            guard !content.isEmpty else { continue }
            out += content
            if k != pieces.count - 1 && content.last != " " { out += " " }
        }
        return out
    }

    /// rapid-table's `compute_iou` (0 when the boxes only touch).
    static func iou(_ a: PageBox, _ b: PageBox) -> Double {
        let left = max(a.x0, b.x0)
        let right = min(a.x1, b.x1)
        let top = max(a.y0, b.y0)
        let bottom = min(a.y1, b.y1)
        guard left < right, top < bottom else { return 0 }
        let intersection = (right - left) * (bottom - top)
        let sum = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0)
        return intersection / (sum - intersection)
    }

    /// rapid-table's `distance`.
    static func distance(_ a: PageBox, _ b: PageBox) -> Double {
        let first = abs(b.x0 - a.x0) + abs(b.y0 - a.y0)
        let second = abs(b.x1 - a.x1) + abs(b.y1 - a.y1)
        return first + second + min(first, second)
    }
}
