import OpenVision
import simd

extension simd_float4x4 {
    /// OpenVision's column-major 4 × 4 matrix as simd's (same columns).
    init(_ matrix: Matrix4x4) {
        self.init(columns: matrix.columns)
    }
}
