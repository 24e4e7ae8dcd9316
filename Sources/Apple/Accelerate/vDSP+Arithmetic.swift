/// `C = A · B` for scalar `*__B`.
public func vDSP_vsmul(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    Kernel.map(__A, __IA, __C, __IC, Int(__N), block: { $0 * b }, scalar: { $0 * b })
}

/// `C = A + B` for scalar `*__B`.
public func vDSP_vsadd(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    Kernel.map(__A, __IA, __C, __IC, Int(__N), block: { $0 + b }, scalar: { $0 + b })
}

/// `C = A / B` for scalar `*__B`.
public func vDSP_vsdiv(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    Kernel.map(__A, __IA, __C, __IC, Int(__N), block: { $0 / b }, scalar: { $0 / b })
}

/// `C = A / B` for scalar `*__A` and vector `B`.
public func vDSP_svdiv(
    _ __A: UnsafePointer<Float>, _ __B: UnsafePointer<Float>, _ __IB: vDSP_Stride,
    _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let a = __A.pointee
    Kernel.map(__B, __IB, __C, __IC, Int(__N), block: { Kernel.Block(repeating: a) / $0 }, scalar: { a / $0 })
}

/// `D = A · B + C` for scalar `*__B`.
public func vDSP_vsma(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafePointer<Float>, _ __IC: vDSP_Stride, _ __D: UnsafeMutablePointer<Float>,
    _ __ID: vDSP_Stride, _ __N: vDSP_Length
) {
    let b = __B.pointee
    Kernel.zip(__A, __IA, __C, __IC, __D, __ID, Int(__N), block: { $0 * b + $1 }, scalar: { $0 * b + $1 })
}

/// `D = A · B + C`, element by element.
public func vDSP_vma(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafePointer<Float>, _ __IC: vDSP_Stride,
    _ __D: UnsafeMutablePointer<Float>, _ __ID: vDSP_Stride, _ __N: vDSP_Length
) {
    for i in 0..<Int(__N) { __D[i * __ID] = __A[i * __IA] * __B[i * __IB] + __C[i * __IC] }
}

/// `C = A + B`, element by element.
public func vDSP_vadd(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    Kernel.zip(__A, __IA, __B, __IB, __C, __IC, Int(__N), block: { $0 + $1 }, scalar: { $0 + $1 })
}

/// `C = A − B`, element by element (note the order: `B` comes first, as Apple's).
public func vDSP_vsub(
    _ __B: UnsafePointer<Float>, _ __IB: vDSP_Stride, _ __A: UnsafePointer<Float>,
    _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    Kernel.zip(__A, __IA, __B, __IB, __C, __IC, Int(__N), block: { $0 - $1 }, scalar: { $0 - $1 })
}

/// `C = A · B`, element by element.
public func vDSP_vmul(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    Kernel.zip(__A, __IA, __B, __IB, __C, __IC, Int(__N), block: { $0 * $1 }, scalar: { $0 * $1 })
}

/// `C = A / B`, element by element (note the order: the divisor `B` comes first, as Apple's).
public func vDSP_vdiv(
    _ __B: UnsafePointer<Float>, _ __IB: vDSP_Stride, _ __A: UnsafePointer<Float>,
    _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    Kernel.zip(__A, __IA, __B, __IB, __C, __IC, Int(__N), block: { $0 / $1 }, scalar: { $0 / $1 })
}

/// `C = max(A, B)`, element by element.
public func vDSP_vmax(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    Kernel.zip(
        __A, __IA, __B, __IB, __C, __IC, Int(__N), block: { $1.replacing(with: $0, where: $1 .<= $0) },
        scalar: { $1 <= $0 ? $0 : $1 })
}

/// `C = min(A, B)`, element by element.
public func vDSP_vmin(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __IB: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    Kernel.zip(
        __A, __IA, __B, __IB, __C, __IC, Int(__N), block: { $1.replacing(with: $0, where: $0 .< $1) },
        scalar: { $0 < $1 ? $0 : $1 })
}

