import Foundation

/// One component of a kernel value over a block of pixels: the same number for every pixel (arguments, literals,
/// and what is computed from them alone) or one number per pixel. Booleans are 0 and 1.
enum KernelPlane {
    case constant(Float)
    case varying([Float])

    /// The values as one array of `count`.
    func materialised(_ count: Int) -> [Float] {
        switch self {
        case .constant(let c): [Float](repeating: c, count: count)
        case .varying(let v): v
        }
    }

    /// Calls `body` with the values: a buffer when they vary, else nil and the constant.
    @inline(__always)
    func withValues<R>(_ body: (UnsafeBufferPointer<Float>?, Float) -> R) -> R {
        switch self {
        case .constant(let c): body(nil, c)
        case .varying(let v): v.withUnsafeBufferPointer { body($0, 0) }
        }
    }

    @inline(__always)
    static func map(_ a: KernelPlane, _ count: Int, _ f: (Float) -> Float) -> KernelPlane {
        switch a {
        case .constant(let c): return .constant(f(c))
        case .varying(let v):
            return .varying(
                v.withUnsafeBufferPointer { p in
                    [Float](unsafeUninitializedCapacity: count) { out, n in
                        for i in 0..<count { out[i] = f(p[i]) }
                        n = count
                    }
                })
        }
    }

    @inline(__always)
    static func map(_ a: KernelPlane, _ b: KernelPlane, _ count: Int, _ f: (Float, Float) -> Float) -> KernelPlane {
        if case .constant(let x) = a, case .constant(let y) = b { return .constant(f(x, y)) }
        return a.withValues { ap, ac in
            b.withValues { bp, bc in
                .varying(
                    [Float](unsafeUninitializedCapacity: count) { out, n in
                        if let ap, let bp {
                            for i in 0..<count { out[i] = f(ap[i], bp[i]) }
                        } else if let ap {
                            for i in 0..<count { out[i] = f(ap[i], bc) }
                        } else if let bp {
                            for i in 0..<count { out[i] = f(ac, bp[i]) }
                        }
                        n = count
                    })
            }
        }
    }

    @inline(__always)
    static func map(
        _ a: KernelPlane, _ b: KernelPlane, _ c: KernelPlane, _ count: Int,
        _ f: (Float, Float, Float) -> Float
    ) -> KernelPlane {
        if case .constant(let x) = a, case .constant(let y) = b, case .constant(let z) = c {
            return .constant(f(x, y, z))
        }
        return a.withValues { ap, ac in
            b.withValues { bp, bc in
                c.withValues { cp, cc in
                    .varying(
                        [Float](unsafeUninitializedCapacity: count) { out, n in
                            for i in 0..<count { out[i] = f(ap?[i] ?? ac, bp?[i] ?? bc, cp?[i] ?? cc) }
                            n = count
                        })
                }
            }
        }
    }

    /// `a` where `mask` is true, `b` elsewhere.
    static func select(_ mask: [Bool], _ a: KernelPlane, _ b: KernelPlane, _ count: Int) -> KernelPlane {
        a.withValues { ap, ac in
            b.withValues { bp, bc in
                .varying(
                    [Float](unsafeUninitializedCapacity: count) { out, n in
                        mask.withUnsafeBufferPointer { m in
                            for i in 0..<count { out[i] = m[i] ? (ap?[i] ?? ac) : (bp?[i] ?? bc) }
                        }
                        n = count
                    })
            }
        }
    }
}

/// A set of pixels of a block where statements take effect: nil is all of them.
typealias KernelMask = [Bool]?

extension Optional where Wrapped == [Bool] {
    /// The pixels of both masks.
    func and(_ other: [Bool]) -> [Bool] {
        guard let self else { return other }
        return zip(self, other).map { $0 && $1 }
    }
}
