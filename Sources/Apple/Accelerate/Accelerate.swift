// Apple's Accelerate on Linux: the vDSP and vForce functions code calls on model outputs (extrema, sums,
// element-wise arithmetic, matrix products, exp/log/tanh, …), C names and the Swift overlay's `vDSP.` / `vForce.`
// names, over SIMD loops, the reference BLAS (matrix products) and glibc's vector math library (libmvec).
// Not covered (listed in docs/porting.md): FFTs and DFTs, convolution and correlation, biquads, vImage, BNNS,
// BLAS/LAPACK under Apple's own names, sparse solvers, and double-precision variants beyond those defined here.

// As Apple's (whose vImage headers include them), importing Accelerate brings CoreVideo and CoreGraphics.
@_exported import CoreGraphics
@_exported import CoreVideo

/// A count of elements.
public typealias vDSP_Length = UInt
/// The distance between consecutive elements (negative strides walk backwards).
public typealias vDSP_Stride = Int

/// The loops behind vDSP and vForce: contiguous runs in SIMD blocks of 16 Floats, strided ones element by element.
enum Kernel {
    typealias Block = SIMD16<Float>

    /// `c[i·ic] = scalar(a[i·ia])` for i in 0..<n, blocks through `block` when both strides are 1.
    @inline(__always)
    static func map(
        _ a: UnsafePointer<Float>, _ ia: Int, _ c: UnsafeMutablePointer<Float>, _ ic: Int, _ n: Int,
        block: (Block) -> Block, scalar: (Float) -> Float
    ) {
        var i = 0
        if ia == 1 && ic == 1 {
            let source = UnsafeRawPointer(a)
            let target = UnsafeMutableRawPointer(c)
            while i + 16 <= n {
                let value = block(source.loadUnaligned(fromByteOffset: i * 4, as: Block.self))
                target.storeBytes(of: value, toByteOffset: i * 4, as: Block.self)
                i += 16
            }
        }
        while i < n {
            c[i * ic] = scalar(a[i * ia])
            i += 1
        }
    }

    /// `c[i·ic] = scalar(a[i·ia], b[i·ib])` for i in 0..<n, blocks through `block` when all strides are 1.
    @inline(__always)
    static func zip(
        _ a: UnsafePointer<Float>, _ ia: Int, _ b: UnsafePointer<Float>, _ ib: Int,
        _ c: UnsafeMutablePointer<Float>, _ ic: Int, _ n: Int,
        block: (Block, Block) -> Block, scalar: (Float, Float) -> Float
    ) {
        var i = 0
        if ia == 1 && ib == 1 && ic == 1 {
            let sa = UnsafeRawPointer(a)
            let sb = UnsafeRawPointer(b)
            let target = UnsafeMutableRawPointer(c)
            while i + 16 <= n {
                let value = block(
                    sa.loadUnaligned(fromByteOffset: i * 4, as: Block.self),
                    sb.loadUnaligned(fromByteOffset: i * 4, as: Block.self))
                target.storeBytes(of: value, toByteOffset: i * 4, as: Block.self)
                i += 16
            }
        }
        while i < n {
            c[i * ic] = scalar(a[i * ia], b[i * ib])
            i += 1
        }
    }

    /// The sum of `transform(a[i·ia])` for i in 0..<n, in SIMD blocks when contiguous.
    @inline(__always)
    static func sum(
        _ a: UnsafePointer<Float>, _ ia: Int, _ n: Int,
        block: (Block) -> Block, scalar: (Float) -> Float
    ) -> Float {
        var i = 0
        var total: Float = 0
        if ia == 1 {
            var accumulator = Block(repeating: 0)
            let source = UnsafeRawPointer(a)
            while i + 16 <= n {
                accumulator += block(source.loadUnaligned(fromByteOffset: i * 4, as: Block.self))
                i += 16
            }
            total = accumulator.sum()
        }
        while i < n {
            total += scalar(a[i * ia])
            i += 1
        }
        return total
    }

    /// The first index of the largest (`greater`) element and the element; (0, `empty`) for n = 0. NaNs are skipped
    /// unless every element is NaN.
    @inline(__always)
    static func extremum<T: FloatingPoint>(
        _ a: UnsafePointer<T>, _ ia: Int, _ n: Int, empty: T,
        transform: (T) -> T, better: (T, T) -> Bool
    ) -> (index: Int, value: T) {
        guard n > 0 else { return (0, empty) }
        var best = transform(a[0])
        var index = 0
        for i in 1..<n {
            let v = transform(a[i * ia])
            if better(v, best) || (best.isNaN && !v.isNaN) {
                best = v
                index = i
            }
        }
        return (index, best)
    }
}
