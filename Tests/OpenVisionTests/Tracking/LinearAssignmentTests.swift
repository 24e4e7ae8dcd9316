import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The Hungarian solver against scipy and brute force.
@Suite struct LinearAssignmentTests {
    /// Expected from scipy 1.x:
    /// rng = np.random.default_rng(9); c = np.round(rng.random(shape) * 100, 2); r, k = linear_sum_assignment(c)
    /// for shape in [(5,5), (4,7), (8,3), (10,10)] in turn; total = c[r, k].sum().
    static let scipyCases: [(cost: [[Double]], columns: [Int?], total: Double)] = [
        (
            [
                [87.02, 28.68, 60.31, 77.75, 71.61],
                [91.54, 86.04, 91.82, 2.66, 43.72],
                [48.49, 6.52, 0.56, 83.06, 98.33],
                [78.46, 31.56, 70.53, 29.92, 74.07],
                [27.97, 78.26, 98.77, 98.62, 88.29],
            ], [1, 4, 2, 3, 0], 130.85
        ),
        (
            [
                [91.28, 70.82, 55.45, 92.32, 8.97, 37.01, 60.59],
                [47.77, 79.29, 19.51, 6.23, 12.65, 96.28, 13.28],
                [22.61, 37.71, 62.34, 78.21, 7.86, 93.12, 76.28],
                [32.1, 18.93, 59.6, 59.47, 26.75, 16.94, 76.65],
            ], [4, 3, 0, 5], 54.75
        ),
        (
            [
                [67.27, 80.02, 21.96],
                [72.32, 7.46, 0.73],
                [17.94, 78.2, 54.01],
                [61.67, 59.25, 63.59],
                [32.29, 72.06, 1.47],
                [37.72, 5.47, 12.58],
                [90.46, 60.25, 79.09],
                [60.57, 57.19, 79.5],
            ], [nil, 2, 0, nil, nil, 1, nil, nil], 24.14
        ),
        (
            [
                [62.31, 51.03, 55.65, 56.89, 34.2, 66.78, 40.69, 65.45, 48.48, 74.84],
                [69.31, 3.94, 78.22, 89.67, 33.1, 73.29, 84.53, 49.88, 12.91, 73.15],
                [83.87, 31.15, 21.86, 76.67, 51.62, 1.5, 19.56, 21.73, 58.16, 55.9],
                [51.71, 34.11, 39.24, 50.04, 56.89, 56.5, 71.55, 99.42, 74.88, 49.06],
                [97.7, 12.51, 95.27, 50.09, 48.34, 84.91, 60.88, 82.16, 36.89, 55.36],
                [64.88, 23.62, 76.38, 15.55, 13.32, 26.96, 80.99, 47.55, 3.5, 19.78],
                [56.35, 6.09, 31.61, 21.15, 68.95, 14.51, 37.04, 44.94, 90.14, 40.4],
                [13.6, 42.15, 37.15, 56.77, 12.5, 42.23, 65.41, 41.01, 94.63, 36.37],
                [87.29, 33.33, 39.98, 70.5, 53.88, 93.17, 88.58, 28.45, 32.32, 64.52],
                [79.28, 11.19, 90.61, 35.44, 14.32, 26.53, 79.84, 25.59, 11.76, 59.71],
            ], [6, 8, 5, 2, 1, 9, 3, 0, 7, 4], 204.15
        ),
    ]

    @Test func matchesScipy() {
        for (cost, columns, total) in Self.scipyCases {
            let assignment = LinearAssignment.solve(cost)
            #expect(assignment == columns, "\(cost.count)x\(cost[0].count)")
            let sum = Self.total(cost, assignment)
            #expect(abs(sum - total) < 1e-9)
        }
    }

