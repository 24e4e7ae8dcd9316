import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// The live viewer as a person sees it: `openvision live --serve` on a video, the page loaded in
/// headless Chromium, and the screenshot checked for the barcode's overlay box over the preview.
@Suite struct LiveViewerTests {
    @Test func overlayBoxIsDrawnOverThePreview() async throws {
        let chromium = try #require(LiveViewerProcess.chromium, "chromium is installed by scripts/setup")
        // A still scene, the code at a known place (its centre at 0.38, 0.5 of the frame): 900 frames at
        // 1 fps, so the paced source keeps the server up for 15 minutes however slowly Chromium starts
        // (under AddressSanitizer on a loaded machine a 30 s source ended before the page loaded).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ov-viewer-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("still.avi")
        let writer = try VideoFileWriter(url: video, fps: 1, width: 640, height: 480)
        var canvas = try ImageCanvas(width: 640, height: 480, color: OverlayColor(red: 200, green: 200, blue: 200))
        let code = try BarcodeGenerator.image(for: "viewer", symbology: .qr, moduleSize: 6)
        try canvas.draw(code, at: CGPoint(x: 243 - Double(code.width) / 2, y: 240 - Double(code.height) / 2))
        let frame = canvas.makeImage()
        for _ in 0..<900 { try writer.write(frame) }  // 900 s
        writer.finish()

        let server = try await LiveViewerProcess(
            ["live", "--source", video.path, "--requests", "barcodes", "--duration", "600"], deadline: .seconds(30))
        let page = server.page
        try await Task.sleep(for: .seconds(2))

        let shot = dir.appendingPathComponent("shot.png")
        // The preview: the scene's gray; the overlay: the barcode colour (orange, #ff8c00).
        // Bounds of the rows and columns holding at least `minimum` matching pixels (ignores stray text pixels).
        func bounds(_ image: VisionImage, minimum: Int = 3, _ match: (UInt8, UInt8, UInt8) -> Bool) -> CGRect? {
            let rgb = [UInt8](image.rgbData())
            var rows = [Int](repeating: 0, count: image.height)
            var columns = [Int](repeating: 0, count: image.width)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let o = (y * image.width + x) * 3
                    if match(rgb[o], rgb[o + 1], rgb[o + 2]) {
                        rows[y] += 1
                        columns[x] += 1
                    }
                }
            }
            guard let y0 = rows.firstIndex(where: { $0 >= minimum }), let y1 = rows.lastIndex(where: { $0 >= minimum }),
                let x0 = columns.firstIndex(where: { $0 >= minimum }),
                let x1 = columns.lastIndex(where: { $0 >= minimum })
            else { return nil }
            return CGRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
        }
        // A private profile for each attempt: a Chromium already running elsewhere would otherwise own the default
        // one, and one that crashed under load leaves its lock behind in its own. A slow machine may shoot before the
        // page has drawn, or Chromium may not start in time: up to five attempts, each allowed longer.
        var log = ""
        var found: (preview: CGRect?, box: CGRect?) = (nil, nil)
        for attempt in 0..<5 where found.box == nil {
            try? FileManager.default.removeItem(at: shot)
            let browser = Process()
            browser.executableURL = URL(fileURLWithPath: chromium)
            browser.arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(dir.appendingPathComponent("chromium-profile-\(attempt)").path)",
                "--screenshot=\(shot.path)", "--window-size=1000,800", "--timeout=\(5000 * (attempt + 1))", page,
            ]
            let errors = Pipe()
            browser.standardOutput = FileHandle.nullDevice
            browser.standardError = errors
            try browser.run()
            log = try await blocking { () -> String in
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                browser.waitUntilExit()
                return text
            }
            guard let image = try? VisionImage(contentsOf: shot) else { continue }
            found = (
                bounds(image, minimum: 100) {
                    abs(Int($0) - 200) < 6 && abs(Int($1) - 200) < 6 && abs(Int($2) - 200) < 6
                },
                bounds(image) { $0 > 230 && $1 > 110 && $1 < 170 && $2 < 40 }
            )
        }
        #expect(FileManager.default.fileExists(atPath: shot.path), "chromium wrote no screenshot: \(log.suffix(600))")
        let preview = try #require(found.preview, "the preview is not on the page")
        let box = try #require(found.box, "no overlay box drawn")
        // Where the box sits over the preview, in the frame's normalised top-left coordinates.
        let cx = (box.midX - preview.minX) / preview.width
        let cy = (box.midY - preview.minY) / preview.height
        #expect(abs(cx - 243.0 / 640) < 0.05 && abs(cy - 0.5) < 0.07, "box centre at (\(cx), \(cy)) of the preview")
        let symbol = Double(code.width - 8 * 6) / 640
        #expect(
            abs(box.width / preview.width - symbol) < 0.06, "box width \(box.width / preview.width) vs symbol \(symbol)"
        )
        try await server.stop()
    }
    /// `live --requests saliency --serve`: each overlay event carries the heat map as a small RGBA PNG
    /// (68 × 68, a data URL) over the whole frame, before the salient regions' boxes.
    @Test func saliencyHeatMapReachesTheViewerEvents() async throws {
        let curl = try #require(
            ["/usr/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "curl reads the event stream")
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 600 s of mid gray with one dark disc at (460, 150): the salient region. One frame a second: the paced
        // source keeps the server up for ten minutes however slowly a loaded machine gets to the first update.
        let video = dir.appendingPathComponent("disc.avi")
        let writer = try VideoFileWriter(url: video, fps: 1, width: 640, height: 480)
        var canvas = try ImageCanvas(width: 640, height: 480, color: OverlayColor(red: 150, green: 150, blue: 150))
        try canvas.dot(at: CGPoint(x: 460, y: 150), radius: 50, color: OverlayColor(red: 20, green: 20, blue: 20))
        let frame = canvas.makeImage()
        for _ in 0..<600 { try writer.write(frame) }
        writer.finish()

        let server = try await LiveViewerProcess(
            ["live", "--source", video.path, "--requests", "saliency", "--duration", "600"], deadline: .seconds(90))
        let page = server.page

        // The first overlay event with items (a new client gets the latest update at once). A generous deadline:
        // with the whole suite running on two loaded cores the first saliency update once took over 100 s. A stream
        // that ends early (a client the server dropped) is opened again while the server runs.
        let end = Date().addingTimeInterval(400)
        var line: String?
        while line == nil, Date() < end, server.process.isRunning {
            let events = Process()
            events.executableURL = URL(fileURLWithPath: curl)
            events.arguments = ["-sN", "--max-time", String(Int(max(5, end.timeIntervalSinceNow))), page + "events"]
            let out = Pipe()
            events.standardOutput = out
            events.standardError = FileHandle.nullDevice
            try events.run()
            let eventReader = out.fileHandleForReading
            line = try await blocking { () -> String? in
                var buffer = Data()
                while true {
                    let chunk = eventReader.availableData
                    if chunk.isEmpty { return nil }
                    buffer += chunk
                    let text = String(decoding: buffer, as: UTF8.self)
                    // the last may be partial
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                    if let found = lines.first(where: { $0.hasPrefix("data: ") && $0.contains("\"image\"") }) {
                        return String(found.dropFirst(6))
                    }
                }
            }
            if events.isRunning { events.terminate() }
            if line == nil { try await Task.sleep(for: .seconds(1)) }
        }
        let json = try #require(
            line, "no overlay event with an image item; the server printed: \(server.recentOutput.suffix(1500))")
        #expect(json.utf8.count < 32_000, "the event stays small: \(json.utf8.count) bytes")
        let update = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let items = try #require(update["items"] as? [[String: Any]])
        let heat = try #require(items.first, "the heat map is the first item")
        let url = try #require(heat["image"] as? String)
        #expect(url.hasPrefix("data:image/png;base64,"))
        #expect(heat["opacity"] as? Double == 0.5)
        // Over the whole frame: (0, 0) … (1, 1).
        let points = try #require(heat["points"] as? [[Double]])
        #expect(points.flatMap { $0 }.map { $0.rounded() } == [0, 0, 1, 0, 1, 1, 0, 1], "\(points)")
        let png = try #require(Data(base64Encoded: String(url.dropFirst("data:image/png;base64,".count))))
        // An RGBA PNG (IHDR colour type 6), 68 × 68.
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let ihdr = [UInt8](png.prefix(26))
        #expect(ihdr.count == 26 && ihdr[16..<24] == [0, 0, 0, 68, 0, 0, 0, 68] && ihdr[25] == 6, "\(ihdr)")
        let image = try VisionImage(data: png)
        #expect(image.width == 68 && image.height == 68)
        // The hottest cell (reddest in JET) is on the disc: its centre (460, 150) of 640 × 480 is cell (48.9, 21.25),
        // its radius 50 px 5.3 cells; the spectral residual peaks on its rim (8.5 cells off on this machine).
        let rgb = [UInt8](image.rgbData())
        let hottest = (0..<68 * 68).max {
            Int(rgb[$0 * 3]) - Int(rgb[$0 * 3 + 2]) < Int(rgb[$1 * 3]) - Int(rgb[$1 * 3 + 2])
        }!
        #expect(
            hypot(Double(hottest % 68) - 48.9, Double(hottest / 68) - 21.25) < 10,
            "hottest cell \(hottest % 68), \(hottest / 68)")
        #expect(rgb[hottest * 3] > 150, "the hottest cell is red: \(rgb[hottest * 3...hottest * 3 + 2])")
        let corner = (60 * 68 + 5) * 3
        #expect(rgb[corner + 2] > rgb[corner], "a cold corner is blue: \(rgb[corner...corner + 2])")
        // Then the salient region's box, labelled.
        #expect(
            items.dropFirst().contains { ($0["label"] as? String)?.hasPrefix("salient") == true && $0["image"] == nil })
        try await server.stop()
    }
}
