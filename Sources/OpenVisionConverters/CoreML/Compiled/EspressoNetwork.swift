import Foundation

/// A neural network as Xcode compiles it into an `.mlmodelc` folder ("Espresso", Apple-private; the layout as found
/// in Xcode's output, docs/coreml.md):
/// - `model.espresso.net`: JSON `{"layers": [{"type", "name", "bottom", "top", parameters…}], "transform_params":
///   {input: {"scale", "bias_r", …}}, "storage": "model.espresso.weights", "format_version": 200}`; `bottom` and
///   `top` list blob names separated by commas;
/// - `model.espresso.shape`: JSON `{"layer_shapes": {blob: {"n", "k", "h", "w"}}}`, every blob's shape
///   (batch, channels, height, width);
/// - `model.espresso.weights`: `u64 count`, then `count` pairs `(u64 blob index, u64 size in bytes)`, then the blobs'
///   bytes one after the other in that order (float32 little-endian; layers name their blobs by index).
///
/// The reader checks what it reads (sizes against the bytes there are, every count and dimension against
/// `CoreMLLimits` / `CoreMLCompiledLimits`): malformed files are `.syntax` errors naming the file,
/// out-of-bound ones `.limitExceeded`. What the layers mean is `EspressoToCoreML`'s business.
package struct EspressoNetwork: Sendable {
    /// One entry of `layers`.
    package struct Layer: Sendable {
        package var type: String
        package var name: String
        package var bottoms: [String]
        package var tops: [String]
        /// The numeric (and boolean, as 0/1) parameters by key.
        package var numbers: [String: Double]
        /// Keys whose values are neither numbers, the layer's names, nor an empty `weights` object or an
        /// `attributes` object of known flags: nothing converts what they say, so a layer having one is refused.
        package var otherKeys: [String]
        /// `attributes.is_output`.
        package var isOutput: Bool

        /// The parameter `key`, or `default` when absent.
        package func number(_ key: String, default value: Double = 0) -> Double { numbers[key] ?? value }
    }

    /// A blob's shape in `model.espresso.shape`.
    package struct Shape: Sendable, Equatable, CustomStringConvertible {
        package var n: Int
        package var k: Int
        package var h: Int
        package var w: Int
        /// `_rank`: the N-D rank of the blob, in N-D networks (its dimensions are the last `rank` of n, k, h, w).
        package var rank: Int?
        package var description: String {
            "[n \(n), k \(k), h \(h), w \(w)" + (rank.map { ", rank \($0)" } ?? "") + "]"
        }
    }

    /// `transform_params` of one image input: `y = scale × pixel + bias` per channel.
    package struct Transform: Sendable, Equatable {
        package var numbers: [String: Double]
        package var scale: Double { numbers["scale"] ?? 1 }
    }

    package var layers: [Layer]
    package var shapes: [String: Shape]
    package var transforms: [String: Transform]
    /// `model.espresso.weights` as read.
    package var weights: [UInt8]
    /// Each blob's bytes in `weights`, by the index layers name it with.
    package var blobs: [Int: Range<Int>]

    /// Reads the three files of the network in `folder` (`.io` when one is missing or unreadable).
    package init(folder: URL) throws {
        let net = folder.appendingPathComponent("model.espresso.net")
        let shape = folder.appendingPathComponent("model.espresso.shape")
        for file in [net, shape] where !FileManager.default.fileExists(atPath: file.path) {
            throw ConversionError(
                .syntax, "Xcode's compiled neural network lacks \(file.lastPathComponent)", file: folder.path)
        }
        let netBytes = try CoreMLSource.read(
            net, what: "model.espresso.net", limit: CoreMLCompiledLimits.descriptionFileSize)
        let shapeBytes = try CoreMLSource.read(
            shape, what: "model.espresso.shape", limit: CoreMLCompiledLimits.descriptionFileSize)
        let storage = try Self.storageName(netBytes)
        let weightsURL = try CoreMLSource.contained(storage, in: folder, what: "the weights file")
        guard FileManager.default.fileExists(atPath: weightsURL.path) else {
            throw ConversionError(
                .syntax, "Xcode's compiled neural network lacks its weights file \(storage)", file: folder.path)
        }
        try self.init(net: netBytes, shape: shapeBytes, weights: try CoreMLSource.read(weightsURL, what: storage))
    }

    /// Reads the network from the three files' bytes (errors name the files by their usual names).
    package init(net: [UInt8], shape: [UInt8], weights: [UInt8]) throws {
        let root = try Self.jsonObject(net, file: "model.espresso.net")
        guard let list = root["layers"] as? [Any] else {
            throw ConversionError(.syntax, "model.espresso.net: no \"layers\" list")
        }
        guard list.count <= CoreMLCompiledLimits.espressoLayers else {
            throw ConversionError(
                .limitExceeded, "model.espresso.net: \(list.count) layers exceed \(CoreMLCompiledLimits.espressoLayers)"
            )
        }
        layers = try list.enumerated().map { try Self.layer($0.element, index: $0.offset) }
        transforms = [:]
        if let params = root["transform_params"] {
            guard let byInput = params as? [String: Any] else {
                throw ConversionError(.syntax, "model.espresso.net: \"transform_params\" is not an object")
            }
            for (input, value) in byInput {
                guard let entry = value as? [String: Any] else {
                    throw ConversionError(
                        .syntax, "model.espresso.net: transform_params of '\(input)' is not an object")
                }
                var numbers: [String: Double] = [:]
                for (key, v) in entry {
                    guard let number = Self.number(v) else {
                        throw ConversionError(
                            .syntax, "model.espresso.net: transform_params '\(input)'.\(key) is not a number")
                    }
                    numbers[key] = number
                }
                transforms[input] = Transform(numbers: numbers)
            }
        }
        shapes = try Self.shapes(shape)
        self.weights = weights
        blobs = try Self.blobTable(weights)
    }

    /// The bytes of blob `index` (`.syntax` naming `layer` when the weights file has none).
    package func blob(_ index: Int, layer: String) throws -> ArraySlice<UInt8> {
        guard let range = blobs[index] else {
            throw ConversionError(.syntax, "model.espresso.weights has no blob \(index) (layer '\(layer)')")
        }
        return weights[range]
    }

    // MARK: Reading

    static func jsonObject(_ bytes: [UInt8], file: String) throws -> [String: Any] {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw ConversionError(.syntax, "\(file) is not JSON: \(error.localizedDescription)")
        }
        guard let object = parsed as? [String: Any] else {
            throw ConversionError(.syntax, "\(file) is not a JSON object")
        }
        return object
    }

    /// `storage`: the weights file's name (default `model.espresso.weights`).
    static func storageName(_ net: [UInt8]) throws -> String {
        let root = try jsonObject(net, file: "model.espresso.net")
        guard let value = root["storage"] else { return "model.espresso.weights" }
        guard let name = value as? String, !name.isEmpty else {
            throw ConversionError(.syntax, "model.espresso.net: \"storage\" is not a file name")
        }
        return name
    }

    /// A JSON number or boolean as a Double (nil for anything else, strings included).
    static func number(_ value: Any) -> Double? {
        if value is String { return nil }
        guard let n = value as? NSNumber else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    /// Comma-separated blob names.
    static func names(_ value: Any?, key: String, layer: String) throws -> [String] {
        guard let value else { return [] }
        guard let text = value as? String else {
            throw ConversionError(.syntax, "model.espresso.net: layer '\(layer)': \"\(key)\" is not a string")
        }
        return text.split(separator: ",", omittingEmptySubsequences: true).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
    }

    static func layer(_ value: Any, index: Int) throws -> Layer {
        guard let entry = value as? [String: Any] else {
            throw ConversionError(.syntax, "model.espresso.net: layer \(index) is not an object")
        }
        guard let type = entry["type"] as? String, !type.isEmpty else {
            throw ConversionError(.syntax, "model.espresso.net: layer \(index) has no \"type\"")
        }
        let name = (entry["name"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "layer \(index)"
        var layer = Layer(
            type: type, name: name, bottoms: try names(entry["bottom"], key: "bottom", layer: name),
            tops: try names(entry["top"], key: "top", layer: name), numbers: [:], otherKeys: [], isOutput: false)
        guard !layer.tops.isEmpty else {
            throw ConversionError(.syntax, "model.espresso.net: layer '\(name)' has no \"top\"")
        }
        for (key, v) in entry.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "type", "name", "bottom", "top", "debug_info":
                continue
            case "weights":
                if let object = v as? [String: Any], object.isEmpty { continue }
                layer.otherKeys.append(key)
            case "attributes":
                guard let attributes = v as? [String: Any] else {
                    layer.otherKeys.append(key)
                    continue
                }
                for (a, flag) in attributes {
                    if a == "is_output", let f = number(flag) {
                        layer.isOutput = f != 0
                    } else {
                        layer.otherKeys.append("attributes.\(a)")
                    }
                }
            default:
                if let n = number(v) { layer.numbers[key] = n } else { layer.otherKeys.append(key) }
            }
        }
        return layer
    }

    static func shapes(_ bytes: [UInt8]) throws -> [String: Shape] {
        let root = try jsonObject(bytes, file: "model.espresso.shape")
        guard let table = root["layer_shapes"] as? [String: Any] else {
            throw ConversionError(.syntax, "model.espresso.shape: no \"layer_shapes\" object")
        }
        var result: [String: Shape] = [:]
        for (blob, value) in table {
            guard let entry = value as? [String: Any] else {
                throw ConversionError(.syntax, "model.espresso.shape: '\(blob)' is not an object")
            }
            var dims: [String: Int] = [:]
            for (key, v) in entry {
                guard let d = number(v), d >= 0, d <= Double(CoreMLLimits.dimension), d == d.rounded() else {
                    throw ConversionError(
                        .syntax,
                        "model.espresso.shape: '\(blob)'.\(key) is not a dimension (0...\(CoreMLLimits.dimension))")
                }
                dims[key] = Int(d)
            }
            for (key, d) in dims where !["n", "k", "h", "w", "_rank"].contains(key) && d != 1 {
                throw ConversionError(.unsupported, "model.espresso.shape: '\(blob)' has a dimension '\(key)' of \(d)")
            }
            guard let k = dims["k"], let h = dims["h"], let w = dims["w"] else {
                throw ConversionError(.syntax, "model.espresso.shape: '\(blob)' lacks k, h or w")
            }
            if let rank = dims["_rank"], !(1...4).contains(rank) {
                throw ConversionError(.unsupported, "model.espresso.shape: '\(blob)' of rank \(rank) (1...4 are read)")
            }
            result[blob] = Shape(n: dims["n"] ?? 1, k: k, h: h, w: w, rank: dims["_rank"])
        }
        return result
    }

    /// The blob table of `model.espresso.weights`: every size checked, and the blobs exactly filling the file.
    static func blobTable(_ bytes: [UInt8]) throws -> [Int: Range<Int>] {
        var reader = CompiledDataReader(bytes: bytes, file: "model.espresso.weights")
        let count = try reader.length(
            limit: min(CoreMLCompiledLimits.espressoBlobs, reader.remaining / 16), what: "blob count")
        var entries: [(index: Int, size: Int)] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let index = try reader.length(limit: Int(Int32.max), what: "blob index")
            let size = try reader.length(limit: reader.remaining, what: "blob size")
            entries.append((index, size))
        }
        var table: [Int: Range<Int>] = [:]
        var offset = reader.offset
        for (index, size) in entries {
            guard size <= bytes.count - offset else {
                throw ConversionError(
                    .syntax,
                    "model.espresso.weights: blob \(index) of \(size) bytes at offset \(offset) "
                        + "runs past the end (\(bytes.count) bytes)")
            }
            guard table[index] == nil else {
                throw ConversionError(.syntax, "model.espresso.weights: blob \(index) twice")
            }
            table[index] = offset..<offset + size
            offset += size
        }
        guard offset == bytes.count else {
            throw ConversionError(
                .syntax,
                "model.espresso.weights: the blobs take \(offset) of \(bytes.count) bytes "
                    + "(a blob table this reader does not know)")
        }
        return table
    }
}
