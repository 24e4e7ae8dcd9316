import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Every request's results reach the JSON report and the overlays through `ReportableResult`,
/// with no per-type code in the callers.
@Suite struct AnalysisReportTests {
    @Test func everyRequestKindAppearsInTheReport() async throws {
        let url = try #require(ModelLocator.find("efficientnet-lite0.onnx"), "run scripts/setup")
        let model = try VisionModel(contentsOf: url)
        var canvas = try Fixtures.canvas(width: 400, height: 300)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "report", symbology: .qr, moduleSize: 5), on: &canvas, x: 40, y: 40)
        let handler = ImageRequestHandler(image: canvas.makeImage())
        var text = RecognizeTextRequest()
        text.recognitionLanguages = ["xx-not-installed"]
        let requests: [any VisionRequest] = [
            DetectBarcodesRequest(), GenerateImageFeaturePrintRequest(), RunModelRequest(model: model),
            ClassifyImageRequest(model: model), text,
        ]
        let outcomes = await handler.performAll(requests)
        var report = AnalysisReport(image: "generated", width: 400, height: 300)
        for outcome in outcomes { report.add(outcome) }

        #expect(report.barcodes?.map(\.payload) == ["report"])
        #expect(report.featurePrint?.count == 1280)
        // EfficientNet-Lite0's two outputs: 1000 logits (small enough to report) and the 1280 features.
        #expect(report.outputs?.map(\.name) == ["logits", "features"])
        #expect(report.outputs?.first?.shape == [1, 1000])
        #expect(report.outputs?.first?.values?.count == 1000)
        #expect(report.classifications?.count == 5)
        // A failed request is reported under its reportName: its kind's name in the registry, as `analyze`, `video` and
        // `live` key it (feature prints were `featurePrint` in live and `featureprint` in analyze before).
        #expect(report.errors?["text"]?.code == "unsupportedLanguage")
        #expect(requests.map(\.reportName) == ["barcodes", "featureprint", "model", "classify", "text"])

        // Overlays: the code's outline (in full-image coordinates), nothing for whole-image results.
        let items = outcomes.flatMap(OverlayItem.items(for:))
        #expect(items.count == 1)
        #expect(items.first?.label == "qr: report")
    }

    @Test func regionOfInterestIsUndoneForOverlays() async throws {
        var canvas = try Fixtures.canvas(width: 400, height: 400)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "roi", symbology: .qr, moduleSize: 4), on: &canvas, x: 250, y: 250)
        var request = DetectBarcodesRequest()
        request.regionOfInterest = NormalizedRect(x: 0.5, y: 0, width: 0.5, height: 0.5)  // lower-right quarter
        let outcome = try #require(await ImageRequestHandler(image: canvas.makeImage()).performAll([request]).first)
        let item = try #require(OverlayItem.items(for: outcome).first)
        guard case .polygon(let points, _) = item.shape else {
            Issue.record("expected a polygon")
            return
        }
        // Every corner lies in the lower-right quarter of the full image.
        #expect(points.allSatisfy { $0.x > 0.5 && $0.y < 0.5 })
    }
}
