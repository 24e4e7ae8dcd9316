import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// Core ML models converted to ONNX and run by ONNX Runtime.
///
/// Layers: each fixture of Tests/Fixtures/coreml/layers (one tiny NeuralNetworkBuilder model per layer and
/// option) against numpy's evaluation of the layer's definition in NeuralNetwork.proto, written by
///
///     /work/venvs/coremltools/bin/python scripts/models/coreml_fixtures.py   (coremltools==9.0 numpy)
///
/// within 1e-4 (relative above 1), or the fixture's own tolerance where it states why.
///
/// Shared files (../shared/models/coreml, references by its make_coreml_fixtures.py from the source ONNX
/// networks on ONNX Runtime): the fp32 classifier's 1000 probabilities within 1e-4 relative and the same top 5;
/// the 8-bit LUT classifier against `references_dequantized` (the source network with the file's de-quantized
/// weights: what a correct float32 reader computes, within the same 1e-4); the detector pipelines' boxes equal the
/// reference detections as sets (label equal, IoU ≥ 0.98, confidence within 1e-4), through OpenVision's own
/// requests and preprocessing on the shared pre-cropped inputs.
@Suite struct CoreMLImportTests {
    static let layers = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/coreml/layers")
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")

    struct Values: Decodable {
        var name: String
        var shape: [Int]
        var values: [Float]
    }

    struct LayerReference: Decodable {
        var inputs: [Values]
        var outputs: [Values]
        var shape_only: Bool?
        var tolerance: Float?
        var image_input: String?
    }

    static let layerNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: layers.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

    static func configuration() -> VisionModel.Configuration {
        var c = VisionModel.Configuration()
        c.threads = 1
        c.backend = .onnxRuntime
        return c
    }

    @Test func everyLayerFixtureIsListed() {
        #expect(Self.layerNames.count >= 190)
    }

    @Test(arguments: layerNames)
    func layerMatchesItsDefinition(_ name: String) throws {
        let reference = try JSONDecoder().decode(
            LayerReference.self, from: Data(contentsOf: Self.layers.appendingPathComponent("\(name).json")))
        let model = try VisionModel(
            contentsOf: Self.layers.appendingPathComponent("\(name).mlmodel"), configuration: Self.configuration())
        let info = try #require(model.modelDescription.coreML)
        #expect(model.modelDescription.format == .coreML)
        var inputs: [Tensor] = []
        for input in reference.inputs {
            var values = input.values
            if let image = info.imageInputs[input.name] {
                // The graph takes the image as OpenVision's preprocessing makes it: channels in the model's order,
                // scale × pixel + bias.
                let plane = values.count / 3
                let order = image.colorOrder == "bgr" ? [2, 1, 0] : [0, 1, 2]
                values = (0..<3).flatMap { c in
                    values[(order[c] * plane)..<(order[c] * plane + plane)].map { $0 * image.scale + image.bias[c] }
                }
            }
            inputs.append(Tensor(name: input.name, shape: input.shape, scalars: values))
        }
        let outputs = try model.prediction(from: inputs)
        let tolerance = reference.tolerance ?? 1e-4
        for expected in reference.outputs {
            let output = try #require(outputs.first { $0.name == expected.name }, "\(name): no output \(expected.name)")
            #expect(output.shape == expected.shape, "\(name) \(expected.name)")
            guard reference.shape_only != true, output.scalars.count == expected.values.count else { continue }
            let error = zip(output.scalars, expected.values).reduce(Float(0)) {
                max($0, abs($1.0 - $1.1) / max(1, abs($1.1)))
            }
            #expect(error <= tolerance, "\(name) \(expected.name): error \(error) (allowed \(tolerance))")
        }
    }

    // MARK: Shared files

    struct ClassifierReferences: Decodable {
        struct Top: Decodable {
            var index: Int
            var label: String
            var probability: Double
        }
        struct Image: Decodable {
            var input_png: String
            var top5: [Top]
            var classLabelProbs: [Double]
        }
        var references: [String: Image]
        var references_dequantized: [String: Image]?
        var references_stored_weights: [String: Image]?
    }

