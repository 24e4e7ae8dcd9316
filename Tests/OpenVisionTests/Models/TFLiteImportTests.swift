import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `.tflite` models converted to ONNX and run by ONNX Runtime, against tflite-runtime 2.14.0's
/// interpreter on the same files and inputs. The references were written by
///
///     PYTHONPATH=<numpy 1.26.4> /work/.venv-mp/bin/python scripts/models/tflite_fixtures.py
///
/// (tflite-runtime 2.14.0 + mediapipe 0.10.14's TFLite schema; see the script's docstring): one tiny
/// graph per operator with every output value, and each MediaPipe model's raw outputs on
/// ../shared/images/astronaut.png (a JPEG despite its name, which PIL and OpenCV 4.6 decode to the same bytes;
/// sampled by nearest neighbour) as a subsample plus the
/// full output's min, max, mean and mean |x|. Model outputs must agree within 1e-3, or within twice the
/// reference's own float32 noise where that is larger (`kernel_spread`: tflite-runtime's XNNPACK kernels vs
/// its builtin kernels on the same input; 0.65 on pose_landmark_full's segmentation logits, which reach
/// −1800, and 2.4e-3 on its landmarks in pixels; every other output is under 1.1e-3).
@Suite struct TFLiteImportTests {
    static let fixtures = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/tflite")

    struct Values: Decodable {
        var name: String
        var shape: [Int]
        var values: [Float]
        var step: Int?
        var min: Double?
        var max: Double?
        var mean: Double?
        var mean_abs: Double?
        var kernel_spread: Double?
    }

    struct OpReference: Decodable {
        var inputs: [Values]
        var outputs: [Values]
    }

    struct ModelReference: Decodable {
        var normalisation: String
        var input_shape: [Int]
        var outputs: [Values]
    }

    static let operatorGraphs = [
        "conv2d_same_stride2_relu6", "conv2d_valid_dilated", "depthwise_same_relu", "depthwise_valid_multiplier2",
        "transpose_conv_same_stride2", "mediapipe_convolution2d_transpose_bias", "max_pool_same", "average_pool_same",
        "average_pool_valid", "add_relu", "mul", "sub", "maximum", "mul_channel_constant", "logistic", "tanh", "relu",
        "relu6", "hard_swish", "leaky_relu", "prelu", "pad_spatial", "pad_channels", "resize_bilinear",
        "resize_bilinear_half_pixel", "resize_bilinear_align_corners", "resize_nearest", "concatenation_channels",
        "reshape", "mean_keepdims", "mean", "depth_to_space", "fully_connected_relu", "fully_connected_flatten",
        "softmax", "dequantize_fp16_conv", "densify_dequantize_conv",
    ]

    static let mediaPipeModels = [
        "pose_detection", "pose_landmark_full", "palm_detection_lite", "palm_detection_full", "hand_landmark_lite",
        "hand_landmark_full", "selfie_segmentation", "selfie_segmentation_landscape", "face_detection_short_range",
        "face_detection_full_range_sparse", "face_landmark", "iris_landmark",
    ]

