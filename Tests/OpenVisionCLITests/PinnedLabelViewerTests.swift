import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// Seed 003 in the browser: `openvision live --pin-labels --serve` on a video panning over a photo, the page
/// in headless Chromium driven by Selenium (Debian's chromium, chromium-driver, python3-selenium): the corner
/// shows the top class, a real click on the preview pins it, and the pinned label follows its spot as the
/// camera pans, in the page's DOM, in screenshots and in the JSON Lines; its × removes it.
@Suite struct PinnedLabelViewerTests {
    /// The pan: frame f shows dog.jpg's 384 × 288 window at x = `offset(f)` (source pixels), y = 144…432,
    /// scaled to 640 × 480; the window moves 2 source px a frame and back (a triangle wave, period 384 frames).
    static func offset(_ frame: Int) -> Double {
        let t = (2 * frame) % 768
        return Double(t <= 384 ? t : 768 - t)
    }

    /// Where a point of the scene at normalised x `x0` on frame `f0` is on frame `f`.
    static func truthX(_ x0: Double, from f0: Int, to f: Int) -> Double {
        (x0 * 384 + offset(f0) - offset(f)) / 384
    }

    /// Pins at 65 % across and 55 % up the preview.
    static let click = (x: 0.65, y: 0.55)

    static let script = #"""
        import json, sys, time, urllib.request
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        url, chromium, driver_path, profile, shots, cx, cy = sys.argv[1:8]
        cx, cy = float(cx), float(cy)
        out = {"samples": [], "shots": []}
        def wait(what, seconds, f):
            end = time.time() + seconds
            while time.time() < end:
                try:
                    v = f()
                    if v: return v
                except Exception:
                    pass
                time.sleep(0.2)
            raise SystemExit("timed out waiting for " + what + ": " + json.dumps(out))
        opts = Options()
        opts.binary_location = chromium
        for a in ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                  "--force-device-scale-factor=1", "--window-size=1000,800", "--user-data-dir=" + profile]:
            opts.add_argument(a)
        d = webdriver.Chrome(service=Service(driver_path), options=opts)
        try:
            d.set_page_load_timeout(120)
            d.get(url)
            img = d.find_element(By.ID, "preview")
            wait("the preview", 120, lambda: d.execute_script("return arguments[0].naturalWidth > 0 && arguments[0].clientWidth > 0", img))
            out["topLabel"] = wait("the corner label", 180, lambda: d.find_element(By.ID, "toplabel").text.strip())
            r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]", img)
            out["clickFrame"] = int(d.execute_script("return document.body.dataset.frame"))
            # Selenium 4 offsets are from the element's centre.
            ActionChains(d).move_to_element_with_offset(img, (cx - 0.5) * r[2], (0.5 - cy) * r[3]).click().perform()
            el = wait("the pinned label", 60, lambda: d.find_elements(By.CSS_SELECTOR, ".anchor"))[0]
            out["label"] = el.find_element(By.CSS_SELECTOR, ".text").text
            # The element first shows the POST's answer; wait for an overlay update that tracked it.
            pinned_at = int(d.execute_script("return document.body.dataset.frame"))
            wait("an update after the pin", 120, lambda: int(d.execute_script("return document.body.dataset.frame")) > pinned_at
                 and d.find_elements(By.CSS_SELECTOR, ".anchor"))
            start = int(d.execute_script("return document.body.dataset.frame"))
            def sample():
                s = d.execute_script("""
                    const el = document.querySelector('.anchor'), img = document.getElementById('preview');
                    if (!el) return null;
                    const r = img.getBoundingClientRect(), dot = el.querySelector('.dot').getBoundingClientRect();
                    return { frame: +document.body.dataset.frame, x: +el.dataset.x, y: +el.dataset.y, state: el.dataset.state,
                             dotX: (dot.left + dot.width / 2 - r.left) / r.width, dotY: (dot.top + dot.height / 2 - r.top) / r.height,
                             rect: [r.left, r.top, r.width, r.height] };""")
                out["samples"].append(s)
                return s
            # Follow it over 40 frames of camera motion (10 s of video), with a screenshot at the start and the end.
            for name in ("early", "late"):
                if name == "late":
                    wait("40 frames of motion", 240, lambda: (sample() or {}).get("frame", 0) >= start + 40)
                s = sample()
                path = shots + "/" + name + ".png"
                d.save_screenshot(path)
                after = sample()
                out["shots"].append({"path": path, "before": s, "after": after})
                time.sleep(0.5)
            # The × removes it, from the page and the server.
            el = d.find_element(By.CSS_SELECTOR, ".anchor .remove")
            el.click()
            wait("the label to go", 60, lambda: len(d.find_elements(By.CSS_SELECTOR, ".anchor")) == 0)
            out["anchorsAfter"] = json.load(urllib.request.urlopen(url + "anchors", timeout=30))
        finally:
            d.quit()
        print(json.dumps(out))
        """#

    @Test func aClickPinsTheTopLabelWhichFollowsItsSpot() async throws {
        let chromium = try #require(LiveViewerProcess.chromium, "chromium is installed by scripts/setup")
        let driver = try #require(
            ["/usr/bin/chromedriver"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "chromium-driver is installed by scripts/setup")
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 1200 frames at 2 fps: the paced source keeps the server up for 600 s however slowly Chromium starts (at load 8
        // on 2 cores Chromium showed the corner label only at frame 597 of a 4 fps source, and 600 frames ended before
        // the pin was followed; in a full suite at load 9, 1200 frames at 4 fps ended before Chromium first loaded the
        // page: ERR_CONNECTION_REFUSED).
        let video = dir.appendingPathComponent("pan.avi")
        let photo = try VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))  // 768 × 576
        let writer = try VideoFileWriter(url: video, fps: 2, width: 640, height: 480)
        for f in 0..<1200 {
            // The window's top at 144 px is 1 − 432 / 576 = 0.25 up from the bottom (lower-left origin).
            let window = NormalizedRect(x: Self.offset(f) / 768, y: 0.25, width: 0.5, height: 0.5)
            try writer.write(try photo.cropped(to: window).resized(width: 640, height: 480))
        }
        writer.finish()

        let jsonl = dir.appendingPathComponent("frames.jsonl")
        let server = try await LiveViewerProcess([
            "live", "--source", video.path, "--requests", "barcodes", "--pin-labels", "--classify-every", "4",
            "--duration", "1200", "--jsonl", jsonl.path,
        ])
        let page = server.page

        let scriptURL = dir.appendingPathComponent("drive.py")
        try Data(Self.script.utf8).write(to: scriptURL)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")  // Debian's, where python3-selenium is
        python.arguments = [
            scriptURL.path, page, chromium, driver, dir.appendingPathComponent("profile").path, dir.path,
            String(Self.click.x), String(Self.click.y),
        ]
        let out = Pipe()
        let err = Pipe()
        python.standardOutput = out
        python.standardError = err
        try python.run()
        let (printed, errors) = try await blocking { () -> (Data, Data) in
            let printed = out.fileHandleForReading.readDataToEndOfFile()
            let errors = err.fileHandleForReading.readDataToEndOfFile()
            python.waitUntilExit()
            return (printed, errors)
        }
        let result = try #require(
            try? JSONSerialization.jsonObject(with: printed) as? [String: Any],
            "the Selenium script failed: \(String(decoding: printed + errors, as: UTF8.self).suffix(1500))")
        try await server.stop()

        // The corner showed a class.
        let topLabel = try #require(result["topLabel"] as? String)
        #expect(!topLabel.isEmpty)
        let label = try #require(result["label"] as? String)

        // The JSON Lines: the anchor was pinned on the last analysed frame before it first appears, at the click.
        let reports = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(AnalysisReport.self, from: Data($0.utf8)) }
        let firstWith = try #require(reports.firstIndex { !($0.anchors ?? []).isEmpty }, "no anchor in the JSON Lines")
        try #require(firstWith > 0)
        let pinFrame = try #require(reports[firstWith - 1].frame)
        // It carries the top class of the frame it was pinned on, as the page showed it.
        let pinned = try #require(reports[firstWith].anchors?.first)
        #expect(pinned.label == reports[firstWith - 1].topLabel?.identifier)
        #expect(label.hasPrefix(pinned.label), "page shows '\(label)', pinned '\(pinned.label)'")
        // Within 2 % of the width of its true point on every frame it is tracked (not lost), for 40+ frames.
        var tracked = 0
        for report in reports[firstWith...] {
            guard let anchor = report.anchors?.first, let frame = report.frame, anchor.state != "lost" else { continue }
            let x = Self.truthX(Self.click.x, from: pinFrame, to: frame)
            #expect(
                abs(anchor.point.normalized.x - x) < 0.02 && abs(anchor.point.normalized.y - Self.click.y) < 0.02,
                "frame \(frame): anchor at \(anchor.point.normalized), truth x \(x)")
            tracked += 1
        }
        #expect(tracked >= 10, "tracked on \(tracked) frames")
        // The camera moved under the anchor: the largest displacement of its spot while reported (not the last frame's:
        // the pan is a triangle wave, and near a turning point the spot comes back to where it was clicked).
        let moved =
            reports[firstWith...].compactMap(\.frame).map {
                abs(Self.truthX(Self.click.x, from: pinFrame, to: $0) - Self.click.x)
            }.max() ?? 0
        #expect(moved > 0.05, "the camera moved: at most \(moved) of the width")

        // The page: each sample's element sits at its data point, which is the truth for the frame shown.
        let samples = (result["samples"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        #expect(samples.count >= 3)
        var checked = 0
        for s in samples {
            guard let frame = s["frame"] as? Int, let x = s["x"] as? Double, let y = s["y"] as? Double,
                let dotX = s["dotX"] as? Double, let dotY = s["dotY"] as? Double, s["state"] as? String != "lost"
            else { continue }
            #expect(
                abs(dotX - x) < 0.01 && abs(dotY - (1 - y)) < 0.01, "element at (\(dotX), \(dotY)) for (\(x), \(y))")
            #expect(abs(x - Self.truthX(Self.click.x, from: pinFrame, to: frame)) < 0.02, "page frame \(frame): x \(x)")
            checked += 1
        }
        #expect(checked >= 2, "samples not lost: \(checked) of \(samples.count)")

        // Screenshots: the green dot is where the truth says, early and 40 frames later (the two differ).
        var dots: [Double] = []
        var truthsAtShots: [Double] = []
        for shot in (result["shots"] as? [Any] ?? []).compactMap({ $0 as? [String: Any] }) {
            guard let path = shot["path"] as? String, let before = shot["before"] as? [String: Any],
                let after = shot["after"] as? [String: Any], let rect = before["rect"] as? [Double],
                let f0 = before["frame"] as? Int, let f1 = after["frame"] as? Int,
                before["state"] as? String == "normal"
            else { continue }
            let image = try VisionImage(contentsOf: URL(fileURLWithPath: path))
            let rgb = [UInt8](image.rgbData())
            var sumX = 0.0
            var count = 0.0
            for yy in 0..<image.height {
                for xx in 0..<image.width {
                    let o = (yy * image.width + xx) * 3
                    if rgb[o] < 80 && rgb[o + 1] > 220 && rgb[o + 2] < 80 {
                        sumX += Double(xx)
                        count += 1
                    }
                }
            }
            try #require(count >= 20, "no green dot in \(path)")
            let seen = (sumX / count - rect[0]) / rect[2]
            let truths = [f0, f1].map { Self.truthX(Self.click.x, from: pinFrame, to: $0) }
            #expect(seen > truths.min()! - 0.025 && seen < truths.max()! + 0.025, "dot at \(seen), truth \(truths)")
            dots.append(seen)
            truthsAtShots.append((truths[0] + truths[1]) / 2)
        }
        #expect(dots.count == 2, "both screenshots show the dot")
        // The dot moved as its spot did between the shots. (The pan is a triangle wave: when the pin lands near a
        // turning point, 40 frames later the spot can be back where it was, so the move itself may be small.)
        if dots.count == 2 {
            let moved = dots[1] - dots[0]
            let truthMoved = truthsAtShots[1] - truthsAtShots[0]
            #expect(abs(moved - truthMoved) < 0.05, "the dot followed the pan: dots \(dots), truth \(truthsAtShots)")
        }

        // The × removed it.
        let after = try #require(result["anchorsAfter"] as? [String: Any])
        #expect((after["anchors"] as? [Any])?.isEmpty == true)
    }
}
