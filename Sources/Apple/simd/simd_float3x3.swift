import Foundation

/// simd's 3 × 3 matrix of Floats, column-major: `columns.0` … `columns.2`; `m[column]` is a column and
/// `m[column, row]` an element, as Apple's. A value type on Swift's own `SIMD3<Float>`.
public struct simd_float3x3: Equatable, Codable, Sendable, CustomDebugStringConvertible {
    /// The columns.
    public var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    /// The zero matrix.
    public init() {
        self.init(diagonal: SIMD3<Float>(repeating: 0))
    }

    /// The matrix with these columns.
    public init(columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) {
        self.columns = columns
    }

    /// The matrix with these columns.
    public init(_ col0: SIMD3<Float>, _ col1: SIMD3<Float>, _ col2: SIMD3<Float>) {
        self.init(columns: (col0, col1, col2))
    }

    /// The matrix with these 3 columns (precondition: exactly 3).
    public init(_ columns: [SIMD3<Float>]) {
        precondition(columns.count == 3, "a 3×3 matrix has 3 columns")
        self.init(columns: (columns[0], columns[1], columns[2]))
    }

    /// The matrix with these 3 rows (precondition: exactly 3).
    public init(rows: [SIMD3<Float>]) {
        precondition(rows.count == 3, "a 3×3 matrix has 3 rows")
        self = simd_float3x3(rows).transpose
    }

    /// The diagonal matrix with `diagonal` on its diagonal.
    public init(diagonal: SIMD3<Float>) {
        var columns = (SIMD3<Float>(repeating: 0), SIMD3<Float>(repeating: 0), SIMD3<Float>(repeating: 0))
        columns.0[0] = diagonal[0]
        columns.1[1] = diagonal[1]
        columns.2[2] = diagonal[2]
        self.init(columns: columns)
    }

    /// `scalar` times the identity.
    public init(_ scalar: Float) {
        self.init(diagonal: SIMD3<Float>(repeating: scalar))
    }

    /// Column `column` (0...2).
    public subscript(column: Int) -> SIMD3<Float> {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            case 2: return columns.2
            default: preconditionFailure("column \(column) is outside 0...2")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            default: preconditionFailure("column \(column) is outside 0...2")
            }
        }
    }

    /// The element in `column`, `row`.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    /// The transpose.
    public var transpose: simd_float3x3 {
        simd_float3x3(
            SIMD3<Float>(columns.0[0], columns.1[0], columns.2[0]),
            SIMD3<Float>(columns.0[1], columns.1[1], columns.2[1]),
            SIMD3<Float>(columns.0[2], columns.1[2], columns.2[2])
        )
    }

    /// The determinant.
    public var determinant: Float { Float(SIMDMatrix.determinant(elements)) }

    /// The inverse (non-finite values for a singular matrix, as simd's).
    public var inverse: simd_float3x3 {
        let inverse = SIMDMatrix.inverse(elements, n: 3)
        return simd_float3x3(
            SIMD3<Float>(Float(inverse[0]), Float(inverse[1]), Float(inverse[2])),
            SIMD3<Float>(Float(inverse[3]), Float(inverse[4]), Float(inverse[5])),
            SIMD3<Float>(Float(inverse[6]), Float(inverse[7]), Float(inverse[8]))
        )
    }

    /// The elements column after column, in double precision.
    var elements: [Double] { [columns.0, columns.1, columns.2].flatMap { c in (0..<3).map { Double(c[$0]) } } }

    /// Matrices are equal when all elements are.
    public static func == (lhs: simd_float3x3, rhs: simd_float3x3) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1 && lhs.columns.2 == rhs.columns.2
    }

    /// Encoded as its columns.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(columns.0)
        try container.encode(columns.1)
        try container.encode(columns.2)
    }

    /// Decoded from its columns.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            try container.decode(SIMD3<Float>.self),
            try container.decode(SIMD3<Float>.self),
            try container.decode(SIMD3<Float>.self)
        )
    }

    /// `simd_float3x3([[…], …])`, column after column.
    public var debugDescription: String {
        "simd_float3x3([" + (0..<3).map { "\(self[$0])" }.joined(separator: ", ") + "])"
    }

    /// The sum.
    public static func + (lhs: simd_float3x3, rhs: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(lhs.columns.0 + rhs.columns.0, lhs.columns.1 + rhs.columns.1, lhs.columns.2 + rhs.columns.2)
    }

    /// The difference.
    public static func - (lhs: simd_float3x3, rhs: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(lhs.columns.0 - rhs.columns.0, lhs.columns.1 - rhs.columns.1, lhs.columns.2 - rhs.columns.2)
    }

    /// The negation.
    public static prefix func - (rhs: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(-rhs.columns.0, -rhs.columns.1, -rhs.columns.2)
    }

    /// The matrix times a scalar.
    public static func * (lhs: Float, rhs: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(lhs * rhs.columns.0, lhs * rhs.columns.1, lhs * rhs.columns.2)
    }

    /// The matrix times a scalar.
    public static func * (lhs: simd_float3x3, rhs: Float) -> simd_float3x3 { rhs * lhs }

    /// The matrix times a column vector.
    public static func * (lhs: simd_float3x3, rhs: SIMD3<Float>) -> SIMD3<Float> {
        lhs.columns.0 * rhs[0] + lhs.columns.1 * rhs[1] + lhs.columns.2 * rhs[2]
    }

    /// A row vector times the matrix.
    public static func * (lhs: SIMD3<Float>, rhs: simd_float3x3) -> SIMD3<Float> {
        SIMD3<Float>((lhs * rhs.columns.0).sum(), (lhs * rhs.columns.1).sum(), (lhs * rhs.columns.2).sum())
    }

    /// The matrix product: `rhs` first, then `lhs`.
    public static func * (lhs: simd_float3x3, rhs: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(lhs * rhs.columns.0, lhs * rhs.columns.1, lhs * rhs.columns.2)
    }

    /// Adds in place.
    public static func += (lhs: inout simd_float3x3, rhs: simd_float3x3) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout simd_float3x3, rhs: simd_float3x3) { lhs = lhs - rhs }
    /// Multiplies in place by a matrix on the right.
    public static func *= (lhs: inout simd_float3x3, rhs: simd_float3x3) { lhs = lhs * rhs }
    /// Multiplies in place by a scalar.
    public static func *= (lhs: inout simd_float3x3, rhs: Float) { lhs = lhs * rhs }
}

