/// `C = Float(A)` for 8-bit unsigned `A`.
public func vDSP_vfltu8(
    _ __A: UnsafePointer<UInt8>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    for i in 0..<Int(__N) { __C[i * __IC] = Float(__A[i * __IA]) }
}

/// `C = Float(A)` for 32-bit integer `A`.
public func vDSP_vflt32(
    _ __A: UnsafePointer<Int32>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    for i in 0..<Int(__N) { __C[i * __IC] = Float(__A[i * __IA]) }
}

/// `C = UInt8(A)` truncated toward zero (values outside 0...255 are undefined, as Apple's).
public func vDSP_vfixu8(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<UInt8>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    for i in 0..<Int(__N) { __C[i * __IC] = UInt8(truncatingIfNeeded: Int(max(-1, min(256, __A[i * __IA])))) }
}

/// `C = UInt8(A)` rounded to nearest (values outside 0...255 are undefined, as Apple's).
public func vDSP_vfixru8(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<UInt8>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    for i in 0..<Int(__N) {
        __C[i * __IC] = UInt8(truncatingIfNeeded: Int(max(-1, min(256, __A[i * __IA].rounded()))))
    }
}

/// `C = Int32(A)` truncated toward zero.
public func vDSP_vfix32(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Int32>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    for i in 0..<Int(__N) { __C[i * __IC] = Int32(max(-2_147_483_648, min(2_147_483_520, __A[i * __IA]))) }
}
