import Foundation
import Testing
@testable import OpenVision
import OpenVisionTestSupport

/// The request registry (`RequestKind.descriptor`, `RequestOption.all`): every kind reports under the key it
/// declares, options parse and validate the same way for every front end, and the report's text covers every entry.
@Suite struct RequestRegistryTests {
    /// Every still kind on person.jpg (a person, a dog, a horse): each one's results land under its declared
    /// report key (horizon and document are absent when there is none), with no errors.
    @Test func everyKindReportsUnderItsKey() async throws {
        let still = RequestKind.allCases.filter { !$0.isSequence }
        let run = try await StillAnalysis(kinds: still).run(on: ImageRequestHandler(Fixtures.sharedImage("person.jpg")), image: "person")
        #expect(run.report.errors == nil, "\(run.report.errors ?? [:])")
        let json = try #require(try JSONSerialization.jsonObject(with: run.report.jsonData(pretty: false)) as? [String: Any])
        for kind in still where ![.horizon, .document].contains(kind) {
            #expect(json[kind.descriptor.reportKey] != nil, "\(kind) → \(kind.descriptor.reportKey)")
        }
        // Landmarks stand for faces: one `faces` entry, with landmarks.
        #expect(run.report.faces?.allSatisfy { $0.landmarks != nil } == true)
        #expect(!run.overlayItems.isEmpty)
    }

    /// docs/json-schema.md names every kind's `--requests` name and documents its report key.
    @Test func jsonSchemaDocumentsEveryKind() throws {
        let doc = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/json-schema.md"), encoding: .utf8)
        for kind in RequestKind.allCases {
            #expect(doc.contains("`\(kind.rawValue)`"), "docs/json-schema.md does not name `\(kind.rawValue)`")
            #expect(doc.contains("\"\(kind.descriptor.reportKey)\""), "docs/json-schema.md has no \"\(kind.descriptor.reportKey)\" key")
        }
    }

    /// Sequence-ness comes from the requests themselves (`StatefulRequest`), not from a list.
    @Test func sequenceKindsAreTheStatefulOnes() throws {
        #expect(RequestKind.allCases.filter(\.isSequence) == [.flow, .registration, .homography, .trajectories])
        #expect(throws: VisionError.self) { try StillAnalysis(kinds: [.barcodes, .flow]) }
        #expect(RequestKind.help(includingSequences: false).contains("handpose:"))
        #expect(!RequestKind.help(includingSequences: false).contains("flow:"))
        #expect(RequestKind.help(includingSequences: true).contains("trajectories:"))
    }