/// simd's name for `simd_float3x3`.
public typealias matrix_float3x3 = simd_float3x3
/// simd's Swift name for `simd_float3x3`.
public typealias float3x3 = simd_float3x3

/// The 3 × 3 identity matrix.
public let matrix_identity_float3x3 = simd_float3x3(1)

/// The matrix with these columns.
public func simd_matrix(_ col0: SIMD3<Float>, _ col1: SIMD3<Float>, _ col2: SIMD3<Float>) -> simd_float3x3 {
    simd_float3x3(col0, col1, col2)
}

/// The matrix with these rows.
public func simd_matrix_from_rows(
    _ row0: SIMD3<Float>, _ row1: SIMD3<Float>, _ row2: SIMD3<Float>
) -> simd_float3x3 {
    simd_float3x3(rows: [row0, row1, row2])
}

/// The product `lhs × rhs`.
public func simd_mul(_ lhs: simd_float3x3, _ rhs: simd_float3x3) -> simd_float3x3 { lhs * rhs }

/// The product `matrix × vector`.
public func simd_mul(_ lhs: simd_float3x3, _ rhs: SIMD3<Float>) -> SIMD3<Float> { lhs * rhs }

/// The product `vector × matrix`.
public func simd_mul(_ lhs: SIMD3<Float>, _ rhs: simd_float3x3) -> SIMD3<Float> { lhs * rhs }

/// The product `lhs × rhs` (simd's older name).
public func matrix_multiply(_ lhs: simd_float3x3, _ rhs: simd_float3x3) -> simd_float3x3 { lhs * rhs }

/// The product `matrix × vector` (simd's older name).
public func matrix_multiply(_ lhs: simd_float3x3, _ rhs: SIMD3<Float>) -> SIMD3<Float> { lhs * rhs }

/// The sum.
public func simd_add(_ lhs: simd_float3x3, _ rhs: simd_float3x3) -> simd_float3x3 { lhs + rhs }

/// The difference.
public func simd_sub(_ lhs: simd_float3x3, _ rhs: simd_float3x3) -> simd_float3x3 { lhs - rhs }

/// The inverse.
public func simd_inverse(_ matrix: simd_float3x3) -> simd_float3x3 { matrix.inverse }

/// The transpose.
public func simd_transpose(_ matrix: simd_float3x3) -> simd_float3x3 { matrix.transpose }

/// The determinant.
public func simd_determinant(_ matrix: simd_float3x3) -> Float { matrix.determinant }

/// The diagonal matrix with `diagonal` on its diagonal.
public func simd_diagonal_matrix(_ diagonal: SIMD3<Float>) -> simd_float3x3 { simd_float3x3(diagonal: diagonal) }

/// Whether the matrices are equal element by element.
public func simd_equal(_ lhs: simd_float3x3, _ rhs: simd_float3x3) -> Bool { lhs == rhs }

/// Whether every element differs by at most `tol`.
public func simd_almost_equal_elements(_ lhs: simd_float3x3, _ rhs: simd_float3x3, _ tol: Float) -> Bool {
    zip(lhs.elements, rhs.elements).allSatisfy { abs($0 - $1) <= Double(tol) }
}
