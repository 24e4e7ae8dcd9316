// Vision and Core ML code as an iOS developer writes it (only `import Vision` / `import CoreML`), run on Linux.
// `MobileNet`, `MobileNetProgram`, `YoloFastestPipeline` and `MarsHabitatPricer` are the classes Xcode would generate
// from the .mlmodel files and the .mlpackage beside this file (links to ../shared/models); OpenVision's CoreMLModelClasses
// plugin generates them and bundles the compiled models.
//   ported-vision-app SHARED_FOLDER HAND_IMAGE
// SHARED_FOLDER is OpenVision's ../shared (photos, the Core ML files' references); prints each answer and exits 1
// when one differs from the reference it is checked against.
import CoreML
import Foundation
import Vision

let arguments = CommandLine.arguments
// scripts/bench's `vn` section: the generated class's prediction against MLModel.prediction on the same model and
// input, alternating run by run; one JSON line of medians.
if arguments.count == 4, arguments[1] == "--bench", let runs = Int(arguments[2]) {
    let mobileNet = try MobileNet(configuration: MLModelConfiguration())
    let input = try MobileNetInput(imageAt: URL(fileURLWithPath: arguments[3]))
    var generated: [Double] = []
    var direct: [Double] = []
    for i in 0...runs {  // run 0 warms up
        let order = i % 2 == 0 ? [true, false] : [false, true]
        for useGenerated in order {
            let start = DispatchTime.now().uptimeNanoseconds
            if useGenerated {
                _ = try mobileNet.prediction(input: input).classLabel
            } else {
                _ = try mobileNet.model.prediction(from: input).featureValue(for: "classLabel")?.stringValue
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            if i > 0 { if useGenerated { generated.append(elapsed) } else { direct.append(elapsed) } }
        }
    }
    func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    print(
        "{\"generated_median_ms\": \(median(generated)), \"mlmodel_median_ms\": \(median(direct)), \"ratio\": \(median(generated) / median(direct)), \"runs\": \(runs)}"
    )
    exit(0)
}
guard arguments.count == 3 else {
    print("usage: ported-vision-app SHARED_FOLDER HAND_IMAGE | ported-vision-app --bench RUNS IMAGE")
    exit(2)
}
let shared = URL(fileURLWithPath: arguments[1])
let images = shared.appendingPathComponent("images")
let coreMLFolder = shared.appendingPathComponent("models/coreml")
var failures: [String] = []
/// An image file as a CGImage, read as apps read one without UIKit: ImageIO's image source.
func loadCGImage(_ url: URL) throws -> CGImage {
    guard let source = CGImageSourceCreateWithURL(url as CFURL, nil),
        let image = CGImageSourceCreateImageAtIndex(source, 0, nil)
    else {
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
    }
    return image
}

func check(_ ok: Bool, _ what: String) {
    if !ok {
        failures.append(what)
        print("  MISMATCH: \(what)")
    }
}

/// The classifier's reference (coremltools' source network on the same 224 × 224 crop), from references/MobileNetLike.json.
struct Reference: Decodable {
    struct Image: Decodable {
        struct Top: Decodable {
            let label: String
            let probability: Double
        }
        let classLabel: String
        let top5: [Top]
    }
    let references: [String: Image]
}
let reference = try JSONDecoder().decode(
    Reference.self, from: Data(contentsOf: coreMLFolder.appendingPathComponent("references/MobileNetLike.json")))

// 1. Xcode's generated class (seed 004's `MobileNet(configuration:)`), predicting on an image input made as apps do.
do {
    let defaultConfig = MLModelConfiguration()
    let mobileNet = try MobileNet(configuration: defaultConfig)
    let eagle = coreMLFolder.appendingPathComponent("inputs/eagle_224.png")
    let input = try MobileNetInput(imageAt: eagle)
    let output = try mobileNet.prediction(input: input)
    let top = output.classLabelProbs.sorted { $0.value > $1.value }.prefix(3)
    print("MobileNet(configuration:) on eagle_224.png: \(output.classLabel)")
    for (label, probability) in top { print(String(format: "  %.3f  %@", probability, label)) }
    let expected = reference.references["eagle.jpg"]!
    check(output.classLabel == expected.classLabel, "classLabel \(output.classLabel) ≠ \(expected.classLabel)")
    for t in expected.top5 {
        check(abs((output.classLabelProbs[t.label] ?? -1) - t.probability) < 1e-3, "p(\(t.label)) ≠ \(t.probability)")
    }
    // The convenience interface with a pixel buffer, as from a camera.
    let pixelBuffer = try MLFeatureValue(
        cgImage: loadCGImage(coreMLFolder.appendingPathComponent("inputs/dog_224.png")),
        pixelsWide: 224, pixelsHigh: 224, pixelFormatType: kCVPixelFormatType_32BGRA, options: nil)
    let dog = try mobileNet.prediction(image: pixelBuffer.imageBufferValue!)
    print("MobileNet.prediction(image:) on dog_224.png: \(dog.classLabel)")
    check(dog.classLabel == reference.references["dog.jpg"]!.classLabel, "dog classLabel \(dog.classLabel)")

    // An ML Program package (MobileNetProgram.mlpackage, fp16 weights): its class is named after the package too.
    let program = try MobileNetProgram(configuration: defaultConfig)
    let programOutput = try program.prediction(input: MobileNetProgramInput(imageAt: eagle))
    let programTop = programOutput.classLabel_probs[programOutput.classLabel] ?? 0
    print(
        String(format: "MobileNetProgram (.mlpackage) on eagle_224.png: %@ %.3f", programOutput.classLabel, programTop))
    // references/MobileNetLike_mlpackage.json (the source graph with the package's stored fp16 weights): kite 0.4836.
    check(programOutput.classLabel == "kite" && abs(programTop - 0.4836017) < 1e-3, "ML Program kite \(programTop)")

    // Seed 004: the generated class's model in Vision, centre-cropping the full photo.
    let imageClassifierVisionModel = try VNCoreMLModel(for: mobileNet.model)
    let imageClassificationRequest = VNCoreMLRequest(model: imageClassifierVisionModel)
    imageClassificationRequest.imageCropAndScaleOption = .centerCrop
    let handler = VNImageRequestHandler(url: images.appendingPathComponent("eagle.jpg"), options: [:])
    try handler.perform([imageClassificationRequest])
    guard let observations = imageClassificationRequest.results as? [VNClassificationObservation] else {
        fatalError("VNRequest produced the wrong result type: \(type(of: imageClassificationRequest.results)).")
    }
    print(
        "VNCoreMLRequest(MobileNet) on eagle.jpg: "
            + observations.prefix(2).map { String(format: "%@ %.2f", $0.identifier, $0.confidence) }.joined(
                separator: ", "))
    check(
        ["kite", "bald eagle, American eagle, Haliaeetus leucocephalus"].contains(observations.first?.identifier ?? ""),
        "eagle.jpg top label")
}

// 2. Seed 001: VNCoreMLModel(for: MLModel(contentsOf: …mlmodelc)) with the bundled detector pipeline.
do {
    let modelURL = Bundle.module.url(forResource: "YoloFastestPipeline", withExtension: "mlmodelc")
    let visionModel = try VNCoreMLModel(for: MLModel(contentsOf: modelURL!))
    var labels: [String] = []
    let recognitions = VNCoreMLRequest(model: visionModel) { request, error in
        if let results = request.results {
            for observation in results where observation is VNRecognizedObjectObservation {
                guard let objectObservation = observation as? VNRecognizedObjectObservation else { continue }
                let objectBounds = VNImageRectForNormalizedRect(objectObservation.boundingBox, 768, 576)
                labels.append(objectObservation.labels[0].identifier)
                print(
                    String(
                        format: "  %@ %.2f at x=%.0f y=%.0f w=%.0f h=%.0f", objectObservation.labels[0].identifier,
                        objectObservation.confidence, objectBounds.minX, objectBounds.minY, objectBounds.width,
                        objectBounds.height))
            }
        }
    }
    recognitions.imageCropAndScaleOption = .scaleFill
    print("VNCoreMLRequest(YoloFastestPipeline.mlmodelc) on dog.jpg:")
    let imageRequestHandler = VNImageRequestHandler(
        cgImage: try loadCGImage(images.appendingPathComponent("dog.jpg")), orientation: .up, options: [:])
    try imageRequestHandler.perform([recognitions])
    check(Set(labels).isSuperset(of: ["dog", "bicycle", "car"]), "dog.jpg detections \(labels)")

    // The same model through its generated class: the NMS pipeline's raw outputs.
    let detector = try YoloFastestPipeline(configuration: MLModelConfiguration())
    let out = try detector.prediction(
        input: YoloFastestPipelineInput(imageAt: coreMLFolder.appendingPathComponent("inputs/dog_320.png")))
    print(
        "YoloFastestPipeline.prediction on dog_320.png: confidence \(out.confidence.shape), coordinates \(out.coordinates.shape)"
    )
    check(
        out.confidence.shape.count == 2 && out.confidence.shape[1].intValue == 80
            && out.coordinates.shape.map { $0.intValue } == [out.confidence.shape[0].intValue, 4],
        "pipeline output shapes")
    // Xcode's shaped-array form of the same output: one row of four box values per detection, each inside the image.
    let boxes = out.coordinatesShapedArray
    check(
        boxes.shape == [out.confidence.shape[0].intValue, 4]
            && boxes.allSatisfy { $0.scalars.allSatisfy { $0 >= 0 && $0 <= 1 } },
        "coordinatesShapedArray \(boxes.shape)")
}

// 3. People: body pose with typed results, hand pose, person segmentation.
do {
    let person = try loadCGImage(images.appendingPathComponent("person.jpg"))
    let bodyPoseRequest = VNDetectHumanBodyPoseRequest()
    let segmentation = VNGeneratePersonSegmentationRequest()
    segmentation.qualityLevel = .balanced
    segmentation.outputPixelFormat = kCVPixelFormatType_OneComponent8
    try VNImageRequestHandler(cgImage: person, options: [:]).perform([bodyPoseRequest, segmentation])
    guard let observation = bodyPoseRequest.results?.first else { fatalError("no body on person.jpg") }
    let recognizedPoints = try observation.recognizedPoints(.all)
    let confident = recognizedPoints.filter { $0.value.confidence > 0.3 }
    print(
        "VNDetectHumanBodyPoseRequest on person.jpg: \(bodyPoseRequest.results?.count ?? 0) body, \(confident.count) of \(recognizedPoints.count) joints confident"
    )
    for name in [VNHumanBodyPoseObservation.JointName.nose, .leftWrist, .rightWrist, .leftAnkle, .rightAnkle] {
        let p = try observation.recognizedPoint(name)
        print("  \(name.rawValue) " + String(format: "(%.3f, %.3f) %.2f", p.location.x, p.location.y, p.confidence))
    }
    check(confident.count >= 12, "person.jpg confident joints \(confident.count)")
    let nose = try observation.recognizedPoint(.nose)
    let leftAnkle = try observation.recognizedPoint(.leftAnkle)
    check(nose.location.y > leftAnkle.location.y, "nose above ankle (lower-left origin)")
    guard let mask = segmentation.results?.first else { fatalError("no mask") }
    let values = mask.values
    let covered = values.values.filter { $0 > 0.5 }.count
    print(
        String(
            format: "VNGeneratePersonSegmentationRequest: %d × %d mask, %.0f%% person", values.width, values.height,
            100 * Double(covered) / Double(values.values.count)))
    // The mask holds the body where the pose has it (joints are normalised, origin lower-left; mask rows top-down).
    func maskValue(at point: VNRecognizedPoint) -> Float {
        let x = min(values.width - 1, Int(point.location.x * Double(values.width)))
        let y = min(values.height - 1, Int((1 - point.location.y) * Double(values.height)))
        return values.values[y * values.width + x]
    }
    for joint in [VNHumanBodyPoseObservation.JointName.neck, .root] {
        check(maskValue(at: try observation.recognizedPoint(joint)) > 0.5, "mask at \(joint.rawValue)")
    }
    check(covered > 0 && values.values[0] < 0.5, "person mask coverage")

    let handPoseRequest = VNDetectHumanHandPoseRequest()
    handPoseRequest.maximumHandCount = 2
    try VNImageRequestHandler(url: URL(fileURLWithPath: arguments[2])).perform([handPoseRequest])
    let hands = handPoseRequest.results ?? []
    print(
        "VNDetectHumanHandPoseRequest on \(URL(fileURLWithPath: arguments[2]).lastPathComponent): "
            + hands.map { "\($0.chirality == .left ? "left" : $0.chirality == .right ? "right" : "unknown") hand" }
            .joined(separator: ", "))
    check(hands.count == 2, "two hands")
}

// 4. Apple's "Integrating a Core ML Model into Your App" sample: MarsHabitatPricer (a featureVectorizer → glmRegressor
//    pipeline, ../shared/models/coreml-wild) through its generated class, as the sample's view controller calls it. The
//    reference is the file's own weights: 136.7267…·panels + 653.5110…·greenhouses + 5.8540…·acres − 3751.0558….
do {
    let model = try MarsHabitatPricer(configuration: MLModelConfiguration())
    let (solarPanels, greenhouses, size) = (1.0, 2.0, 750.0)
    let marsHabitatPricerOutput = try model.prediction(solarPanels: solarPanels, greenhouses: greenhouses, size: size)
    let price = marsHabitatPricerOutput.price
    let expected =
        136.72672317810523 * solarPanels + 653.51101376230667 * greenhouses + 5.8540790493029951 * size
        - 3751.0558784658238
    print(
        String(
            format: "MarsHabitatPricer: %.0f panels, %.0f greenhouses, %.0f acres: $%.6fM", solarPanels, greenhouses,
            size, price))
    check(abs(price - expected) <= 1e-9 * abs(expected), "MarsHabitatPricer price \(price), expected \(expected)")
}

// 5. Bad input: clear errors, no crash.
do {
    let yolo = Bundle.module.url(forResource: "YoloFastestPipeline", withExtension: "mlmodelc")!
    do {
        _ = try MobileNet(contentsOf: yolo)
        check(false, "MobileNet loaded a detector")
    } catch {
        print("MobileNet(contentsOf: YoloFastestPipeline.mlmodelc): \(error)")
    }
    do {
        _ = try MobileNet(contentsOf: URL(fileURLWithPath: "/nonexistent/MobileNet.mlmodelc"))
        check(false, "MobileNet loaded a missing model")
    } catch {
        print("MobileNet(contentsOf: /nonexistent/MobileNet.mlmodelc): \(error)")
    }
    do {
        _ = try MLFeatureValue(
            imageAt: coreMLFolder.appendingPathComponent("inputs/eagle_224.png"), pixelsWide: 224, pixelsHigh: 224,
            pixelFormatType: kCVPixelFormatType_32BGRA, options: [MLFeatureValue.ImageOption("colorSpace"): 1])
        check(false, "an unknown image option was accepted")
    } catch {
        print("MLFeatureValue(imageAt:…options: [colorSpace: 1]): \(error)")
    }
}

if failures.isEmpty {
    print("all answers match")
} else {
    print("\(failures.count) answer(s) differ")
    exit(1)
}
