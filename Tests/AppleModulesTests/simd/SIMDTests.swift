import Foundation
import Testing
import simd

@Suite struct SIMDTests {
    @Test func vectors() {
        let a = simd_make_float3(3, 4, 12)
        let b = simd_float3(1, 0, 0)
        #expect(simd_length(a) == 13 && length(a) == 13 && simd_length_squared(a) == 169)
        #expect(simd_distance(a, b) == (4 + 16 + 144 as Float).squareRoot())
        #expect(simd_dot(a, b) == 3 && dot(a, a) == 169)
        #expect(simd_cross(simd_float3(1, 0, 0), simd_float3(0, 1, 0)) == simd_float3(0, 0, 1))
        #expect(cross(simd_float3(0, 1, 0), simd_float3(1, 0, 0)) == simd_float3(0, 0, -1))
        #expect(abs(simd_length(simd_normalize(a)) - 1) < 1e-6 && normalize(simd_float2(0, 5)) == simd_float2(0, 1))
        #expect(simd_make_float4(simd_float3(1, 2, 3), 4) == simd_float4(1, 2, 3, 4))
        #expect(simd_make_float3(simd_float4(1, 2, 3, 4)) == simd_float3(1, 2, 3))
        #expect(simd_mix(simd_float2(0, 10), simd_float2(10, 20), simd_float2(0.5, 0.1)) == simd_float2(5, 11))
        #expect(
            simd_clamp(simd_float3(-1, 0.5, 2), simd_float3(repeating: 0), simd_float3(repeating: 1))
                == simd_float3(0, 0.5, 1))
        #expect(simd_reduce_max(simd_float4(1, 7, 3, 2)) == 7 && simd_abs(simd_float2(-2, 3)) == simd_float2(2, 3))
        #expect(MemoryLayout<simd_float3>.size == 16)
    }

    /// Column-major with Apple's subscripts: m[column][row] and m[column, row]; products against hand-computed ones.
    @Test func matrices() {
        let m = simd_float3x3(rows: [simd_float3(1, 2, 3), simd_float3(0, 1, 4), simd_float3(5, 6, 0)])
        #expect(m[0] == simd_float3(1, 0, 5) && m[2, 0] == 3 && m[0, 2] == 5)
        #expect(m * simd_float3(1, 1, 1) == simd_float3(6, 5, 11))  // row sums
        #expect(simd_float3(1, 1, 1) * m == simd_float3(6, 9, 7))  // column sums
        #expect(m.determinant == 1)
        // The inverse of [[1 2 3] [0 1 4] [5 6 0]] is [[-24 18 5] [20 -15 -4] [-5 4 1]] (determinant 1).
        #expect(
            simd_inverse(m)
                == simd_float3x3(rows: [simd_float3(-24, 18, 5), simd_float3(20, -15, -4), simd_float3(-5, 4, 1)]))
        #expect(simd_mul(m, simd_inverse(m)) == matrix_identity_float3x3)
        #expect(simd_transpose(m)[0] == simd_float3(1, 2, 3))
        var t = matrix_identity_float4x4
        t.columns.3 = simd_float4(1, 2, 3, 1)
        #expect(t * simd_float4(1, 1, 1, 1) == simd_float4(2, 3, 4, 1))
        #expect(simd_inverse(t).columns.3 == simd_float4(-1, -2, -3, 1))
        #expect(simd_float4x4(diagonal: simd_float4(2, 2, 2, 2)).determinant == 16)
        #expect(simd_float2x2(simd_float2(1, 2), simd_float2(3, 4)).determinant == -2)
        #expect(
            simd_almost_equal_elements(
                simd_inverse(simd_float2x2(simd_float2(4, 0), simd_float2(0, 2))),
                simd_float2x2(diagonal: simd_float2(0.25, 0.5)), 1e-7))
        let encoded = try? JSONEncoder().encode(t)
        #expect(encoded.flatMap { try? JSONDecoder().decode(simd_float4x4.self, from: $0) } == t)
    }

    /// A quarter turn about z takes x to y, as a quaternion and as its matrix; from a matrix back to the same turn.
    @Test func quaternions() {
        let q = simd_quatf(angle: .pi / 2, axis: simd_float3(0, 0, 1))
        let turned = q.act(simd_float3(1, 0, 0))
        #expect(simd_distance(turned, simd_float3(0, 1, 0)) < 1e-6)
        #expect(simd_distance(simd_float3x3(q) * simd_float3(1, 0, 0), simd_float3(0, 1, 0)) < 1e-6)
        #expect(abs(q.angle - .pi / 2) < 1e-6 && simd_distance(q.axis, simd_float3(0, 0, 1)) < 1e-6)
        let back = simd_quatf(simd_matrix3x3(q))
        #expect(simd_distance(back.vector, q.vector) < 1e-6)
        let half = simd_slerp(simd_quatf(angle: 0, axis: simd_float3(0, 0, 1)), q, 0.5)
        #expect(abs(half.angle - .pi / 4) < 1e-5)
        #expect(simd_distance((q * q.inverse).vector, simd_float4(0, 0, 0, 1)) < 1e-6)
        let from = simd_quatf(from: simd_float3(1, 0, 0), to: simd_float3(0, 0, 1))
        #expect(simd_distance(from.act(simd_float3(1, 0, 0)), simd_float3(0, 0, 1)) < 1e-6)
        let m4 = simd_float4x4(q)
        #expect(simd_distance(m4 * simd_float4(1, 0, 0, 1), simd_float4(0, 1, 0, 1)) < 1e-6)
    }
}
