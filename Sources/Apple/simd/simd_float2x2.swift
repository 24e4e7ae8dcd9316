import Foundation

/// simd's 2 × 2 matrix of Floats, column-major: `columns.0` … `columns.1`; `m[column]` is a column and
/// `m[column, row]` an element, as Apple's. A value type on Swift's own `SIMD2<Float>`.
public struct simd_float2x2: Equatable, Codable, Sendable, CustomDebugStringConvertible {
    /// The columns.
    public var columns: (SIMD2<Float>, SIMD2<Float>)

    /// The zero matrix.
    public init() {
        self.init(diagonal: SIMD2<Float>(repeating: 0))
    }

    /// The matrix with these columns.
    public init(columns: (SIMD2<Float>, SIMD2<Float>)) {
        self.columns = columns
    }

    /// The matrix with these columns.
    public init(_ col0: SIMD2<Float>, _ col1: SIMD2<Float>) {
        self.init(columns: (col0, col1))
    }

    /// The matrix with these 2 columns (precondition: exactly 2).
    public init(_ columns: [SIMD2<Float>]) {
        precondition(columns.count == 2, "a 2×2 matrix has 2 columns")
        self.init(columns: (columns[0], columns[1]))
    }

    /// The matrix with these 2 rows (precondition: exactly 2).
    public init(rows: [SIMD2<Float>]) {
        precondition(rows.count == 2, "a 2×2 matrix has 2 rows")
        self = simd_float2x2(rows).transpose
    }

    /// The diagonal matrix with `diagonal` on its diagonal.
    public init(diagonal: SIMD2<Float>) {
        var columns = (SIMD2<Float>(repeating: 0), SIMD2<Float>(repeating: 0))
        columns.0[0] = diagonal[0]
        columns.1[1] = diagonal[1]
        self.init(columns: columns)
    }

    /// `scalar` times the identity.
    public init(_ scalar: Float) {
        self.init(diagonal: SIMD2<Float>(repeating: scalar))
    }

    /// Column `column` (0...1).
    public subscript(column: Int) -> SIMD2<Float> {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            default: preconditionFailure("column \(column) is outside 0...1")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            default: preconditionFailure("column \(column) is outside 0...1")
            }
        }
    }

    /// The element in `column`, `row`.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    /// The transpose.
    public var transpose: simd_float2x2 {
        simd_float2x2(SIMD2<Float>(columns.0[0], columns.1[0]), SIMD2<Float>(columns.0[1], columns.1[1]))
    }

    /// The determinant.
    public var determinant: Float { Float(SIMDMatrix.determinant(elements)) }

    /// The inverse (non-finite values for a singular matrix, as simd's).
    public var inverse: simd_float2x2 {
        let inverse = SIMDMatrix.inverse(elements, n: 2)
        return simd_float2x2(
            SIMD2<Float>(Float(inverse[0]), Float(inverse[1])),
            SIMD2<Float>(Float(inverse[2]), Float(inverse[3]))
        )
    }

    /// The elements column after column, in double precision.
    var elements: [Double] { [columns.0, columns.1].flatMap { c in (0..<2).map { Double(c[$0]) } } }

    /// Matrices are equal when all elements are.
    public static func == (lhs: simd_float2x2, rhs: simd_float2x2) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1
    }

    /// Encoded as its columns.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(columns.0)
        try container.encode(columns.1)
    }

    /// Decoded from its columns.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(try container.decode(SIMD2<Float>.self), try container.decode(SIMD2<Float>.self))
    }

    /// `simd_float2x2([[…], …])`, column after column.
    public var debugDescription: String {
        "simd_float2x2([" + (0..<2).map { "\(self[$0])" }.joined(separator: ", ") + "])"
    }

    /// The sum.
    public static func + (lhs: simd_float2x2, rhs: simd_float2x2) -> simd_float2x2 {
        simd_float2x2(lhs.columns.0 + rhs.columns.0, lhs.columns.1 + rhs.columns.1)
    }

    /// The difference.
    public static func - (lhs: simd_float2x2, rhs: simd_float2x2) -> simd_float2x2 {
        simd_float2x2(lhs.columns.0 - rhs.columns.0, lhs.columns.1 - rhs.columns.1)
    }

    /// The negation.
    public static prefix func - (rhs: simd_float2x2) -> simd_float2x2 {
        simd_float2x2(-rhs.columns.0, -rhs.columns.1)
    }

    /// The matrix times a scalar.
    public static func * (lhs: Float, rhs: simd_float2x2) -> simd_float2x2 {
        simd_float2x2(lhs * rhs.columns.0, lhs * rhs.columns.1)
    }

    /// The matrix times a scalar.
    public static func * (lhs: simd_float2x2, rhs: Float) -> simd_float2x2 { rhs * lhs }

    /// The matrix times a column vector.
    public static func * (lhs: simd_float2x2, rhs: SIMD2<Float>) -> SIMD2<Float> {
        lhs.columns.0 * rhs[0] + lhs.columns.1 * rhs[1]
    }

    /// A row vector times the matrix.
    public static func * (lhs: SIMD2<Float>, rhs: simd_float2x2) -> SIMD2<Float> {
        SIMD2<Float>((lhs * rhs.columns.0).sum(), (lhs * rhs.columns.1).sum())
    }

    /// The matrix product: `rhs` first, then `lhs`.
    public static func * (lhs: simd_float2x2, rhs: simd_float2x2) -> simd_float2x2 {
        simd_float2x2(lhs * rhs.columns.0, lhs * rhs.columns.1)
    }

    /// Adds in place.
    public static func += (lhs: inout simd_float2x2, rhs: simd_float2x2) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout simd_float2x2, rhs: simd_float2x2) { lhs = lhs - rhs }
    /// Multiplies in place by a matrix on the right.
    public static func *= (lhs: inout simd_float2x2, rhs: simd_float2x2) { lhs = lhs * rhs }
    /// Multiplies in place by a scalar.
    public static func *= (lhs: inout simd_float2x2, rhs: Float) { lhs = lhs * rhs }
}

