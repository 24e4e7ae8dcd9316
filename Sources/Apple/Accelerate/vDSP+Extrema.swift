/// The largest element of `__A` (stride `__IA`, `__N` elements) into `__C`; −infinity for N = 0.
public func vDSP_maxv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.extremum(__A, __IA, Int(__N), empty: -.infinity, transform: { $0 }, better: >).value
}

/// The largest element into `__C` and its index (n·IA, the first one) into `__I`; −infinity and 0 for N = 0.
public func vDSP_maxvi(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __I: UnsafeMutablePointer<vDSP_Length>, _ __N: vDSP_Length
) {
    let (index, value) = Kernel.extremum(__A, __IA, Int(__N), empty: -.infinity, transform: { $0 }, better: >)
    __C.pointee = value
    __I.pointee = vDSP_Length(index * abs(__IA))
}

/// The smallest element into `__C`; +infinity for N = 0.
public func vDSP_minv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.extremum(__A, __IA, Int(__N), empty: .infinity, transform: { $0 }, better: <).value
}

/// The smallest element into `__C` and its index (n·IA, the first one) into `__I`; +infinity and 0 for N = 0.
public func vDSP_minvi(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __I: UnsafeMutablePointer<vDSP_Length>, _ __N: vDSP_Length
) {
    let (index, value) = Kernel.extremum(__A, __IA, Int(__N), empty: .infinity, transform: { $0 }, better: <)
    __C.pointee = value
    __I.pointee = vDSP_Length(index * abs(__IA))
}

/// The largest magnitude (absolute value) into `__C`; 0 for N = 0.
public func vDSP_maxmgv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.extremum(__A, __IA, Int(__N), empty: 0, transform: abs, better: >).value
}

/// The largest magnitude into `__C` and its index (n·IA) into `__I`; 0 and 0 for N = 0.
public func vDSP_maxmgvi(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __I: UnsafeMutablePointer<vDSP_Length>, _ __N: vDSP_Length
) {
    let (index, value) = Kernel.extremum(__A, __IA, Int(__N), empty: 0, transform: abs, better: >)
    __C.pointee = value
    __I.pointee = vDSP_Length(index * abs(__IA))
}

/// The smallest magnitude into `__C`; +infinity for N = 0.
public func vDSP_minmgv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.extremum(__A, __IA, Int(__N), empty: .infinity, transform: abs, better: <).value
}
