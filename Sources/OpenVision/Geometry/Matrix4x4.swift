import Foundation

/// A 4 × 4 matrix of Floats, column-major, as Apple's `simd_float4x4` (which Linux lacks): the 3D body pose's
/// joint positions and camera transform. `columns.3` holds a transform's translation (x, y, z, 1).
public struct Matrix4x4: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The four columns, as `simd_float4x4.columns`.
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.columns = columns
    }

    /// The identity: no transform.
    public static let identity = Matrix4x4(
        columns: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)))

    /// The pure translation by `t`.
    public static func translation(_ t: SIMD3<Float>) -> Matrix4x4 {
        var m = identity
        m.columns.3 = SIMD4(t.x, t.y, t.z, 1)
        return m
    }

    /// The translation part (`columns.3`'s x, y, z).
    public var translation: SIMD3<Float> { SIMD3(columns.3.x, columns.3.y, columns.3.z) }

    /// The 16 values, column after column.
    public var columnMajor: [Float] {
        [columns.0, columns.1, columns.2, columns.3].flatMap { [$0.x, $0.y, $0.z, $0.w] }
    }

    /// The element at `row`, `column` (0...3).
    public subscript(row: Int, column: Int) -> Float {
        let c = [columns.0, columns.1, columns.2, columns.3][column]
        return c[row]
    }

    /// Equal when all 16 values are.
    public static func == (a: Matrix4x4, b: Matrix4x4) -> Bool { a.columnMajor == b.columnMajor }

    /// Hashes the 16 values.
    public func hash(into hasher: inout Hasher) { hasher.combine(columnMajor) }

    /// Encoded as its 16 values, column-major.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(columnMajor)
    }

    /// Decodes 16 values, column-major; throws `DecodingError.dataCorrupted` for any other count.
    public init(from decoder: Decoder) throws {
        let v = try decoder.singleValueContainer().decode([Float].self)
        guard v.count == 16 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a 4×4 matrix has 16 values, not \(v.count)"))
        }
        columns = (
            SIMD4(v[0], v[1], v[2], v[3]), SIMD4(v[4], v[5], v[6], v[7]), SIMD4(v[8], v[9], v[10], v[11]),
            SIMD4(v[12], v[13], v[14], v[15])
        )
    }

    /// The value as short text, for logs and command-line output.
    public var description: String {
        (0..<4).map { r in "[" + (0..<4).map { String(format: "%.4g", self[r, $0]) }.joined(separator: ", ") + "]" }
            .joined(separator: " ")
    }
}
