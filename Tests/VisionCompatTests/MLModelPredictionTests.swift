import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Core ML's `MLModel` on Apple's model files as generated classes and app code call it: `prediction(from:)` with
/// Core ML's outputs (a classifier's label and probabilities by label, a detector pipeline's arrays and its optional
/// thresholds), batches, loading and compiling, image feature values, and the errors for the wrong model or input.
@Suite struct MLModelPredictionTests {
    static let folder = Fixtures.shared.appendingPathComponent("models/coreml")
    static let classifier = try! MLModel(contentsOf: folder.appendingPathComponent("MobileNetLike.mlmodel"))
    static let detector = try! MLModel(contentsOf: folder.appendingPathComponent("YoloFastestPipeline.mlmodel"))

    struct References: Decodable {
        struct Top: Decodable {
            var label: String
            var probability: Double
        }
        struct Image: Decodable {
            var input_png: String
            var classLabel: String
            var top5: [Top]
        }
        var references: [String: Image]
    }

    static func imageInput(_ file: String, _ side: Int) throws -> MLFeatureProvider {
        let value = try MLFeatureValue(
            imageAt: folder.appendingPathComponent("inputs/\(file)"), pixelsWide: side, pixelsHigh: side,
            pixelFormatType: kCVPixelFormatType_32BGRA, options: nil)
        return try MLDictionaryFeatureProvider(dictionary: ["image": value])
    }

