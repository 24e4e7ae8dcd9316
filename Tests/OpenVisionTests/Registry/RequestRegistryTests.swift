import Foundation
import OpenVisionTestSupport
import Testing

@testable import OpenVision

/// The request registry (`RequestKind.allCases`, `RequestOption.all`): every kind reports under the key it
/// declares, options parse and validate the same way for every front end, and the report's text covers every entry.
@Suite struct RequestRegistryTests {
    static func kind(_ name: String) throws -> RequestKind { try #require(RequestKind.named(name), "no kind \(name)") }

    /// Every still kind on person.jpg (a person, a dog, a horse): each one's results land under its declared
    /// report key (horizon and document are absent when there is none), with no errors. `model` runs the default
    /// classifier's file as a raw model.
    @Test func everyKindReportsUnderItsKey() async throws {
        let still = RequestKind.allCases.filter { !$0.isSequence }
        var options = StillAnalysis.stillDefaults
        try options.set(.model, to: .text("efficientnet-lite0.onnx"))
        var analysis = try StillAnalysis(
            kinds: still.filter { $0.name != "detect" && $0.name != "classify" }, options: options)
        try await analysis.loadModels(with: LocalModels.shared)
        let run = try await analysis.run(on: ImageRequestHandler(Fixtures.sharedImage("person.jpg")), image: "person")
        #expect(run.report.errors == nil, "\(run.report.errors ?? [:])")
        let json = try #require(
            try JSONSerialization.jsonObject(with: run.report.jsonData(pretty: false)) as? [String: Any])
        for kind in analysis.kinds where !["horizon", "document"].contains(kind.name) {
            #expect(json[kind.reportKey] != nil, "\(kind) → \(kind.reportKey)")
        }
        // detect and classify with their default models (the model option above would run the classifier as both).
        let models = try await StillAnalysis(kinds: RequestKind.kinds(from: ["detect,classify"]))
            .run(on: ImageRequestHandler(Fixtures.sharedImage("person.jpg")), image: "person")
        #expect(
            models.report.errors == nil && models.report.objects?.isEmpty == false
                && models.report.classifications?.count == 5)
        // Landmarks stand for faces: one `faces` entry, with landmarks.
        #expect(run.report.faces?.allSatisfy { $0.landmarks != nil } == true)
        #expect(!run.overlayItems.isEmpty)
    }

    /// docs/json-schema.md names every kind's `--requests` name and documents its report key.
    @Test func jsonSchemaDocumentsEveryKind() throws {
        let doc = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/json-schema.md"), encoding: .utf8)
        for kind in RequestKind.allCases {
            #expect(doc.contains("`\(kind.name)`"), "docs/json-schema.md does not name `\(kind.name)`")
            #expect(doc.contains("\"\(kind.reportKey)\""), "docs/json-schema.md has no \"\(kind.reportKey)\" key")
        }
    }

    /// Sequence-ness comes from the requests themselves (`StatefulRequest`), not from a list.
    @Test func sequenceKindsAreTheStatefulOnes() throws {
        #expect(
            RequestKind.allCases.filter(\.isSequence).map(\.name) == [
                "flow", "registration", "homography", "trajectories",
            ])
        #expect(throws: VisionError.self) { try StillAnalysis(kinds: RequestKind.kinds(from: ["barcodes,flow"])) }
        #expect(RequestKind.help(includingSequences: false).contains("handpose:"))
        #expect(!RequestKind.help(includingSequences: false).contains("flow:"))
        #expect(RequestKind.help(includingSequences: true).contains("trajectories:"))
    }

    /// One spelling per kind: the table's names and report keys are unique, the default lists are written once, and a
    /// request of a kind's type reports under the kind's name (feature prints were `featurePrint` in live and video,
    /// `featureprint` in analyze).
    @Test func oneSpellingPerKind() throws {
        let names = RequestKind.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        let keys = RequestKind.allCases.filter { $0.supersedes.isEmpty }.map(\.reportKey)
        #expect(Set(keys).count == keys.count)
        #expect(RequestKind.stillDefaults.map(\.name) == ["barcodes", "rectangles", "faces", "landmarks", "text"])
        #expect(RequestKind.liveDefaults.map(\.name) == ["barcodes", "faces"])
        #expect(GenerateImageFeaturePrintRequest().reportName == "featureprint")
        #expect(DetectObjectsRequest().reportName == "detect" && ClassifyImageRequest().reportName == "classify")
        #expect(TrackTranslationalImageRegistrationRequest().reportName == "registration")
        for kind in RequestKind.allCases where kind.defaultModel != .required {
            #expect(try kind.makeRequest().reportName == kind.name)
        }
        #expect(
            RequestKind.running(try RequestKind.kinds(from: ["faces,landmarks,text"])).map(\.name) == [
                "landmarks", "text",
            ])
        // A model request that needs a model says so.
        #expect(throws: VisionError.self) { try Self.kind("model").makeRequest() }
        #expect(throws: VisionError.self) { try StillAnalysis(kinds: RequestKind.kinds(from: ["model"])) }
    }

    @Test func optionsParseAndValidateOnce() throws {
        var o = RequestOptions()
        try o.set("maxRectangles", to: "0")
        try o.set("languages", to: "eng+deu")
        try o.set("recognitionLevel", to: "ACCURATE")
        try o.set("face-revision", to: "blazeface-full")
        try o.set("maxHands", to: "1")
        try o.set("textOrientation", to: "Up")
        try o.set("symbologies", to: "QR, ean13")
        #expect(o[.textOrientation] == .text("up"))
        #expect(
            o[.maxRectangles] == .integer(0) && o[.languages] == .list(["eng", "deu"])
                && o[.recognitionLevel] == .text("accurate"))
        #expect(o[.faceRevision] == .text("blazeface-full") && o[.maxHands] == .integer(1))
        #expect(o[.symbologies] == .list(["qr", "ean13"]))
        // The text forms read back into the same options.
        #expect(try RequestOptions(values: o.textValues) == o)
        for (name, bad) in [
            ("maxRectangles", "-5"), ("maxRectangles", "1e300"), ("maxHands", "9999999999999999999"),
            ("languages", "../../etc/passwd"), ("languages", ""), ("recognitionLevel", "best"),
            ("faceRevision", "cnn"), ("textOrientation", "sideways"), ("nosuch", "1"), ("symbologies", "qr,nope"),
            ("symbologies", ""), ("confidence", "1.5"), ("confidence", "nan"), ("iou", "-0.1"), ("top", "-1"),
            ("cropAndScale", "squash"), ("backend", "cuda"), ("pixelMean", "1,2"), ("pixelStd", "x"),
            ("model", ""),
        ] {
            var options = RequestOptions()
            #expect(throws: VisionError.self, "\(name)=\(bad)") { try options.set(name, to: bad) }
        }
        do {
            var options = RequestOptions()
            try options.set("maxRectangles", to: "-5")
        } catch {
            #expect(
                error.code == .invalidArgument && error.message == "maxRectangles='-5' must be an integer in 0...1000")
        }
        do {
            var options = RequestOptions()
            try options.set("confidence", to: "2")
        } catch {
            #expect(error.message == "confidence='2' must be a number in 0...1")
        }
        // A kind reads only its own options: rectangles takes maxRectangles, the still default is 16.
        let rectanglesKind = try Self.kind("rectangles")
        let rectangles = try #require(
            try rectanglesKind.makeRequest(StillAnalysis.stillDefaults) as? DetectRectanglesRequest)
        #expect(rectangles.maximumObservations == 16)
        #expect((try rectanglesKind.makeRequest() as? DetectRectanglesRequest)?.maximumObservations == 1)
        #expect(
            rectanglesKind.options.map(\.name) == [
                "maxRectangles", "minimumAspectRatio", "maximumAspectRatio",
                "quadratureTolerance", "minimumSize", "minimumConfidence",
            ])
        // text takes textOrientation: "up" turns the page detection off.
        let text = try #require(
            try Self.kind("text").makeRequest(try RequestOptions(values: ["textOrientation": "up"]))
                as? RecognizeTextRequest)
        #expect(!text.automaticallyDetectsOrientation && RecognizeTextRequest().automaticallyDetectsOrientation)
        // landmarks takes faceLandmarksRevision: Vision's 76 points by default, dlib's 68 or the 65-point constellation on request.
        let landmarks = try Self.kind("landmarks")
        let mesh = try #require(try landmarks.makeRequest() as? DetectFaceLandmarksRequest)
        #expect(mesh.revision == .faceMesh && mesh.constellation == .points76)
        let dlib = try #require(
            try landmarks.makeRequest(try RequestOptions(values: ["faceLandmarksRevision": "dlib68"]))
                as? DetectFaceLandmarksRequest)
        #expect(dlib.revision == .dlib)
        let mesh65 = try #require(
            try landmarks.makeRequest(try RequestOptions(values: ["faceLandmarksRevision": "MESH65"]))
                as? DetectFaceLandmarksRequest)
        #expect(mesh65.revision == .faceMesh && mesh65.constellation == .points65)
        // barcodes takes symbologies, in the request's own type.
        let barcodes = try #require(try Self.kind("barcodes").makeRequest(o) as? DetectBarcodesRequest)
        #expect(barcodes.symbologies == [.qr, .ean13])
        #expect(
            (try Self.kind("barcodes").makeRequest() as? DetectBarcodesRequest)?.symbologies
                == BarcodeSymbology.allCases)
        // One name and one flag per option, every option read by some kind.
        #expect(Set(RequestOption.all.map(\.name)).count == RequestOption.all.count)
        #expect(Set(RequestOption.all.map(\.flag)).count == RequestOption.all.count)
        #expect(RequestOption.named("face-landmarks-revision")?.name == "faceLandmarksRevision")
        #expect(
            RequestOption.all.allSatisfy { option in RequestKind.allCases.contains { $0.options.contains(option) } })
    }

    /// Model requests are kinds like the others: their options (declared once) set the request and how its model loads;
    /// classify reads crop-and-scale as detect does; an HTTP client may not choose how models load.
    @Test func modelRequestsReadTheirOptions() throws {
        let detect = try Self.kind("detect")
        let classify = try Self.kind("classify")
        let model = try Self.kind("model")
        #expect(
            detect.options.map(\.name) == [
                "model", "confidence", "iou", "classes", "cropAndScale", "backend", "threads",
                "pixelScale", "pixelMean", "pixelStd",
            ])
        #expect(
            classify.options.map(\.name) == [
                "model", "top", "taxonomy", "cropAndScale", "backend", "threads", "pixelScale", "pixelMean",
                "pixelStd",
            ])
        #expect(
            model.options.map(\.name) == [
                "model", "cropAndScale", "backend", "threads", "pixelScale", "pixelMean", "pixelStd",
            ])
        #expect(
            RequestOption.all.filter { !$0.isRemote }.map(\.name) == [
                "backend", "threads", "pixelScale", "pixelMean", "pixelStd",
            ])
        let options = try RequestOptions(values: [
            "confidence": "0.5", "iou": "0.3", "classes": "dog, cat", "top": "2",
            "cropAndScale": "scaleFill", "backend": "openCV", "threads": "2",
            "pixelScale": "1", "pixelMean": "127", "pixelStd": "128,127,126",
        ])
        let detector = try #require(try detect.makeRequest(options) as? DetectObjectsRequest)
        #expect(
            detector.confidenceThreshold == 0.5 && detector.iouThreshold == 0.3
                && detector.allowedLabels == ["dog", "cat"])
        #expect(detector.imageCropAndScaleOption == .scaleFill)
        let classifier = try #require(try classify.makeRequest(options) as? ClassifyImageRequest)
        #expect(classifier.maximumObservations == 2 && classifier.inputFitting == .scaleFill)
        let c = options.modelConfiguration
        #expect(
            c.backend == .openCV && c.threads == 2 && c.pixelScale == 1 && c.pixelMean == [127]
                && c.pixelStd == [128, 127, 126])
        #expect(RequestOptions().modelConfiguration == VisionModel.Configuration())
        // Unset thresholds stay unset: the detector's defaults, or a pipeline's own.
        let plain = try #require(try detect.makeRequest() as? DetectObjectsRequest)
        #expect(plain.confidenceThreshold == 0.25 && plain.iouThreshold == 0.45)
    }

    /// The options users set on the Swift requests are options of their kinds (so flags, query parameters and job
    /// keys).
    @Test func swiftRequestOptionsAreReachable() throws {
        let o = try RequestOptions(values: [
            "tryHarder": "off", "minimumAspectRatio": "0.2", "quadratureTolerance": "10", "minimumConfidence": "0.4",
            "upsampling": "0", "estimatesPrecision": "off", "minimumTextHeight": "0.05", "contrastPivot": "0.3",
            "darkOnLight": "off", "maximumImageDimension": "256", "upperBodyOnly": "off", "confidence": "0.6",
            "handModelComplexity": "lite", "chiralityMargin": "0.1", "maxBodies": "2", "qualityLevel": "fast",
            "flowAccuracy": "high", "trajectoryLength": "7", "frameAnalysisSpacing": "0.5", "cropAndScale": "scaleFit",
        ])
        func make<R>(_ name: String, as type: R.Type) throws -> R {
            try #require(try Self.kind(name).makeRequest(o) as? R)
        }
        #expect(try make("barcodes", as: DetectBarcodesRequest.self).tryHarder == false)
        let rectangles = try make("rectangles", as: DetectRectanglesRequest.self)
        #expect(
            rectangles.minimumAspectRatio == 0.2 && rectangles.quadratureTolerance == 10
                && rectangles.minimumConfidence == 0.4)
        let faces = try make("faces", as: DetectFaceRectanglesRequest.self)
        #expect(faces.upsampling == 0 && faces.minimumConfidence == 0.4)
        #expect(try make("landmarks", as: DetectFaceLandmarksRequest.self).estimatesPrecision == false)
        #expect(try make("text", as: RecognizeTextRequest.self).minimumTextHeight == 0.05)
        let contours = try make("contours", as: DetectContoursRequest.self)
        #expect(contours.contrastPivot == 0.3 && !contours.detectsDarkOnLight && contours.maximumImageDimension == 256)
        let humans = try make("humans", as: DetectHumanRectanglesRequest.self)
        #expect(!humans.upperBodyOnly && humans.confidenceThreshold == 0.6)
        #expect(try make("animals", as: RecognizeAnimalsRequest.self).confidenceThreshold == 0.6)
        let hands = try make("handpose", as: DetectHumanHandPoseRequest.self)
        #expect(hands.modelComplexity == .lite && hands.chiralityMargin == 0.1)
        #expect(try make("bodypose", as: DetectHumanBodyPoseRequest.self).maximumBodyCount == 2)
        #expect(try make("bodypose3d", as: DetectHumanBodyPose3DRequest.self).maximumBodyCount == 2)
        #expect(try make("personmask", as: GeneratePersonSegmentationRequest.self).qualityLevel == .fast)
        #expect(
            try make("featureprint", as: GenerateImageFeaturePrintRequest.self).imageCropAndScaleOption == .scaleFit)
        #expect(try make("flow", as: TrackOpticalFlowRequest.self).computationAccuracy == .high)
        let trajectories = try make("trajectories", as: DetectTrajectoriesRequest.self)
        #expect(trajectories.trajectoryLength == 7 && trajectories.frameAnalysisSpacing == .milliseconds(500))
        // Upsampling beyond 1 would outgrow the memory serve budgets for faces (its measured bytes per pixel).
        var options = RequestOptions()
        #expect(throws: VisionError.self) { try options.set("upsampling", to: "2") }
    }

    /// Options round-trip through their JSON form (how jobs store them), typed: numbers as numbers, lists as arrays;
    /// the text forms older payloads hold read the same; a value the declaration refuses does not decode.
    @Test func optionsRoundTripThroughJSON() throws {
        let options = try RequestOptions(values: [
            "maxRectangles": "3", "languages": "eng+deu", "symbologies": "qr,EAN13",
            "confidence": "0.5", "model": "yolo.onnx", "pixelMean": "1,2,3",
            "bodyHands": "on",
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(options), as: UTF8.self)
        #expect(
            json
                == #"{"bodyHands":"on","confidence":0.5,"languages":["eng","deu"],"maxRectangles":3,"model":"yolo.onnx","#
                + #""pixelMean":["1","2","3"],"symbologies":["qr","ean13"]}"#)
        #expect(try JSONDecoder().decode(RequestOptions.self, from: Data(json.utf8)) == options)
        let old = #"{"languages":"eng+deu","maxRectangles":16,"confidence":0.25,"requests":"text","other":1}"#
        let read = try JSONDecoder().decode(RequestOptions.self, from: Data(old.utf8))
        #expect(
            read[.languages] == .list(["eng", "deu"]) && read[.maxRectangles] == .integer(16)
                && read[.confidence] == .number(0.25))
        #expect(read.values.count == 3)
        for bad in [
            #"{"symbologies":["qr","nope"]}"#, #"{"maxRectangles":-1}"#, #"{"confidence":"high"}"#, #"{"top":1.5}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(RequestOptions.self, from: Data(bad.utf8))
            }
        }
    }

    /// Every entry of the report has text lines (`AnalysisReport.summarySections`): a stored property added without
    /// them fails here.
    @Test func textSummaryCoversEveryEntry() throws {
        let envelope: Set<String> = [
            "image", "width", "height", "frame", "timestamp", "errors", "warnings", "timingsMs",
        ]
        let report = AnalysisReport(image: "x", width: 10, height: 10)
        let stored = Set(Mirror(reflecting: report).children.compactMap(\.label)).subtracting(envelope)
        #expect(Set(report.summarySections.map(\.key)) == stored)
    }

    /// Image-valued results are written through one `MapOutput`, named after the request, and recorded in the report.
    @Test func mapsAreWrittenThroughOneCapability() async throws {
        struct Recorder: MapOutput {
            func write(_ map: PixelBufferObservation, request: String, name: String) throws(VisionError)
                -> AnalysisReport.MapFiles
            {
                AnalysisReport.MapFiles(
                    png: "\(request)\(name.isEmpty ? "" : ".\(name)").png", npy: "\(map.width)x\(map.height)")
            }
        }
        let run = try await StillAnalysis(kinds: RequestKind.kinds(from: ["saliency,objectness,personmask"]))
            .run(on: ImageRequestHandler(Fixtures.sharedImage("person.jpg")), image: "person", maps: Recorder())
        #expect(run.report.saliency?.heatMap.png == "saliency.png" && run.report.saliency?.heatMap.npy == "68x68")
        #expect(run.report.objectness?.heatMap.png == "objectness.png")
        #expect(run.report.personMask?.png == "personmask.png" && run.report.personMask?.npy == "640x424")
    }
}
