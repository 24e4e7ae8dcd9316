import CoreML
import Foundation
import Testing

/// `MLMultiArray`'s memory as Core ML's: `dataPointer` holds the data type's own values at the offsets `strides`
/// give, `init(dataPointer:shape:dataType:strides:deallocator:)` reads and writes the caller's memory and frees it
/// with the deallocator, buffer pointers see the same elements, and `init(concatenating:axis:dataType:)` joins arrays
/// as numpy's `np.concatenate` does (expected values below from numpy, one-liners beside them).
@Suite struct MLMultiArrayMemoryTests {
    @Test func dataPointerHoldsTheDataTypesValues() throws {
        let floats = try MLMultiArray(shape: [2, 3], dataType: .float32)
        floats[[1, 2] as [NSNumber]] = 7.5
        #expect(floats.dataPointer.assumingMemoryBound(to: Float.self)[5] == 7.5)
        floats.dataPointer.assumingMemoryBound(to: Float.self)[1] = -2
        #expect(floats[1].floatValue == -2)

        let half = try MLMultiArray(shape: [3], dataType: .float16)
        half[2] = 0.1
        // np.float16(0.1) == 0.0999755859375, stored in 2 bytes.
        #expect(half.dataPointer.assumingMemoryBound(to: Float16.self)[2] == Float16(0.0999755859375))
        #expect(half.withUnsafeBytes { $0.count } == 6)

        let ints = try MLMultiArray(shape: [2], dataType: .int32)
        ints.dataPointer.assumingMemoryBound(to: Int32.self)[1] = 41
        #expect(ints[1].int32Value == 41)

        let doubles = try MLMultiArray(shape: [2, 2], dataType: .double)
        doubles.withUnsafeMutableBufferPointer(ofType: Double.self) { buffer, strides in
            #expect(strides == [2, 1])
            for i in buffer.indices { buffer[i] = Double(i) * 0.5 }
        }
        #expect(doubles.doubleValues == [0, 0.5, 1, 1.5])
        #expect(doubles.withUnsafeBufferPointer(ofType: Double.self) { Array($0) } == [0, 0.5, 1, 1.5])
    }

    @Test func wrapsTheCallersMemoryWithStrides() throws {
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 6)
        for i in 0..<6 { memory[i] = Float(i) }
        nonisolated(unsafe) var freed = false
        do {
            // A [3, 2] view with strides [1, 3]: the transpose of the row-major [2, 3] array 0...5.
            // np.arange(6).reshape(2, 3).T.ravel() → [0, 3, 1, 4, 2, 5]
            let view = try MLMultiArray(
                dataPointer: UnsafeMutableRawPointer(memory), shape: [3, 2], dataType: .float32,
                strides: [1, 3],
                deallocator: { pointer in
                    freed = true
                    pointer.deallocate()
                })
            #expect(view.values == [0, 3, 1, 4, 2, 5])
            #expect(view[[2, 1] as [NSNumber]].floatValue == 5)
            view[[0, 1] as [NSNumber]] = 30
            #expect(memory[3] == 30, "writes go to the caller's memory")
            #expect(view.dataPointer == UnsafeMutableRawPointer(memory))
            #expect(!freed)
        }
        #expect(freed, "the deallocator runs when the array is freed")

        var bytes = [Float](repeating: 0, count: 4)
        bytes.withUnsafeMutableBytes { raw in
            #expect(throws: (any Error).self) {
                try MLMultiArray(dataPointer: raw.baseAddress!, shape: [2, 2], dataType: .float32, strides: [1])
            }
            #expect(throws: (any Error).self) {
                try MLMultiArray(dataPointer: raw.baseAddress!, shape: [2, 2], dataType: .float32, strides: [2, -1])
            }
        }
    }

    /// The sports-analysis sample's `resetMultiArray`: `try UnsafeMutableBufferPointer<Double>(array)` filled in place.
    @Test func bufferPointersOverTheElements() throws {
        let window = try MLMultiArray(shape: [1, 3, 18], dataType: .double)
        let pointer = try UnsafeMutableBufferPointer<Double>(window)
        #expect(pointer.count == 54)
        pointer.initialize(repeating: 0.25)
        #expect(window.doubleValues.allSatisfy { $0 == 0.25 })
        #expect(try UnsafeBufferPointer<Double>(window).reduce(0, +) == 13.5)
        #expect(throws: MLModelError.self) { try UnsafeMutableBufferPointer<Float>(window) }
        #expect(throws: MLModelError.self) { try UnsafeBufferPointer<Int32>(window) }
    }

    @Test func concatenatesAlongAnAxis() throws {
        // a = np.arange(6.).reshape(1, 3, 2); b = a + 10
        let a = try MLMultiArray(shape: [1, 3, 2], dataType: .double)
        let b = try MLMultiArray(shape: [1, 3, 2], dataType: .double)
        for i in 0..<6 {
            a[i] = NSNumber(value: Double(i))
            b[i] = NSNumber(value: Double(i + 10))
        }
        // np.concatenate([a, b], axis=0).ravel() → 0…5, 10…15
        let rows = MLMultiArray(concatenating: [a, b], axis: 0, dataType: .float)
        #expect(rows.shape == [2, 3, 2] && rows.dataType == .float32)
        #expect(rows.values == [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15])
        // np.concatenate([a, b], axis=2).ravel() → [0, 1, 10, 11, 2, 3, 12, 13, 4, 5, 14, 15]
        let columns = MLMultiArray(concatenating: [a, b], axis: 2, dataType: .int32)
        #expect(columns.shape == [1, 3, 4] && columns.dataType == .int32)
        #expect(columns.values == [0, 1, 10, 11, 2, 3, 12, 13, 4, 5, 14, 15])
        // A strided input is read by index, not by memory order.
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 4)
        for i in 0..<4 { memory[i] = Float(i) }
        let transposed = try MLMultiArray(
            dataPointer: UnsafeMutableRawPointer(memory), shape: [2, 2], dataType: .float32,
            strides: [1, 2], deallocator: { $0.deallocate() })
        // np.concatenate([np.arange(4.).reshape(2, 2).T] * 2, axis=1).ravel() → [0, 2, 0, 2, 1, 3, 1, 3]
        #expect(
            MLMultiArray(concatenating: [transposed, transposed], axis: 1, dataType: .float32).values
                == [0, 2, 0, 2, 1, 3, 1, 3])
    }
}
