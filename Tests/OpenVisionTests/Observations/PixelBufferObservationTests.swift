import Foundation
import OpenVision
import Testing

@Suite struct PixelBufferObservationTests {
    static func ramp() throws -> PixelBufferObservation {
        // 3 × 2, one channel: 0, 0.1, …, 0.5.
        try PixelBufferObservation(width: 3, height: 2, values: (0..<6).map { Float($0) / 10 }, featureName: "ramp")
    }

    @Test func valuesAreReachableWithoutCopying() throws {
        let map = try Self.ramp()
        let base = map.values.withUnsafeBufferPointer { $0.baseAddress }
        let seen = map.withUnsafeBufferPointer { $0.baseAddress }
        #expect(base == seen)
        #expect(map[2, 1] == 0.5 && map[1, 0] == 0.1)
        // Lower-left normalised point (0.1, 0.9) is the top-left pixel.
        #expect(map.value(at: NormalizedPoint(x: 0.1, y: 0.9)) == 0)
    }

    @Test func sizeMismatchAndBadDimensionsThrow() {
        #expect(throws: VisionError.self) { try PixelBufferObservation(width: 3, height: 2, values: [0, 1]) }
        #expect(throws: VisionError.self) { try PixelBufferObservation(width: 0, height: 2, values: []) }
        #expect(throws: VisionError.self) { try PixelBufferObservation(width: 2, height: 2, channels: -1, values: []) }
    }

    @Test func imageAndPNG() throws {
        let map = try Self.ramp()
        let image = try map.makeImage()
        #expect(image.width == 3 && image.height == 2)
        let rgb = [UInt8](image.rgbData())
        #expect(rgb[0] == 0 && rgb[3 * 5] == 128)  // 0.5 × 255 rounded
        let decoded = try VisionImage(data: try map.pngData())
        #expect(decoded.rgbData() == image.rgbData())
        let twoChannel = try PixelBufferObservation(width: 1, height: 1, channels: 2, values: [1, 2])
        #expect(throws: VisionError.self) { try twoChannel.makeImage() }
    }

    /// The `.npy` layout numpy expects (`numpy.load` of this file gives `[[0, .1, .2], [.3, .4, .5]]` float32).
    @Test func npyHeaderAndValues() throws {
        let data = try Self.ramp().npyData()
        #expect(Array(data.prefix(8)) == [0x93] + Array("NUMPY".utf8) + [1, 0])
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        #expect((10 + headerLength) % 64 == 0)
        let header = String(decoding: data[10..<(10 + headerLength)], as: UTF8.self)
        #expect(
            header.hasPrefix("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") && header.hasSuffix("\n"))
        let body = data.suffix(from: 10 + headerLength)
        #expect(body.count == 6 * 4)
        let floats = body.withUnsafeBytes { raw in
            (0..<6).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
        #expect(floats == (0..<6).map { Float($0) / 10 })
    }
}