/// simd's name for `simd_float2x2`.
public typealias matrix_float2x2 = simd_float2x2
/// simd's Swift name for `simd_float2x2`.
public typealias float2x2 = simd_float2x2

/// The 2 × 2 identity matrix.
public let matrix_identity_float2x2 = simd_float2x2(1)

/// The matrix with these columns.
public func simd_matrix(_ col0: SIMD2<Float>, _ col1: SIMD2<Float>) -> simd_float2x2 {
    simd_float2x2(col0, col1)
}

/// The matrix with these rows.
public func simd_matrix_from_rows(
    _ row0: SIMD2<Float>, _ row1: SIMD2<Float>
) -> simd_float2x2 {
    simd_float2x2(rows: [row0, row1])
}

/// The product `lhs × rhs`.
public func simd_mul(_ lhs: simd_float2x2, _ rhs: simd_float2x2) -> simd_float2x2 { lhs * rhs }

/// The product `matrix × vector`.
public func simd_mul(_ lhs: simd_float2x2, _ rhs: SIMD2<Float>) -> SIMD2<Float> { lhs * rhs }

/// The product `vector × matrix`.
public func simd_mul(_ lhs: SIMD2<Float>, _ rhs: simd_float2x2) -> SIMD2<Float> { lhs * rhs }

/// The product `lhs × rhs` (simd's older name).
public func matrix_multiply(_ lhs: simd_float2x2, _ rhs: simd_float2x2) -> simd_float2x2 { lhs * rhs }

/// The product `matrix × vector` (simd's older name).
public func matrix_multiply(_ lhs: simd_float2x2, _ rhs: SIMD2<Float>) -> SIMD2<Float> { lhs * rhs }

/// The sum.
public func simd_add(_ lhs: simd_float2x2, _ rhs: simd_float2x2) -> simd_float2x2 { lhs + rhs }

/// The difference.
public func simd_sub(_ lhs: simd_float2x2, _ rhs: simd_float2x2) -> simd_float2x2 { lhs - rhs }

/// The inverse.
public func simd_inverse(_ matrix: simd_float2x2) -> simd_float2x2 { matrix.inverse }

/// The transpose.
public func simd_transpose(_ matrix: simd_float2x2) -> simd_float2x2 { matrix.transpose }

/// The determinant.
public func simd_determinant(_ matrix: simd_float2x2) -> Float { matrix.determinant }

/// The diagonal matrix with `diagonal` on its diagonal.
public func simd_diagonal_matrix(_ diagonal: SIMD2<Float>) -> simd_float2x2 { simd_float2x2(diagonal: diagonal) }

/// Whether the matrices are equal element by element.
public func simd_equal(_ lhs: simd_float2x2, _ rhs: simd_float2x2) -> Bool { lhs == rhs }

/// Whether every element differs by at most `tol`.
public func simd_almost_equal_elements(_ lhs: simd_float2x2, _ rhs: simd_float2x2, _ tol: Float) -> Bool {
    zip(lhs.elements, rhs.elements).allSatisfy { abs($0 - $1) <= Double(tol) }
}
