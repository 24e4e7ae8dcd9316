import Accelerate
import Foundation
import Testing

/// The double-precision vDSP / vForce functions against plain loops (odd lengths, strides 1 and 3), and CoreMLHelpers'
/// sigmoid as it calls them.
@Suite struct VDSPDoubleTests {
    static let a = VDSPTests.values(103).map(Double.init), b = VDSPTests.values(103, seed: 11).map { Double($0) }

    @Test(arguments: [1, 3])
    func reductions(_ stride: Int) {
        let a = Self.a
        let n = vDSP_Length(a.count / stride)
        let picked = (0..<Int(n)).map { a[$0 * stride] }
        var c = 0.0
        var i: vDSP_Length = 0
        vDSP_maxvD(a, stride, &c, n)
        #expect(c == picked.max()!)
        vDSP_minvD(a, stride, &c, n)
        #expect(c == picked.min()!)
        vDSP_maxviD(a, stride, &c, &i, n)
        #expect(c == picked.max()! && i == vDSP_Length(picked.firstIndex(of: picked.max()!)! * stride))
        vDSP_minviD(a, stride, &c, &i, n)
        #expect(c == picked.min()! && i == vDSP_Length(picked.firstIndex(of: picked.min()!)! * stride))
        vDSP_sveD(a, stride, &c, n)
        #expect(abs(c - picked.reduce(0, +)) < 1e-9)
        // Empty: the documented identities.
        vDSP_maxviD(a, stride, &c, &i, 0)
        #expect(c == -.infinity && i == 0)
    }

    @Test(arguments: [1, 3])
    func elementwise(_ stride: Int) {
        let a = Self.a
        let n = a.count / stride
        var c = [Double](repeating: 0, count: a.count)
        var s = 2.5
        vDSP_vnegD(a, stride, &c, stride, vDSP_Length(n))
        #expect((0..<n).allSatisfy { c[$0 * stride] == -a[$0 * stride] })
        vDSP_vsaddD(a, stride, &s, &c, stride, vDSP_Length(n))
        #expect((0..<n).allSatisfy { c[$0 * stride] == a[$0 * stride] + 2.5 })
        vDSP_vsmulD(a, stride, &s, &c, stride, vDSP_Length(n))
        #expect((0..<n).allSatisfy { c[$0 * stride] == a[$0 * stride] * 2.5 })
        vDSP_vsdivD(a, stride, &s, &c, stride, vDSP_Length(n))
        #expect((0..<n).allSatisfy { c[$0 * stride] == a[$0 * stride] / 2.5 })
    }

    /// CoreMLHelpers' `sigmoid(_ x: UnsafeMutablePointer<Double>, count:)`: −x, e^x, +1, 1/x in place.
    @Test func sigmoidInPlace() {
        var x = Self.b
        var count = Int32(x.count)
        var one = 1.0
        x.withUnsafeMutableBufferPointer { p in
            let x = p.baseAddress!
            vDSP_vnegD(x, 1, x, 1, vDSP_Length(count))
            vvexp(x, x, &count)
            vDSP_vsaddD(x, 1, &one, x, 1, vDSP_Length(count))
            vvrec(x, x, &count)
        }
        #expect(zip(x, Self.b).allSatisfy { abs($0 - 1 / (1 + Foundation.exp(-$1))) < 1e-15 })
    }
}
