import Foundation
internal import OpenVisionConverters

/// A loaded model, the counterpart of Vision's `VNCoreMLModel`: an ONNX file, a Darknet `.cfg`
/// (with its `.weights` beside it), a TensorFlow Lite `.tflite` file or a Core ML model (`.mlmodel`,
/// `.mlpackage`, `.mlmodelc`; TFLite and Core ML converted to ONNX once and cached by content hash), run
/// by ONNX Runtime, OpenVINO or OpenCV DNN. Load it once and share it: it is immutable and safe to use from many
/// tasks at once.
public final class VisionModel: Sendable {
    /// Options for loading. Every default is documented on its property.
    public struct Configuration: Sendable, Hashable {
        /// Default `.automatic`: ONNX graphs on ONNX Runtime or OpenVINO, whichever ran the graph faster here with
        /// outputs within 1e-4 relative (measured at first load, cached; docs/models.md "Runtimes"), else OpenCV DNN.
        public var backend: BackendChoice = .automatic
        /// Threads one inference may use; 0 (default) lets the backend use every core. With ONNX Runtime,
        /// 0 runs on one thread pool shared by all models (so a pipeline of models does not compete for
        /// the cores); a positive count gives this model a pool of its own. With OpenVINO, a positive count is its
        /// INFERENCE_NUM_THREADS; 0 is OpenVINO's default (one thread per physical core).
        public var threads: Int = 0
        /// ONNX Runtime graph optimisations. Default true (all optimisations).
        public var optimizeGraph: Bool = true
        /// Labels to use instead of those found in the model or beside it.
        public var labels: [String]?
        /// Preprocessing to use instead of what the model describes.
        public var preprocessing: ModelPreprocessing?
        /// Pixel normalisation to use instead of the model's, keeping the rest of its preprocessing:
        /// the input is `(pixel × scale − mean) / std` per channel (one value applies to all three).
        /// UltraFace's `(x − 127) / 128` is `pixelScale 1, pixelMean [127], pixelStd [128]`.
        public var pixelScale: Float?
        /// Per-channel means subtracted after scaling (one value applies to all three); nil keeps the model's.
        public var pixelMean: [Float]?
        /// Per-channel divisors applied after the mean (one value applies to all three); nil keeps the model's.
        public var pixelStd: [Float]?

        /// The default configuration: every property at its documented default.
        public init() {}
    }

    /// The model file (.onnx, or the Darknet .cfg).
    public let url: URL
    /// Inputs, outputs, labels and preprocessing.
    public let modelDescription: ModelDescription
    let backend: any InferenceBackend
    /// How `.automatic` chose the runtime of this model (nil when a backend was named or the file is not ONNX).
    let runtimeDecision: RuntimeChoice.Decision?

    /// Loads the model at `url`. Throws `fileNotFound`, `missingModelData` (.cfg without weights),
    /// `invalidModel` (corrupt file, weights that do not fit the .cfg, a `.tflite` file that is not
    /// one or uses an operation the converter lacks, an input side outside 1...16384 or over 4096 × 4096
    /// pixels, a layer index or graph OpenCV cannot read safely, a tensor beyond the model memory
    /// limit; docs/model-limits.md), `outOfMemory` (ONNX Runtime would pass that limit folding constants),
    /// or `unsupported` (ONNX Runtime or OpenVINO asked for but not installed, or OpenVINO refusing the graph).
    ///
    /// A `.tflite` model's input stays NHWC (`[1, H, W, 3]`, so `preprocessing.layout` is `.nhwc`),
    /// normalised as its TFLite metadata says (`(pixel − 127.5) / 127.5` for MediaPipe's detectors,
    /// `pixel / 255` for its landmark models and when the file has no metadata); letterbox padding is black.
    ///
    /// A Core ML model takes its first image input at its default size, in its colour order, scaled as its
    /// `NeuralNetworkImageScaler` says (`scale × pixel + bias`); images are centre-cropped for classifiers
    /// (Vision's default) and stretched for NMS detector pipelines (as Apple's object-detection samples
    /// do). `modelDescription.coreML` has the model's own description, labels and NMS settings. Core ML
    /// model types and layers the converter lacks throw `unsupported` naming them.
    public convenience init(contentsOf url: URL, configuration: Configuration = Configuration()) throws(VisionError) {
        let (format, backend, darknetInput, decision) = try Self.openBackend(url, configuration: configuration)
        try self.init(
            url: url, format: format, backend: backend, darknetInput: darknetInput, configuration: configuration,
            runtimeDecision: decision)
    }

