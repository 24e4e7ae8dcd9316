import Foundation

/// Converts TensorFlow Lite models (`.tflite`, float32 graphs with float16, sparse or int8 constant
/// weights, such as MediaPipe's) to ONNX for ONNX Runtime.
///
/// The ONNX graph keeps TFLite's boundaries: the same inputs and outputs, by the same names, in
/// the same order and with the same (NHWC) shapes. Convolutions, pooling, resizing and depth/space
/// moves run in ONNX's NCHW layout between `Transpose` nodes, which ONNX Runtime's optimiser
/// cancels between consecutive operations. Constant weights stored as float16, sparse (`DENSIFY`)
/// or per-tensor int8 (`DEQUANTIZE`) become float32 initializers.
///
/// Supported builtins: ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, CONV_2D,
/// DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D, MEAN,
/// CONCATENATION, RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, PAD, PADV2, MIRROR_PAD (reflect),
/// RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR, DEPTH_TO_SPACE, SPACE_TO_DEPTH, LOGISTIC, TANH, RELU,
/// RELU6, RELU_N1_TO_1, LEAKY_RELU, PRELU, HARD_SWISH, ELU, EXP, LOG, NEG, ABS, SQRT, RSQRT, SQUARE,
/// SOFTMAX, DEQUANTIZE and DENSIFY (of constants); MediaPipe's custom `Convolution2DTransposeBias`,
/// `MaxPoolingWithArgmax2D` is not (no model shipped here uses it). Anything else is
/// `ConversionError(.unsupported)` naming the operator and its index.
///
/// `metadata_props`: `source` = `tflite`, `input_size` = `"[<height>, <width>]"`, `mean` and `std`
/// (OpenVision's normalisation on 0...1 pixels, from the file's `NormalizationOptions`; absent when
/// the file has no metadata, which for MediaPipe's models means inputs in 0...1), and the
/// metadata's `description`, `author`, `version`, `license` and `tflite_name` when present.
public enum TFLiteConverter {
    /// The `ai.onnx` operator-set version of the graphs written.
    public static let opsetVersion = 14
    /// Changes whenever the graphs written for the same file change: caches of converted models
    /// key on it with the file's content hash.
    public static let revision = 2

    /// Converts the `.tflite` file at `url` to an ONNX file at `output`.
    public static func convert(_ url: URL, to output: URL) throws {
        try ONNXFile.write(try onnxData(contentsOf: url), to: output)
    }

    /// The serialized ONNX model for the `.tflite` file at `url`.
    public static func onnxData(contentsOf url: URL) throws -> Data {
        let model = try TFLiteModel(contentsOf: url)
        do {
            return try onnxData(model: model, name: url.deletingPathExtension().lastPathComponent)
        } catch let error as ConversionError {
            throw ConversionError(error.code, "\(url.lastPathComponent): \(error.message)")
        }
    }

    /// The serialized ONNX model for the `.tflite` bytes `bytes`.
    public static func onnxData(bytes: [UInt8], name: String = "tflite") throws -> Data {
        try onnxData(model: TFLiteModel(bytes: bytes), name: name)
    }

    /// What the conversion materialises is bounded as a whole (`ConversionBudget`).
    package static func onnxData(model: TFLiteModel, name: String) throws -> Data {
        try ConversionBudget.scope {
            var converter = try TFLiteToONNX(model: model, name: name)
            return try converter.makeModel().serialized()
        }
    }
}
