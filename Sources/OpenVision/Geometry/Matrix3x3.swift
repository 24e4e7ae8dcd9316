import Foundation

/// A 3×3 matrix of Doubles, row-major, for homographies (Vision's `warpTransform` is a `simd_float3x3`,
/// which Linux lacks). A point (x, y) maps to ((m·p).x / (m·p).z, (m·p).y / (m·p).z) with p = (x, y, 1).
public struct Matrix3x3: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The rows, top first.
    public var rows: [SIMD3<Double>]

    /// The matrix with these rows (top first). Precondition: three rows.
    public init(rows: [SIMD3<Double>]) {
        precondition(rows.count == 3, "a 3×3 matrix has 3 rows, not \(rows.count)")
        self.rows = rows
    }

    /// The matrix from 9 values, row-major.
    public init(rowMajor values: [Double]) {
        precondition(values.count == 9, "a 3×3 matrix has 9 values, not \(values.count)")
        self.rows = [
            SIMD3(values[0], values[1], values[2]), SIMD3(values[3], values[4], values[5]),
            SIMD3(values[6], values[7], values[8]),
        ]
    }

    /// The identity: no transform.
    public static let identity = Matrix3x3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The 9 values, row-major.
    public var rowMajor: [Double] { rows.flatMap { [$0.x, $0.y, $0.z] } }

    /// The element at `row`, `column` (0...2).
    public subscript(row: Int, column: Int) -> Double {
        get { rows[row][column] }
        set { rows[row][column] = newValue }
    }

    /// `self · other`.
    public static func * (a: Matrix3x3, b: Matrix3x3) -> Matrix3x3 {
        var out = Matrix3x3.identity
        for r in 0..<3 {
            for c in 0..<3 { out[r, c] = a[r, 0] * b[0, c] + a[r, 1] * b[1, c] + a[r, 2] * b[2, c] }
        }
        return out
    }

    /// The inverse, or nil when the matrix is singular.
    public var inverse: Matrix3x3? {
        let m = self
        let c00 = m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1]
        let c01 = m[1, 2] * m[2, 0] - m[1, 0] * m[2, 2]
        let c02 = m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0]
        let det = m[0, 0] * c00 + m[0, 1] * c01 + m[0, 2] * c02
        guard det.isFinite, abs(det) > 1e-15 else { return nil }
        let inv = [
            c00, m[0, 2] * m[2, 1] - m[0, 1] * m[2, 2], m[0, 1] * m[1, 2] - m[0, 2] * m[1, 1],
            c01, m[0, 0] * m[2, 2] - m[0, 2] * m[2, 0], m[0, 2] * m[1, 0] - m[0, 0] * m[1, 2],
            c02, m[0, 1] * m[2, 0] - m[0, 0] * m[2, 1], m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0],
        ]
        return Matrix3x3(rowMajor: inv.map { $0 / det })
    }

    /// The projective image of `point` (nil at infinity).
    public func apply(to point: CGPoint) -> CGPoint? {
        let p = SIMD3<Double>(point.x, point.y, 1)
        let x = (rows[0] * p).sum()
        let y = (rows[1] * p).sum()
        let z = (rows[2] * p).sum()
        guard abs(z) > 1e-12 else { return nil }
        return CGPoint(x: x / z, y: y / z)
    }

    /// Converts between OpenCV's pixel coordinates (top-left origin, y down) and Vision's (lower-left
    /// origin, y up) for an image `height` pixels tall: (x, y) ↔ (x, height − y). Its own inverse.
    static func flipY(height: Int) -> Matrix3x3 {
        Matrix3x3(rowMajor: [1, 0, 0, 0, -1, Double(height), 0, 0, 1])
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        rows.map { "[" + [$0.x, $0.y, $0.z].map { String(format: "%.6g", $0) }.joined(separator: ", ") + "]" }
            .joined(separator: " ")
    }
}
