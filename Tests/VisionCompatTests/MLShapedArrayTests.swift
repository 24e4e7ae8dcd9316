import CoreML
import Foundation
import Testing

/// `MLShapedArray` as Core ML's: built from scalars, converted to and from `MLMultiArray` of each data type,
/// indexed, sliced, reshaped, transposed and concatenated as Apple's documentation describes (the examples there
/// give the expected shapes; the values follow row-major order, as numpy's:
/// `np.arange(6).reshape(1, 2, 3).transpose(2, 1, 0).ravel()` → 0 3 1 4 2 5).
@Suite struct MLShapedArrayTests {
    @Test func buildsIndexesAndSlices() {
        var a = MLShapedArray<Int32>(scalars: 0..., shape: [2, 3, 4])
        #expect(a.shape == [2, 3, 4])
        #expect(a.strides == [12, 4, 1])
        #expect(a.scalarCount == 24)
        #expect(a[scalarAt: 1, 2, 3] == 23)
        #expect(a[scalarAt: [0, 1, 2]] == 6)
        #expect(a.count == 2)
        #expect(a[1].shape == [3, 4])
        #expect(a[1][2].scalars == [20, 21, 22, 23])
        #expect(a[1, 2].scalars == [20, 21, 22, 23])
        #expect(a[1, 2, 3].scalar == 23)
        #expect(a.map { $0.scalars.first } == [0, 12])
        a[scalarAt: 0, 0, 0] = 99
        #expect(a.scalars[0] == 99)
        a[1] = a[0]
        #expect(a[1].scalars == a[0].scalars)
        #expect(a[scalarAt: 1, 0, 0] == 99)
        let s = MLShapedArray<Float>(scalar: 2.5)
        #expect(s.isScalar && s.scalar == 2.5 && s.shape.isEmpty)
        let literal: MLShapedArray<Double> = [1, 2, 3]
        #expect(literal.shape == [3] && literal.scalars == [1, 2, 3])
    }

    @Test func reshapesTransposesConcatenates() {
        let original = MLShapedArray<Int32>(scalars: 0..., shape: [1, 2, 3])
        let t = original.transposed()
        #expect(t.shape == [3, 2, 1])
        #expect(t.scalars == [0, 3, 1, 4, 2, 5])
        // Apple's example: [C, H, W] → [C, W, H].
        let chw = MLShapedArray<Int32>(scalars: 0..., shape: [3, 64, 128])
        let cwh = chw.transposed(permutation: [0, 2, 1])
        #expect(cwh.shape == [3, 128, 64])
        #expect(cwh[scalarAt: 2, 100, 5] == chw[scalarAt: 2, 5, 100])
        #expect(original.reshaped(to: [3, 2]).scalars == original.scalars)
        #expect(original.reshaped(to: [3, 2])[2].scalars == [4, 5])
        // np.concatenate([np.arange(4).reshape(2,2), np.arange(4,6).reshape(2,1)], axis=1).ravel() → 0 1 4 2 3 5
        let joined = MLShapedArray(
            concatenating: [
                MLShapedArray<Int32>(scalars: 0..., shape: [2, 2]),
                MLShapedArray<Int32>(scalars: 4..., shape: [2, 1]),
            ], alongAxis: 1)
        #expect(joined.shape == [2, 3])
        #expect(joined.scalars == [0, 1, 4, 2, 3, 5])
    }

    @Test func convertsToAndFromMultiArrays() throws {
        let floats = MLShapedArray<Float>(scalars: [0.5, -1, 2, 3.25, 1e-3, 7], shape: [2, 3])
        let array = MLMultiArray(floats)
        #expect(array.dataType == .float32)
        #expect(array.shape == [2, 3])
        #expect(array[[1, 0] as [NSNumber]].floatValue == 3.25)
        #expect(MLShapedArray<Float>(array) == floats)
        // Conversions follow MLMultiArray's storage: Float16 rounds to half precision, Int32 truncates.
        let half = MLMultiArray(MLShapedArray<Float16>(converting: array))
        #expect(half.dataType == .float16)
        #expect(MLShapedArray<Float>(half).scalars[4] == Float(Float16(Float(1e-3))))
        let ints = MLShapedArray<Int32>(converting: array)
        #expect(ints.scalars == [0, -1, 2, 3, 0, 7])
        let doubles = MLShapedArray<Double>(array)
        #expect(doubles.scalars[3] == 3.25)
        // Through MLFeatureValue, as generated classes read outputs.
        let value = MLFeatureValue(shapedArray: floats)
        #expect(value.type == .multiArray)
        #expect(value.shapedArrayValue(of: Float.self) == floats)
        #expect(MLFeatureValue(string: "x").shapedArrayValue(of: Float.self) == nil)
        // Int32 storage of NaN and out-of-range values: 0 and clamped, not a trap.
        let intArray = try MLMultiArray(shape: [3], dataType: .int32)
        intArray[0] = NSNumber(value: Double.nan)
        intArray[1] = NSNumber(value: 1e20)
        intArray[2] = NSNumber(value: -Double.infinity)
        #expect(MLShapedArray<Int32>(intArray).scalars == [0, Int32.max, Int32.min])
    }
}
