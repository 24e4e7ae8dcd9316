import Foundation

/// The parameters of one `[convolutional]` layer, as stored in a `.weights` file.
package struct DarknetConvolutionParameters {
    /// Biases (with batch normalisation: the batch-norm shift β).
    var biases: ArraySlice<Float>
    /// Batch-norm scale γ, rolling mean and rolling variance, when the layer has batch normalisation.
    var scales: ArraySlice<Float>?
    var mean: ArraySlice<Float>?
    var variance: ArraySlice<Float>?
    /// Kernels, filters × (inputChannels / groups) × size × size, row-major (ONNX `Conv`'s layout).
    var weights: ArraySlice<Float>
}

/// A Darknet `.weights` file checked against its `.cfg`.
///
/// Layout: int32 major, minor, revision; `seen` as int64 when major × 10 + minor ≥ 2, else int32;
/// then, for every `[convolutional]` in cfg order, float32 biases, [scales, rolling mean, rolling
/// variance when `batch_normalize=1`], kernels. The file must hold exactly what the cfg needs.
package struct DarknetWeights: Sendable {
    var major: Int32
    var minor: Int32
    var revision: Int32
    var seen: UInt64
    /// Every float after the header, in file order.
    var values: [Float]
    /// Where each convolution's parameters start in `values`, by darknet layer index.
    var offsets: [Int: Int]

    package static func load(_ url: URL, config: DarknetConfig) throws -> DarknetWeights {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw ConversionError.unreadable(url, what: "weights", error)
        }
        return try DarknetWeights(data: data, fileName: url.lastPathComponent, config: config)
    }

    /// The header of a `.weights` file: its version, `seen`, and its size in bytes.
    struct Header {
        var major: Int32, minor: Int32, revision: Int32
        var seen: UInt64
        var size: Int
    }

    /// Reads the header from the first 20 bytes (or fewer) of a file of `fileSize` bytes and checks
    /// that the rest holds exactly the floats `config` needs.
    static func checkedHeader(_ head: Data, fileSize: Int, fileName: String, config: DarknetConfig) throws -> Header {
        func fail(_ message: String) -> ConversionError { ConversionError(.weights, message, file: fileName) }
        guard head.count >= 16, fileSize >= 16 else {
            throw fail("the weights file is \(fileSize) bytes, too short for a darknet header")
        }
        let header = head.withUnsafeBytes { raw in
            (0..<4).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) }
        }
        let major = header[0]
        let minor = header[1]
        let revision = header[2]
        guard major >= 0, minor >= 0, revision >= 0 else {
            throw fail("the header has a negative version \(major).\(minor).\(revision): not a darknet weights file")
        }
        if major > 1000 || minor > 1000 {
            throw ConversionError(
                .unsupported, "transposed weights (version \(major).\(minor)) are not supported",
                file: fileName)
        }
        let headerSize: Int
        let seen: UInt64
        if major * 10 + minor >= 2 {
            headerSize = 20
            guard head.count >= headerSize, fileSize >= headerSize else {
                throw fail("the weights file is \(fileSize) bytes, too short for a darknet header")
            }
            seen = head.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt64.self)) }
        } else {
            headerSize = 16
            seen = UInt64(UInt32(bitPattern: header[3]))
        }

        let payload = fileSize - headerSize
        let needed = config.weightFloatCount
        guard payload % 4 == 0 else {
            throw fail(
                "the weights file has \(payload) bytes after its \(headerSize)-byte header, not a whole "
                    + "number of float32 values (the cfg needs \(needed) floats, \(needed * 4) bytes)")
        }
        guard payload / 4 == needed else {
            throw fail(
                "weights file has \(payload / 4) floats, the cfg needs \(needed) "
                    + "(is it the .weights of this .cfg?)")
        }
        return Header(major: major, minor: minor, revision: revision, seen: seen, size: headerSize)
    }

    /// Checks that the `.weights` file at `url` fits `config` (its header and its size) without
    /// reading the floats.
    package static func check(_ url: URL, config: DarknetConfig) throws {
        let head: Data
        let size: Int
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            size = Int(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            head = try handle.read(upToCount: 20) ?? Data()
        } catch {
            throw ConversionError.unreadable(url, what: "weights", error)
        }
        _ = try checkedHeader(head, fileSize: size, fileName: url.lastPathComponent, config: config)
    }

    package init(data: Data, fileName: String = "network.weights", config: DarknetConfig) throws {
        let header = try Self.checkedHeader(
            Data(data.prefix(20)), fileSize: data.count, fileName: fileName, config: config)
        major = header.major
        minor = header.minor
        revision = header.revision
        seen = header.seen
        let headerSize = header.size
        let needed = config.weightFloatCount

        values = [Float](unsafeUninitializedCapacity: needed) { buffer, count in
            data.withUnsafeBytes { raw in
                for i in 0..<needed {
                    let bits = UInt32(
                        littleEndian: raw.loadUnaligned(fromByteOffset: headerSize + i * 4, as: UInt32.self))
                    buffer[i] = Float(bitPattern: bits)
                }
            }
            count = needed
        }
        var offsets: [Int: Int] = [:]
        var offset = 0
        for layer in config.layers {
            guard case .convolutional(let conv) = layer.kind else { continue }
            offsets[layer.index] = offset
            offset += conv.weightFloatCount
        }
        self.offsets = offsets
    }

    /// The parameters of the convolution at darknet layer `index`.
    func convolution(at index: Int, _ conv: DarknetConvolution) -> DarknetConvolutionParameters {
        var position = offsets[index]!
        func take(_ count: Int) -> ArraySlice<Float> {
            defer { position += count }
            return values[position..<(position + count)]
        }
        let biases = take(conv.filters)
        var parameters = DarknetConvolutionParameters(biases: biases, weights: [])
        if conv.batchNormalize {
            parameters.scales = take(conv.filters)
            parameters.mean = take(conv.filters)
            parameters.variance = take(conv.filters)
        }
        parameters.weights = take(conv.kernelCount)
        return parameters
    }
}