    /// Wraps an inference engine of your own (another runtime, an accelerator, a remote server) as a
    /// model that every model request accepts. The description, labels and preprocessing are read
    /// from the backend's inputs and metadata as for files (labels files are looked for beside `url`,
    /// which names the model in messages). Throws `invalidModel` for a backend without inputs or with
    /// an input side outside 1...16384.
    public convenience init(backend: any InferenceBackend, url: URL, configuration: Configuration = Configuration())
        throws(VisionError)
    {
        try self.init(url: url, format: .custom, backend: backend, darknetInput: nil, configuration: configuration)
    }

    /// The backend for the file at `url`: checked (`ModelFileChecks.check`, converted when it is TFLite or Core ML)
    /// and opened by the runtime `configuration.backend` picks (`OPENVISION_BACKEND` for `.automatic` when set; for
    /// `.automatic`, ONNX graphs run on ONNX Runtime or OpenVINO as `RuntimeChoice` decides when ONNX Runtime is
    /// installed, else on OpenCV DNN, which alone reads Darknet, Caffe and TensorFlow), with the automatic decision.
    private static func openBackend(_ url: URL, configuration: Configuration) throws(VisionError)
        -> (ModelDescription.Format, any InferenceBackend, (Int, Int)?, RuntimeChoice.Decision?)
    {
        var configuration = configuration
        if configuration.backend == .automatic, let forced = try RuntimeChoice.environmentChoice() {
            configuration.backend = forced
        }
        let checked = try ModelFileChecks.check(url, backend: configuration.backend)
        let file = checked.file
        let backend: any InferenceBackend
        var decision: RuntimeChoice.Decision?
        if configuration.backend == .openVINO {
            // Refuses Core ML custom layers and non-ONNX files (which only OpenCV DNN reads) with `unsupported`.
            backend = try OpenVINOBackend(file, threads: configuration.threads)
        } else if !file.customLayers.isEmpty {
            // Custom layers run only as ONNX Runtime custom operators (`check` refused OpenCV DNN).
            backend = try ONNXRuntimeBackend(
                file, threads: configuration.threads, optimize: configuration.optimizeGraph)
        } else if file.isONNX && configuration.backend == .automatic && ONNXRuntimeBackend.isAvailable {
            (backend, decision) = try RuntimeChoice.open(
                file, threads: configuration.threads, optimize: configuration.optimizeGraph)
        } else if file.isONNX && configuration.backend == .onnxRuntime {
            backend = try ONNXRuntimeBackend(
                file, threads: configuration.threads, optimize: configuration.optimizeGraph)
        } else {
            backend = try OpenCVDNNBackend(file, threads: configuration.threads)
        }
        return (checked.format, backend, checked.darknetInput.map { ($0.width, $0.height) }, decision)
    }

    private init(
        url: URL, format: ModelDescription.Format, backend: any InferenceBackend, darknetInput: (Int, Int)?,
        configuration: Configuration, runtimeDecision: RuntimeChoice.Decision? = nil
    ) throws(VisionError) {
        self.url = url
        self.backend = backend
        self.runtimeDecision = runtimeDecision
        guard let input = backend.inputs.first else {
            throw VisionError(.invalidModel, "\(url.lastPathComponent) has no inputs")
        }
        var metadata: [String: String] = [:]
        for key in [
            "names", "labels", "imgsz", "stride", "task", "description", "author", "version", "date", "license",
            "mean", "std", "color_order", "input_size", "source",
        ] {
            if let value = backend.metadata(key) { metadata[key] = value }
        }
        var preprocessing =
            configuration.preprocessing
            ?? Self.preprocessing(
                for: input, metadata: metadata,
                darknetInput: darknetInput, format: format)
        // Darknet networks (and their ONNX conversions) are trained on stretched, not letterboxed, inputs.
        if (format == .darknet || metadata["source"] == "darknet") && configuration.preprocessing == nil {
            preprocessing.cropAndScale = .scaleFill
        }
        // TFLite models (MediaPipe's) letterbox with black, as MediaPipe's ImageToTensorCalculator does.
        if metadata["source"] == "tflite" && configuration.preprocessing == nil {
            preprocessing.padValue = 0
        }
        // Core ML models: their own description (the converter's JSON), and their image input as Core ML feeds it.
        let coreML = format == .coreML ? backend.metadata("coreml").flatMap { try? CoreMLModelInfo.decode($0) } : nil
        if let coreML, configuration.preprocessing == nil {
            preprocessing = Self.preprocessing(coreML: coreML, default: preprocessing)
        }
        // Public detectors whose files don't say how to feed them (UltraFace, YuNet, FastestDet, OpenCV's face SSD).
        if configuration.preprocessing == nil, metadata["mean"] == nil,
            let (family, known) = KnownDetectorFamilies.preprocessing(
                inputs: backend.inputs, outputs: backend.outputs,
                default: preprocessing)
        {
            preprocessing = known
            metadata["family"] = family
        }
        if let scale = configuration.pixelScale { preprocessing.scale = scale }
        if let mean = configuration.pixelMean {
            preprocessing.mean = mean.count == 1 ? Array(repeating: mean[0], count: 3) : mean
        }
        if let std = configuration.pixelStd {
            preprocessing.std = std.count == 1 ? Array(repeating: std[0], count: 3) : std
        }
        guard preprocessing.mean.count == 3, preprocessing.std.count == 3,
            preprocessing.std.allSatisfy({ $0 != 0 && $0.isFinite }),
            preprocessing.mean.allSatisfy(\.isFinite), preprocessing.scale.isFinite, preprocessing.scale != 0
        else {
            throw VisionError(
                .invalidArgument,
                "\(url.lastPathComponent): pixel normalisation needs a finite non-zero scale, "
                    + "1 or 3 finite means and 1 or 3 finite non-zero stds")
        }
        // Before anything is allocated for an input of this size (makeInput, the native preprocessing).
        try ModelFileChecks.checkInputSize(preprocessing, model: url)
        let (labels, source) = try Self.labels(configuration: configuration, metadata: metadata, modelURL: url)
        var description = ModelDescription(
            format: format, backend: backend.name, inputs: backend.inputs, outputs: backend.outputs,
            labels: labels, labelsSource: source, preprocessing: preprocessing, metadata: metadata)
        description.coreML = coreML
        modelDescription = description
    }

