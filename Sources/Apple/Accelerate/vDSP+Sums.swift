/// The sum of the elements into `__C`; 0 for N = 0.
public func vDSP_sve(
    _ __A: UnsafePointer<Float>, _ __I: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.sum(__A, __I, Int(__N), block: { $0 }, scalar: { $0 })
}

/// The mean of the elements into `__C` (NaN for N = 0).
public func vDSP_meanv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.sum(__A, __IA, Int(__N), block: { $0 }, scalar: { $0 }) / Float(__N)
}

/// The sum of the squares into `__C`.
public func vDSP_svesq(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.sum(__A, __IA, Int(__N), block: { $0 * $0 }, scalar: { $0 * $0 })
}

/// The mean of the squares into `__C`.
public func vDSP_measqv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.sum(__A, __IA, Int(__N), block: { $0 * $0 }, scalar: { $0 * $0 }) / Float(__N)
}

/// The root of the mean of the squares into `__C`.
public func vDSP_rmsqv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = (Kernel.sum(__A, __IA, Int(__N), block: { $0 * $0 }, scalar: { $0 * $0 }) / Float(__N)).squareRoot()
}

/// The sum of the magnitudes into `__C`.
public func vDSP_svemg(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.sum(__A, __IA, Int(__N), block: { $0.replacing(with: -$0, where: $0 .< 0) }, scalar: abs)
}

/// The dot product of `__A` and `__B` into `__C`.
public func vDSP_dotpr(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __N: vDSP_Length
) {
    let n = Int(__N)
    var i = 0
    var total: Float = 0
    if __IA == 1 && __IB == 1 {
        var accumulator = Kernel.Block(repeating: 0)
        let a = UnsafeRawPointer(__A)
        let b = UnsafeRawPointer(__B)
        while i + 16 <= n {
            accumulator +=
                a.loadUnaligned(fromByteOffset: i * 4, as: Kernel.Block.self)
                * b.loadUnaligned(fromByteOffset: i * 4, as: Kernel.Block.self)
            i += 16
        }
        total = accumulator.sum()
    }
    while i < n {
        total += __A[i * __IA] * __B[i * __IB]
        i += 1
    }
    __C.pointee = total
}

/// The mean (`__Mean`) and standard deviation (`__StandardDeviation`, population) of `__A`, and `__C` its elements
/// standardised: `(a − mean) / deviation`. Pass nil for `__C` to get only the two statistics.
public func vDSP_normalize(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>?,
    _ __IC: vDSP_Stride, _ __Mean: UnsafeMutablePointer<Float>,
    _ __StandardDeviation: UnsafeMutablePointer<Float>, _ __N: vDSP_Length
) {
    let n = Int(__N)
    let mean = Kernel.sum(__A, __IA, n, block: { $0 }, scalar: { $0 }) / Float(n)
    let variance =
        Kernel.sum(
            __A, __IA, n, block: { ($0 - mean) * ($0 - mean) },
            scalar: { ($0 - mean) * ($0 - mean) }) / Float(n)
    let deviation = variance.squareRoot()
    __Mean.pointee = mean
    __StandardDeviation.pointee = deviation
    if let c = __C {
        Kernel.map(__A, __IA, c, __IC, n, block: { ($0 - mean) / deviation }, scalar: { ($0 - mean) / deviation })
    }
}