    @Test func classifierGivesCoreMLsLabelAndProbabilities() throws {
        // Expected: references/MobileNetLike.json (the source ONNX network in onnxruntime on inputs/*_224.png,
        // written by ../shared/models/coreml/make_coreml_fixtures.py); its tolerance: probabilities within 1e-4.
        let refs = try JSONDecoder().decode(
            References.self, from: Data(contentsOf: Self.folder.appendingPathComponent("references/MobileNetLike.json"))
        )
        for (name, expected) in refs.references {
            let out = try Self.classifier.prediction(
                from: Self.imageInput(URL(fileURLWithPath: expected.input_png).lastPathComponent, 224))
            #expect(out.featureNames == ["classLabel", "classLabelProbs"])
            let label = try #require(out.featureValue(for: "classLabel"))
            #expect(label.type == .string && label.stringValue == expected.classLabel, "\(name)")
            let probabilities = try #require(
                out.featureValue(for: "classLabelProbs")?.dictionaryValue as? [String: Double])
            for top in expected.top5 {
                #expect(abs((probabilities[top.label] ?? -1) - top.probability) <= 1e-4, "\(name) \(top.label)")
            }
        }
        // A batch gives each input's prediction, in order.
        let batch = try Self.classifier.predictions(
            from: MLArrayBatchProvider(array: [
                Self.imageInput("eagle_224.png", 224), Self.imageInput("dog_224.png", 224),
            ]))
        #expect(batch.count == 2)
        #expect(
            batch.features(at: 0).featureValue(for: "classLabel")?.stringValue
                == refs.references["eagle.jpg"]?.classLabel)
        #expect(
            batch.features(at: 1).featureValue(for: "classLabel")?.stringValue == refs.references["dog.jpg"]?.classLabel
        )
    }

    @Test func detectorPipelineWithItsOptionalThresholds() throws {
        let input = try Self.imageInput("dog_320.png", 320)
        let out = try Self.detector.prediction(from: input)
        let confidence = try #require(out.featureValue(for: "confidence")?.multiArrayValue)
        let coordinates = try #require(out.featureValue(for: "coordinates")?.multiArrayValue)
        #expect(
            confidence.shape.count == 2 && confidence.shape[1].intValue == 80
                && coordinates.shape.map(\.intValue) == [confidence.shape[0].intValue, 4])
        // references/YoloFastestPipeline.json, dog.jpg: the five detections over the model's default confidence 0.25
        // (dog 0.886, car 0.866, bicycle 0.859, cat 0.515, truck 0.369), compared as a set.
        let best = (0..<confidence.shape[0].intValue).map { row in (0..<80).map { confidence[[row, $0]] }.max() ?? 0 }
        #expect(best.filter { $0 > 0.25 }.count == 5)
        // A higher confidence threshold through the optional input: only the three above 0.8.
        var features = ["image": input.featureValue(for: "image")!]
        features["confidenceThreshold"] = MLFeatureValue(double: 0.8)
        let strict = try Self.detector.prediction(from: MLDictionaryFeatureProvider(dictionary: features))
        #expect(strict.featureValue(for: "confidence")?.multiArrayValue?.shape[0] == 3)
        // A threshold of the wrong type is named.
        features["confidenceThreshold"] = MLFeatureValue(string: "high")
        #expect { _ = try Self.detector.prediction(from: MLDictionaryFeatureProvider(dictionary: features)) } throws: {
            error in
            "\(error)".contains("confidenceThreshold") && "\(error)".contains("number")
        }
    }

    /// A model with two multi-array inputs (Tests/Fixtures/coreml/layers/concat_channels.mlmodel: y = concat(a, b) along
    /// the channels, coremltools' NeuralNetworkBuilder) takes both by name; its output equals the fixture's numpy
    /// reference (concat_channels.json, `np.concatenate([a, b], axis=0)`), and a missing or image input is named.
    @Test func severalTensorInputs() throws {
        let layers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/coreml/layers")
        struct Case: Decodable {
            struct Array: Decodable {
                var name: String
                var shape: [Int]
                var values: [Float]
            }
            var inputs: [Array]
            var outputs: [Array]
        }
        let reference = try JSONDecoder().decode(
            Case.self, from: Data(contentsOf: layers.appendingPathComponent("concat_channels.json")))
        let model = try MLModel(contentsOf: layers.appendingPathComponent("concat_channels.mlmodel"))
        var features: [String: Any] = [:]
        for i in reference.inputs { features[i.name] = MLMultiArray(shape: i.shape, values: i.values) }
        let out = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: features))
        let y = try #require(out.featureValue(for: "y")?.multiArrayValue)
        #expect(y.shape.map(\.intValue) == reference.outputs[0].shape)
        #expect(zip(y.values, reference.outputs[0].values).allSatisfy { abs($0 - $1) <= 1e-5 })
        #expect {
            _ = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: ["a": features["a"]!]))
        } throws: { error in
            "\(error)".contains("no feature 'b'")
        }
        let image = try MLFeatureValue(
            cgImage: CGImage(visionImage: try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg"))),
            pixelsWide: 4, pixelsHigh: 3,
            pixelFormatType: kCVPixelFormatType_32ARGB, options: nil)
        #expect {
            _ = try model.prediction(from: MLDictionaryFeatureProvider(dictionary: ["a": image, "b": features["b"]!]))
        } throws: { error in
            "\(error)".contains("input 'a' is an image")
        }
    }

    @Test func wrongModelsAndInputsAreNamedErrors() throws {
        // A generated class's check: the detector is not the classifier it was generated for.
        #expect {
            try Self.detector.requireFeatures(
                inputs: ["image"], outputs: ["classLabelProbs", "classLabel"], for: "MobileNet")
        } throws: { error in
            guard case .featureType(let message)? = error as? MLModelError else { return false }
            return message.contains("MobileNet was generated for") && message.contains("confidence, coordinates")
        }
        try Self.classifier.requireFeatures(
            inputs: ["image"], outputs: ["classLabelProbs", "classLabel"], for: "MobileNet")
        #expect(throws: MLModelError.self) {
            try MLModel.requireOutputs(
                ["classLabel"], in: MLDictionaryFeatureProvider(dictionary: [:]), for: "MobileNet")
        }
        // A missing model file is Core ML's io error naming it.
        #expect { _ = try MLModel(contentsOf: URL(fileURLWithPath: "/nonexistent/MobileNet.mlmodelc")) } throws: {
            error in
            guard case .io(let message)? = error as? MLModelError else { return false }
            return message.contains("/nonexistent/MobileNet.mlmodelc")
        }
        // An input without the model's image feature, or with a number in its place.
        #expect {
            _ = try Self.classifier.prediction(
                from: MLDictionaryFeatureProvider(dictionary: ["picture": MLFeatureValue(double: 1)]))
        } throws: { error in
            "\(error)".contains("no feature 'image'")
        }
        #expect {
            _ = try Self.classifier.prediction(
                from: MLDictionaryFeatureProvider(dictionary: ["image": MLFeatureValue(double: 1)]))
        } throws: { error in
            "\(error)".contains("must be an image")
        }
    }

    @Test func imageFeatureValues() throws {
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg"))
        let eagle = CGImage(visionImage: photo)
        let stretched = try MLFeatureValue(
            cgImage: eagle, pixelsWide: 224, pixelsHigh: 160, pixelFormatType: kCVPixelFormatType_32ARGB, options: nil)
        let stretchedBuffer = try #require(stretched.imageBufferValue)
        #expect(
            stretched.type == .image && CVPixelBufferGetWidth(stretchedBuffer) == 224
                && CVPixelBufferGetHeight(stretchedBuffer) == 160)
        // The buffer is made in the format asked for: 32ARGB's alpha byte first, 255.
        #expect(CVPixelBufferGetPixelFormatType(stretchedBuffer) == kCVPixelFormatType_32ARGB)
        _ = CVPixelBufferLockBaseAddress(stretchedBuffer, .readOnly)
        #expect(CVPixelBufferGetBaseAddress(stretchedBuffer)!.load(as: UInt8.self) == 255)
        _ = CVPixelBufferUnlockBaseAddress(stretchedBuffer, .readOnly)
        let cropped = try MLFeatureValue(
            cgImage: eagle, pixelsWide: 100, pixelsHigh: 100, pixelFormatType: kCVPixelFormatType_32BGRA,
            options: [.cropAndScale: VNImageCropAndScaleOption.centerCrop])
        // The centre square, resized: the pixels of cropping the centre square first.
        let side = min(eagle.width, eagle.height)
        let square = try photo.cropped(
            to: NormalizedRect(
                x: Double(eagle.width - side) / 2 / Double(eagle.width),
                y: Double(eagle.height - side) / 2 / Double(eagle.height),
                width: Double(side) / Double(eagle.width), height: Double(side) / Double(eagle.height)))
        // (Within a pixel of crop rounding: mean absolute difference under 2 levels.)
        let ours = try #require(cropped.imageBufferValue).visionImage().rgbData()
        let theirs = try square.resized(width: 100, height: 100).rgbData()
        #expect(ours.count == 100 * 100 * 3 && ours.count == theirs.count)
        #expect(Double(zip(ours, theirs).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(ours.count) < 2)
        let region = try MLFeatureValue(
            cgImage: eagle, pixelsWide: 10, pixelsHigh: 10, pixelFormatType: kCVPixelFormatType_32ARGB,
            options: [.cropRect: CGRect(x: 0, y: 0, width: 10, height: 10)])
        #expect(
            try #require(region.imageBufferValue).visionImage().rgbData()
                == (try photo.cropped(
                    to: NormalizedRect(
                        imageRect: CGRect(x: 0, y: 0, width: 10, height: 10), in: photo.size, origin: .upperLeft)))
                .rgbData())
        // .scaleFit: the whole image, aspect kept, centred on black rows (eagle is wider than tall); the rotating form
        // turns it counter-clockwise first: the same as fitting the turned image.
        let fit = try #require(
            try MLFeatureValue(
                cgImage: eagle, pixelsWide: 64, pixelsHigh: 64, pixelFormatType: kCVPixelFormatType_32ARGB,
                options: [.cropAndScale: VNImageCropAndScaleOption.scaleFit]
            ).imageBufferValue)
        let h = Int((Double(eagle.height) * 64 / Double(eagle.width)).rounded())
        let top = (64 - h) / 2
        #expect(CVPixelBufferGetWidth(fit) == 64 && CVPixelBufferGetHeight(fit) == 64)
        let fitted = try fit.visionImage().rgbData()
        let band = try photo.resized(width: 64, height: h).rgbData()
        #expect(
            fitted.prefix(top * 64 * 3).allSatisfy { $0 == 0 }
                && fitted.suffix((64 - top - h) * 64 * 3).allSatisfy { $0 == 0 })
        #expect(fitted.dropFirst(top * 64 * 3).prefix(h * 64 * 3) == band)
        let turned = try #require(
            try MLFeatureValue(
                cgImage: eagle, pixelsWide: 64, pixelsHigh: 64, pixelFormatType: kCVPixelFormatType_32ARGB,
                options: [.cropAndScale: VNImageCropAndScaleOption.scaleFitRotate90CCW]
            ).imageBufferValue)
        let expectedTurned = try MLFeatureValue(
            cgImage: CGImage(visionImage: try photo.oriented(.left)), pixelsWide: 64, pixelsHigh: 64,
            pixelFormatType: kCVPixelFormatType_32ARGB, options: [.cropAndScale: VNImageCropAndScaleOption.scaleFit])
        #expect(
            try turned.visionImage().rgbData()
                == (try #require(expectedTurned.imageBufferValue).visionImage().rgbData()))
        // black rows became side bands
        #expect(try turned.visionImage().rgbData().prefix(3 * 64 * 3) != fitted.prefix(3 * 64 * 3))
        // Unknown keys, unsupported fitting and formats, and unreadable files: errors naming them.
        for (options, format, expected) in [
            (
                [MLFeatureValue.ImageOption("colorSpace"): 1] as [MLFeatureValue.ImageOption: Any],
                kCVPixelFormatType_32ARGB, "unknown MLFeatureValue.ImageOption 'colorSpace'"
            ),
            ([.cropAndScale: UInt(3)], kCVPixelFormatType_32ARGB, "crop and scale option 3"),
            ([.cropRect: "everything"], kCVPixelFormatType_32ARGB, "cropRect takes a CGRect"),
            ([:], kCVPixelFormatType_OneComponent16Half, "pixel format 0x4C303068"),
        ] {
            #expect {
                _ = try MLFeatureValue(
                    cgImage: eagle, pixelsWide: 8, pixelsHigh: 8, pixelFormatType: format, options: options)
            } throws: { error in
                "\(error)".contains(expected)
            }
        }
        #expect {
            _ = try MLFeatureValue(
                imageAt: URL(fileURLWithPath: "/nonexistent.png"), pixelsWide: 8, pixelsHigh: 8,
                pixelFormatType: kCVPixelFormatType_32ARGB)
        } throws: { error in
            if case .io? = error as? MLModelError { return true } else { return false }
        }
    }

    @Test func loadingAndCompiling() async throws {
        let compiled = try await MLModel.compileModel(at: Self.folder.appendingPathComponent("MobileNetLike.mlmodel"))
        defer { try? FileManager.default.removeItem(at: compiled.deletingLastPathComponent()) }
        #expect(compiled.lastPathComponent == "MobileNetLike.mlmodelc")
        let loaded = try await MLModel.load(contentsOf: compiled)
        let out = try await loaded.prediction(from: Self.imageInput("eagle_224.png", 224))
        #expect(out.featureValue(for: "classLabel")?.stringValue == "kite")
        let viaHandler: MLModel = try await withCheckedThrowingContinuation { continuation in
            MLModel.load(contentsOf: compiled, configuration: MLModelConfiguration()) { continuation.resume(with: $0) }
        }
        #expect(viaHandler.modelDescription.classLabels?.count == 1000)
    }
}
