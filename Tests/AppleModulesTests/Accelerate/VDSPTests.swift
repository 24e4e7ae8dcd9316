import Accelerate
import Foundation
import Testing

/// vDSP and vForce against plain loops on the same data (deterministic pseudo-random values, odd lengths so that
/// the SIMD blocks and the tail are both exercised, strides 1 and 3).
@Suite struct VDSPTests {
    static func values(_ n: Int, seed: UInt64 = 7) -> [Float] {
        var state = seed
        return (0..<n).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int(state >> 40) % 2001 - 1000) / 100  // −10 … 10
        }
    }

    static let a = values(103), b = values(103, seed: 11).map { $0 == 0 ? 1 : $0 }

    @Test(arguments: [1, 3])
    func reductions(_ stride: Int) {
        let a = Self.a
        let n = vDSP_Length(a.count / stride)
        let picked = (0..<Int(n)).map { a[$0 * stride] }
        var c: Float = 0
        var i: vDSP_Length = 0
        vDSP_maxv(a, stride, &c, n)
        #expect(c == picked.max()!)
        vDSP_minv(a, stride, &c, n)
        #expect(c == picked.min()!)
        vDSP_maxvi(a, stride, &c, &i, n)
        #expect(c == picked.max()! && i == vDSP_Length(picked.firstIndex(of: picked.max()!)! * stride))
        vDSP_minvi(a, stride, &c, &i, n)
        #expect(c == picked.min()! && i == vDSP_Length(picked.firstIndex(of: picked.min()!)! * stride))
        vDSP_maxmgv(a, stride, &c, n)
        #expect(c == picked.map(abs).max()!)
        vDSP_sve(a, stride, &c, n)
        #expect(abs(c - picked.reduce(0, +)) < 1e-3)
        vDSP_meanv(a, stride, &c, n)
        #expect(abs(c - picked.reduce(0, +) / Float(n)) < 1e-4)
        vDSP_svesq(a, stride, &c, n)
        #expect(abs(c - picked.reduce(0) { $0 + $1 * $1 }) < 1e-1)
        vDSP_rmsqv(a, stride, &c, n)
        #expect(abs(c - (picked.reduce(0) { $0 + $1 * $1 } / Float(n)).squareRoot()) < 1e-4)
        vDSP_dotpr(a, stride, Self.b, stride, &c, n)
        #expect(abs(c - zip(picked, (0..<Int(n)).map { Self.b[$0 * stride] }).reduce(0) { $0 + $1.0 * $1.1 }) < 1e-1)
        vDSP_maxv(a, 1, &c, 0)
        #expect(c == -.infinity)
        vDSP_minv(a, 1, &c, 0)
        #expect(c == .infinity)
    }

    @Test func elementWise() {
        let a = Self.a
        let b = Self.b
        let n = vDSP_Length(a.count)
        var c = [Float](repeating: 0, count: a.count)
        var s: Float = 2.5
        vDSP_vsmul(a, 1, &s, &c, 1, n)
        #expect(c == a.map { $0 * 2.5 })
        vDSP_vsadd(a, 1, &s, &c, 1, n)
        #expect(c == a.map { $0 + 2.5 })
        vDSP_vsdiv(a, 1, &s, &c, 1, n)
        #expect(c == a.map { $0 / 2.5 })
        vDSP_svdiv(&s, b, 1, &c, 1, n)
        #expect(c == b.map { 2.5 / $0 })
        vDSP_vadd(a, 1, b, 1, &c, 1, n)
        #expect(c == zip(a, b).map { $0 + $1 })
        vDSP_vsub(b, 1, a, 1, &c, 1, n)
        #expect(c == zip(a, b).map { $0 - $1 })  // B first: C = A − B
        vDSP_vmul(a, 1, b, 1, &c, 1, n)
        #expect(c == zip(a, b).map { $0 * $1 })
        vDSP_vdiv(b, 1, a, 1, &c, 1, n)
        #expect(c == zip(a, b).map { $0 / $1 })  // B first: C = A / B
        vDSP_vmax(a, 1, b, 1, &c, 1, n)
        #expect(c == zip(a, b).map { max($0, $1) })
        vDSP_vmin(a, 1, b, 1, &c, 1, n)
        #expect(c == zip(a, b).map { min($0, $1) })
        var low: Float = -2
        var high: Float = 3
        vDSP_vclip(a, 1, &low, &high, &c, 1, n)
        #expect(c == a.map { min(max($0, -2), 3) })
        vDSP_vthr(a, 1, &low, &c, 1, n)
        #expect(c == a.map { max($0, -2) })
        vDSP_vthres(a, 1, &low, &c, 1, n)
        #expect(c == a.map { $0 < -2 ? 0 : $0 })
        vDSP_vabs(a, 1, &c, 1, n)
        #expect(c == a.map(abs))
        vDSP_vneg(a, 1, &c, 1, n)
        #expect(c == a.map { -$0 })
        vDSP_vsq(a, 1, &c, 1, n)
        #expect(c == a.map { $0 * $0 })
        vDSP_vsma(a, 1, &s, b, 1, &c, 1, n)
        #expect(c == zip(a, b).map { $0 * 2.5 + $1 })
        var start: Float = 1
        var step: Float = 0.5
        vDSP_vramp(&start, &step, &c, 1, 4)
        #expect(Array(c.prefix(4)) == [1, 1.5, 2, 2.5])
        // Strided output: every third element written, the others untouched.
        var strided = [Float](repeating: -1, count: 9)
        vDSP_vsmul(a, 1, &s, &strided, 3, 3)
        #expect(strided == [a[0] * 2.5, -1, -1, a[1] * 2.5, -1, -1, a[2] * 2.5, -1, -1])
        var sorted = a
        vDSP_vsort(&sorted, n, -1)
        #expect(sorted == a.sorted(by: >))
    }

    /// vDSP_mmul (BLAS sgemm) against the triple loop: (3 × 5) × (5 × 4).
    @Test func matrixProduct() {
        let m = 3
        let p = 5
        let n = 4
        let a = Array(Self.a.prefix(m * p))
        let b = Array(Self.b.prefix(p * n))
        var c = [Float](repeating: 0, count: m * n)
        vDSP_mmul(a, 1, b, 1, &c, 1, vDSP_Length(m), vDSP_Length(n), vDSP_Length(p))
        var expected = [Float](repeating: 0, count: m * n)
        for i in 0..<m { for j in 0..<n { for k in 0..<p { expected[i * n + j] += a[i * p + k] * b[k * n + j] } } }
        #expect(zip(c, expected).allSatisfy { abs($0 - $1) < 1e-3 })
        var t = [Float](repeating: 0, count: m * p)
        vDSP_mtrans(a, 1, &t, 1, vDSP_Length(p), vDSP_Length(m))
        #expect(t[1 * m + 2] == a[2 * p + 1])
    }

    @Test func conversions() {
        let bytes: [UInt8] = [0, 1, 127, 255]
        var floats = [Float](repeating: 0, count: 4)
        vDSP_vfltu8(bytes, 1, &floats, 1, 4)
        #expect(floats == [0, 1, 127, 255])
        var back = [UInt8](repeating: 9, count: 4)
        vDSP_vfixu8([0.4, 1.6, 127.5, 254.9], 1, &back, 1, 4)
        #expect(back == [0, 1, 127, 254])
        vDSP_vfixru8([0.4, 1.6, 127.5, 254.9], 1, &back, 1, 4)
        #expect(back == [0, 2, 128, 255])
    }

    /// The Swift overlay gives what the C functions give.
    @Test func overlay() {
        let a = Self.a
        let b = Self.b
        #expect(vDSP.maximum(a) == a.max()! && vDSP.minimum(a) == a.min()!)
        let (index, value) = vDSP.indexOfMaximum(a)
        #expect(value == a.max()! && Int(index) == a.firstIndex(of: value)!)
        #expect(abs(vDSP.sum(a) - a.reduce(0, +)) < 1e-3 && abs(vDSP.mean(a) - a.reduce(0, +) / Float(a.count)) < 1e-4)
        #expect(vDSP.add(a, b) == zip(a, b).map { $0 + $1 } && vDSP.subtract(a, b) == zip(a, b).map { $0 - $1 })
        #expect(vDSP.multiply(2, a) == a.map { $0 * 2 } && vDSP.divide(a, b) == zip(a, b).map { $0 / $1 })
        #expect(vDSP.add(1, a) == a.map { $0 + 1 } && vDSP.divide(a, 4) == a.map { $0 / 4 })
        #expect(vDSP.clip(a, to: -1...1) == a.map { min(max($0, -1), 1) })
        #expect(vDSP.ramp(in: 0...1, count: 5) == [0, 0.25, 0.5, 0.75, 1])
        #expect(vDSP.integerToFloatingPoint([UInt8(3), 200], floatingPointType: Float.self) == [3, 200])
        var filled = [Float](repeating: 0, count: 3)
        vDSP.fill(&filled, with: 7)
        #expect(filled == [7, 7, 7])
        let slice = a[10..<30]
        #expect(vDSP.maximum(slice) == slice.max()!)
        #expect(abs(vDSP.dot(a, b) - zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }) < 1e-1)
    }

    /// vForce through glibc's vector math against Foundation's scalar functions: within 4 ulp (relative 1e-6).
    @Test func vForceFunctions() {
        let x = Self.a.map { $0 / 4 }  // −2.5 … 2.5
        let positive = x.map { abs($0) + 0.01 }
        func close(_ got: [Float], _ want: [Float]) -> Bool {
            zip(got, want).allSatisfy { abs($0 - $1) <= 1e-6 * max(1, abs($1)) }
        }
        var n = Int32(x.count)
        var y = [Float](repeating: 0, count: x.count)
        vvexpf(&y, x, &n)
        #expect(close(y, x.map { exp($0) }))
        vvlogf(&y, positive, &n)
        #expect(close(y, positive.map { log($0) }))
        vvtanhf(&y, x, &n)
        #expect(close(y, x.map { tanh($0) }))
        vvsqrtf(&y, positive, &n)
        #expect(close(y, positive.map { $0.squareRoot() }))
        vvpowf(&y, x, positive, &n)
        #expect(close(y, zip(positive, x).map { pow($0, $1) }))
        vvsinf(&y, x, &n)
        #expect(close(y, x.map { sin($0) }))
        vvrecf(&y, positive, &n)
        #expect(close(y, positive.map { 1 / $0 }))
        #expect(close(vForce.exp(x), x.map { exp($0) }) && close(vForce.tanh(x), x.map { tanh($0) }))
        #expect(close(vForce.log(positive), positive.map { log($0) }))
        var result = [Float](repeating: 0, count: x.count)
        vForce.exp(x, result: &result)
        #expect(close(result, x.map { exp($0) }))
    }
}
