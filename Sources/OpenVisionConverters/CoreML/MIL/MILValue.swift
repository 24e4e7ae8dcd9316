/// A compile-time value: immediate (in the file) or a reference into a weight blob file.
package struct MILValue: Sendable {
    package enum Content: Sendable {
        case immediate(MILImmediate)
        /// `BlobFileValue`: the file as the program writes it, and the offset of the blob's metadata record.
        case blob(file: String, offset: UInt64)
        /// Neither (allowed by the proto; an error where a value is needed).
        case none
    }

    package var type: MILType?
    package var content: Content
    package var docString: String = ""

    package init(type: MILType?, content: Content, docString: String = "") {
        self.type = type
        self.content = content
        self.docString = docString
    }
}

/// An immediate value.
package indirect enum MILImmediate: Sendable {
    case tensor(MILTensorStorage)
    case tuple([MILValue])
    case list([MILValue])
    case dictionary([MILKeyValue])
}

/// One entry of an immediate dictionary.
package struct MILKeyValue: Sendable {
    package var key: MILValue
    package var value: MILValue
}

/// The values of an immediate tensor, in the proto field that holds them (row-major). Which field a
/// type uses is coremltools' choice: fp16, int8, uint8, uint32 and sub-byte types as packed bytes,
/// int16/uint16/int32 as `ints`, int64 as `longInts`; the text format gives numbers as written.
package enum MILTensorStorage: Sendable {
    case floats([Float])
    case ints([Int32])
    case bools([Bool])
    case strings([String])
    case longInts([Int64])
    case doubles([Double])
    case bytes([UInt8])
}
