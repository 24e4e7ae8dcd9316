import Foundation
import Testing

@testable import OpenVisionConverters

/// The blob storage v2 reader on a weight file written by coremltools' own C++ blob writer
/// (Tests/Fixtures/coreml-mil/blobs.bin, one blob of every type it writes; values in blobs.json, from
///
///     /work/venvs/coremltools-mil/bin/python scripts/models/coreml_mil_fixtures.py
///
/// ), on hand-made blobs of the types that writer lacks, and on damaged files.
@Suite struct MILWeightBlobFileTests {
    struct Reference: Decodable {
        struct Blob: Decodable {
            var dtype: String
            var offset: UInt64
            var values: [Double]
        }
        var blobs: [Blob]
    }

    static func reference() throws -> (MILWeightBlobFile, Reference) {
        let folder = MILTestSupport.fixtures
        let file = try MILWeightBlobFile(
            bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent("blobs.bin"))))
        let reference = try JSONDecoder().decode(
            Reference.self, from: Data(contentsOf: folder.appendingPathComponent("blobs.json")))
        return (file, reference)
    }

    @Test func readsEveryTypeCoremltoolsWrites() throws {
        let (file, reference) = try Self.reference()
        #expect(file.count == reference.blobs.count)
        #expect(
            Set(reference.blobs.map(\.dtype)) == [
                "fp32", "fp16", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int4",
                "uint1", "uint2", "uint3", "uint4", "uint6",
            ])
        for blob in reference.blobs {
            let type = try #require(MILDataType(rawValue: blob.dtype))
            #expect(try file.blob(at: blob.offset).dataType.milType == type)
            let values = try file.values(at: blob.offset, as: type, count: blob.values.count)
            switch values {
            case .floats(let f): #expect(f.map(Double.init) == blob.values.map { Double(Float($0)) }, "\(blob.dtype)")
            case .ints(let i): #expect(i.map(Double.init) == blob.values, "\(blob.dtype)")
            default: Issue.record("\(blob.dtype) read as \(values)")
            }
        }
    }

    /// A file of one hand-made blob of `type` with `data`.
    static func file(
        code: UInt32, data: [UInt8], size: UInt64? = nil, version: UInt32 = 2, sentinel: UInt32 = 0xDEAD_BEEF
    ) -> [UInt8] {
        func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        var bytes = le(1, 4) + le(UInt64(version), 4) + [UInt8](repeating: 0, count: 56)
        bytes += le(UInt64(sentinel), 4) + le(UInt64(code), 4) + le(size ?? UInt64(data.count), 8) + le(128, 8)
        bytes += [UInt8](repeating: 0, count: 40) + data
        return bytes
    }

    @Test func readsBFloat16AndFloat8() throws {
        // bf16 1.5 = 0x3FC0, −2 = 0xC000; fp8 E4M3FN 0x38 = 1.0, 0xC4 = −3.0, 0x7F = NaN; E5M2 0x3C = 1.0.
        let bf = try MILWeightBlobFile(bytes: Self.file(code: 5, data: [0xC0, 0x3F, 0x00, 0xC0]))
        #expect(try bf.floats(at: 64, as: .bf16, count: 2) == [1.5, -2])
        let e4 = try MILWeightBlobFile(bytes: Self.file(code: 16, data: [0x38, 0xC4, 0x01, 0x7F]))
        let v = try e4.floats(at: 64, as: .fp8e4m3fn, count: 4)
        #expect(v[0] == 1 && v[1] == -3 && v[2] == 0x1p-9 && v[3].isNaN)
        let e5 = try MILWeightBlobFile(bytes: Self.file(code: 17, data: [0x3C, 0xBC]))
        #expect(try e5.floats(at: 64, as: .fp8e5m2, count: 2) == [1, -1])
    }

    @Test func unpacksSubByteValuesLSBFirst() throws {
        // uint3: 5, 2, 7, 1 → bits 101 010 111 001 LSB first: byte0 = 0b11_010_101 = 0xD5, byte1 = 0b0000_0011 | 1<<1 = 0x03.
        let file = try MILWeightBlobFile(bytes: Self.file(code: 12, data: [0xD5, 0x03]))
        #expect(try file.values(at: 64, as: .uint3, count: 4) == .ints([5, 2, 7, 1]))
        // int4: 0x9F → low nibble 15 = −1, high nibble 9 = −7.
        let int4 = try MILWeightBlobFile(bytes: Self.file(code: 8, data: [0x9F]))
        #expect(try int4.values(at: 64, as: .int4, count: 2) == .ints([-1, -7]))
    }

    @Test func rejectsDamagedFiles() throws {
        func code(_ body: () throws -> Void) -> ConversionError.Code? {
            do {
                try body()
                return nil
            } catch let error as ConversionError { return error.code } catch { return nil }
        }
        #expect(code { _ = try MILWeightBlobFile(bytes: [UInt8](repeating: 0, count: 63)) } == .invalidValue)
        #expect(
            code { _ = try MILWeightBlobFile(bytes: Self.file(code: 2, data: [0, 0, 0, 0], version: 1)) }
                == .invalidValue)
        let badSentinel = try MILWeightBlobFile(bytes: Self.file(code: 2, data: [0, 0, 0, 0], sentinel: 0xDEAD_BEEE))
        #expect(code { _ = try badSentinel.blob(at: 64) } == .invalidValue)
        let good = try MILWeightBlobFile(bytes: Self.file(code: 2, data: [0, 0, 128, 63]))
        #expect(try good.floats(at: 64, as: .fp32, count: 1) == [1])
        #expect(code { _ = try good.blob(at: 0) } == .invalidValue)  // the header
        #expect(code { _ = try good.blob(at: 100) } == .invalidValue)  // not 64 bytes left
        #expect(code { _ = try good.blob(at: UInt64.max) } == .invalidValue)
        #expect(code { _ = try good.values(at: 64, as: .fp16, count: 1) } == .invalidValue)  // stored as fp32
        #expect(code { _ = try good.values(at: 64, as: .fp32, count: 2) } == .invalidValue)  // one value only
        #expect(code { _ = try good.values(at: 64, as: .fp32, count: Int.max) } == .limitExceeded)
        let oversized = try MILWeightBlobFile(bytes: Self.file(code: 2, data: [0, 0, 0, 0], size: UInt64.max))
        #expect(code { _ = try oversized.blob(at: 64) } == .invalidValue)
        let unknownType = try MILWeightBlobFile(bytes: Self.file(code: 99, data: [0]))
        #expect(code { _ = try unknownType.blob(at: 64) } == .invalidValue)
    }

    @Test func halfPrecisionRoundsToNearestEven() {
        #expect(Half.round(1 + 0x1p-11) == 1)  // halfway: even
        #expect(Half.round(1 + 3 * 0x1p-11) == 1 + 0x1p-9)  // halfway: up to even
        #expect(Half.round(65520) == .infinity)
        #expect(Half.round(0x1p-25) == 0 && Half.round(0x1.8p-25) == 0x1p-24)
        for bits in stride(from: 0, to: 0x7C00, by: 97) { #expect(Half.bits(Half.float(UInt16(bits))) == UInt16(bits)) }
    }
}
