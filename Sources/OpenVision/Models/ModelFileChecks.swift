import Foundation
internal import CNative
internal import OpenVisionConverters

// The one place where OpenVision calls the converters' parsers (OpenVisionConverters) and turns
// their `ConversionError` into a `VisionError`.

extension VisionError {
    /// A converter's error as a `VisionError`: unreadable files are `ioError`, layers or options no
    /// reader supports are `unsupported`, everything else (syntax, bounds, weights that do not fit
    /// the `.cfg`, a malformed ONNX file) is `invalidModel`. The message is the converter's one
    /// line (file and line first), the cause the `ConversionError` itself.
    init(_ error: ConversionError) {
        let code: Code
        switch error.code {
        case .io: code = .ioError
        case .unsupported: code = .unsupported
        default: code = .invalidModel
        }
        self.init(code, error.description, cause: error)
    }
}

/// Runs one of the converters' parsers, mapping its errors.
private func convertingErrors<T>(_ body: () throws -> T) throws(VisionError) -> T {
    do {
        return try body()
    } catch let error as ConversionError {
        throw VisionError(error)
    } catch {
        throw VisionError(.internalError, "model file check: \(error)")
    }
}

/// Model dimension checks done when a model is loaded, before anything is allocated for it
/// (docs/model-limits.md).
enum ModelFileChecks {
    /// The declared inputs, outputs and metadata of an .onnx file (for backends that do not report them).
    static func onnxInfo(_ url: URL) throws(VisionError)
        -> (inputs: [TensorDescription], outputs: [TensorDescription], metadata: [String: String]) {
        let info = try convertingErrors { try ONNXModelInfo(url: url) }
        func describe(_ value: ONNXModelInfo.Value) -> TensorDescription {
            TensorDescription(name: value.name, shape: value.shape, elementType: ONNXRuntimeBackend.typeName(value.elementType))
        }
        return (info.inputs.map(describe), info.outputs.map(describe), info.metadata)
    }

    /// Checks a Darknet `.cfg` and its `.weights` before OpenCV reads them (every value, derived size,
    /// layer index and shape for OpenCV's reader, the weight count; see `DarknetConfig.checkForLoading`)
    /// and returns the `[net]` width and height.
    static func darknet(cfg: URL, weights: URL) throws(VisionError) -> (Int, Int) {
        let input = try convertingErrors { try DarknetConfig.checkForLoading(cfg: cfg, weights: weights) }
        return (input.width, input.height)
    }

    /// The largest model input side `makeInput` builds (the range the native preprocessing accepts).
    static let maxInputSide = DarknetLimits.maxSide

    /// The most pixels of a model input `makeInput` builds: 4096 × 4096 (192 MiB as float32 RGB).
    static let maxInputPixels = 4096 * 4096

    /// The most bytes a model may allocate for its tensors (`OPENVISION_MODEL_MEMORY_LIMIT`, default 4 GiB):
    /// ONNX Runtime's arena and OpenCV DNN's runs are capped at it, ONNX graphs fixing a larger tensor or
    /// materialising more at load (initializers and folded constants together) are refused, and conversions of
    /// Core ML and TFLite models stop when what they materialise passes it (`ConversionBudget`).
    static var memoryLimit: Int { Int(ov_model_memory_limit()) }

    /// Throws `invalidModel` unless `preprocessing` describes an input of 1...`maxInputSide` on each side and
    /// at most `maxInputPixels` pixels.
    static func checkInputSize(_ preprocessing: ModelPreprocessing, model: URL) throws(VisionError) {
        let range = 1...maxInputSide
        let (width, height) = (preprocessing.width, preprocessing.height)
        guard range.contains(width), range.contains(height) else {
            throw VisionError(.invalidModel, "\(model.lastPathComponent): the model input is \(width)×"
                              + "\(height); each side must be 1...\(maxInputSide)")
        }
        guard width * height <= maxInputPixels else {
            throw VisionError(.invalidModel, "\(model.lastPathComponent): the model input is \(width)×\(height) "
                              + "(\(width * height) pixels); at most \(maxInputPixels) pixels (4096 × 4096)")
        }
    }

    /// Checks an .onnx file before a runtime reads it — whatever it came from: an `.onnx` file, a converted TFLite
    /// or Core ML model, the `model.onnx` of a compiled `.mlmodelc` folder: its declared image input as
    /// `checkInputSize` does (unless `checkingInput` is false: a Core ML model's first input may be an array), its
    /// node count (`ONNXStaticTensors.maximumNodes`), every tensor its graph fixes the size of (`ONNXStaticTensors`:
    /// static shapes, `ConstantOfShape`, `Expand`, `Tile`, `Resize`, `Range` of constants) against `memoryLimit`,
    /// and the sum a runtime materialises when it loads the model (initializers, and constant-only nodes twice: the
    /// folded tensor and its copy) against the same limit. Throws `invalidModel`.
    static func onnxAllocations(_ url: URL, checkingInput: Bool = true) throws(VisionError) {
        let info = try onnxInfo(url)
        if checkingInput, let first = info.inputs.first {
            let declared = VisionModel.preprocessing(for: first, metadata: info.metadata, darknetInput: nil, format: .onnx)
            try checkInputSize(declared, model: url)
        }
        let tensors = try convertingErrors { try ONNXStaticTensors(url: url) }
        if let largest = tensors.largest, largest.bytes > memoryLimit {
            throw VisionError(.invalidModel, "\(url.lastPathComponent): \(largest.source) '\(largest.name)' would be "
                              + "\(largest.shape) \(ONNXRuntimeBackend.typeName(largest.elementType)), "
                              + "\(describe(bytes: largest.bytes)), more than the \(describe(bytes: memoryLimit)) model "
                              + "memory limit (OPENVISION_MODEL_MEMORY_LIMIT)")
        }
        if tensors.loadBytes > memoryLimit {
            throw VisionError(.invalidModel, "\(url.lastPathComponent): loading it would materialise "
                              + "\(tensors.loadBytes == Int.max ? "more than 8 EiB" : describe(bytes: tensors.loadBytes)) "
                              + "(its initializers, and the constants it folds twice: computed and kept), more than the "
                              + "\(describe(bytes: memoryLimit)) model memory limit (OPENVISION_MODEL_MEMORY_LIMIT)")
        }
    }

    /// Checks a TensorFlow .pb and its text graph before OpenCV reads them (`TensorFlowGraph`: cycles, sizes,
    /// inputs OpenCV reads unchecked). Throws `invalidModel` (or `ioError`).
    static func tensorflow(model: URL, textGraph: URL?) throws(VisionError) {
        try convertingErrors { try TensorFlowGraph.checkForLoading(model: model, textGraph: textGraph) }
    }

    /// Checks a Caffe .caffemodel and its .prototxt before OpenCV reads them (`CaffeNet`: layer count, weight
    /// blobs). Throws `invalidModel` (or `ioError`).
    static func caffe(model: URL, prototxt: URL?) throws(VisionError) {
        try convertingErrors { try CaffeNet.checkForLoading(model: model, prototxt: prototxt) }
    }

    /// "15.6 GiB", "512 MiB", "900 KiB".
    static func describe(bytes: Int) -> String {
        let units: [(Int, String)] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, name) in units where bytes >= size {
            let value = Double(bytes) / Double(size)
            return value.rounded() == value ? "\(Int(value)) \(name)" : String(format: "%.1f %@", value, name)
        }
        return "\(bytes) bytes"
    }
}
