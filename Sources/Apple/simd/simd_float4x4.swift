import Foundation

/// simd's 4 × 4 matrix of Floats, column-major: `columns.0` … `columns.3`; `m[column]` is a column and
/// `m[column, row]` an element, as Apple's. A value type on Swift's own `SIMD4<Float>`.
public struct simd_float4x4: Equatable, Codable, Sendable, CustomDebugStringConvertible {
    /// The columns.
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// The zero matrix.
    public init() {
        self.init(diagonal: SIMD4<Float>(repeating: 0))
    }

    /// The matrix with these columns.
    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.columns = columns
    }

    /// The matrix with these columns.
    public init(_ col0: SIMD4<Float>, _ col1: SIMD4<Float>, _ col2: SIMD4<Float>, _ col3: SIMD4<Float>) {
        self.init(columns: (col0, col1, col2, col3))
    }

    /// The matrix with these 4 columns (precondition: exactly 4).
    public init(_ columns: [SIMD4<Float>]) {
        precondition(columns.count == 4, "a 4×4 matrix has 4 columns")
        self.init(columns: (columns[0], columns[1], columns[2], columns[3]))
    }

    /// The matrix with these 4 rows (precondition: exactly 4).
    public init(rows: [SIMD4<Float>]) {
        precondition(rows.count == 4, "a 4×4 matrix has 4 rows")
        self = simd_float4x4(rows).transpose
    }

    /// The diagonal matrix with `diagonal` on its diagonal.
    public init(diagonal: SIMD4<Float>) {
        var columns = (
            SIMD4<Float>(repeating: 0),
            SIMD4<Float>(repeating: 0),
            SIMD4<Float>(repeating: 0),
            SIMD4<Float>(repeating: 0)
        )
        columns.0[0] = diagonal[0]
        columns.1[1] = diagonal[1]
        columns.2[2] = diagonal[2]
        columns.3[3] = diagonal[3]
        self.init(columns: columns)
    }

    /// `scalar` times the identity.
    public init(_ scalar: Float) {
        self.init(diagonal: SIMD4<Float>(repeating: scalar))
    }

    /// Column `column` (0...3).
    public subscript(column: Int) -> SIMD4<Float> {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            case 2: return columns.2
            case 3: return columns.3
            default: preconditionFailure("column \(column) is outside 0...3")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            case 3: columns.3 = newValue
            default: preconditionFailure("column \(column) is outside 0...3")
            }
        }
    }

    /// The element in `column`, `row`.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    /// The transpose.
    public var transpose: simd_float4x4 {
        simd_float4x4(
            SIMD4<Float>(columns.0[0], columns.1[0], columns.2[0], columns.3[0]),
            SIMD4<Float>(columns.0[1], columns.1[1], columns.2[1], columns.3[1]),
            SIMD4<Float>(columns.0[2], columns.1[2], columns.2[2], columns.3[2]),
            SIMD4<Float>(columns.0[3], columns.1[3], columns.2[3], columns.3[3])
        )
    }

    /// The determinant.
    public var determinant: Float { Float(SIMDMatrix.determinant(elements)) }

    /// The inverse (non-finite values for a singular matrix, as simd's).
    public var inverse: simd_float4x4 {
        let inverse = SIMDMatrix.inverse(elements, n: 4)
        return simd_float4x4(
            SIMD4<Float>(Float(inverse[0]), Float(inverse[1]), Float(inverse[2]), Float(inverse[3])),
            SIMD4<Float>(Float(inverse[4]), Float(inverse[5]), Float(inverse[6]), Float(inverse[7])),
            SIMD4<Float>(Float(inverse[8]), Float(inverse[9]), Float(inverse[10]), Float(inverse[11])),
            SIMD4<Float>(Float(inverse[12]), Float(inverse[13]), Float(inverse[14]), Float(inverse[15]))
        )
    }

    /// The elements column after column, in double precision.
    var elements: [Double] {
        [columns.0, columns.1, columns.2, columns.3].flatMap { c in
            (0..<4).map {
                Double(c[$0])
            }
        }
    }

    /// Matrices are equal when all elements are.
    public static func == (lhs: simd_float4x4, rhs: simd_float4x4) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1 && lhs.columns.2 == rhs.columns.2
            && lhs.columns.3 == rhs.columns.3
    }

    /// Encoded as its columns.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(columns.0)
        try container.encode(columns.1)
        try container.encode(columns.2)
        try container.encode(columns.3)
    }

    /// Decoded from its columns.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            try container.decode(SIMD4<Float>.self),
            try container.decode(SIMD4<Float>.self),
            try container.decode(SIMD4<Float>.self),
            try container.decode(SIMD4<Float>.self)
        )
    }

    /// `simd_float4x4([[…], …])`, column after column.
    public var debugDescription: String {
        "simd_float4x4([" + (0..<4).map { "\(self[$0])" }.joined(separator: ", ") + "])"
    }

    /// The sum.
    public static func + (lhs: simd_float4x4, rhs: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(
            lhs.columns.0 + rhs.columns.0,
            lhs.columns.1 + rhs.columns.1,
            lhs.columns.2 + rhs.columns.2,
            lhs.columns.3 + rhs.columns.3
        )
    }

    /// The difference.
    public static func - (lhs: simd_float4x4, rhs: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(
            lhs.columns.0 - rhs.columns.0,
            lhs.columns.1 - rhs.columns.1,
            lhs.columns.2 - rhs.columns.2,
            lhs.columns.3 - rhs.columns.3
        )
    }

    /// The negation.
    public static prefix func - (rhs: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(-rhs.columns.0, -rhs.columns.1, -rhs.columns.2, -rhs.columns.3)
    }

    /// The matrix times a scalar.
    public static func * (lhs: Float, rhs: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(lhs * rhs.columns.0, lhs * rhs.columns.1, lhs * rhs.columns.2, lhs * rhs.columns.3)
    }

    /// The matrix times a scalar.
    public static func * (lhs: simd_float4x4, rhs: Float) -> simd_float4x4 { rhs * lhs }

    /// The matrix times a column vector.
    public static func * (lhs: simd_float4x4, rhs: SIMD4<Float>) -> SIMD4<Float> {
        lhs.columns.0 * rhs[0] + lhs.columns.1 * rhs[1] + lhs.columns.2 * rhs[2] + lhs.columns.3 * rhs[3]
    }

    /// A row vector times the matrix.
    public static func * (lhs: SIMD4<Float>, rhs: simd_float4x4) -> SIMD4<Float> {
        SIMD4<Float>(
            (lhs * rhs.columns.0).sum(),
            (lhs * rhs.columns.1).sum(),
            (lhs * rhs.columns.2).sum(),
            (lhs * rhs.columns.3).sum()
        )
    }

    /// The matrix product: `rhs` first, then `lhs`.
    public static func * (lhs: simd_float4x4, rhs: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(lhs * rhs.columns.0, lhs * rhs.columns.1, lhs * rhs.columns.2, lhs * rhs.columns.3)
    }

    /// Adds in place.
    public static func += (lhs: inout simd_float4x4, rhs: simd_float4x4) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout simd_float4x4, rhs: simd_float4x4) { lhs = lhs - rhs }
    /// Multiplies in place by a matrix on the right.
    public static func *= (lhs: inout simd_float4x4, rhs: simd_float4x4) { lhs = lhs * rhs }
    /// Multiplies in place by a scalar.
    public static func *= (lhs: inout simd_float4x4, rhs: Float) { lhs = lhs * rhs }
}

