import Foundation
import Testing

@testable import OpenVisionConverters

/// Xcode's compiled `.mlmodelc` folders read as the `.mlmodel` they were compiled from: `coremldata.bin` (the
/// interface), Espresso neural networks (JSON layers, shapes, blob table) rewritten as Core ML networks, ML Program
/// pipelines with their NMS stage, and bad files — truncated, inconsistent, unknown layers — refused with a
/// `ConversionError` naming the part, never a trap. The real folders are ../shared/models/coreml-wild (README:
/// provenance); the synthetic one is Tests/Fixtures/coreml/compiled (scripts/models/coreml_compiled_fixtures.py).
@Suite struct CoreMLCompiledFolderTests {
    static let wild = SharedFiles.shared.appendingPathComponent("models/coreml-wild")
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/coreml/compiled")

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// A copy of the synthetic folder in a new temporary folder, for tests that damage it.
    static func copyOfForms() throws -> URL {
        let dir = try SharedFiles.tempDir()
        let copy = dir.appendingPathComponent("EspressoForms.mlmodelc")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("EspressoForms.mlmodelc"), to: copy)
        return copy
    }

    /// The error converting `url`, when it is a `ConversionError`.
    static func conversionError(_ url: URL) -> ConversionError? {
        do {
            _ = try CoreMLConverter.conversion(contentsOf: url)
            return nil
        } catch {
            return error as? ConversionError
        }
    }

    /// MNISTClassifier.mlmodelc's coremldata.bin: a neuralNetworkClassifier (403) of specification 1, its interface as
    /// its metadata.json lists it, and the int64 labels 0…9 (`xxd coremldata.bin`: type 0x193 at 0, labels after the
    /// ModelDescription at 0x2E9).
    @Test func readsAClassifiersInterface() throws {
        let data = try CoreMLCompiledData(
            bytes: Self.bytes(Self.wild.appendingPathComponent("MNISTClassifier.mlmodelc/coremldata.bin")))
        #expect(data.modelType == 403 && data.specificationVersion == 1 && data.tag == "generic")
        #expect(try data.classifierLabels(file: "coremldata.bin") == (0...9).map(String.init))
        let spec = try XcodeCompiledFolder.spec(at: Self.wild.appendingPathComponent("MNISTClassifier.mlmodelc"))
        #expect(spec.typeName == "neuralNetworkClassifier")
        #expect(
            spec.description.inputs.map(\.name) == ["image"]
                && spec.description.outputs.map(\.name) == ["labelProbabilities", "classLabel"])
        #expect(spec.description.inputs[0].type == .image(.init(width: 28, height: 28, colorSpace: .grayscale)))
        #expect(
            spec.description.outputs[0].type == .dictionary(stringKeys: false)
                && spec.description.outputs[1].type == .int64)
        #expect(spec.description.metadata.author == "Apple, Inc.")
        guard case .neuralNetwork(let nn) = spec.kind else {
            Issue.record("not a neural network")
            return
        }
        // The .mlmodel's 14 layers; Espresso fused the ReLUs into the layers before them (fused_relu, has_relu).
        #expect(
            nn.layers.map(\.typeName) == [
                "convolution", "activation", "pooling", "convolution", "activation", "pooling",
                "convolution", "activation", "pooling", "flatten", "innerProduct", "activation",
                "innerProduct", "softmax",
            ])
        #expect(nn.preprocessing.first?.channelScale == Float(0.0039215688593685627) && nn.classLabels.count == 10)
    }

    /// yolov8n.mlmodelc: a pipeline (202) of model0, an ML Program (model.mil), and model1, the NMS stage Xcode keeps as
    /// a whole Model message (tag "spec": IoU 0.45, confidence 0.25, COCO's 80 labels, threshold inputs).
    @Test func readsAnMLProgramPipelineWithItsNMS() throws {
        let folder = Self.wild.appendingPathComponent("yolov8n.mlmodelc")
        let spec = try XcodeCompiledFolder.spec(at: folder)
        guard case .pipeline(let pipeline) = spec.kind else {
            Issue.record("not a pipeline: \(spec.typeName)")
            return
        }
        #expect(pipeline.models.map(\.typeName) == ["mlProgram", "nonMaximumSuppression"])
        guard case .nonMaximumSuppression(let nms) = pipeline.models[1].kind else {
            Issue.record("no NMS")
            return
        }
        #expect(nms.iouThreshold == 0.45 && nms.confidenceThreshold == 0.25 && nms.classLabels.count == 80)
        #expect(
            nms.iouThresholdInputFeatureName == "iouThreshold"
                && nms.confidenceThresholdInputFeatureName == "confidenceThreshold")
        #expect(spec.description.inputs.map(\.name) == ["image", "iouThreshold", "confidenceThreshold"])
        let conversion = try CoreMLConverter.conversion(contentsOf: folder)
        #expect(
            conversion.info.modelType == "pipeline"
                && conversion.info.submodels == ["mlProgram", "nonMaximumSuppression"])
        #expect(conversion.info.nms?.confidenceThreshold == 0.25 && conversion.info.classLabels[16] == "dog")
        #expect(conversion.info.imageInputs["image"]?.width == 640 && conversion.info.imageInputs["image"]?.scale == 1)
    }

    /// The synthetic folder converts every Espresso form the reader knows (explicit, same and top-left-heavy padding,
    /// strides, groups, float16 weights, fused tanh and ReLU, average / max / global pooling, channel-last flatten,
    /// padded biases), with its string labels and its image scaler, as Core ML layers in order. Its answers are held
    /// to numpy in Tests/OpenVisionTests/Models/CoreMLCompiledModelTests.swift.
    @Test func convertsEveryEspressoForm() throws {
        let conversion = try CoreMLConverter.conversion(
            contentsOf: Self.fixtures.appendingPathComponent("EspressoForms.mlmodelc"))
        let info = conversion.info
        #expect(info.modelType == "neuralNetworkClassifier" && info.classLabels == ["cat", "dog", "bird"])
        #expect(
            info.layerCounts == [
                "convolution": 3, "activation": 3, "pooling": 3, "flatten": 1, "innerProduct": 1, "softmax": 1,
            ])
        #expect(info.weightFormats == ["float32", "float16"] || info.weightFormats == ["float16", "float32"])
        #expect(
            info.imageInputs["image"]
                == CoreMLModelInfo.ImageInput(
                    width: 9, height: 9, colorOrder: "rgb", scale: 1 / 128,
                    bias: [-1, -0.5, 0.25], colorSpace: "RGB"))
        #expect(try ONNXModelInfo(data: conversion.onnx).outputs.map(\.name) == ["probs"])
    }

    /// An N-D Espresso network (shapes with `_rank`, as Xcode compiles coremltools 4+ conversions of Keras models):
    /// transposes, a reshape to [1, 18], an inner product on it and softmax_nd, rewritten as Core ML's N-D layers with
    /// exact array mapping. Its answers are held to numpy in CoreMLCompiledModelTests.
    @Test func convertsAnNDNetwork() throws {
        let spec = try XcodeCompiledFolder.spec(at: Self.fixtures.appendingPathComponent("EspressoND.mlmodelc"))
        guard case .neuralNetwork(let nn) = spec.kind else {
            Issue.record("not a neural network")
            return
        }
        #expect(nn.arrayInputShapeMapping == 1 && nn.imageInputShapeMapping == 1)
        #expect(
            nn.layers.map(\.typeName) == [
                "transpose", "convolution", "activation", "pooling", "transpose", "reshapeStatic", "innerProduct",
                "softmaxND",
            ])
        let conversion = try CoreMLConverter.conversion(
            contentsOf: Self.fixtures.appendingPathComponent("EspressoND.mlmodelc"))
        #expect(try ONNXModelInfo(data: conversion.onnx).outputs.map(\.shape) == [[1, 3]])
    }

    /// Xcode's own count of the source network's layers (metadata.json) must be the rewritten network's: MNIST's
    /// holds, and a count changed by one is refused naming both.
    @Test func holdsXcodesLayerCount() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("MNISTClassifier.mlmodelc")
        try FileManager.default.copyItem(at: Self.wild.appendingPathComponent("MNISTClassifier.mlmodelc"), to: copy)
        _ = try XcodeCompiledFolder.spec(at: copy)
        let metadata = copy.appendingPathComponent("metadata.json")
        let text = try String(contentsOf: metadata, encoding: .utf8)
            .replacingOccurrences(of: "\"Convolution\" : 3", with: "\"Convolution\" : 4")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: metadata.path)
        try Data(text.utf8).write(to: metadata)
        let error = try #require(Self.conversionError(copy))
        #expect(
            error.code == .invalidValue
                && error.message.contains(
                    "Xcode counted the source network's layers as activation 4, convolution 4, "
                        + "flatten 1, innerProduct 2, pooling 3, softmax 1; the Espresso files give activation 4, convolution 3"
                ),
            "\(error)")
    }

    /// Damaged Espresso files: each is refused with the code and the words that name what is wrong.
    @Test(
        arguments: [
            ("model.espresso.net", "{\"layers\": [", ConversionError.Code.syntax, "model.espresso.net is not JSON"),
            ("model.espresso.net", "{\"layers\": 3}", .syntax, "no \"layers\" list"),
            (
                "model.espresso.net",
                "{\"layers\": [{\"type\": \"deconvolution\", \"name\": \"up\", \"bottom\": \"image\", \"top\": \"c1\"}]}",
                .unsupported, "Espresso layer 'up' (deconvolution): this Espresso layer type is not converted"
            ),
            (
                "model.espresso.net",
                "{\"layers\": [{\"type\": \"softmax\", \"name\": \"s\", \"bottom\": \"nowhere\", \"top\": \"probs\"}]}",
                .syntax, "reads 'nowhere', which no input or earlier layer gives"
            ),
            (
                "model.espresso.net",
                "{\"layers\": [{\"type\": \"activation\", \"name\": \"a\", \"bottom\": \"image\", \"top\": \"probs\", \"mode\": 3}]}",
                .unsupported, "Espresso layer 'a' (activation): mode = 3.0"
            ),
            (
                "model.espresso.net",
                "{\"layers\": [{\"type\": \"activation\", \"name\": \"a\", \"bottom\": \"image\", \"top\": \"probs\", \"mode\": 0, \"dilation\": 2}]}",
                .unsupported, "the key 'dilation' = 2.0"
            ),
            (
                "model.espresso.shape", "{\"layer_shapes\": {\"image\": {\"k\": 3, \"h\": 9}}}", .syntax,
                "'image' lacks k, h or w"
            ),
            (
                "model.espresso.shape", "{\"layer_shapes\": {\"image\": {\"k\": 3, \"h\": 9, \"w\": -1}}}", .syntax,
                "'image'.w is not a dimension"
            ),
            ("model.espresso.weights", "", .syntax, "model.espresso.weights: truncated"),
            ("coremldata.bin", "", .syntax, "coremldata.bin: truncated"),
        ] as [(String, String, ConversionError.Code, String)])
    func refusesDamagedFiles(_ file: String, _ content: String, _ code: ConversionError.Code, _ words: String) throws {
        let folder = try Self.copyOfForms()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try Data(content.utf8).write(to: folder.appendingPathComponent(file))
        let error = try #require(Self.conversionError(folder))
        #expect(error.code == code && error.description.contains(words), "\(error)")
    }

    /// Weights that do not fit the layers: a blob shorter than its layer's weights, a bias with non-zero padding, and a
    /// blob table whose blobs do not fill the file.
    @Test func refusesWeightsThatDoNotFit() throws {
        let folder = try Self.copyOfForms()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let weights = folder.appendingPathComponent("model.espresso.weights")
        let original = try Self.bytes(weights)
        var longer = original
        longer.append(0)
        try Data(longer).write(to: weights)
        #expect(Self.conversionError(folder)?.description.contains("the blobs take 1816 of 1817 bytes") == true)
        // Blob 13 (the dense layer's biases, 3 values padded to 12): a non-zero value in its padding.
        let table = try EspressoNetwork.blobTable(original)
        var padded = original
        padded[table[13]!.lowerBound + 3 * 4] = 0x3F
        try Data(padded).write(to: weights)
        #expect(
            Self.conversionError(folder)?.description.contains("blob 13 has values after its 3 (padding is zeros)")
                == true)
        // The layer naming a blob of another size: the convolution's weights point at its biases.
        try Data(original).write(to: weights)
        let net = folder.appendingPathComponent("model.espresso.net")
        let text = try String(contentsOf: net, encoding: .utf8).replacingOccurrences(
            of: "\"blob_weights\": 3,", with: "\"blob_weights\": 1,")
        try Data(text.utf8).write(to: net)
        #expect(
            Self.conversionError(folder)?.description.contains("blob 1 has 16 bytes for 108 float32 values") == true)
    }

    /// A layer computing another shape than model.espresso.shape states is refused (the pads of the first layer
    /// dropped: 4 × 4 × 4, stated 4 × 5 × 4).
    @Test func refusesShapesOtherThanStated() throws {
        let folder = try Self.copyOfForms()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let net = folder.appendingPathComponent("model.espresso.net")
        let text = try String(contentsOf: net, encoding: .utf8).replacingOccurrences(
            of: "\"pad_b\": 2,", with: "\"pad_b\": 0,")
        try Data(text.utf8).write(to: net)
        let error = try #require(Self.conversionError(folder))
        #expect(
            error.code == .invalidValue
                && error.message.contains(
                    "'conv_explicit' (convolution): computes [4, 4, 4], "
                        + "model.espresso.shape states [n 1, k 4, h 5, w 4]"),
            "\(error)")
    }

    /// A pipeline whose coremldata.bin counts more sub-models than there are folders, or more than the limit.
    @Test func refusesPipelinesWithoutTheirModels() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("P.mlmodelc")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var seed = try Self.bytes(Self.root.appendingPathComponent("Fuzz/corpus/coremldata/pipeline.bin"))
        try Data(seed).write(to: folder.appendingPathComponent("coremldata.bin"))
        #expect(
            Self.conversionError(folder)?.description.contains("the pipeline has 2 sub-models but no folder model0")
                == true)
        // The count is the payload's first u64, 16 bytes before the end: 2 → 65.
        seed[seed.count - 16] = 65
        try Data(seed).write(to: folder.appendingPathComponent("coremldata.bin"))
        #expect(Self.conversionError(folder)?.description.contains("pipeline sub-model count 65 at offset") == true)
    }

    /// Deterministic corruption of the synthetic coremldata.bin and Espresso files: single-byte changes at every offset
    /// and every truncation each read or throw a `ConversionError`.
    @Test func corruptFilesNeverTrap() throws {
        let folder = try Self.copyOfForms()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        var outcomes = (converted: 0, refused: 0)
        for file in ["coremldata.bin", "model.espresso.shape", "model.espresso.weights"] {
            let url = folder.appendingPathComponent(file)
            let original = try Self.bytes(url)
            let step = max(1, original.count / 100)
            for i in stride(from: 0, to: original.count, by: step) {
                for value: UInt8 in [0, 0xFF, original[i] &+ 1] {
                    var bytes = original
                    bytes[i] = value
                    try Data(bytes).write(to: url)
                    if Self.conversionError(folder) == nil { outcomes.converted += 1 } else { outcomes.refused += 1 }
                }
                try Data(original.prefix(i)).write(to: url)
                if Self.conversionError(folder) == nil { outcomes.converted += 1 } else { outcomes.refused += 1 }
            }
            try Data(original).write(to: url)
        }
        #expect(outcomes.converted > 0 && outcomes.refused > 0)
    }

    /// Create ML models built on Apple's private parts are refused naming them: a VisionFeaturePrint (2002) model.
    @Test func refusesApplePrivateModels() throws {
        var model = ONNXProtobufEncoder()
        model.int64(1, 4)
        model.message(2) { d in
            d.message(1) { f in
                f.string(1, "image")
                f.message(3) { t in
                    t.message(4) { i in
                        i.int64(1, 299)
                        i.int64(2, 299)
                        i.int64(3, 20)
                    }
                }
            }
            d.message(10) { f in
                f.string(1, "features")
                f.message(3) { t in
                    t.message(5) { a in
                        a.packedInt64(1, [2048])
                        a.int64(2, 65568)
                    }
                }
            }
        }
        model.message(2002) { v in v.message(20) { scene in scene.int64(1, 1) } }
        #expect {
            try CoreMLConverter.onnxData(bytes: model.bytes)
        } throws: { error in
            guard let error = error as? ConversionError else { return false }
            return error.code == .unsupported
                && error.message.contains("visionFeaturePrint, Apple's private Vision feature extractor")
        }
    }

    /// OpenVision's own compiled folder (`model.onnx` + `coreml.json`), as `openvision models compile` and the
    /// CoreMLModelClasses plugin write it, loads back as the same model; a second write is refused unless it replaces.
    @Test func compiledFolderLoadsBackAsTheSameModel() throws {
        let dir = try SharedFiles.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let conversion = try CoreMLConverter.conversion(contentsOf: CoreMLReaderTests.coreml.appendingPathComponent("MobileNetLike.mlmodel"))
        let target = dir.appendingPathComponent("MobileNet.mlmodelc")
        try CoreMLConverter.writeCompiledFolder(conversion, to: target)
        // Written twice: the second is refused unless it replaces the first.
        #expect(throws: ConversionError.self) { try CoreMLConverter.writeCompiledFolder(conversion, to: target) }
        try CoreMLConverter.writeCompiledFolder(conversion, to: target, replacing: true)
        let back = try CoreMLConverter.conversion(contentsOf: target)
        #expect(back.onnx == conversion.onnx && back.info == conversion.info)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["MobileNet.mlmodelc"])
    }
}
