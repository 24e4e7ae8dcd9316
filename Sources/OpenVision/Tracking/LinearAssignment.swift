/// Optimal linear assignment: the Hungarian method in its shortest-augmenting-path form (Jonker–Volgenant
/// style, with row and column potentials), O(rows² · columns). Exact for any finite costs; ties are broken
/// deterministically (lowest column index first).
package enum LinearAssignment {
    /// The assignment of minimum total cost: for each row, its column, or nil when there are more rows than
    /// columns and the row is left out. Every row is assigned when rows ≤ columns, every column otherwise
    /// (scipy.optimize.linear_sum_assignment's contract). `cost` is row-major, all rows the same length, finite.
    package static func solve(_ cost: [[Double]]) -> [Int?] {
        let rows = cost.count
        let columns = cost.first?.count ?? 0
        guard rows > 0, columns > 0 else { return Array(repeating: nil, count: rows) }
        if rows <= columns {
            return solveWide(cost.flatMap { $0 }, rows: rows, columns: columns).map { Optional($0) }
        }
        // More rows than columns: solve the transpose and invert it.
        var transposed = [Double](repeating: 0, count: rows * columns)
        for r in 0..<rows { for c in 0..<columns { transposed[c * rows + r] = cost[r][c] } }
        let rowOfColumn = solveWide(transposed, rows: columns, columns: rows)
        var result = [Int?](repeating: nil, count: rows)
        for (c, r) in rowOfColumn.enumerated() { result[r] = c }
        return result
    }

    /// ByteTrack's matching (`lap.lapjv(cost, extend_cost=True, cost_limit=threshold)`): the pairs minimising
    /// the cost of the matched pairs plus `threshold / 2` for every row and every column left unmatched, so a
    /// pair is matched only when its cost is at most `threshold`. Matches are in row order. `columns` is
    /// the number of columns (which an empty `cost` cannot tell).
    package static func match(_ cost: [[Double]], columns: Int, threshold: Double)
        -> (matches: [(row: Int, column: Int)], unmatchedRows: [Int], unmatchedColumns: [Int])
    {
        let rows = cost.count
        guard rows > 0, columns > 0 else { return ([], Array(0..<rows), Array(0..<columns)) }
        // A row (column) with no cost within the threshold is never matched in an optimal solution:
        // matching it at c > threshold costs more than leaving both ends unmatched (threshold).
        let liveRows = (0..<rows).filter { r in cost[r].contains { $0 <= threshold } }
        let liveColumns = (0..<columns).filter { c in liveRows.contains { cost[$0][c] <= threshold } }
        var matches: [(row: Int, column: Int)] = []
        if !liveRows.isEmpty && !liveColumns.isEmpty {
            // The extended square problem: [cost, limit/2; limit/2, 0] of size rows + columns.
            let n = liveRows.count
            let m = liveColumns.count
            let size = n + m
            var extended = [Double](repeating: threshold / 2, count: size * size)
            for i in 0..<n {
                for j in 0..<m { extended[i * size + j] = min(cost[liveRows[i]][liveColumns[j]], threshold + 1) }
            }
            for i in n..<size { for j in m..<size { extended[i * size + j] = 0 } }
            let assignment = solveWide(extended, rows: size, columns: size)
            for i in 0..<n where assignment[i] < m && cost[liveRows[i]][liveColumns[assignment[i]]] <= threshold {
                matches.append((liveRows[i], liveColumns[assignment[i]]))
            }
        }
        var rowMatched = [Bool](repeating: false, count: rows)
        var columnMatched = [Bool](repeating: false, count: columns)
        for match in matches {
            rowMatched[match.row] = true
            columnMatched[match.column] = true
        }
        return (matches, (0..<rows).filter { !rowMatched[$0] }, (0..<columns).filter { !columnMatched[$0] })
    }

    /// rows ≤ columns; `a` row-major. Returns the column of each row.
    private static func solveWide(_ a: [Double], rows n: Int, columns m: Int) -> [Int] {
        // 1-based potentials and links, index 0 being the virtual start (e-maxx's formulation).
        var u = [Double](repeating: 0, count: n + 1)
        var v = [Double](repeating: 0, count: m + 1)
        var rowOfColumn = [Int](repeating: 0, count: m + 1)
        var way = [Int](repeating: 0, count: m + 1)
        var minv = [Double](repeating: 0, count: m + 1)
        var used = [Bool](repeating: false, count: m + 1)
        for i in 1...n {
            rowOfColumn[0] = i
            var j0 = 0
            for j in 0...m {
                minv[j] = .infinity
                used[j] = false
            }
            repeat {
                used[j0] = true
                let i0 = rowOfColumn[j0]
                let base = (i0 - 1) * m
                var delta = Double.infinity
                var j1 = 0
                for j in 1...m where !used[j] {
                    let current = a[base + j - 1] - u[i0] - v[j]
                    if current < minv[j] {
                        minv[j] = current
                        way[j] = j0
                    }
                    if minv[j] < delta {
                        delta = minv[j]
                        j1 = j
                    }
                }
                for j in 0...m {
                    if used[j] {
                        u[rowOfColumn[j]] += delta
                        v[j] -= delta
                    } else {
                        minv[j] -= delta
                    }
                }
                j0 = j1
            } while rowOfColumn[j0] != 0
            repeat {
                let j1 = way[j0]
                rowOfColumn[j0] = rowOfColumn[j1]
                j0 = j1
            } while j0 != 0
        }
        var columnOfRow = [Int](repeating: 0, count: n)
        for j in 1...m where rowOfColumn[j] != 0 { columnOfRow[rowOfColumn[j] - 1] = j - 1 }
        return columnOfRow
    }
}
