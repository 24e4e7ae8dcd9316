/// Determinant and inverse of small square matrices (column-major elements), in double precision.
enum SIMDMatrix {
    /// The determinant of the `n` × `n` matrix (n = 2, 3, 4; elements column-major), by cofactor expansion.
    static func determinant(_ m: [Double]) -> Double {
        let n = m.count == 4 ? 2 : m.count == 9 ? 3 : 4
        if n == 2 { return m[0] * m[3] - m[2] * m[1] }
        var total = 0.0
        for c in 0..<n {
            let sign: Double = c % 2 == 0 ? 1 : -1
            total += sign * m[c * n] * determinant(minor(m, n: n, row: 0, column: c))
        }
        return total
    }

    /// The matrix without `row` and `column`.
    static func minor(_ m: [Double], n: Int, row: Int, column: Int) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity((n - 1) * (n - 1))
        for c in 0..<n where c != column {
            for r in 0..<n where r != row { out.append(m[c * n + r]) }
        }
        return out
    }

    /// The inverse (adjugate over determinant; infinities and NaNs for a singular matrix), column-major.
    static func inverse(_ m: [Double], n: Int) -> [Double] {
        let det = determinant(m)
        var out = [Double](repeating: 0, count: n * n)
        for c in 0..<n {
            for r in 0..<n {
                let sign: Double = (r + c) % 2 == 0 ? 1 : -1
                let cofactor =
                    n == 2 ? minor(m, n: n, row: r, column: c)[0] : determinant(minor(m, n: n, row: r, column: c))
                // inverse[c][r] = cofactor(r, c) / det, i.e. element (row c, column r) of the adjugate.
                out[r * n + c] = sign * cofactor / det
            }
        }
        return out
    }
}
