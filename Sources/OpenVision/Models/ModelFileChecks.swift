internal import CNative
import Foundation
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

/// The checks every model file passes when it is loaded, before a runtime reads it or anything is allocated for it
/// (docs/model-limits.md). `check(_:backend:)` is the one entry point: whatever the format and whatever folder it
/// arrives in (a Core ML `.mlmodelc`'s `model.onnx`, a TFLite or Core ML model's converted ONNX, a Darknet `.cfg`),
/// it returns the file a runtime may open, and the backends open nothing else (`RuntimeFile` is made only here).
enum ModelFileChecks {
    /// A model file that passed `check(_:backend:)`, in the form a runtime opens.
    struct Checked: Sendable {
        /// The format the user's file is in.
        let format: ModelDescription.Format
        /// What the runtime opens.
        let file: RuntimeFile
        /// A Darknet network's `[net]` width and height.
        let darknetInput: (width: Int, height: Int)?
    }

    /// A file that passed the checks, as a runtime opens it: an ONNX file (the user's own, or a TFLite or Core ML
    /// model converted), or what only OpenCV DNN reads (a Darknet `.weights` with its `.cfg`, Caffe, TensorFlow).
    struct RuntimeFile: Sendable {
        /// The model: the ONNX file, or OpenCV's model file (Darknet weights, `.caffemodel`, `.pb`).
        let model: URL
        /// OpenCV's text description beside it (the Darknet `.cfg`, a `.prototxt` / `.pbtxt`), if any.
        let config: URL?
        /// True for an ONNX file (ONNX Runtime or OpenCV DNN may run it).
        let isONNX: Bool
        /// The Core ML custom layers of the graph (its `CustomLayer` nodes, which only ONNX Runtime runs).
        let customLayers: [CoreMLCustomLayer]

        fileprivate init(model: URL, config: URL? = nil, isONNX: Bool, customLayers: [CoreMLCustomLayer] = []) {
            self.model = model
            self.config = config
            self.isONNX = isONNX
            self.customLayers = customLayers
        }
    }

    /// Checks the model at `url` for `backend` and returns what a runtime opens. ONNX files (given, a compiled
    /// `.mlmodelc`'s, or converted from TFLite or Core ML and cached) pass `onnxAllocations`; Darknet, Caffe and
    /// TensorFlow files their readers' checks. Throws `fileNotFound`, `missingModelData`, `invalidModel`,
    /// `unsupported` (an unknown format, a Darknet file for ONNX Runtime) or `ioError`.
    static func check(_ url: URL, backend: BackendChoice) throws(VisionError) -> Checked {
        let path = url.path
        let ext = url.pathExtension.lowercased()
        if ["mlmodel", "mlpackage", "mlmodelc"].contains(ext) {
            switch FileStatus.of(path, what: "Core ML model") {
            case .unreachable(let error): throw error
            case .other: throw VisionError(.ioError, "\(path) is not a regular file or folder")
            case .file, .directory: break
            }
            // OpenVision's compiled folder (`VisionModel.compileCoreMLModel`) holds its ONNX graph; anything else is
            // converted once. Either way the graph is checked as any ONNX file.
            let compiled = url.appendingPathComponent("model.onnx")
            let isCompiled =
                FileManager.default.fileExists(atPath: compiled.path)
                && FileManager.default.fileExists(atPath: url.appendingPathComponent("coreml.json").path)
            var onnx = isCompiled ? compiled : try ConvertedModelCache.coreML.onnxFile(for: url)
            var layers = try customLayers(onnx)
            // A graph converted while another class was registered for a custom layer (its shapes differ): again.
            if !isCompiled, !layers.isEmpty, !CustomLayerSet.shapesHold(layers) {
                onnx = try ConvertedModelCache.coreML.onnxFile(for: url, refresh: true)
                layers = try customLayers(onnx)
            }
            if !layers.isEmpty && backend == .openCV {
                throw VisionError(
                    .unsupported,
                    "\(url.lastPathComponent) has custom layers ("
                        + layers.map { "\($0.className) '\($0.layerName)'" }.joined(separator: ", ")
                        + "), which run only on ONNX Runtime, not on OpenCV DNN")
            }
            // A Core ML model's first input may be an array, not an image: its size is checked with its preprocessing.
            try onnxAllocations(onnx, checkingInput: false)
            return Checked(
                format: .coreML, file: RuntimeFile(model: onnx, isONNX: true, customLayers: layers), darknetInput: nil)
        }
        try FileStatus.requireFile(path, what: "model file")
        switch ext {
        case "onnx":
            // Before either runtime reads it: both would allocate what its static shapes fix (ONNX Runtime
            // folds constants at load, OpenCV evaluates them).
            try onnxAllocations(url)
            return Checked(format: .onnx, file: RuntimeFile(model: url, isONNX: true), darknetInput: nil)
        case "cfg":
            guard backend != .onnxRuntime && backend != .openVINO else {
                throw VisionError(
                    .unsupported,
                    "\(backend == .openVINO ? "OpenVINO" : "ONNX Runtime") cannot read Darknet files here; convert it "
                        + "first: openvision models convert \(path)")
            }
            let weights = url.deletingPathExtension().appendingPathExtension("weights")
            switch FileStatus.of(weights.path, what: "weights file") {
            case .file: break
            case .unreachable(let error) where error.code == .fileNotFound:
                let detail = error.message.hasPrefix("no such") ? "" : " (\(error.message))"
                throw VisionError(
                    .missingModelData, "no weights for \(url.lastPathComponent): expected \(weights.path)\(detail)")
            case .unreachable(let error): throw error
            case .directory: throw VisionError(.ioError, "\(weights.path) is a directory, not a Darknet .weights file")
            case .other: throw VisionError(.ioError, "\(weights.path) is not a regular file")
            }
            // Every index, bound and shape, and the weight count, are checked here: OpenCV would crash,
            // allocate without bound, or run on truncated weights.
            let input = try darknet(cfg: url, weights: weights)
            return Checked(
                format: .darknet, file: RuntimeFile(model: weights, config: url, isONNX: false), darknetInput: input)
        case "tflite":
            let onnx = try ConvertedModelCache.tflite.onnxFile(for: url)
            try onnxAllocations(onnx)
            return Checked(format: .tflite, file: RuntimeFile(model: onnx, isONNX: true), darknetInput: nil)
        case "caffemodel", "pb":
            let config = VisionModel.textGraph(beside: url)
            // OpenCV's importers loop forever on a graph cycle and go quadratic on large graphs.
            if ext == "pb" {
                try tensorflow(model: url, textGraph: config)
            } else {
                try caffe(model: url, prototxt: config)
            }
            return Checked(
                format: ext == "pb" ? .tensorflow : .caffe,
                file: RuntimeFile(model: url, config: config, isONNX: false),
                darknetInput: nil)
        default:
            throw VisionError(
                .unsupported,
                "unknown model format '.\(ext)' (use .onnx, .tflite, .mlmodel, .mlpackage, .mlmodelc, a Darknet .cfg, .caffemodel or .pb)"
            )
        }
    }

