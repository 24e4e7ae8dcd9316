import Foundation

// Double-precision vDSP and vForce functions (Apple's `…D` and `vv…` without the `f`) that Core ML client code calls on
// `MLMultiArray`s of doubles (CoreMLHelpers' argmax and sigmoid). Plain strided loops: the Float functions are the
// vectorised ones, these exist for the code that asks for doubles.

/// The largest element of `__A` (stride `__IA`, `__N` elements) into `__C`; −infinity for N = 0.
public func vDSP_maxvD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Double>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.extremum(__A, __IA, Int(__N), empty: -.infinity, transform: { $0 }, better: >).value
}

/// The largest element into `__C` and its index (n·IA, the first one) into `__I`; −infinity and 0 for N = 0.
public func vDSP_maxviD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Double>,
    _ __I: UnsafeMutablePointer<vDSP_Length>, _ __N: vDSP_Length
) {
    let (index, value) = Kernel.extremum(__A, __IA, Int(__N), empty: -.infinity, transform: { $0 }, better: >)
    __C.pointee = value
    __I.pointee = vDSP_Length(index * abs(__IA))
}

/// The smallest element into `__C`; +infinity for N = 0.
public func vDSP_minvD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Double>,
    _ __N: vDSP_Length
) {
    __C.pointee = Kernel.extremum(__A, __IA, Int(__N), empty: .infinity, transform: { $0 }, better: <).value
}

/// The smallest element into `__C` and its index (n·IA, the first one) into `__I`; +infinity and 0 for N = 0.
public func vDSP_minviD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Double>,
    _ __I: UnsafeMutablePointer<vDSP_Length>, _ __N: vDSP_Length
) {
    let (index, value) = Kernel.extremum(__A, __IA, Int(__N), empty: .infinity, transform: { $0 }, better: <)
    __C.pointee = value
    __I.pointee = vDSP_Length(index * abs(__IA))
}

/// `C = −A`.
public func vDSP_vnegD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Double>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    DoubleKernel.map(__A, __IA, __C, __IC, Int(__N)) { -$0 }
}

/// `C = A + *B`.
public func vDSP_vsaddD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Double>,
    _ __C: UnsafeMutablePointer<Double>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    DoubleKernel.map(__A, __IA, __C, __IC, Int(__N)) { $0 + b }
}

/// `C = A × *B`.
public func vDSP_vsmulD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Double>,
    _ __C: UnsafeMutablePointer<Double>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    DoubleKernel.map(__A, __IA, __C, __IC, Int(__N)) { $0 * b }
}

/// `C = A ÷ *B`.
public func vDSP_vsdivD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Double>,
    _ __C: UnsafeMutablePointer<Double>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    DoubleKernel.map(__A, __IA, __C, __IC, Int(__N)) { $0 / b }
}

/// The sum of the elements into `__C`; 0 for N = 0.
public func vDSP_sveD(
    _ __A: UnsafePointer<Double>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Double>,
    _ __N: vDSP_Length
) {
    var sum = 0.0
    for i in 0..<Int(__N) { sum += __A[i * __IA] }
    __C.pointee = sum
}

/// `y = e^x` of each element of `x` (`n.pointee` elements).
public func vvexp(_ y: UnsafeMutablePointer<Double>, _ x: UnsafePointer<Double>, _ n: UnsafePointer<Int32>) {
    for i in 0..<Int(max(0, n.pointee)) { y[i] = Foundation.exp(x[i]) }
}

/// `y = 1 / x` of each element of `x` (`n.pointee` elements).
public func vvrec(_ y: UnsafeMutablePointer<Double>, _ x: UnsafePointer<Double>, _ n: UnsafePointer<Int32>) {
    for i in 0..<Int(max(0, n.pointee)) { y[i] = 1 / x[i] }
}

/// The strided map behind the double-precision functions (their extrema use `Kernel.extremum`).
enum DoubleKernel {
    /// `c[i·ic] = f(a[i·ia])` for i in 0..<n (n ≤ 0: nothing).
    static func map(
        _ a: UnsafePointer<Double>, _ ia: Int, _ c: UnsafeMutablePointer<Double>, _ ic: Int, _ n: Int,
        _ f: (Double) -> Double
    ) {
        for i in 0..<max(0, n) { c[i * ic] = f(a[i * ia]) }
    }
}
