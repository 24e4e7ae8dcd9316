import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The registry's options as `openvision serve`'s query parameters: barcode `symbologies` on /v1/analyze, classify's
/// `cropAndScale` on /v1/classify, how models load refused (the server's, not a client's), and the OpenAPI document
/// listing each endpoint's options.
@Suite(.serialized) struct RequestOptionsServeTests {
    @Test func optionsReachTheEndpoints() async throws {
        let server = try ServeProcess()
        let codes = try Fixtures.qrAndEAN13PNG()
        for (symbologies, expected) in [
            ("ean13", ["5901234123457"]), ("qr", ["qr-payload"]), ("qr,ean13", ["5901234123457", "qr-payload"]),
        ] {
            let response = try await ServeTests.post(
                server.port, "/v1/analyze?requests=barcodes&symbologies=\(symbologies)", codes)
            #expect(response.status == 200, "\(response.text)")
            let report = try JSONDecoder().decode(AnalysisReport.self, from: response.body)
            #expect(report.barcodes?.compactMap(\.payload).sorted() == expected, "\(symbologies): \(response.text)")
        }
        let bad = try await ServeTests.post(server.port, "/v1/analyze?requests=barcodes&symbologies=nope", codes)
        #expect(
            bad.status == 400 && bad.errorCode == "invalidArgument"
                && bad.text.contains("query parameter symbologies='nope'"),
            "\(bad.text)")
        let threads = try await ServeTests.post(server.port, "/v1/analyze?requests=barcodes&threads=2", codes)
        #expect(
            threads.status == 400 && threads.text.contains("query parameter threads is not taken"), "\(threads.text)")

        // As `classify --crop-and-scale scaleFill` (RequestOptionsCLITests: bald eagle first, against onnxruntime).
        let eagle = try Data(contentsOf: Fixtures.sharedImage("eagle.jpg"))
        let stretched = try await ServeTests.post(server.port, "/v1/classify?cropAndScale=scaleFill&top=2", eagle)
        #expect(stretched.status == 200, "\(stretched.text)")
        let labels = try JSONDecoder().decode(AnalysisReport.self, from: stretched.body).classifications
        #expect(
            labels?.map(\.identifier).last == "kite" && labels?.first?.identifier.hasPrefix("bald eagle") == true,
            "\(stretched.text)")

        let document = try await ServeTests.get(server.port, "/openapi.yaml").text
        let classify = try #require(document.range(of: "  /v1/classify:"))
        #expect(document[classify.lowerBound...].contains("- name: cropAndScale"))
        #expect(document.contains("- name: symbologies") && !document.contains("- name: threads"))
    }
}