    /// The reference file of a shared model: references/MobileNetLike.json, references/MobileNetLike_mlpackage.json.
    static func referenceFile(_ file: String) -> URL {
        let name =
            file.hasSuffix(".mlpackage")
            ? file.replacingOccurrences(of: ".mlpackage", with: "_mlpackage") : (file as NSString).deletingPathExtension
        return coreml.appendingPathComponent("references/\(name).json")
    }

    /// `(file, references)`: the fp32 classifier against the source network, the LUT one against the source with its
    /// de-quantized weights, the ML Program (fp16 weights, computed in fp32) against the source with its stored weights.
    @Test(arguments: ["MobileNetLike.mlmodel", "MobileNetLikeInt8LUT.mlmodel", "MobileNetLike.mlpackage"])
    func classifierAnswersAsTheSource(_ file: String) async throws {
        let refs = try JSONDecoder().decode(ClassifierReferences.self, from: Data(contentsOf: Self.referenceFile(file)))
        let model = try VisionModel(
            contentsOf: Self.coreml.appendingPathComponent(file), configuration: Self.configuration())
        let d = model.modelDescription
        #expect(d.format == .coreML && d.labels.count == 1000 && d.labels[21] == "kite")
        if file.hasSuffix(".mlpackage") {
            // The program scales its pixels itself (x/128 - 127/128 inside the graph): the input is 0...255.
            #expect(d.preprocessing.width == 224 && d.preprocessing.scale == 1 && d.preprocessing.mean == [0, 0, 0])
            #expect(d.coreML?.modelType == "mlProgram")
        } else {
            #expect(
                d.preprocessing.width == 224 && d.preprocessing.scale == 0.0078125
                    && d.preprocessing.mean == [0.9921875, 0.9921875, 0.9921875])
            #expect(d.coreML?.modelType == "neuralNetworkClassifier")
            #expect(d.coreML?.weightFormats == (file.contains("LUT") ? ["8-bit LUT"] : ["float32"]))
        }
        for (image, expected) in refs.references_dequantized ?? refs.references_stored_weights ?? refs.references {
            let url = Self.coreml.appendingPathComponent(expected.input_png)
            let results = try await ImageRequestHandler(url).perform(ClassifyImageRequest(model: model))
            #expect(results.map(\.identifier) == expected.top5.map(\.label), "\(file) \(image)")
            // Every probability, by class index (ImageNet's labels repeat a few names), from OpenVision's own input.
            let (input, _) = try model.makeInput(from: try VisionImage(contentsOf: url), cropAndScale: .centerCrop)
            let probabilities = try model.prediction(from: [input])[0].scalars
            try #require(probabilities.count == expected.classLabelProbs.count)
            let worst = zip(probabilities, expected.classLabelProbs).reduce(0.0) {
                max($0, abs(Double($1.0) - $1.1) / max($1.1, 1e-6))
            }
            #expect(worst <= 1e-4, "\(file) \(image): largest relative error \(worst)")
        }
    }

    struct DetectorReferences: Decodable {
        struct Detection: Decodable {
            var label: String
            var confidence: Double
            var coordinates: [Double]
        }
        struct Image: Decodable {
            var input_png: String
            var detections: [Detection]
        }
        var references: [String: Image]
        var references_dequantized: [String: Image]?
        var references_stored_weights: [String: Image]?
    }

    static func iou(_ a: [Double], _ b: [Double]) -> Double {
        let ix = max(0, min(a[0] + a[2] / 2, b[0] + b[2] / 2) - max(a[0] - a[2] / 2, b[0] - b[2] / 2))
        let iy = max(0, min(a[1] + a[3] / 2, b[1] + b[3] / 2) - max(a[1] - a[3] / 2, b[1] - b[3] / 2))
        return ix * iy / (a[2] * a[3] + b[2] * b[3] - ix * iy)
    }

    /// The pipelines' detections equal the source detector + per-class NMS (the references' `detections`) as sets.
    @Test(arguments: ["YoloFastestPipeline.mlmodel", "YoloFastestInt8LUT.mlmodel", "YoloFastestPipeline.mlpackage"])
    func detectorPipelineAnswersAsTheSource(_ file: String) async throws {
        let refs = try JSONDecoder().decode(DetectorReferences.self, from: Data(contentsOf: Self.referenceFile(file)))
        let model = try VisionModel(
            contentsOf: Self.coreml.appendingPathComponent(file), configuration: Self.configuration())
        let nms = try #require(model.modelDescription.coreML?.nms)
        #expect(nms.iouThreshold == 0.45 && nms.confidenceThreshold == 0.25 && nms.perClass)
        #expect(nms.iouThresholdInput == "iouThreshold" && nms.confidenceThresholdInput == "confidenceThreshold")
        #expect(
            model.modelDescription.labels.count == 80 && model.modelDescription.preprocessing.cropAndScale == .scaleFill
        )
        for (image, expected) in refs.references_dequantized ?? refs.references_stored_weights ?? refs.references {
            let handler = ImageRequestHandler(Self.coreml.appendingPathComponent(expected.input_png))
            let objects = try await handler.perform(DetectObjectsRequest(model: model))
            // Vision's normalised lower-left boxes back to Core ML's centre x, y (from the top), width, height.
            let got = objects.map { o -> (String, Float, [Double]) in
                let b = o.boundingBox
                return (
                    o.labels[0].identifier, o.labels[0].confidence,
                    [b.x + b.width / 2, 1 - (b.y + b.height / 2), b.width, b.height]
                )
            }
            #expect(
                got.count == expected.detections.count,
                "\(file) \(image): \(got.map(\.0)) vs \(expected.detections.map(\.label))")
            for want in expected.detections {
                // Observations lie within the image: compare with the reference box clipped to it.
                let c = want.coordinates
                let x0 = max(0, c[0] - c[2] / 2)
                let y0 = max(0, c[1] - c[3] / 2)
                let x1 = min(1, c[0] + c[2] / 2)
                let y1 = min(1, c[1] + c[3] / 2)
                let clipped = [(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0]
                let match = got.first { $0.0 == want.label && Self.iou($0.2, clipped) >= 0.98 }
                #expect(match != nil, "\(file) \(image): no \(want.label) at \(want.coordinates) among \(got)")
                // The ML Program keeps its leaky-ReLU slope in fp16 (0.0999756 for 0.1), which the stored-weights
                // reference does not: confidences move by up to 3.1e-4 (MILSharedModelTests).
                let tolerance = file.hasSuffix(".mlpackage") ? 1e-3 : 1e-4
                if let match {
                    #expect(abs(Double(match.1) - want.confidence) <= tolerance, "\(file) \(image) \(want.label)")
                }
            }
        }
    }

    /// The request's thresholds reach the pipeline's NMS through its overridable `iouThreshold` input: at IoU 0.95 the
    /// reference rows keep 11 / 28 / 5 boxes on eagle / dog / astronaut, against 1 / 5 / 1 at the model's 0.45. Counted
    /// with the shared generator's per-class NMS (make_coreml_fixtures.py `nms_reference`) on each image's
    /// `raw_nonzero_rows` of references/YoloFastestPipeline.json, iou_thr=0.95, as rows kept for any class.
    @Test func requestThresholdsReachThePipeline() async throws {
        let model = try VisionModel(
            contentsOf: Self.coreml.appendingPathComponent("YoloFastestPipeline.mlmodel"),
            configuration: Self.configuration())
        for (image, expected) in [("eagle_320.png", 11), ("dog_320.png", 28), ("astronaut_320.png", 5)] {
            var request = DetectObjectsRequest(model: model)
            request.iouThreshold = 0.95
            request.maximumObservations = 0
            let objects = try await ImageRequestHandler(Self.coreml.appendingPathComponent("inputs/\(image)")).perform(
                request)
            #expect(objects.count == expected, "\(image): \(objects.count) boxes at IoU 0.95")
        }
    }

    // MARK: Compiling and caching

    /// `compileCoreMLModel(at:to:)` writes model.onnx + coreml.json; the folder loads without conversion and answers
    /// as the .mlmodel.
    @Test func compiledFolderLoadsAndAnswersTheSame() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ov-compile-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Self.layers.appendingPathComponent("image_bgr_scaler_mean_image.mlmodel")
        let compiled = try VisionModel.compileCoreMLModel(at: source, to: folder)
        #expect(compiled.lastPathComponent == "image_bgr_scaler_mean_image.mlmodelc")
        for file in ["model.onnx", "coreml.json"] {
            #expect(FileManager.default.fileExists(atPath: compiled.appendingPathComponent(file).path))
        }
        let fromFolder = try VisionModel(contentsOf: compiled, configuration: Self.configuration())
        let fromFile = try VisionModel(contentsOf: source, configuration: Self.configuration())
        #expect(fromFolder.modelDescription.coreML == fromFile.modelDescription.coreML)
        #expect(fromFolder.modelDescription.preprocessing == fromFile.modelDescription.preprocessing)
        let input = Tensor(name: "image", shape: [1, 3, 4, 5], scalars: (0..<60).map { Float($0) })
        #expect(try fromFolder.prediction(from: [input])[0].scalars == fromFile.prediction(from: [input])[0].scalars)
    }

    /// The second load of a model finds its converted file by the stamp, and an unchanged copy elsewhere by content.
    @Test func convertsOnceAndFindsCopiesByContent() throws {
        let source = Self.layers.appendingPathComponent("conv_valid_padded_stride2.mlmodel")
        let first = try ConvertedModelCache.coreML.onnxFile(for: source)
        let second = try ConvertedModelCache.coreML.onnxFile(for: source)
        #expect(first == second)
        #expect(first.lastPathComponent.hasSuffix("-r\(ConvertedModelCache.coreML.revision).onnx"))
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("ov-copy-\(UUID()).mlmodel")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: source, to: copy)
        #expect(
            try ConvertedModelCache.coreML.onnxFile(for: copy).lastPathComponent.dropFirst(
                copy.deletingPathExtension().lastPathComponent.count)
                == first.lastPathComponent.dropFirst("conv_valid_padded_stride2".count))
        // A package hashes its files: its key differs from its model file's alone.
        let package = Self.coreml.appendingPathComponent("MobileNetLike.mlpackage")
        let packageKey = try ConvertedModelCache.contentHash(package)
        let modelKey = try ConvertedModelCache.contentHash(
            package.appendingPathComponent("Data/com.apple.CoreML/model.mlmodel"))
        #expect(packageKey != modelKey && packageKey.count == 64)
    }

    // MARK: Bad input

    static func expectError(
        _ url: URL, _ code: VisionError.Code, containing texts: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try VisionModel(contentsOf: url, configuration: configuration())
            Issue.record("expected \(code) for \(url.lastPathComponent)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            for text in texts {
                #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func badFilesGiveTypedErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-coreml-bad-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Truncated: the classifier cut inside its first layer's weights.
        let whole = try Data(contentsOf: Self.coreml.appendingPathComponent("MobileNetLike.mlmodel"))
        let truncated = dir.appendingPathComponent("truncated.mlmodel")
        try whole.prefix(200_000).write(to: truncated)
        Self.expectError(truncated, .invalidModel, containing: ["truncated.mlmodel"])
        // A photo named .mlmodel.
        let photo = dir.appendingPathComponent("photo.mlmodel")
        try Data(contentsOf: Fixtures.sharedImage("astronaut.png")).write(to: photo)
        Self.expectError(photo, .invalidModel, containing: ["photo.mlmodel"])
        // A custom layer whose class the app has not registered: named, with the registration line.
        Self.expectError(
            Self.layers.appendingPathComponent("unsupported_custom.mlmodel"), .unsupported,
            containing: ["layer 'custom1'", "MLCustomLayerRegistry.register(MyAppLayer.self"])
        // A package without a manifest, an empty compiled folder, Espresso files without Xcode's coremldata.bin, and
        // with a coremldata.bin of one byte.
        let package = dir.appendingPathComponent("empty.mlpackage")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        Self.expectError(package, .invalidModel, containing: ["Manifest.json"])
        let compiled = dir.appendingPathComponent("empty.mlmodelc")
        try FileManager.default.createDirectory(at: compiled, withIntermediateDirectories: true)
        Self.expectError(compiled, .invalidModel, containing: ["not a compiled Core ML model"])
        try Data("x".utf8).write(to: compiled.appendingPathComponent("model.espresso.net"))
        Self.expectError(compiled, .invalidModel, containing: ["not a compiled Core ML model"])
        try Data([1]).write(to: compiled.appendingPathComponent("coremldata.bin"))
        Self.expectError(compiled, .invalidModel, containing: ["coremldata.bin: truncated"])
        Self.expectError(dir.appendingPathComponent("missing.mlmodel"), .fileNotFound, containing: ["missing.mlmodel"])
    }
}
