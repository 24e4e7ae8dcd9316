/// The order a page is read in: a recursive XY cut of its blocks and tables. Where a vertical gap runs through
/// every unit of a part (columns), its columns are read left to right; else where horizontal gaps do (bands), its
/// bands top to bottom, consecutive bands that are both split into columns (and still are together) read as one;
/// each column and band is cut again. Units that no gap separates are read top to bottom, then
/// left to right.
enum ReadingOrder {
    /// A block of lines or a table, with its box on the level page.
    struct Unit {
        enum Kind {
            case block(DocumentLayout.Block)
            case table(DocumentRecognizer.RecognizedTable)
        }

        var box: PageBox
        var kind: Kind
    }

    static func sorted(_ units: [Unit]) -> [Unit] {
        order(Array(units.indices), units).map { units[$0] }
    }

    private static func order(_ indices: [Int], _ units: [Unit]) -> [Int] {
        guard indices.count > 1 else { return indices }
        let columns = groups(indices, start: { units[$0].box.x0 }, end: { units[$0].box.x1 })
        if columns.count > 1 { return columns.flatMap { order($0, units) } }
        let bands = merged(groups(indices, start: { units[$0].box.y0 }, end: { units[$0].box.y1 }), units)
        if bands.count > 1 { return bands.flatMap { order($0, units) } }
        return indices.sorted { (units[$0].box.y0, units[$0].box.x0) < (units[$1].box.y0, units[$1].box.x0) }
    }

    /// Consecutive bands that are each split into columns and still are together, joined: a gap that cuts across
    /// columns (the left column's paragraph ending where the right one's starts) does not end them.
    private static func merged(_ bands: [[Int]], _ units: [Unit]) -> [[Int]] {
        func columnCount(_ indices: [Int]) -> Int {
            groups(indices, start: { units[$0].box.x0 }, end: { units[$0].box.x1 }).count
        }
        var out: [[Int]] = []
        for band in bands {
            if let last = out.last, columnCount(last) > 1, columnCount(band) > 1, columnCount(last + band) > 1 {
                out[out.count - 1] += band
            } else {
                out.append(band)
            }
        }
        return out
    }

    /// `indices` in groups whose intervals (start…end) overlap, groups in order along the axis.
    private static func groups(_ indices: [Int], start: (Int) -> Double, end: (Int) -> Double) -> [[Int]] {
        var out: [[Int]] = []
        var reach = -Double.infinity
        for i in indices.sorted(by: { start($0) < start($1) }) {
            if out.isEmpty || start(i) >= reach {
                out.append([i])
            } else {
                out[out.count - 1].append(i)
            }
            reach = max(reach, end(i))
        }
        return out
    }
}
