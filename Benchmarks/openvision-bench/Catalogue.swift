// openvision-bench catalogue RUNS REQUEST FILE...
//   REQUEST: contours | horizon | saliency | objectness | textrects | document (with "corners": pixels, TL TR BR BL)
// openvision-bench make-document-set DIR
//   The document tests' warped pages (DocumentScenes) as DIR/page-N.png and their corners as DIR/truth.json.
//   Per file: median ms of file → observations (a new handler each run, so decoding is included: gray
//   only, at reduced JPEG scale when the request's working size allows), the result's size ("count") and
//   a summary compared with the Python peer's ("payloads"). OPENVISION_BENCH_FULL_DECODE=1 decodes the
//   gray plane at full size first, to show what the reduced decode saves.
import Foundation
import OpenVision
import OpenVisionFixtures

/// One catalogue request, and how to summarise its result for the side-by-side comparison.
struct CatalogueBench {
    let request: any VisionRequest
    /// (count, summary) of a result.
    let summarise: @Sendable (any Sendable) -> (Int, [String])
    /// Extra fields of a result's row (document: its corners in pixels).
    var extra: @Sendable (any Sendable, CGSize) -> [String: Any] = { _, _ in [:] }

    init?(_ name: String) {
        switch name {
        case "contours":
            request = DetectContoursRequest()
            summarise = { r in
                let c = r as! ContoursObservation
                return (c.contourCount, ["\(c.contourCount)", "\(c.topLevelContourCount)"])
            }
        case "horizon":
            request = DetectHorizonRequest()
            summarise = { r in
                guard let h = r as? HorizonObservation else { return (0, ["none"]) }
                let degrees = (h.angle.converted(to: .degrees).value * 10).rounded() / 10 + 0.0  // + 0.0: no "-0.0"
                return (1, [String(format: "%.1f", degrees)])
            }
        case "saliency", "objectness":
            request =
                name == "saliency"
                ? GenerateAttentionBasedSaliencyImageRequest() : GenerateObjectnessBasedSaliencyImageRequest()
            summarise = { r in
                let s = r as! SaliencyImageObservation
                return (s.salientObjects.count, ["\(s.salientObjects.count)"])
            }
        case "textrects":
            var r = DetectTextRectanglesRequest()
            r.reportCharacterBoxes = true
            request = r
            summarise = { r in
                let lines = r as! [TextObservation]
                return (lines.count, ["\(lines.count)", "\(lines.reduce(0) { $0 + ($1.characterBoxes?.count ?? 0) })"])
            }
        case "document":
            request = DetectDocumentSegmentationRequest()
            summarise = { r in
                (
                    r as? DetectedDocumentObservation == nil ? 0 : 1,
                    [r as? DetectedDocumentObservation == nil ? "none" : "found"]
                )
            }
            extra = { r, size in
                guard let d = r as? DetectedDocumentObservation else { return ["corners": NSNull()] }
                return [
                    "corners": d.corners.map {
                        let p = $0.toImageCoordinates(size, origin: .upperLeft)
                        return [(Double(p.x) * 10).rounded() / 10, (Double(p.y) * 10).rounded() / 10]
                    }
                ]
            }
        default:
            return nil
        }
    }
}

func benchCatalogue(runs: Int, name: String, files: [String]) async throws {
    guard let bench = CatalogueBench(name) else { fail("unknown catalogue request \(name)") }
    let fullDecode = ProcessInfo.processInfo.environment["OPENVISION_BENCH_FULL_DECODE"] == "1"
    for file in files {
        let url = URL(fileURLWithPath: file)
        var times: [Double] = []
        var summary: (Int, [String]) = (0, [])
        var extra: [String: Any] = [:]
        for run in 0...runs {  // run 0 warms up (lazy module loading, caches)
            let start = clock.now
            let handler = ImageRequestHandler(url)
            if fullDecode { _ = try handler.grayImage() }
            let outcome = await handler.performAll([bench.request])[0]
            let end = clock.now
            guard case .success(let value) = outcome.result else {
                fail("\(file): \(outcome.error.map { "\($0)" } ?? "failed")")
            }
            summary = bench.summarise(value)
            extra = bench.extra(value, try handler.imageSize())
            if run > 0 { times.append(ms(end - start)) }
        }
        emit(
            ["file": file, "median_ms": median(times), "count": summary.0, "payloads": summary.1].merging(extra) { $1 })
    }
}

/// Writes the document tests' scenes and their true corners (pixels, TL TR BR BL) for the Python peer.
func makeDocumentSet(_ dir: URL) throws {
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    var truth: [String: [[Double]]] = [:]
    for (i, corners) in DocumentScenes.pages.enumerated() {
        let file = dir.appendingPathComponent("page-\(i).png")
        try DocumentScenes.scene(corners).write(to: file)
        truth[file.path] = corners.map { [$0.0, $0.1] }
    }
    try JSONSerialization.data(withJSONObject: truth, options: [.sortedKeys]).write(
        to: dir.appendingPathComponent("truth.json"))
}