/// simd's name for `simd_float4x4`.
public typealias matrix_float4x4 = simd_float4x4
/// simd's Swift name for `simd_float4x4`.
public typealias float4x4 = simd_float4x4

/// The 4 × 4 identity matrix.
public let matrix_identity_float4x4 = simd_float4x4(1)

/// The matrix with these columns.
public func simd_matrix(
    _ col0: SIMD4<Float>, _ col1: SIMD4<Float>, _ col2: SIMD4<Float>, _ col3: SIMD4<Float>
) -> simd_float4x4 {
    simd_float4x4(col0, col1, col2, col3)
}

/// The matrix with these rows.
public func simd_matrix_from_rows(
    _ row0: SIMD4<Float>, _ row1: SIMD4<Float>, _ row2: SIMD4<Float>, _ row3: SIMD4<Float>
) -> simd_float4x4 {
    simd_float4x4(rows: [row0, row1, row2, row3])
}

/// The product `lhs × rhs`.
public func simd_mul(_ lhs: simd_float4x4, _ rhs: simd_float4x4) -> simd_float4x4 { lhs * rhs }

/// The product `matrix × vector`.
public func simd_mul(_ lhs: simd_float4x4, _ rhs: SIMD4<Float>) -> SIMD4<Float> { lhs * rhs }

/// The product `vector × matrix`.
public func simd_mul(_ lhs: SIMD4<Float>, _ rhs: simd_float4x4) -> SIMD4<Float> { lhs * rhs }

/// The product `lhs × rhs` (simd's older name).
public func matrix_multiply(_ lhs: simd_float4x4, _ rhs: simd_float4x4) -> simd_float4x4 { lhs * rhs }

/// The product `matrix × vector` (simd's older name).
public func matrix_multiply(_ lhs: simd_float4x4, _ rhs: SIMD4<Float>) -> SIMD4<Float> { lhs * rhs }

/// The sum.
public func simd_add(_ lhs: simd_float4x4, _ rhs: simd_float4x4) -> simd_float4x4 { lhs + rhs }

/// The difference.
public func simd_sub(_ lhs: simd_float4x4, _ rhs: simd_float4x4) -> simd_float4x4 { lhs - rhs }

/// The inverse.
public func simd_inverse(_ matrix: simd_float4x4) -> simd_float4x4 { matrix.inverse }

/// The transpose.
public func simd_transpose(_ matrix: simd_float4x4) -> simd_float4x4 { matrix.transpose }

/// The determinant.
public func simd_determinant(_ matrix: simd_float4x4) -> Float { matrix.determinant }

/// The diagonal matrix with `diagonal` on its diagonal.
public func simd_diagonal_matrix(_ diagonal: SIMD4<Float>) -> simd_float4x4 { simd_float4x4(diagonal: diagonal) }

/// Whether the matrices are equal element by element.
public func simd_equal(_ lhs: simd_float4x4, _ rhs: simd_float4x4) -> Bool { lhs == rhs }

/// Whether every element differs by at most `tol`.
public func simd_almost_equal_elements(_ lhs: simd_float4x4, _ rhs: simd_float4x4, _ tol: Float) -> Bool {
    zip(lhs.elements, rhs.elements).allSatisfy { abs($0 - $1) <= Double(tol) }
}
