import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Core ML's own model files through the `CoreML` module as app code uses it: `MLModel(contentsOf:)`,
/// `modelDescription`, `prediction(from:)` with `MLDictionaryFeatureProvider`, `compileModel(at:)`, a detector
/// pipeline's threshold inputs, and `VNCoreMLRequest` on a compiled folder (seed 001's route). Expected values are
/// the shared references (../shared/models/coreml/references, the source network on ONNX Runtime).
@Suite(.serialized) struct CoreMLModelFileTests {
    static let coreml = Fixtures.shared.appendingPathComponent("models/coreml")

    struct Reference: Decodable {
        struct Top: Decodable {
            var label: String
            var probability: Double
        }
        struct Image: Decodable {
            var input_png: String
            var top5: [Top]
        }
        var references: [String: Image]
        var references_stored_weights: [String: Image]?
    }

    static func references(_ name: String) throws -> [String: Reference.Image] {
        let r = try JSONDecoder().decode(
            Reference.self, from: Data(contentsOf: coreml.appendingPathComponent("references/\(name).json")))
        return r.references_stored_weights ?? r.references
    }

    @Test func describesTheClassifierAsCoreMLDoes() throws {
        let model = try MLModel(contentsOf: Self.coreml.appendingPathComponent("MobileNetLike.mlmodel"))
        let d = model.modelDescription
        let image = try #require(d.inputDescriptionsByName["image"])
        #expect(
            image.type == .image && image.imageConstraint?.pixelsWide == 224 && image.imageConstraint?.pixelsHigh == 224
        )
        #expect(image.imageConstraint?.pixelFormatType == kCVPixelFormatType_32BGRA)
        #expect(d.outputDescriptionsByName["classLabel"]?.type == .string)
        #expect(d.outputDescriptionsByName["classLabelProbs"]?.type == .dictionary)
        #expect(d.outputDescriptionsByName["classLabelProbs"]?.dictionaryConstraint?.keyType == .string)
        #expect(d.predictedFeatureName == "classLabel" && d.predictedProbabilitiesName == "classLabelProbs")
        #expect((d.classLabels as? [String])?.count == 1000)
        #expect((d.metadata[.author] as? String)?.contains("OpenVision test fixture") == true)
        #expect(d.metadata[.creatorDefinedKey] is [String: String])
    }

    /// `prediction(from:)` answers `classLabel` and `classLabelProbs` as on a Mac, for the NeuralNetwork and the ML
    /// Program, and the package compiled with `MLModel.compileModel(at:)` answers the same.
    @Test(arguments: [
        ("MobileNetLike.mlmodel", "MobileNetLike"), ("MobileNetLike.mlpackage", "MobileNetLike_mlpackage"),
    ])
    func classifierPredictsItsReference(_ file: String, _ referenceName: String) async throws {
        let url = Self.coreml.appendingPathComponent(file)
        let compiled = try await MLModel.compileModel(at: url)
        defer { try? FileManager.default.removeItem(at: compiled.deletingLastPathComponent()) }
        #expect(compiled.pathExtension == "mlmodelc")
        let loaded = try await MLModel.load(contentsOf: compiled)
        for model in [try MLModel(contentsOf: url), loaded] {
            for (image, expected) in try Self.references(referenceName) {
                let constraint = try #require(model.modelDescription.inputDescriptionsByName["image"]?.imageConstraint)
                let input = try MLDictionaryFeatureProvider(dictionary: [
                    "image": try MLFeatureValue(
                        imageAt: Self.coreml.appendingPathComponent(expected.input_png), constraint: constraint)
                ])
                let output = try await model.prediction(from: input)
                #expect(
                    output.featureValue(for: "classLabel")?.stringValue == expected.top5[0].label, "\(file) \(image)")
                let probabilities = try #require(
                    output.featureValue(for: model.modelDescription.predictedProbabilitiesName ?? "")?.dictionaryValue)
                // One entry per distinct label (ImageNet's 1000 classes name "crane" and "maillot" twice).
                #expect(
                    probabilities.count == Set(model.modelDescription.classLabels as? [String] ?? []).count
                        && probabilities.count == 999)
                let p = probabilities[expected.top5[0].label] ?? -1
                #expect(
                    abs(p - expected.top5[0].probability) <= 1e-4,
                    "\(file) \(image): \(p) vs \(expected.top5[0].probability)")
            }
        }
    }

    /// The pipeline's optional `iouThreshold` input replaces its default (0.45): at 0.95 dog_320.png keeps 28 rows
    /// (CoreMLImportTests.requestThresholdsReachThePipeline has the reference count), at the default 5.
    @Test func detectorThresholdInputsAreHonoured() throws {
        let model = try MLModel(contentsOf: Self.coreml.appendingPathComponent("YoloFastestPipeline.mlmodel"))
        let image = try MLFeatureValue(
            imageAt: Self.coreml.appendingPathComponent("inputs/dog_320.png"), pixelsWide: 320, pixelsHigh: 320,
            pixelFormatType: kCVPixelFormatType_32BGRA)
        let loose = try model.prediction(
            from: MLDictionaryFeatureProvider(dictionary: ["image": image, "iouThreshold": 0.95]))
        let plain = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: ["image": image]))
        #expect(loose.featureValue(for: "coordinates")?.multiArrayValue?.shape.map(\.intValue) == [28, 4])
        #expect(plain.featureValue(for: "coordinates")?.multiArrayValue?.shape.map(\.intValue) == [5, 4])
        #expect(plain.featureValue(for: "confidence")?.multiArrayValue?.shape.map(\.intValue) == [5, 80])
        let batch = try model.predictions(
            fromBatch: MLArrayBatchProvider(array: [
                try MLDictionaryFeatureProvider(dictionary: ["image": image]),
                try MLDictionaryFeatureProvider(dictionary: ["image": image, "iouThreshold": 0.95]),
            ]))
        #expect(
            batch.count == 2 && batch.features(at: 1).featureValue(for: "coordinates")?.multiArrayValue?.count == 28 * 4
        )
    }

    /// Seed 001's route: `VNCoreMLModel(for: MLModel(contentsOf: compiled))` with the pipeline gives Vision's
    /// recognised objects — dog, bicycle and car on dog.jpg.
    @Test func compiledPipelineThroughVNCoreMLRequest() throws {
        let compiled = try MLModel.compileModel(at: Self.coreml.appendingPathComponent("YoloFastestPipeline.mlmodel"))
        defer { try? FileManager.default.removeItem(at: compiled.deletingLastPathComponent()) }
        let visionModel = try VNCoreMLModel(for: MLModel(contentsOf: compiled))
        let request = VNCoreMLRequest(model: visionModel)
        request.imageCropAndScaleOption = .scaleFill
        try VNImageRequestHandler(url: Fixtures.sharedImage("dog.jpg")).perform([request])
        let labels = Set(
            (request.results ?? []).compactMap { ($0 as? VNRecognizedObjectObservation)?.labels.first?.identifier })
        #expect(labels.isSuperset(of: ["dog", "bicycle", "car"]), "\(labels)")
    }

    /// `.scaleFillRotate90CCW`: the model sees the image turned 90° counter-clockwise, and boxes come back in the
    /// image's own coordinates. dog.jpg stored turned clockwise is, turned back, exactly dog.jpg's pixels: the same
    /// objects with the same confidences as dog.jpg with `.scaleFill`, each box the upright one turned clockwise
    /// ((x, y, w, h) → (y, 1 − x − w, h, w), normalised, lower-left origin), within 1e-4. Fitting the turned image
    /// as given (the option's old meaning here) gives the model other pixels and other boxes.
    @Test func rotatingCropOptionMapsBoxesBack() throws {
        let compiled = try MLModel.compileModel(at: Self.coreml.appendingPathComponent("YoloFastestPipeline.mlmodel"))
        defer { try? FileManager.default.removeItem(at: compiled.deletingLastPathComponent()) }
        let visionModel = try VNCoreMLModel(for: MLModel(contentsOf: compiled))
        func objects(_ image: CGImage, _ option: VNImageCropAndScaleOption) throws -> [String: (Float, CGRect)] {
            let request = VNCoreMLRequest(model: visionModel)
            request.imageCropAndScaleOption = option
            try VNImageRequestHandler(cgImage: image).perform([request])
            var best: [String: (Float, CGRect)] = [:]
            for case let o as VNRecognizedObjectObservation in request.results ?? [] {
                let label = o.labels[0].identifier
                if (best[label]?.0 ?? -1) < o.confidence { best[label] = (o.confidence, o.boundingBox) }
            }
            return best
        }
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))
        let upright = try objects(CGImage(visionImage: photo), .scaleFill)
        let turned = try objects(CGImage(visionImage: try photo.oriented(.right)), .scaleFillRotate90CCW)
        #expect(Set(upright.keys).isSuperset(of: ["dog", "bicycle", "car"]))
        for label in ["dog", "bicycle", "car"] {
            let (uc, u) = try #require(upright[label])
            let (tc, t) = try #require(turned[label], "\(label) not found turned")
            let expected = CGRect(x: u.minY, y: 1 - u.maxX, width: u.height, height: u.width)
            #expect(abs(tc - uc) < 1e-5, "\(label): confidence \(tc) vs \(uc)")
            #expect(
                abs(t.minX - expected.minX) < 1e-4 && abs(t.minY - expected.minY) < 1e-4
                    && abs(t.width - expected.width) < 1e-4 && abs(t.height - expected.height) < 1e-4,
                "\(label): \(t) vs \(expected)")
        }
    }

    @Test func multiArraysKeepTheirType() throws {
        let half = try MLMultiArray(shape: [2, 3], dataType: .float16)
        half[[1, 2] as [NSNumber]] = 0.1
        #expect(half[5].floatValue == Float(Float16(0.1)) && half.strides.map(\.intValue) == [3, 1])
        let ints = try MLMultiArray(shape: [2], dataType: .int32)
        ints[1] = 16_777_217
        #expect(ints[1].int32Value == 16_777_217)
        let doubles = try MLMultiArray(shape: [1], dataType: .double)
        doubles[0] = 0.1
        #expect(doubles[0].doubleValue == 0.1)
        #expect(throws: (any Error).self) { try MLMultiArray(shape: [-1], dataType: .float32) }
        #expect(throws: (any Error).self) { try MLDictionaryFeatureProvider(dictionary: ["x": Date()]) }
        #expect(throws: (any Error).self) { try MLModel(contentsOf: Self.coreml.appendingPathComponent("README.md")) }
    }
}
