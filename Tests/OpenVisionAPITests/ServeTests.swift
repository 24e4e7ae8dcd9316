import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `openvision serve` as clients see it: the built binary started on a free loopback port and spoken
/// to over real sockets (RawHTTPClient) and curl. Waits use generous deadlines; nothing asserts a time.
@Suite(.serialized) struct ServeTests {
    static let astronaut = Fixtures.sharedImage("astronaut.png")
    static let dog = Fixtures.sharedImage("dog.jpg")

    static func post(
        _ port: Int, _ path: String, _ body: Data, contentType: String? = "application/octet-stream",
        headers: [String: String] = [:]
    ) async throws -> RawHTTPClient.Response {
        var headers = headers
        if let contentType { headers["Content-Type"] = contentType }
        let all = headers
        return try await blocking { try RawHTTPClient.request(port: port, "POST", path, headers: all, body: body) }
    }

    static func get(_ port: Int, _ path: String, headers: [String: String] = [:]) async throws -> RawHTTPClient.Response
    {
        try await blocking { try RawHTTPClient.request(port: port, "GET", path, headers: headers) }
    }

    static func curl(_ arguments: [String]) async throws -> (status: Int32, out: String) {
        try await blocking {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = ["-s", "-m", "120"] + arguments
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// The value of one un-labelled (or exactly labelled) sample in Prometheus text.
    static func sample(_ metrics: String, _ name: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
            Double($0.split(separator: " ").last ?? "")
        }
    }

    // MARK: Results

    /// The astronaut's face through POST /v1/analyze, against `openvision analyze` on the same file.
    @Test func analyzeAstronautFaceMatchesTheCLI() async throws {
        let server = try ServeProcess()
        let response = try await Self.post(
            server.port, "/v1/analyze?requests=faces", try Data(contentsOf: Self.astronaut),
            contentType: "image/jpeg")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.headers["content-type"] == "application/json")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: response.body)
        #expect(report.width == 210 && report.height == 210)
        let face = try #require(report.faces?.first)
        #expect(report.faces?.count == 1)
        #expect(face.confidence > 0.5)