    @Test func optionsParseAndValidateOnce() throws {
        var o = RequestOptions()
        try o.set("maxRectangles", to: "0")
        try o.set("languages", to: "eng+deu")
        try o.set("recognitionLevel", to: "ACCURATE")
        try o.set("face-revision", to: "blazeface-full")
        try o.set("maxHands", to: "1")
        try o.set("textOrientation", to: "Up")
        #expect(o.detectsTextOrientation == false)
        #expect(o.maximumRectangles == 0 && o.recognitionLanguages == ["eng", "deu"] && o.recognitionLevel == .accurate)
        #expect(o.faceRevision == .blazeFaceFullRange && o.maximumHandCount == 1)
        // The text forms read back into the same options.
        #expect(try RequestOptions(values: o.values) == o)
        for (name, bad) in [("maxRectangles", "-5"), ("maxRectangles", "1e300"), ("maxHands", "9999999999999999999"),
                            ("languages", "../../etc/passwd"), ("languages", ""), ("recognitionLevel", "best"),
                            ("faceRevision", "cnn"), ("textOrientation", "sideways"), ("nosuch", "1")] {
            var options = RequestOptions()
            #expect(throws: VisionError.self, "\(name)=\(bad)") { try options.set(name, to: bad) }
        }
        do {
            var options = RequestOptions()
            try options.set("maxRectangles", to: "-5")
        } catch {
            #expect(error.code == .invalidArgument && error.message == "maxRectangles='-5' must be an integer in 0...1000")
        }
        // A kind reads only its own options: rectangles takes maxRectangles, the still default is 16.
        let rectangles = try #require(RequestKind.rectangles.descriptor.makeRequest(StillAnalysis.stillDefaults) as? DetectRectanglesRequest)
        #expect(rectangles.maximumObservations == 16)
        #expect((RequestKind.rectangles.descriptor.makeRequest() as? DetectRectanglesRequest)?.maximumObservations == 1)
        #expect(RequestKind.rectangles.descriptor.options.map(\.name) == ["maxRectangles"])
        // text takes textOrientation: "up" turns the page detection off.
        let text = try #require(RequestKind.text.descriptor.makeRequest(try RequestOptions(values: ["textOrientation": "up"])) as? RecognizeTextRequest)
        #expect(!text.automaticallyDetectsOrientation && RecognizeTextRequest().automaticallyDetectsOrientation)
        // landmarks takes faceLandmarksRevision: Vision's 76 points by default, dlib's 68 or the 65-point constellation on request.
        let mesh = try #require(RequestKind.landmarks.descriptor.makeRequest() as? DetectFaceLandmarksRequest)
        #expect(mesh.revision == .faceMesh && mesh.constellation == .points76)
        let dlib = try #require(RequestKind.landmarks.descriptor.makeRequest(try RequestOptions(values: ["faceLandmarksRevision": "dlib68"]))
            as? DetectFaceLandmarksRequest)
        #expect(dlib.revision == .dlib)
        let mesh65 = try #require(RequestKind.landmarks.descriptor.makeRequest(try RequestOptions(values: ["faceLandmarksRevision": "MESH65"]))
            as? DetectFaceLandmarksRequest)
        #expect(mesh65.revision == .faceMesh && mesh65.constellation == .points65)
        var bad = RequestOptions()
        #expect(throws: VisionError.self) { try bad.set("faceLandmarksRevision", to: "dlib5") }
        #expect(RequestOption.all.map(\.flag) == ["max-rectangles", "languages", "recognition-level", "text-orientation", "face-revision",
                                                  "face-landmarks-revision", "max-hands", "body-hands"])
    }

    /// Every entry of the report has text lines (`AnalysisReport.summarySections`): a stored property added without
    /// them fails here.
    @Test func textSummaryCoversEveryEntry() throws {
        let envelope: Set<String> = ["image", "width", "height", "frame", "timestamp", "errors", "warnings", "timingsMs"]
        let report = AnalysisReport(image: "x", width: 10, height: 10)
        let stored = Set(Mirror(reflecting: report).children.compactMap(\.label)).subtracting(envelope)
        #expect(Set(report.summarySections.map(\.key)) == stored)
    }

    /// Image-valued results are written through one `MapOutput`, named after the request, and recorded in the report.
    @Test func mapsAreWrittenThroughOneCapability() async throws {
        struct Recorder: MapOutput {
            func write(_ map: PixelBufferObservation, request: String, name: String) throws(VisionError) -> AnalysisReport.MapFiles {
                AnalysisReport.MapFiles(png: "\(request)\(name.isEmpty ? "" : ".\(name)").png", npy: "\(map.width)x\(map.height)")
            }
        }
        let run = try await StillAnalysis(kinds: [.saliency, .objectness, .personmask])
            .run(on: ImageRequestHandler(Fixtures.sharedImage("person.jpg")), image: "person", maps: Recorder())
        #expect(run.report.saliency?.heatMap.png == "saliency.png" && run.report.saliency?.heatMap.npy == "68x68")
        #expect(run.report.objectness?.heatMap.png == "objectness.png")
        #expect(run.report.personMask?.png == "personmask.png" && run.report.personMask?.npy == "640x424")
    }
}
