import Foundation
import Testing

@testable import OpenVisionConverters

/// Issue 28, item 11 (Caffe): OpenCV 4.6's Caffe importer searches every earlier layer for each
/// input and weight (30,000 chained layers loaded in 5.5 s here), and allocates a weight blob of its
/// declared shape before comparing it with the values the blob holds.
@Suite struct CaffeNetTests {
    /// A BlobProto: `shape` (7) from `dims`, then `values` packed floats (5).
    static func blob(dims: [Int64], values: Int) -> [UInt8] {
        var e = ONNXProtobufEncoder()
        e.message(7) { $0.packedInt64(1, dims) }
        e.rawFloats(5, [Float](repeating: 0.5, count: values))
        return e.bytes
    }

    /// A NetParameter with one LayerParameter (100: name 1, type 2, bottom 3, top 4, blobs 7).
    static func model(blobs: [[UInt8]]) -> Data {
        var e = ONNXProtobufEncoder()
        e.message(100) { layer in
            layer.string(1, "conv")
            layer.string(2, "Convolution")
            layer.string(3, "data")
            layer.string(4, "conv")
            for blob in blobs { layer.bytes(7, blob) }
        }
        return Data(e.bytes)
    }

    @Test func blobsMustHoldTheirShape() throws {
        let net = try CaffeNet(
            binary: Self.model(blobs: [Self.blob(dims: [1, 3, 1, 1], values: 3), Self.blob(dims: [1], values: 1)]),
            fileName: "ok.caffemodel")
        #expect(
            net.layers.map(\.name) == ["conv"] && net.layers[0].bottoms == ["data"] && net.layers[0].tops == ["conv"])
        for (dims, values, fragment) in [
            ([1, 4, 1, 1], 3, "declares 4 values and holds 3"),
            ([65_536, 65_536, 65_536, 1], 3, "more values than OpenCV can index"),
            ([-1, 3], 3, "more values than OpenCV can index"),
            ([4_294_967_297], 1, "more values than OpenCV can index"),
        ] as [([Int64], Int, String)] {
            do {
                _ = try CaffeNet(
                    binary: Self.model(blobs: [Self.blob(dims: dims, values: values)]), fileName: "bad.caffemodel")
                Issue.record("accepted \(dims)")
            } catch let error as ConversionError {
                #expect(error.code == .invalidValue && error.message.contains(fragment), "\(error)")
            }
        }
        // The legacy num/channels/height/width (1...4) win over `shape` when set, as in OpenCV.
        var legacy = ONNXProtobufEncoder()
        legacy.int64(1, 2)
        legacy.int64(2, 3)
        legacy.rawFloats(5, [Float](repeating: 0, count: 6))
        #expect(legacy.bytes.withUnsafeBytes { CaffeNet.blobSize($0[...])?.declared } == 0)  // height, width unset: 0
        #expect(throws: ConversionError.self) {
            try CaffeNet(binary: Data([0x0A, 0x05, 0x01]), fileName: "bad.caffemodel")
        }
    }

    @Test func layersAreBounded() throws {
        var text = "name: \"chain\"\ninput: \"data\"\ninput_shape { dim: 1 dim: 3 dim: 8 dim: 8 }\n"
        var bottom = "data"
        for i in 0...CaffeLimits.maxLayers {
            text += "layer { name: \"r\(i)\" type: \"ReLU\" bottom: \"\(bottom)\" top: \"r\(i)\" }\n"
            bottom = "r\(i)"
        }
        do {
            _ = try CaffeNet(text: text, fileName: "chain.prototxt")
            Issue.record("accepted")
        } catch let error as ConversionError {
            #expect(error.code == .limitExceeded && error.line == 4 + CaffeLimits.maxLayers, "\(error)")
        }
        let v1 = try CaffeNet(
            text: "layers { name: \"a\" type: CONVOLUTION bottom: \"data\" top: \"a\" "
                + "convolution_param { num_output: 2 } }", fileName: "v1.prototxt")
        #expect(v1.layers.map(\.name) == ["a"] && v1.layers[0].line == 1)
    }
}
