/// A Core ML weight file in blob storage format version 2 (`weights/weight.bin` of an `.mlpackage` or
/// an ML Program `.mlmodelc`), as coremltools' mlmodel/src/MILBlob/Blob/StorageFormat.hpp lays it out:
/// a 64-byte header `{u32 count; u32 version = 2; …}`, then per blob a 64-byte metadata record
/// `{u32 sentinel 0xDEADBEEF; u32 dtype; u64 size in bytes; u64 data offset; u64 padding bits; …}` and
/// its data, little-endian. A MIL constant's `offset` is that of the metadata record.
///
/// Every read is bounds-checked against the file; a bad header, sentinel, type code or range is a
/// `ConversionError(.invalidValue)` naming the offset.
package struct MILWeightBlobFile: Sendable {
    /// Blob element types (`BlobDataType` codes).
    package enum DataType: UInt32, Sendable, CaseIterable {
        case float16 = 1
        case float32 = 2
        case uint8 = 3
        case int8 = 4
        case bfloat16 = 5
        case int16 = 6
        case uint16 = 7
        case int4 = 8
        case uint1 = 9
        case uint2 = 10
        case uint4 = 11
        case uint3 = 12
        case uint6 = 13
        case int32 = 14
        case uint32 = 15
        case float8E4M3FN = 16
        case float8E5M2 = 17

        /// The MIL element type stored with this code.
        package var milType: MILDataType {
            switch self {
            case .float16: .fp16
            case .float32: .fp32
            case .uint8: .uint8
            case .int8: .int8
            case .bfloat16: .bf16
            case .int16: .int16
            case .uint16: .uint16
            case .int4: .int4
            case .uint1: .uint1
            case .uint2: .uint2
            case .uint4: .uint4
            case .uint3: .uint3
            case .uint6: .uint6
            case .int32: .int32
            case .uint32: .uint32
            case .float8E4M3FN: .fp8e4m3fn
            case .float8E5M2: .fp8e5m2
            }
        }
    }

    /// One blob's metadata record.
    package struct Blob: Sendable, Equatable {
        package var dataType: DataType
        /// Where the data starts in the file, and its length in bytes.
        package var dataOffset: Int
        package var byteCount: Int
        /// Unused bits at the end of sub-byte data (0 before iOS 18's writers, which left the field unset).
        package var paddingBits: UInt64
    }

    package let bytes: [UInt8]
    /// The header's blob count.
    package let count: Int

    package init(bytes: [UInt8]) throws {
        guard bytes.count >= 64 else {
            throw ConversionError(
                .invalidValue, "the weight file has \(bytes.count) bytes, fewer than its 64-byte header")
        }
        let version = Self.u32(bytes, 4)
        guard version == 2 else {
            // The value read is not shown: messages never carry a file's bytes.
            throw ConversionError(
                .invalidValue, "the weight file is not in blob storage format version 2 (the only one read)")
        }
        self.bytes = bytes
        count = Int(Self.u32(bytes, 0))
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }

    static func u64(_ b: [UInt8], _ at: Int) -> UInt64 {
        UInt64(u32(b, at)) | UInt64(u32(b, at + 4)) << 32
    }

    /// The metadata record at `offset`.
    package func blob(at offset: UInt64) throws -> Blob {
        guard offset >= 64, offset <= UInt64(bytes.count), UInt64(bytes.count) - offset >= 64 else {
            throw ConversionError(
                .invalidValue, "the weight file has no blob record at offset \(offset) (it has \(bytes.count) bytes)")
        }
        let at = Int(offset)
        guard Self.u32(bytes, at) == 0xDEAD_BEEF else {
            throw ConversionError(
                .invalidValue, "the weight file's record at offset \(offset) lacks the 0xDEADBEEF sentinel")
        }
        let code = Self.u32(bytes, at + 4)
        guard let dataType = DataType(rawValue: code) else {
            throw ConversionError(
                .invalidValue, "the weight file's blob at offset \(offset) has an unknown data type code")
        }
        let size = Self.u64(bytes, at + 8)
        let dataOffset = Self.u64(bytes, at + 16)
        guard dataOffset <= UInt64(bytes.count), size <= UInt64(bytes.count) - dataOffset else {
            throw ConversionError(
                .invalidValue,
                "the weight file's blob at offset \(offset) claims \(size) bytes at \(dataOffset), beyond the file's \(bytes.count) bytes"
            )
        }
        return Blob(
            dataType: dataType, dataOffset: Int(dataOffset), byteCount: Int(size), paddingBits: Self.u64(bytes, at + 24)
        )
    }

    /// The raw bytes of the blob whose record is at `offset`.
    package func data(at offset: UInt64) throws -> ArraySlice<UInt8> {
        let b = try blob(at: offset)
        return bytes[b.dataOffset..<(b.dataOffset + b.byteCount)]
    }

    /// The first `count` elements of the blob at `offset`, which must be stored as `dataType`: floats
    /// (fp16, bf16, fp8 widened exactly to Float) or integers (sub-byte values unpacked LSB-first,
    /// int4 sign-extended), as `MILTensorData`.
    package func values(at offset: UInt64, as dataType: MILDataType, count: Int) throws -> MILTensorData {
        let b = try blob(at: offset)
        guard b.dataType.milType == dataType else {
            throw ConversionError(
                .invalidValue,
                "the weight file's blob at offset \(offset) holds \(b.dataType.milType.rawValue) values; the program reads \(dataType.rawValue)"
            )
        }
        guard count >= 0, count <= MILLimits.maximumElements else {
            throw ConversionError(
                .limitExceeded,
                "a constant of \(count) elements is beyond the converter's limit of \(MILLimits.maximumElements)")
        }
        let bits = dataType.bitWidth ?? 8
        guard b.byteCount * 8 >= count * bits else {
            throw ConversionError(
                .invalidValue,
                "the weight file's blob at offset \(offset) has \(b.byteCount) bytes, fewer than \(count) \(dataType.rawValue) values need"
            )
        }
        return MILTensorData.decode(bytes[b.dataOffset..<(b.dataOffset + b.byteCount)], as: dataType, count: count)
    }

    /// The blob at `offset` as float32 (floats widened, integers converted).
    package func floats(at offset: UInt64, as dataType: MILDataType, count: Int) throws -> [Float] {
        try values(at: offset, as: dataType, count: count).floats
    }
}