    /// The text graph of a Caffe / TensorFlow model: `MODEL.prototxt` / `MODEL.pbtxt`, else the one in the
    /// folder whose name begins the model's (`opencv_face_detector.pbtxt` for `opencv_face_detector_uint8.pb`),
    /// else the folder's only one.
    static func textGraph(beside url: URL) -> URL? {
        let base = url.deletingPathExtension()
        if let same = [base.appendingPathExtension("prototxt"), base.appendingPathExtension("pbtxt")]
            .first(where: { FileManager.default.fileExists(atPath: $0.path) })
        {
            return same
        }
        let dir = url.deletingLastPathComponent()
        let graphs = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasSuffix(".pbtxt") || $0.hasSuffix(".prototxt") }.sorted()
        let stem = base.lastPathComponent
        let prefixed = graphs.filter { stem.hasPrefix(($0 as NSString).deletingPathExtension) }
            .max { ($0 as NSString).deletingPathExtension.count < ($1 as NSString).deletingPathExtension.count }
        return (prefixed ?? (graphs.count == 1 ? graphs[0] : nil)).map { dir.appendingPathComponent($0) }
    }

    // MARK: Description helpers

    /// Input size and layout from the input's shape, then metadata, then 640 × 640.
    static func preprocessing(
        for input: TensorDescription, metadata: [String: String], darknetInput: (Int, Int)?,
        format: ModelDescription.Format
    ) -> ModelPreprocessing {
        var layout = ModelPreprocessing.Layout.nchw
        var h: Int?
        var w: Int?
        if input.shape.count == 4 {
            if input.shape[3] == 3 && input.shape[1] != 3 {
                layout = .nhwc
                h = input.shape[1]
                w = input.shape[2]
            } else {
                h = input.shape[2]
                w = input.shape[3]
            }
        }
        if let (dw, dh) = darknetInput {
            w = w ?? dw
            h = h ?? dh
        }
        let declared = (metadata["imgsz"] ?? metadata["input_size"]).map(Self.integers) ?? []
        if h == nil || w == nil {
            if declared.count >= 2 {
                h = declared[0]
                w = declared[1]
            } else if declared.count == 1 {
                h = declared[0]
                w = declared[0]
            }
        }
        var p = ModelPreprocessing(width: w ?? 640, height: h ?? 640)
        p.layout = layout
        if let mean = metadata["mean"].map(Self.floats), mean.count == 3 { p.mean = mean }
        if let std = metadata["std"].map(Self.floats), std.count == 3 { p.std = std }
        if metadata["color_order"]?.lowercased() == "bgr" { p.colorOrder = .bgr }
        return p
    }

    static func integers(_ text: String) -> [Int] {
        text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }

    static func floats(_ text: String) -> [Float] {
        text.split(whereSeparator: { !($0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E") }).compactMap {
            Float($0)
        }
    }

    /// Labels: given, else model metadata ("names" as Ultralytics writes it, or a JSON "labels" list),
    /// else a sidecar file (`MODEL.names`, `MODEL.labels.txt`, `labels.txt`, `classes.txt`, a lone `*.names`).
    static func labels(configuration: Configuration, metadata: [String: String], modelURL: URL) throws(VisionError) -> (
        [String], String?
    ) {
        if let given = configuration.labels { return (given, "given") }
        if let names = metadata["names"], let parsed = parseUltralyticsNames(names), !parsed.isEmpty {
            return (parsed, "metadata:names")
        }
        if let json = metadata["labels"], let data = json.data(using: .utf8),
            let list = try? JSONDecoder().decode([String].self, from: data), !list.isEmpty
        {
            return (list, "metadata:labels")
        }
        let dir = modelURL.deletingLastPathComponent()
        let base = modelURL.deletingPathExtension()
        var candidates = [
            base.appendingPathExtension("names"), base.appendingPathExtension("labels.txt"),
            dir.appendingPathComponent("labels.txt"), dir.appendingPathComponent("classes.txt"),
        ]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
            $0.hasSuffix(".names")
        }
        if names.count == 1 { candidates.append(dir.appendingPathComponent(names[0])) }
        for file in candidates where FileManager.default.fileExists(atPath: file.path) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                throw VisionError(.ioError, "cannot read labels file \(file.path)")
            }
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            return (lines, "file:\(file.lastPathComponent)")
        }
        return ([], nil)
    }

    /// Parses Ultralytics' `{0: 'person', 1: 'bicycle'}` (a Python dict literal).
    static func parseUltralyticsNames(_ text: String) -> [String]? {
        var result: [Int: String] = [:]
        var i = text.startIndex
        while i < text.endIndex {
            guard let digitStart = text[i...].firstIndex(where: \.isNumber) else { break }
            var j = digitStart
            while j < text.endIndex, text[j].isNumber { j = text.index(after: j) }
            guard let key = Int(text[digitStart..<j]) else { break }
            guard let colon = text[j...].firstIndex(of: ":"),
                let quote = text[colon...].firstIndex(where: { $0 == "'" || $0 == "\"" })
            else { break }
            let q = text[quote]
            var value = ""
            var k = text.index(after: quote)
            while k < text.endIndex, text[k] != q {
                if text[k] == "\\", text.index(after: k) < text.endIndex { k = text.index(after: k) }
                value.append(text[k])
                k = text.index(after: k)
            }
            result[key] = value
            i = k < text.endIndex ? text.index(after: k) : k
        }
        guard !result.isEmpty else { return nil }
        let count = (result.keys.max() ?? -1) + 1
        return (0..<count).map { result[$0] ?? "class\($0)" }
    }

    // MARK: Running

    /// The input tensor for `image` (resized, fitted and normalised as the model describes) and how image
    /// pixels map into it.
    public func makeInput(from image: VisionImage, cropAndScale: ImageCropAndScaleOption? = nil) throws(VisionError)
        -> (Tensor, InputMapping)
    {
        let p = modelDescription.preprocessing
        let mode = cropAndScale ?? p.cropAndScale
        try ModelFileChecks.checkInputSize(p, model: url)  // checked at load time; never allocate unbounded
        var buffer = [Float](repeating: 0, count: p.width * p.height * 3)
        let mapping = try ModelInputBuilder.fill(&buffer, from: image, preprocessing: p, mode: mode)
        let shape = p.layout == .nchw ? [1, 3, p.height, p.width] : [1, p.height, p.width, 3]
        return (Tensor(name: modelDescription.inputs.first?.name ?? "input", shape: shape, scalars: buffer), mapping)
    }

    /// The fraction of full resolution `makeInput` keeps of a `width` × `height` pixel image fitted
    /// with `cropAndScale` (nil: the model's default), at most 1. Requests on this model report it
    /// as their `minimumImageScale`, so handlers can decode a large JPEG at reduced scale for them.
    public func minimumImageScale(width: Double, height: Double, cropAndScale: ImageCropAndScaleOption? = nil) -> Double
    {
        let p = modelDescription.preprocessing
        guard p.width > 0, p.height > 0, width > 0, height > 0 else { return 1 }
        let sx = Double(p.width) / width
        let sy = Double(p.height) / height
        // A letterbox shrinks by the smaller ratio; stretching and centre-cropping need both sides.
        return min(1, (cropAndScale ?? p.cropAndScale) == .scaleFit ? min(sx, sy) : max(sx, sy))
    }
}