    static func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    static func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
        zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }

    /// One operator (or an fp16 / sparse weight chain) on a tiny graph: every output value within 1e-4.
    @Test(arguments: operatorGraphs)
    func operatorMatchesInterpreter(_ name: String) throws {
        let reference = try Self.load(OpReference.self, "ops/\(name).json")
        var configuration = VisionModel.Configuration()
        configuration.threads = 1
        configuration.backend = .onnxRuntime
        let model = try VisionModel(
            contentsOf: Self.fixtures.appendingPathComponent("ops/\(name).tflite"),
            configuration: configuration)
        #expect(model.modelDescription.format == .tflite)
        #expect(model.modelDescription.outputs.map(\.name) == reference.outputs.map(\.name))
        let inputs = reference.inputs.map { Tensor(name: $0.name, shape: $0.shape, scalars: $0.values) }
        let outputs = try model.prediction(from: inputs)
        try #require(outputs.count == reference.outputs.count)
        for (output, expected) in zip(outputs, reference.outputs) {
            #expect(output.name == expected.name)
            #expect(output.shape == expected.shape)
            try #require(output.scalars.count == expected.values.count)
            let difference = Self.maxAbsDifference(output.scalars, expected.values)
            #expect(difference <= 1e-4, "\(name) \(output.name): max |ONNX − TFLite| = \(difference)")
        }
    }

    /// Each MediaPipe model on a real photo: raw outputs within 1e-3 of tflite-runtime's (see above for the
    /// two outputs whose reference is noisier than that).
    @Test(arguments: mediaPipeModels)
    func mediaPipeModelMatchesInterpreter(_ name: String) throws {
        let reference = try Self.load(ModelReference.self, "models/\(name).json")
        let file = try #require(ModelLocator.find("\(name).tflite"), "\(name).tflite is installed by scripts/setup")
        var configuration = VisionModel.Configuration()
        configuration.threads = 2
        let model = try VisionModel(contentsOf: file, configuration: configuration)
        let description = model.modelDescription
        #expect(description.preprocessing.layout == .nhwc)
        let (h, w) = (reference.input_shape[1], reference.input_shape[2])
        #expect(description.preprocessing.width == w && description.preprocessing.height == h)
        // The normalisation VisionModel reads from the file's metadata agrees with the reference's.
        let signed = reference.normalisation == "p/127.5-1"
        let p = description.preprocessing
        #expect(abs((255 * p.scale - p.mean[0]) / p.std[0] - 1) < 1e-5, "255 maps to 1")
        #expect(abs((0 - p.mean[0]) / p.std[0] - (signed ? -1 : 0)) < 1e-5, "0 maps to \(signed ? -1 : 0)")

        // Nearest-neighbour sample of the image, as the script: row y from source row y*H/h.
        let image = try VisionImage(contentsOf: Fixtures.sharedImage("astronaut.png"))
        let rgb = [UInt8](image.rgbData())
        var input = [Float](repeating: 0, count: h * w * 3)
        for y in 0..<h {
            for x in 0..<w {
                let source = ((y * image.height / h) * image.width + x * image.width / w) * 3
                for c in 0..<3 {
                    let v = Float(rgb[source + c])
                    input[(y * w + x) * 3 + c] = signed ? v / 127.5 - 1 : v / 255
                }
            }
        }
        let outputs = try model.prediction(from: [
            Tensor(name: description.inputs[0].name, shape: [1, h, w, 3], scalars: input)
        ])
        try #require(outputs.count == reference.outputs.count)
        for (output, expected) in zip(outputs, reference.outputs) {
            #expect(output.name == expected.name)
            #expect(output.shape == expected.shape)
            let step = expected.step ?? 1
            let sampled = Swift.stride(from: 0, to: output.scalars.count, by: step).map { output.scalars[$0] }
            try #require(sampled.count == expected.values.count)
            let tolerance = max(1e-3, 2 * (expected.kernel_spread ?? 0))
            let difference = Self.maxAbsDifference(sampled, expected.values)
            #expect(
                Double(difference) <= tolerance,
                "\(name) \(output.name): max |ONNX − TFLite| = \(difference) over \(sampled.count) values (allowed \(tolerance))"
            )
            let all = output.scalars.map(Double.init)
            #expect(abs((all.min() ?? 0) - (expected.min ?? 0)) <= tolerance)
            #expect(abs((all.max() ?? 0) - (expected.max ?? 0)) <= tolerance)
            #expect(abs(all.reduce(0, +) / Double(all.count) - (expected.mean ?? 0)) <= tolerance)
            #expect(abs(all.reduce(0) { $0 + abs($1) } / Double(all.count) - (expected.mean_abs ?? 0)) <= tolerance)
        }
    }
}