        // Reference: openvision analyze ../shared/images/astronaut.png --requests faces
        let cli = try await CLIProcess.run(["analyze", Self.astronaut.path, "--requests", "faces"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let expected = try #require(
            try JSONDecoder().decode(AnalysisReport.self, from: Data(cli.stdout.utf8)).faces?.first)
        #expect(
            abs(face.box.pixels.x - expected.box.pixels.x) < 1 && abs(face.box.pixels.y - expected.box.pixels.y) < 1)
        #expect(
            abs(face.box.pixels.width - expected.box.pixels.width) < 1
                && abs(face.confidence - expected.confidence) < 0.01)
        // The same encoder: byte-identical but for the image name ("upload" here, the path there).
        var cliReport = try JSONDecoder().decode(AnalysisReport.self, from: Data(cli.stdout.utf8))
        cliReport.image = report.image
        #expect(cliReport == report)
    }

    /// multipart/form-data from curl -F: the `image` part, its file name reported as `image`.
    @Test func analyzeMultipartFromCurl() async throws {
        let server = try ServeProcess()
        let (status, out) = try await Self.curl([
            "-F", "image=@\(Self.astronaut.path);type=image/png",
            "http://127.0.0.1:\(server.port)/v1/analyze?requests=faces,landmarks",
        ])
        #expect(status == 0)
        let report = try JSONDecoder().decode(AnalysisReport.self, from: Data(out.utf8))
        #expect(report.image == "astronaut.png")
        let face = try #require(report.faces?.first)
        // Reference: the CLI test's astronaut face: landmarks (Vision's 76 points, on MediaPipe's face mesh) stand in for
        // faces, with BlazeFace's box at (54.7, 51.8) px as MediaPipe Python's (Tests/Fixtures/MediaPipe/reference.json)
        // and 8 points per eye.
        #expect(abs(face.box.pixels.x - 54.7) < 2 && abs(face.box.pixels.y - 51.8) < 2)
        #expect(face.landmarks?["leftEye"]?.count == 8 && face.constellation == 76)
    }

    /// A QR code made by `openvision barcode` (GenerateBarcodeCommand), read back over HTTP.
    @Test func barcodesOnAGeneratedCode() async throws {
        let dir = try CLIProcess.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("qr.png")
        let made = try await CLIProcess.run(["barcode", "openvision serve 13", "-s", "qr", "-o", png.path])
        #expect(made.status == 0, "\(made.stderr)")
        let server = try ServeProcess()
        let response = try await Self.post(
            server.port, "/v1/analyze?requests=barcodes", try Data(contentsOf: png), contentType: "image/png")
        #expect(response.status == 200, "\(response.text)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: response.body)
        #expect(report.barcodes?.count == 1)
        #expect(report.barcodes?.first?.payload == "openvision serve 13")
        #expect(report.barcodes?.first?.symbology == "qr")
    }

    /// Yolo-Fastest (the shared Darknet model) via /v1/detect: dog.jpg has a dog, a bicycle and a car;
    /// /v1/models lists the model as loaded afterwards and /metrics has its load time.
    @Test func detectWithTheSharedYoloFastest() async throws {
        let models = Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco")
        let server = try ServeProcess([], environment: ["OPENVISION_MODELS": models.path])
        let response = try await Self.post(
            server.port, "/v1/detect?model=yolo-fastest-1.1.cfg", try Data(contentsOf: Self.dog))
        #expect(response.status == 200, "\(response.text)")
        let report = try JSONDecoder().decode(AnalysisReport.self, from: response.body)
        let labels = Set((report.objects ?? []).map(\.label))
        // Reference: openvision detect -m ../shared/models/yolo-fastest-1.1-coco/yolo-fastest-1.1.cfg ../shared/images/dog.jpg
        #expect(labels.isSuperset(of: ["dog", "bicycle", "car"]), "\(labels)")
        #expect(report.width == 768 && report.height == 576)

        let listing = try await Self.get(server.port, "/v1/models")
        let entries = listing.json?["models"] as? [[String: Any]] ?? []
        #expect(entries.contains { $0["name"] as? String == "yolo-fastest-1.1.cfg" && $0["loaded"] as? Bool == true })
        let metrics = try await Self.get(server.port, "/metrics").text
        #expect(metrics.contains("openvision_model_load_seconds{model=\"yolo-fastest-1.1.cfg\"}"))

        let missing = try await Self.post(server.port, "/v1/detect?model=nope.onnx", try Data(contentsOf: Self.dog))
        #expect(missing.status == 404 && missing.errorCode == "modelNotFound")
        let path = try await Self.post(server.port, "/v1/detect?model=/etc/passwd", try Data(contentsOf: Self.dog))
        #expect(path.status == 404 && path.errorCode == "modelNotFound")
    }

    /// Xcode's compiled folders in serve's models folder (../shared/models/coreml-wild): yolov8n.mlmodelc (ML Program +
    /// NMS) finds the dog and the bicycle via /v1/detect, the Espresso MNISTClassifier.mlmodelc reads the drawn one via
    /// /v1/classify, and /v1/models lists them.
    @Test func compiledCoreMLFolders() async throws {
        let models = Fixtures.shared.appendingPathComponent("models/coreml-wild")
        let server = try ServeProcess([], environment: ["OPENVISION_MODELS": models.path])
        let dog = try Data(contentsOf: Self.dog)
        let detect = try await Self.post(server.port, "/v1/detect?model=yolov8n.mlmodelc", dog)
        #expect(detect.status == 200, "\(detect.text)")
        let objects = try JSONDecoder().decode(AnalysisReport.self, from: detect.body).objects ?? []
        #expect(Set(objects.map(\.label)).isSuperset(of: ["dog", "bicycle"]), "\(objects.map(\.label))")
        let one = try Data(contentsOf: models.appendingPathComponent("inputs/one.png"))
        let classify = try await Self.post(
            server.port, "/v1/classify?model=MNISTClassifier.mlmodelc", one, contentType: "image/png")
        #expect(classify.status == 200, "\(classify.text)")
        let classes = try JSONDecoder().decode(AnalysisReport.self, from: classify.body).classifications ?? []
        #expect(classes.first?.identifier == "1", "\(classify.text.prefix(300))")
        let listing = try await Self.get(server.port, "/v1/models")
        let names = Set((listing.json?["models"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["yolov8n.mlmodelc", "MNISTClassifier.mlmodelc"]), "\(names)")
    }

    // MARK: Refusals

    /// Bodies over --max-body-bytes: refused by Content-Length before reading, and a chunked body
    /// refused once it grows past the limit; the server goes on answering.
    @Test func oversizedBodiesAre413() async throws {
        let server = try ServeProcess(["--max-body-bytes", "100000"])
        let big = Data(repeating: 0x55, count: 300_000)
        let byLength = try await Self.post(server.port, "/v1/analyze?requests=faces", big)
        #expect(byLength.status == 413 && byLength.errorCode == "payloadTooLarge", "\(byLength.text)")

        let chunked = try await blocking { () throws -> RawHTTPClient.Response in
            let client = try RawHTTPClient(port: server.port)
            client.sendHead(
                "POST", "/v1/analyze?requests=faces",
                headers: ["Transfer-Encoding": "chunked", "Content-Type": "image/jpeg"])
            let piece = Data(repeating: 0x55, count: 16_384)
            for _ in 0..<20 {
                guard client.send(Data((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Data("\r\n".utf8))
                else { break }
            }
            return try client.readResponse()
        }
        #expect(chunked.status == 413 && chunked.errorCode == "payloadTooLarge")
        #expect(try await Self.get(server.port, "/healthz").status == 200)
    }

    /// `Expect: 100-continue` (curl's way for bodies over 1 MB): `100 Continue` when the announced body is
    /// within the limit, and straight 413 without it when over.
    @Test func expectContinue() async throws {
        let server = try ServeProcess(["--max-body-bytes", "1000000"])
        let image = try Data(contentsOf: Self.dog)
        let (interim, response) = try await blocking { () throws -> (String, RawHTTPClient.Response) in
            let client = try RawHTTPClient(port: server.port)
            client.sendHead(
                "POST", "/v1/analyze?requests=barcodes",
                headers: ["Content-Length": String(image.count), "Expect": "100-continue"])
            let interim = try client.readInterim()
            client.send(image)
            return (interim, try client.readResponse())
        }
        #expect(interim.hasPrefix("HTTP/1.1 100"))
        #expect(response.status == 200)
        let refused = try await blocking { () throws -> RawHTTPClient.Response in
            let client = try RawHTTPClient(port: server.port)
            client.sendHead(
                "POST", "/v1/analyze?requests=barcodes",
                headers: ["Content-Length": "5000000", "Expect": "100-continue"])
            return try client.readResponse()
        }
        #expect(refused.status == 413)
    }

    /// 200 MB announced and sent: 413, and the server never holds it (RSS stays far below it).
    @Test func twoHundredMegabytesNeverGrowTheServer() async throws {
        let server = try ServeProcess()
        let status = try await blocking { () throws -> Int in
            let client = try RawHTTPClient(port: server.port)
            client.sendHead("POST", "/v1/analyze?requests=faces", headers: ["Content-Length": "200000000"])
            let piece = Data(repeating: 0, count: 1 << 20)
            for _ in 0..<200 { guard client.send(piece) else { break } }
            return try client.readResponse().status
        }
        #expect(status == 413)
        let rss = try #require(server.rssKB)
        #expect(rss < 300 * 1024, "RSS \(rss) kB")
    }

    /// Content types: text and JSON are 415, garbage bytes 422 with the typed VisionError, an empty
    /// body 400, unknown or sequence request names 400, and an image over --max-pixels 422 imageTooLarge.
    @Test func wrongContentTypesAndBadImages() async throws {
        let server = try ServeProcess(["--max-pixels", "100000"])
        let text = try await Self.post(server.port, "/v1/analyze", Data("hello".utf8), contentType: "text/plain")
        #expect(text.status == 415 && text.errorCode == "unsupportedMediaType")
        let json = try await Self.post(server.port, "/v1/analyze", Data("{}".utf8), contentType: "application/json")
        #expect(json.status == 415)
        let garbage = try await Self.post(
            server.port, "/v1/analyze?requests=faces", Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            contentType: "image/jpeg")
        #expect(garbage.status == 422 && garbage.errorCode == "invalidImage", "\(garbage.text)")
        let message = (garbage.json?["error"] as? [String: Any])?["message"] as? String
        #expect(message?.isEmpty == false)
        let empty = try await Self.post(server.port, "/v1/analyze", Data())
        #expect(empty.status == 400 && empty.errorCode == "badRequest")
        let unknown = try await Self.post(
            server.port, "/v1/analyze?requests=faces,teeth", try Data(contentsOf: Self.astronaut))
        #expect(unknown.status == 400 && unknown.errorCode == "invalidArgument")
        let sequence = try await Self.post(
            server.port, "/v1/analyze?requests=flow", try Data(contentsOf: Self.astronaut))
        #expect(sequence.status == 400 && sequence.errorCode == "invalidArgument")
        // dog.jpg is 768×576 = 442,368 pixels.
        let large = try await Self.post(server.port, "/v1/analyze?requests=faces", try Data(contentsOf: Self.dog))
        #expect(large.status == 422 && large.errorCode == "imageTooLarge", "\(large.text)")
        // `top` is declared once for the CLI and HTTP: 0...1000, 0 all labels (as ClassifyImageRequest's 0).
        let bad = try await Self.post(server.port, "/v1/classify?top=1001", try Data(contentsOf: Self.dog))
        #expect(bad.status == 400 && bad.errorCode == "invalidArgument")
    }

    /// libpng's messages on a bad upload: a warning is in the response's `warnings` and in the structured log
    /// (notice, with the request's ID), an error is the 422's message; neither is printed raw ("libpng warning:",
    /// "libpng error:", as OpenCV's imdecode did on stderr, the server's log).
    /// The 4 × 2 RGB PNG with a 200-byte iCCP profile: python3 -c "import zlib,struct,base64;
    /// c=lambda t,d:struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d));
    /// raw=b''.join(b'\0'+bytes(range(y*12,y*12+12)) for y in range(2));
    /// print(base64.b64encode(b'\x89PNG\r\n\x1a\n'+c(b'IHDR',struct.pack('>IIBBBBB',4,2,8,2,0,0,0))
    /// +c(b'iCCP',b'bad\0\0'+zlib.compress(b'x'*200))+c(b'IDAT',zlib.compress(raw))+c(b'IEND',b'')).decode())";
    /// the damaged one is its first 60 bytes.
    @Test func decoderMessagesGoToWarningsAndTheLog() async throws {
        let png = try #require(
            Data(
                base64Encoded:
                    "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAEWlDQ1BiYWQAAHicq6gYHgAA0MRdwbQiqUwAAAAiSURBVHicY2BgZGJmYWVj5+Dk4mbg4eXjFxAUEhYRFRMHAAlYARUx62OZAAAAAElFTkSuQmCC"
            ))
        let server = try ServeProcess([], environment: ["LOG_LEVEL": "notice"])
        let warned = try await Self.post(server.port, "/v1/analyze?requests=barcodes", png, contentType: "image/png")
        #expect(warned.status == 200, "\(warned.text)")
        #expect(warned.json?["warnings"] as? [String] == ["PNG: iCCP: too short"], "\(warned.text)")
        let damaged = try await Self.post(
            server.port, "/v1/analyze?requests=barcodes", png.prefix(60), contentType: "image/png")
        let message = (damaged.json?["error"] as? [String: Any])?["message"] as? String
        #expect(damaged.status == 422 && message?.contains("PNG input buffer is incomplete") == true, "\(damaged.text)")
        var log = ""
        for _ in 0..<100 where !log.contains("image decoder warnings") {
            try await Task.sleep(for: .milliseconds(100))
            log = server.log
        }
        #expect(
            log.contains("image decoder warnings") && log.contains("PNG: iCCP: too short")
                && log.contains("hb.request.id="), "\(log)")
        #expect(!log.contains("libpng"), "\(log)")
    }

    /// Clients that hang up mid-body: the server stays up and frees their admission (in-flight back to 0).
    @Test func truncatedUploadsLeaveNothingBehind() async throws {
        let server = try ServeProcess()
        let image = try Data(contentsOf: Self.dog)
        for _ in 0..<20 {
            try await blocking {
                let client = try RawHTTPClient(port: server.port)
                client.sendHead(
                    "POST", "/v1/analyze?requests=barcodes", headers: ["Content-Length": String(image.count)])
                client.send(image.prefix(image.count / 3))
                client.close()
            }
        }
        let ok = try await Self.post(server.port, "/v1/analyze?requests=barcodes", image)
        #expect(ok.status == 200)
        var inFlight: Double?
        for _ in 0..<200 {
            inFlight = Self.sample(try await Self.get(server.port, "/metrics").text, "openvision_requests_in_flight")
            if inFlight == 0 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(inFlight == 0)
        #expect(server.process.isRunning)
    }

    /// A client trickling its body does not hold up others; it gets 408 at the request timeout.
    @Test func slowClientsDoNotBlockOthers() async throws {
        let server = try ServeProcess(["--timeout", "20", "--workers", "1"])
        let image = try Data(contentsOf: Self.dog)
        // Warm up (the first barcode request loads zxing's tables), so the others' analyses are short.
        _ = try await Self.post(server.port, "/v1/analyze?requests=barcodes", image)
        let slow = try RawHTTPClient(port: server.port)
        slow.sendHead("POST", "/v1/analyze?requests=faces", headers: ["Content-Length": "100000"])
        slow.send(Data(repeating: 1, count: 10))
        // While it trickles, other requests are answered.
        for _ in 0..<3 {
            let other = try await Self.post(server.port, "/v1/analyze?requests=barcodes", image)
            #expect(other.status == 200, "\(other.text)")
            slow.send(Data(repeating: 1, count: 10))
        }
        let answer = try await blocking { () throws -> RawHTTPClient.Response in
            while true {
                guard slow.send(Data(repeating: 1, count: 10)) else { break }
                var p = pollfd(fd: slow.fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 500) > 0 { break }
            }
            return try slow.readResponse()
        }
        #expect(answer.status == 408 && answer.errorCode == "requestTimeout")
    }

    /// 24 requests at once (more than workers, within the queue): all answered with their report.
    @Test func concurrentRequestsAreAllAnswered() async throws {
        let server = try ServeProcess()
        let image = try Data(contentsOf: Self.dog)
        let statuses = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for _ in 0..<24 {
                group.addTask {
                    let r = try await Self.post(server.port, "/v1/analyze?requests=barcodes,rectangles", image)
                    return (r.status, r.json?["width"] as? Int)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 24)
        #expect(statuses.allSatisfy { $0.0 == 200 && $0.1 == 768 }, "\(statuses)")
    }

    /// One worker, no queue: while a request holds the only place (its body still arriving), the
    /// next is 503 with Retry-After; once it is done, requests are admitted again.
    @Test func fullQueueIs503WithRetryAfter() async throws {
        let server = try ServeProcess(["--workers", "1", "--queue", "0"])
        let image = try Data(contentsOf: Self.dog)
        let holder = try RawHTTPClient(port: server.port)
        holder.sendHead("POST", "/v1/analyze?requests=barcodes", headers: ["Content-Length": String(image.count)])
        holder.send(image.prefix(100))
        // The holder has the place once the server counts it in flight (GET /metrics is not admitted).
        var inFlight: Double?
        for _ in 0..<600 {
            inFlight = Self.sample(try await Self.get(server.port, "/metrics").text, "openvision_requests_in_flight")
            if inFlight == 1 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(inFlight == 1)
        let refused = try await Self.post(server.port, "/v1/analyze?requests=barcodes", image)
        #expect(refused.status == 503 && refused.errorCode == "queueFull", "\(refused.text)")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
        holder.send(image.dropFirst(100))
        let held = try await blocking { try holder.readResponse() }
        #expect(held.status == 200)
        #expect(try await Self.post(server.port, "/v1/analyze?requests=barcodes", image).status == 200)
        let metrics = try await Self.get(server.port, "/metrics").text
        #expect(metrics.contains("openvision_requests_rejected_total{reason=\"queueFull\"} 1"))
    }

    /// --api-key: missing or wrong Bearer keys are 401 (with WWW-Authenticate); health checks stay open.
    @Test func apiKey() async throws {
        let server = try ServeProcess(["--api-key", "s3cret"])
        let image = try Data(contentsOf: Self.astronaut)
        let none = try await Self.post(server.port, "/v1/analyze?requests=faces", image)
        #expect(none.status == 401 && none.errorCode == "unauthorized")
        #expect(none.headers["www-authenticate"] == "Bearer")
        let wrong = try await Self.post(
            server.port, "/v1/analyze?requests=faces", image, headers: ["Authorization": "Bearer s3cres"])
        #expect(wrong.status == 401)
        #expect(try await Self.get(server.port, "/v1/models").status == 401)
        let right = try await Self.post(
            server.port, "/v1/analyze?requests=faces", image, headers: ["Authorization": "Bearer s3cret"])
        #expect(right.status == 200)
        #expect(try await Self.get(server.port, "/healthz").status == 200)
        #expect(try await Self.get(server.port, "/readyz").status == 200)
        // The environment variable does the same.
        let fromEnv = try ServeProcess([], environment: ["OPENVISION_API_KEY": "k2"])
        #expect(try await Self.get(fromEnv.port, "/metrics").status == 401)
        #expect(try await Self.get(fromEnv.port, "/metrics", headers: ["Authorization": "Bearer k2"]).status == 200)
    }

    /// SIGTERM while a request is in flight (its body half sent): that request is still answered, then
    /// the process exits 0.
    @Test func gracefulShutdownFinishesInFlightRequests() async throws {
        let server = try ServeProcess()
        let image = try Data(contentsOf: Self.dog)
        let client = try RawHTTPClient(port: server.port)
        client.sendHead(
            "POST", "/v1/analyze?requests=barcodes,rectangles", headers: ["Content-Length": String(image.count)])
        client.send(image.prefix(image.count / 2))
        // The server has the request once it counts it in flight.
        for _ in 0..<200 {
            if Self.sample(try await Self.get(server.port, "/metrics").text, "openvision_requests_in_flight") == 1 {
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.signal(SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        client.send(image.dropFirst(image.count / 2))
        let response = try await blocking { try client.readResponse() }
        #expect(response.status == 200)
        #expect(response.json?["width"] as? Int == 768)
        #expect(await server.waitForExit() == 0)
    }

    // MARK: Metrics and the OpenAPI document

    @Test func metricsInPrometheusFormat() async throws {
        let server = try ServeProcess()
        _ = try await Self.post(
            server.port, "/v1/analyze?requests=faces,barcodes", try Data(contentsOf: Self.astronaut))
        let response = try await Self.get(server.port, "/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        let text = response.text
        #expect(text.contains("# TYPE openvision_http_requests_total counter"))
        #expect(text.contains("openvision_http_requests_total{endpoint=\"/v1/analyze\",status=\"200\"} 1"))
        #expect(text.contains("# TYPE openvision_request_duration_seconds histogram"))
        #expect(text.contains("openvision_request_duration_seconds_count{request=\"faces\"} 1"))
        #expect(text.contains("openvision_request_duration_seconds_count{request=\"barcodes\"} 1"))
        #expect(text.contains("# TYPE openvision_queue_depth gauge"))
    }

    /// GET /openapi.yaml is docs/openapi.yaml, byte for byte.
    @Test func openAPIDocumentIsTheOneInDocs() async throws {
        let server = try ServeProcess()
        let served = try await Self.get(server.port, "/openapi.yaml")
        #expect(served.status == 200)
        let docs = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8)
        #expect(served.text == docs)
    }
}

/// POST /v1/analyze takes every request option as a query parameter (from the registry) and returns image-valued
/// results inline on `maps=true`.
@Suite struct AnalyzeOptionsServeTests {
    @Test func everyOptionIsAQueryParameter() async throws {
        let server = try ServeProcess()
        let body = try Data(contentsOf: Fixtures.sharedImage("person.jpg"))
        let bad = try await ServeTests.post(server.port, "/v1/analyze?requests=text&recognitionLevel=best", body)
        #expect(
            bad.status == 400
                && bad.text.contains("query parameter recognitionLevel='best' must be one of fast, accurate"),
            "\(bad.text)")
        let hands = try await ServeTests.post(server.port, "/v1/analyze?requests=handpose&maxHands=0", body)
        #expect(hands.status == 200 && hands.text.contains("\"hands\":[]"), "\(hands.text.prefix(300))")
        let faces = try await ServeTests.post(
            server.port, "/v1/analyze?requests=faces&faceRevision=blazeface-full", body)
        #expect(faces.status == 200, "\(faces.text.prefix(300))")
        let maps = try await ServeTests.post(server.port, "/v1/analyze?requests=saliency&maps=true", body)
        let report = try JSONDecoder().decode(AnalysisReport.self, from: maps.body)
        let png = try #require(report.saliency?.heatMap.png)
        #expect(png.hasPrefix("data:image/png;base64,"))
        let decoded = try VisionImage(
            data: try #require(Data(base64Encoded: String(png.dropFirst("data:image/png;base64,".count)))))
        #expect(decoded.width == 68 && decoded.height == 68)
    }
}
