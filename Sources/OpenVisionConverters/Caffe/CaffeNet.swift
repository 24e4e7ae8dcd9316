import Foundation

/// The bounds the Caffe check puts on a network before OpenCV 4.6's importer reads it. The importer
/// finds each layer's inputs and weights by searching the layers before it (quadratic in the layers:
/// 30,000 chained layers took 5.5 s to load here, 10,000 took 1.2 s).
public enum CaffeLimits {
    /// The most layers in a `.prototxt` or a `.caffemodel` (ResNet-152 has about 800).
    public static let maxLayers = 10_000
    /// The largest `.prototxt` read, in bytes.
    public static let maxTextBytes = 64 << 20
}

/// The layers of a Caffe network (its `.prototxt` text or its `.caffemodel` weights) and the checks
/// OpenVision runs before OpenCV's importer reads them: a layer count OpenCV loads in bounded time,
/// and in a `.caffemodel`, weight blobs whose declared shape matches the values they hold (OpenCV
/// allocates a blob of the declared shape before comparing). Malformed files are a
/// `ConversionError`, never a trap; weights are not copied.
package struct CaffeNet: Sendable {
    /// One `layer` (or V1 `layers`) entry.
    package struct Layer: Sendable {
        package var name: String
        package var bottoms: [String]
        package var tops: [String]
        /// Its line in a `.prototxt` (nil in a `.caffemodel`).
        package var line: Int?
    }

    package var fileName: String
    package var layers: [Layer] = []

    private init(fileName: String) { self.fileName = fileName }

    private func tooMany(line: Int? = nil) -> ConversionError {
        ConversionError(
            .limitExceeded, "the network has more than \(CaffeLimits.maxLayers) layers", file: fileName,
            line: line)
    }

    /// Reads a binary NetParameter (`layer` = 100: LayerParameter name 1, bottom 3, top 4, blobs 7;
    /// V1 `layers` = 2: bottom 2, top 3, name 4, blobs 6) and checks every blob's size.
    package init(binary data: Data, fileName: String) throws {
        self.init(fileName: fileName)
        let layers: [Layer]? = try data.withUnsafeBytes { raw in
            var net = ProtoReader(raw[...])
            var layers: [Layer] = []
            while let (field, value) = net.next() {
                guard field == 100 || field == 2, case .bytes(let body) = value else { continue }
                guard layers.count < CaffeLimits.maxLayers else { throw tooMany() }
                let v1 = field == 2
                var reader = ProtoReader(body)
                var layer = Layer(name: "", bottoms: [], tops: [], line: nil)
                var blobs: [Slice<UnsafeRawBufferPointer>] = []
                while let (f, v) = reader.next() {
                    guard case .bytes(let b) = v else { continue }
                    let text = { String(decoding: b, as: UTF8.self) }
                    switch (f, v1) {
                    case (1, false), (4, true): layer.name = text()
                    case (3, false), (2, true): layer.bottoms.append(text())
                    case (4, false), (3, true): layer.tops.append(text())
                    case (7, false), (6, true): blobs.append(b)
                    default: break
                    }
                }
                if reader.failed { return nil }
                for (k, blob) in blobs.enumerated() {
                    guard let (declared, held) = Self.blobSize(blob) else { return nil }
                    guard let declared, declared == held else {
                        let shape =
                            declared.map { "declares \($0) values" } ?? "declares more values than OpenCV can index"
                        throw ConversionError(
                            .invalidValue, "blob \(k) of layer '\(layer.name)' \(shape) and holds \(held)",
                            file: fileName)
                    }
                }
                layers.append(layer)
            }
            return net.failed ? nil : layers
        }
        guard let layers else {
            throw ConversionError(.syntax, "is not a Caffe model (malformed protobuf)", file: fileName)
        }
        self.layers = layers
    }

    /// The values a BlobProto declares (nil when a dimension or the product is beyond OpenCV's `int`)
    /// and the values it holds, as OpenCV's `blobFromProto` reads it: the legacy num/channels/height/
    /// width when any is set (unset ones 0), else `shape`, else a scalar; `data` floats when there are
    /// any, else `raw_data` as float16 or float32. Nil for a malformed blob.
    static func blobSize(_ body: Slice<UnsafeRawBufferPointer>) -> (declared: Int?, held: Int)? {
        var reader = ProtoReader(body)
        var legacy = [Int](repeating: 0, count: 4)
        var hasLegacy = false
        var shape: [Int]?
        var floats = 0
        var rawBytes = 0
        var rawType: UInt64 = 1  // caffe.Type: 0 DOUBLE, 1 FLOAT, 2 FLOAT16
        while let (f, v) = reader.next() {
            switch (f, v) {
            case (1...4, .varint(let n)):
                hasLegacy = true
                legacy[f - 1] = Int(Int32(truncatingIfNeeded: n))
            case (7, .bytes(let b)):
                var dims: [Int] = []
                var s = ProtoReader(b)
                while let (df, dv) = s.next() {
                    switch (df, dv) {
                    case (1, .varint(let n)): dims.append(Int(truncatingIfNeeded: n))
                    case (1, .bytes(let packed)):
                        guard let values = ProtoReader.packedVarints(packed) else { return nil }
                        dims += values.map { Int(truncatingIfNeeded: $0) }
                    default: break
                    }
                }
                if s.failed { return nil }
                shape = dims
            case (5, .bytes(let b)):
                guard b.count % 4 == 0 else { return nil }
                floats += b.count / 4
            case (5, .fixed32):
                floats += 1
            case (10, .varint(let n)):
                rawType = n
            case (12, .bytes(let b)):
                rawBytes = b.count
            default:
                break
            }
        }
        if reader.failed { return nil }
        let dims = hasLegacy ? legacy : shape ?? [1]
        var declared: Int? = 1
        for d in dims {
            guard let total = declared, d >= 0, d <= Int(Int32.max) else {
                declared = nil
                break
            }
            let (product, overflow) = total.multipliedReportingOverflow(by: d)
            declared = overflow || product > Int(Int32.max) ? nil : product
        }
        let held = floats > 0 ? floats : rawType == 2 ? rawBytes / 2 : rawBytes / 4
        return (declared, held)
    }

    /// Reads a `.prototxt` (`layer { name: … bottom: … top: … }`, V1 `layers { … }`; other fields skipped).
    package init(text: String, fileName: String) throws {
        self.init(fileName: fileName)
        var reader = ProtoTextReader(text, fileName: fileName)
        while let event = try reader.next() {
            guard case .begin(let name, let line) = event else { continue }
            guard name == "layer" || name == "layers" else {
                try reader.skipMessage()
                continue
            }
            guard layers.count < CaffeLimits.maxLayers else { throw tooMany(line: line) }
            var layer = Layer(name: "", bottoms: [], tops: [], line: line)
            fields: while let field = try reader.next() {
                switch field {
                case .end: break fields
                case .begin: try reader.skipMessage()
                case .scalar(let key, let value, _):
                    switch key {
                    case "name": layer.name = value
                    case "bottom": layer.bottoms.append(value)
                    case "top": layer.tops.append(value)
                    default: break
                    }
                }
            }
            layers.append(layer)
        }
    }

    /// Checks a `.caffemodel` and its `.prototxt` as OpenCV will read them. Throws `ConversionError`:
    /// `io` for unreadable files, `syntax` for malformed ones, `invalidValue` for a blob whose shape
    /// does not match its values, `limitExceeded` past `CaffeLimits`.
    package static func checkForLoading(model: URL, prototxt: URL?) throws {
        let data: Data
        do {
            data = try Data(contentsOf: model, options: .mappedIfSafe)
        } catch {
            throw ConversionError.unreadable(model, what: "Caffe model", error)
        }
        _ = try CaffeNet(binary: data, fileName: model.lastPathComponent)
        guard let prototxt else { return }
        let text = try TextFile.read(prototxt, limit: CaffeLimits.maxTextBytes, what: "prototxt")
        _ = try CaffeNet(text: text, fileName: prototxt.lastPathComponent)
    }
}
