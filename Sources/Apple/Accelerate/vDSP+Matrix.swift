import CAccelerate

/// `C = A × B`: `A` is `__M` × `__P`, `B` is `__P` × `__N`, `C` is `__M` × `__N`, each row-major with its
/// element stride (the reference BLAS's `sgemm` when all strides are 1).
public func vDSP_mmul(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __M: vDSP_Length, _ __N: vDSP_Length, _ __P: vDSP_Length
) {
    let m = Int(__M)
    let n = Int(__N)
    let p = Int(__P)
    guard m > 0, n > 0 else { return }
    guard p > 0 else {
        for i in 0..<(m * n) { __C[i * __IC] = 0 }
        return
    }
    if __IA == 1 && __IB == 1 && __IC == 1, let dims = blasDimensions(m, n, p) {
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasNoTrans, dims.m, dims.n, dims.p, 1, __A, dims.p, __B, dims.n, 0,
            __C, dims.n)
        return
    }
    for row in 0..<m {
        for column in 0..<n {
            var total: Float = 0
            for k in 0..<p { total += __A[(row * p + k) * __IA] * __B[(k * n + column) * __IB] }
            __C[(row * n + column) * __IC] = total
        }
    }
}

/// The sizes as BLAS's 32-bit integers, nil when one does not fit.
private func blasDimensions(_ m: Int, _ n: Int, _ p: Int) -> (m: Int32, n: Int32, p: Int32)? {
    guard let m = Int32(exactly: m), let n = Int32(exactly: n), let p = Int32(exactly: p) else { return nil }
    return (m, n, p)
}

/// `C` (`__M` × `__N`) = the transpose of `A` (`__N` × `__M`), row-major with element strides.
public func vDSP_mtrans(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __M: vDSP_Length, _ __N: vDSP_Length
) {
    let m = Int(__M)
    let n = Int(__N)
    for row in 0..<m {
        for column in 0..<n { __C[(row * n + column) * __IC] = __A[(column * m + row) * __IA] }
    }
}