    /// The declared inputs, outputs, metadata and overridable inputs (graph inputs with defaults) of an .onnx file,
    /// for backends that do not report them.
    static func onnxInfo(_ url: URL) throws(VisionError)
        -> (
            inputs: [TensorDescription], outputs: [TensorDescription], metadata: [String: String], overridable: [String]
        )
    {
        let info = try convertingErrors { try ONNXModelInfo(url: url) }
        func describe(_ value: ONNXModelInfo.Value) -> TensorDescription {
            TensorDescription(
                name: value.name, shape: value.shape, elementType: ONNXRuntimeBackend.typeName(value.elementType))
        }
        return (info.inputs.map(describe), info.outputs.map(describe), info.metadata, info.overridable)
    }

    /// The Core ML custom layers a converted graph lists in its metadata (none for other graphs).
    static func customLayers(_ onnx: URL) throws(VisionError) -> [CoreMLCustomLayer] {
        guard let json = try onnxInfo(onnx).metadata[CoreMLCustomLayer.metadataKey] else { return [] }
        return try convertingErrors { try CoreMLCustomLayer.decode(json) }
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
            throw VisionError(
                .invalidModel,
                "\(model.lastPathComponent): the model input is \(width)×"
                    + "\(height); each side must be 1...\(maxInputSide)")
        }
        guard width * height <= maxInputPixels else {
            throw VisionError(
                .invalidModel,
                "\(model.lastPathComponent): the model input is \(width)×\(height) "
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
            let declared = VisionModel.preprocessing(
                for: first, metadata: info.metadata, darknetInput: nil, format: .onnx)
            try checkInputSize(declared, model: url)
        }
        let tensors = try convertingErrors { try ONNXStaticTensors(url: url) }
        if let largest = tensors.largest, largest.bytes > memoryLimit {
            throw VisionError(
                .invalidModel,
                "\(url.lastPathComponent): \(largest.source) '\(largest.name)' would be "
                    + "\(largest.shape) \(ONNXRuntimeBackend.typeName(largest.elementType)), "
                    + "\(describe(bytes: largest.bytes)), more than the \(describe(bytes: memoryLimit)) model "
                    + "memory limit (OPENVISION_MODEL_MEMORY_LIMIT)")
        }
        if tensors.loadBytes > memoryLimit {
            throw VisionError(
                .invalidModel,
                "\(url.lastPathComponent): loading it would materialise "
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