/// `D = A` clipped to `*__B ... *__C`.
public func vDSP_vclip(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafePointer<Float>, _ __D: UnsafeMutablePointer<Float>, _ __ID: vDSP_Stride,
    _ __N: vDSP_Length
) {
    let low = __B.pointee
    let high = __C.pointee
    let lows = Kernel.Block(repeating: low)
    let highs = Kernel.Block(repeating: high)
    Kernel.map(
        __A, __IA, __D, __ID, Int(__N),
        block: { $0.replacing(with: lows, where: $0 .< lows).replacing(with: highs, where: $0 .> highs) },
        scalar: { $0 < low ? low : $0 > high ? high : $0 })
}

/// `C = A`, with elements below `*__B` replaced by `*__B`.
public func vDSP_vthr(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let low = __B.pointee
    let lows = Kernel.Block(repeating: low)
    Kernel.map(
        __A, __IA, __C, __IC, Int(__N), block: { $0.replacing(with: lows, where: $0 .< lows) },
        scalar: { $0 < low ? low : $0 })
}

/// `C = A`, with elements below `*__B` replaced by 0.
public func vDSP_vthres(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __B: UnsafePointer<Float>,
    _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let low = __B.pointee
    let lows = Kernel.Block(repeating: low)
    Kernel.map(
        __A, __IA, __C, __IC, Int(__N), block: { $0.replacing(with: 0, where: $0 .< lows) },
        scalar: { $0 < low ? 0 : $0 })
}

/// `C = −A`.
public func vDSP_vneg(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    Kernel.map(__A, __IA, __C, __IC, Int(__N), block: { -$0 }, scalar: { -$0 })
}

/// `C = |A|`.
public func vDSP_vabs(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    Kernel.map(__A, __IA, __C, __IC, Int(__N), block: { $0.replacing(with: -$0, where: $0 .< 0) }, scalar: abs)
}

/// `C = A²`.
public func vDSP_vsq(
    _ __A: UnsafePointer<Float>, _ __IA: vDSP_Stride, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    Kernel.map(__A, __IA, __C, __IC, Int(__N), block: { $0 * $0 }, scalar: { $0 * $0 })
}

/// Every element of `C` set to `*__A`.
public func vDSP_vfill(
    _ __A: UnsafePointer<Float>, _ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride,
    _ __N: vDSP_Length
) {
    let a = __A.pointee
    for i in 0..<Int(__N) { __C[i * __IC] = a }
}

/// Every element of `C` set to 0.
public func vDSP_vclr(_ __C: UnsafeMutablePointer<Float>, _ __IC: vDSP_Stride, _ __N: vDSP_Length) {
    for i in 0..<Int(__N) { __C[i * __IC] = 0 }
}

/// `C[n] = *__A + n · *__B`: a ramp from `*__A` in steps of `*__B`.
public func vDSP_vramp(
    _ __A: UnsafePointer<Float>, _ __B: UnsafePointer<Float>, _ __C: UnsafeMutablePointer<Float>,
    _ __IC: vDSP_Stride, _ __N: vDSP_Length
) {
    let start = __A.pointee
    let step = __B.pointee
    for i in 0..<Int(__N) { __C[i * __IC] = start + Float(i) * step }
}

/// Sorts `__C`'s `__N` contiguous elements in place: ascending for `__Order` 1, descending for −1.
public func vDSP_vsort(_ __C: UnsafeMutablePointer<Float>, _ __N: vDSP_Length, _ __Order: Int32) {
    var buffer = UnsafeMutableBufferPointer(start: __C, count: Int(__N))
    if __Order < 0 { buffer.sort(by: >) } else { buffer.sort() }
}

/// Sorts the indices `__I` (`__N` of them, into `__C`) by the values they index: ascending for `__Order` 1,
/// descending for −1; equal values keep their order.
public func vDSP_vsorti(
    _ __C: UnsafePointer<Float>, _ __I: UnsafeMutablePointer<vDSP_Length>,
    _ __List_addr: UnsafeMutablePointer<vDSP_Length>?, _ __N: vDSP_Length, _ __Order: Int32
) {
    let indices = UnsafeMutableBufferPointer(start: __I, count: Int(__N))
    let sorted = indices.enumerated().sorted { x, y in
        let a = __C[Int(x.element)]
        let b = __C[Int(y.element)]
        if a != b { return __Order < 0 ? a > b : a < b }
        return x.offset < y.offset
    }.map(\.element)
    for (i, value) in sorted.enumerated() { indices[i] = value }
}
