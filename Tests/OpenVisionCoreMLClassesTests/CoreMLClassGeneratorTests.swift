import Foundation
import Testing

@testable import OpenVisionConverters
@testable import OpenVisionCoreMLClasses

/// The Swift source `CoreMLClassGenerator` writes for the shared Core ML files: Xcode's class, input and output names
/// and signatures (as Xcode generates them for these models' features). That the source compiles is held by
/// Examples/PortedVisionApp, which CI builds with the CoreMLModelClasses plugin over the same files.
@Suite struct CoreMLClassGeneratorTests {
    static let folder = GeneratorFiles.shared.appendingPathComponent("models/coreml")

    static func generate(_ file: String, as name: String) throws -> String {
        let conversion = try CoreMLConverter.conversion(contentsOf: folder.appendingPathComponent(file))
        return try CoreMLClassGenerator.source(className: name, info: conversion.info, modelFileName: file)
    }

    /// An image-to-image model (Tests/Fixtures/coreml/image-outputs, scripts/models/coreml_image_output_fixtures.py):
    /// the output property is a `CVPixelBuffer` read from the prediction's image feature, as Xcode generates it.
    @Test func imageOutputAsXcodeGeneratesIt() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/coreml/image-outputs/ImageBGR.mlmodel")
        let conversion = try CoreMLConverter.conversion(contentsOf: file)
        let s = try CoreMLClassGenerator.source(
            className: "Stylize", info: conversion.info, modelFileName: "ImageBGR.mlmodel")
        for line in [
            "class StylizeOutput : MLFeatureProvider {", "    var styled: CVPixelBuffer {",
            "        return provider.featureValue(for: \"styled\")!.imageBufferValue!",
            "    init(styled: CVPixelBuffer) {", "    func prediction(image: CVPixelBuffer) throws -> StylizeOutput {",
        ] {
            #expect(s.contains(line), "missing \"\(line)\"")
        }
    }

    /// Xcode's compiled folder of a classifier with int64 labels and a grayscale image (MNISTClassifier.mlmodelc, which the
    /// plugin takes as it takes a source file): the class Xcode generates for MNISTClassifier.mlmodel.
    @Test func compiledFolderAsXcodeGeneratesIt() throws {
        let file = GeneratorFiles.shared.appendingPathComponent("models/coreml-wild/MNISTClassifier.mlmodelc")
        let conversion = try CoreMLConverter.conversion(contentsOf: file)
        let s = try CoreMLClassGenerator.source(
            className: "MNISTClassifier", info: conversion.info,
            modelFileName: "MNISTClassifier.mlmodelc")
        for line in [
            "class MNISTClassifierInput : MLFeatureProvider {", "    var image: CVPixelBuffer",
            "kCVPixelFormatType_OneComponent8", "    var labelProbabilities: [Int64 : Double] {",
            "    var classLabel: Int64 {", "class MNISTClassifier {",
        ] {
            #expect(s.contains(line), "missing \"\(line)\" in\n\(s.prefix(3000))")
        }
    }

    @Test func classifierAsXcodeGeneratesIt() throws {
        let s = try Self.generate("MobileNetLike.mlmodel", as: "MobileNet")
        for line in [
            "import CoreML",
            "class MobileNetInput : MLFeatureProvider {",
            "    var image: CVPixelBuffer",
            "    var featureNames: Set<String> { [\"image\"] }",
            "    init(image: CVPixelBuffer) {",
            "    convenience init(imageWith image: CGImage) throws {",
            "    convenience init(imageAt image: URL) throws {",
            "    func setImage(with image: CGImage) throws {",
            "    func setImage(with image: URL) throws {",
            "MLFeatureValue(imageAt: image, pixelsWide: 224, pixelsHigh: 224, pixelFormatType: kCVPixelFormatType_32ARGB, options: nil)",
            "class MobileNetOutput : MLFeatureProvider {",
            "    var classLabelProbs: [String : Double] {",
            "        return provider.featureValue(for: \"classLabelProbs\")!.dictionaryValue as! [String : Double]",
            "    var classLabel: String {",
            "    init(classLabelProbs: [String : Double], classLabel: String) {",
            "    init(features: MLFeatureProvider) {",
            "class MobileNet {",
            "    let model: MLModel",
            "    class var urlOfModelInThisBundle : URL {",
            "        return Bundle.module.bundleURL.appendingPathComponent(\"MobileNet.mlmodelc\")",
            "    init(model: MLModel) {",
            "    convenience init(configuration: MLModelConfiguration) throws {",
            "    convenience init() {",
            "    convenience init(contentsOf modelURL: URL) throws {",
            "    convenience init(contentsOf modelURL: URL, configuration: MLModelConfiguration) throws {",
            "    class func load(configuration: MLModelConfiguration = MLModelConfiguration(), completionHandler handler: @escaping (Swift.Result<MobileNet, Error>) -> Void) {",
            "    class func load(configuration: MLModelConfiguration = MLModelConfiguration()) async throws -> MobileNet {",
            "    class func load(contentsOf modelURL: URL, configuration: MLModelConfiguration = MLModelConfiguration()) async throws -> MobileNet {",
            "    func prediction(input: MobileNetInput) throws -> MobileNetOutput {",
            "    func prediction(input: MobileNetInput, options: MLPredictionOptions) throws -> MobileNetOutput {",
            "    func prediction(image: CVPixelBuffer) throws -> MobileNetOutput {",
            "    func predictions(inputs: [MobileNetInput], options: MLPredictionOptions = MLPredictionOptions()) throws -> [MobileNetOutput] {",
            // The checks that turn a wrong model into an error naming the features.
            "try model.requireFeatures(inputs: [\"image\"], outputs: [\"classLabelProbs\", \"classLabel\"], for: \"MobileNet\")",
            "try MLModel.requireOutputs([\"classLabelProbs\", \"classLabel\"], in: outFeatures, for: \"MobileNet\")",
        ] {
            #expect(s.contains(line), "missing: \(line)")
        }
        // The deprecated init is marked as Xcode marks it.
        #expect(
            s.contains(
                "@available(*, deprecated, message: \"Use init(configuration:) instead and handle errors appropriately.\")"
            ))
    }

    @Test func detectorPipelineWithOptionalThresholds() throws {
        let s = try Self.generate("YoloFastestPipeline.mlmodel", as: "YoloFastestPipeline")
        for line in [
            "    init(image: CVPixelBuffer, iouThreshold: Double, confidenceThreshold: Double) {",
            // The NMS model's own defaults (YoloFastestPipeline.json: iou 0.45, confidence 0.25).
            "    convenience init(image: CVPixelBuffer) {",
            "        self.init(image: image, iouThreshold: 0.45, confidenceThreshold: 0.25)",
            "    convenience init(imageAt image: URL) throws {",
            "        try self.init(imageAt: image, iouThreshold: 0.45, confidenceThreshold: 0.25)",
            "    convenience init(imageWith image: CGImage, iouThreshold: Double, confidenceThreshold: Double) throws {",
            "            return MLFeatureValue(double: iouThreshold)",
            "MLFeatureValue(cgImage: image, pixelsWide: 320, pixelsHigh: 320",
            "    var confidence: MLMultiArray {",
            "        return provider.featureValue(for: \"coordinates\")!.multiArrayValue!",
            "    func prediction(image: CVPixelBuffer, iouThreshold: Double, confidenceThreshold: Double) throws -> YoloFastestPipelineOutput {",
            "    func prediction(image: CVPixelBuffer) throws -> YoloFastestPipelineOutput {",
        ] {
            #expect(s.contains(line), "missing: \(line)")
        }
    }

    /// Multi-array features get Xcode's `MLShapedArray` forms: a `…ShapedArray` property per output and an input init
    /// taking shaped arrays, of the feature's data type. concat_channels.mlmodel (Tests/Fixtures/coreml/layers) has
    /// DOUBLE arrays in and out; the YOLO pipeline's outputs are FLOAT32 (coremltools:
    /// `ArrayDataType.Name(ct.utils.load_spec(f).description.output[0].type.multiArrayType.dataType)`).
    @Test func multiArraysGetShapedArrayForms() throws {
        let conversion = try CoreMLConverter.conversion(
            contentsOf: GeneratorFiles.fixtures.appendingPathComponent("coreml/layers").appendingPathComponent(
                "concat_channels.mlmodel"))
        let inputs = conversion.info.inputs.map(\.name)
        let output = conversion.info.outputs[0].name
        #expect(inputs.count == 2)
        let s = try CoreMLClassGenerator.source(
            className: "Concat", info: conversion.info, modelFileName: "concat_channels.mlmodel")
        let params = inputs.map { "\($0): MLShapedArray<Double>" }.joined(separator: ", ")
        let args = inputs.map { "\($0): MLMultiArray(\($0))" }.joined(separator: ", ")
        for line in [
            "    convenience init(\(params)) {",
            "        self.init(\(args))",
            "    var \(output)ShapedArray: MLShapedArray<Double> {",
            "        return MLShapedArray<Double>(self.\(output))",
        ] {
            #expect(s.contains(line), "missing: \(line)")
        }
        let yolo = try Self.generate("YoloFastestPipeline.mlmodel", as: "YoloFastestPipeline")
        #expect(yolo.contains("    var confidenceShapedArray: MLShapedArray<Float> {"))
        #expect(yolo.contains("    var coordinatesShapedArray: MLShapedArray<Float> {"))
        // Image and number inputs have no shaped-array init.
        #expect(!yolo.contains("init(image: MLShapedArray"))
    }

    /// Apple's MarsHabitatPricer (a featureVectorizer → glmRegressor pipeline): numbers in, a number out, as the
    /// "Integrating a Core ML Model into Your App" sample calls it — `prediction(solarPanels:greenhouses:size:)`
    /// and `price: Double`. Examples/PortedVisionApp compiles and runs it.
    @Test func classicModelTakesAndGivesNumbers() throws {
        let file = GeneratorFiles.shared.appendingPathComponent("models/coreml-wild/MarsHabitatPricer.mlmodel")
        let conversion = try CoreMLConverter.conversion(contentsOf: file)
        let s = try CoreMLClassGenerator.source(
            className: "MarsHabitatPricer", info: conversion.info, modelFileName: file.lastPathComponent)
        for line in [
            "var solarPanels: Double", "init(solarPanels: Double, greenhouses: Double, size: Double)",
            "if featureName == \"size\" {\n            return MLFeatureValue(double: size)",
            "var price: Double {\n        return provider.featureValue(for: \"price\")!.doubleValue",
            "func prediction(solarPanels: Double, greenhouses: Double, size: Double) throws -> MarsHabitatPricerOutput",
        ] {
            #expect(s.contains(line), "missing \(line)")
        }
    }

    @Test func mlPackageKeepsItsOutputNames() throws {
        let s = try Self.generate("MobileNetLike.mlpackage", as: "MobileNetLike")
        #expect(s.contains("class MobileNetLike {"))
        #expect(s.contains("    var classLabel_probs: [String : Double] {"))
        #expect(s.contains("Bundle.module.bundleURL.appendingPathComponent(\"MobileNetLike.mlmodelc\")"))
    }

    @Test func namesBecomeSwiftIdentifiers() throws {
        #expect(SwiftIdentifiers.base("input.1") == "input_1")
        #expect(SwiftIdentifiers.base("3x") == "_3x")
        #expect(SwiftIdentifiers.spelled("class") == "`class`")
        #expect(try SwiftIdentifiers.className("Mobile Net-v2") == "Mobile_Net_v2")
        #expect(CoreMLClassGenerator.literal("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"")
    }

    @Test func featureTypesWithoutASwiftFormAreNamed() throws {
        var info = try CoreMLConverter.conversion(
            contentsOf: Self.folder.appendingPathComponent("MobileNetLike.mlmodel")
        ).info
        info.inputs.append(CoreMLModelInfo.Feature(name: "tokens", type: "sequence"))
        #expect {
            _ = try CoreMLClassGenerator.source(className: "M", info: info, modelFileName: "M.mlmodel")
        } throws: { error in
            guard let e = error as? ConversionError else { return false }
            return e.code == .unsupported && e.message.contains("\"tokens\"") && e.message.contains("sequence")
        }
    }
}