    /// Every permutation (or injection) of random small matrices, including ties (integer costs).
    @Test func isOptimalAgainstBruteForce() {
        var random = SplitMix(seed: 42)
        for trial in 0..<300 {
            let rows = 1 + trial % 5
            let columns = 1 + (trial / 5) % 6
            let integer = trial % 2 == 0
            let cost = (0..<rows).map { _ in
                (0..<columns).map { _ in integer ? Double(Int(random.next() * 5)) : random.next() * 10 }
            }
            let assignment = LinearAssignment.solve(cost)
            let assigned = assignment.compactMap { $0 }
            #expect(assigned.count == min(rows, columns) && Set(assigned).count == assigned.count)
            let ours = Self.total(cost, assignment)
            #expect(abs(ours - Self.bruteForce(cost)) < 1e-9, "\(cost)")
        }
    }

    /// ByteTrack's thresholded matching minimises matched cost + threshold/2 per unmatched row and column.
    @Test func thresholdedMatchingIsOptimal() {
        var random = SplitMix(seed: 3)
        for trial in 0..<300 {
            let rows = trial % 5
            let columns = (trial / 5) % 5
            let cost = (0..<rows).map { _ in (0..<columns).map { _ in random.next() } }
            let threshold = 0.2 + 0.6 * random.next()
            let result = LinearAssignment.match(cost, columns: columns, threshold: threshold)
            #expect(result.matches.allSatisfy { cost[$0.row][$0.column] <= threshold })
            #expect(result.matches.count + result.unmatchedRows.count == rows)
            #expect(result.matches.count + result.unmatchedColumns.count == columns)
            let ours =
                result.matches.reduce(0.0) { $0 + cost[$1.row][$1.column] }
                + Double(result.unmatchedRows.count + result.unmatchedColumns.count) * threshold / 2
            // Brute force over every partial matching: min over injections of Σ min(c − threshold, 0).
            let best = Self.bestPartial(cost, threshold: threshold) + Double(rows + columns) * threshold / 2
            #expect(abs(ours - best) < 1e-9, "\(cost) \(threshold)")
        }
    }

    @Test func emptyInputs() {
        #expect(LinearAssignment.solve([]).isEmpty)
        let result = LinearAssignment.match([[], []], columns: 0, threshold: 0.5)
        #expect(result.matches.isEmpty && result.unmatchedRows == [0, 1] && result.unmatchedColumns.isEmpty)
        let noRows = LinearAssignment.match([], columns: 3, threshold: 0.5)
        #expect(noRows.matches.isEmpty && noRows.unmatchedRows.isEmpty && noRows.unmatchedColumns == [0, 1, 2])
    }

    static func total(_ cost: [[Double]], _ assignment: [Int?]) -> Double {
        var sum = 0.0
        for (row, column) in assignment.enumerated() { if let column { sum += cost[row][column] } }
        return sum
    }

    static func bruteForce(_ cost: [[Double]]) -> Double {
        let rows = cost.count
        let columns = cost[0].count
        var best = Double.infinity
        func go(_ r: Int, _ used: Set<Int>, _ sum: Double, _ skips: Int) {
            if r == rows {
                best = min(best, sum)
                return
            }
            for c in 0..<columns where !used.contains(c) { go(r + 1, used.union([c]), sum + cost[r][c], skips) }
            if skips > 0 { go(r + 1, used, sum, skips - 1) }  // more rows than columns: leave a row out
        }
        go(0, [], 0, max(0, rows - columns))
        return best
    }

    static func bestPartial(_ cost: [[Double]], threshold: Double) -> Double {
        let rows = cost.count
        let columns = cost.first?.count ?? 0
        var best = 0.0
        func go(_ r: Int, _ used: Set<Int>, _ sum: Double) {
            if r == rows {
                best = min(best, sum)
                return
            }
            go(r + 1, used, sum)
            for c in 0..<columns where !used.contains(c) { go(r + 1, used.union([c]), sum + cost[r][c] - threshold) }
        }
        go(0, [], 0)
        return best
    }
}
