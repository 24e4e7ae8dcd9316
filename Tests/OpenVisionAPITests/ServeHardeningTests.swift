import Foundation
import OpenVision
import OpenVisionTestSupport
import Synchronization
import Testing

@testable import OpenVisionAPI

#if canImport(Glibc)
    import Glibc
#endif

/// `openvision serve` against the hostile inputs of issue 28 ("`openvision serve`", items 1–6), each
/// through the built binary over real sockets. Deadlines are generous; nothing asserts a time budget.
@Suite(.serialized) struct ServeHardeningTests {
    static let dog = Fixtures.sharedImage("dog.jpg")

    /// Runs the CLI; its exit status, or nil (and the process killed) if it is still running after `timeout` s.
    static func runBriefly(_ arguments: [String], timeout: Double = 30) async throws -> (status: Int32?, stderr: String)
    {
        let process = Process()
        process.executableURL = CLIProcess.binary
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let running = process.isRunning
        if running {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (running ? nil : process.terminationStatus, text)
    }

    // MARK: 1. Content-Type

    /// `Content-Type: ;` ended the process (index out of range in UploadReader); malformed media types
    /// are now 400 with a JSON error, and the server goes on answering.
    @Test func malformedContentTypesAre400() async throws {
        let server = try ServeProcess()
        let image = try Data(contentsOf: Self.dog)
        for value in [";", " ; ", "image/", "multipart/form-data; boundary=\"open", "image/png, image/jpeg"] {
            let response = try await ServeTests.post(
                server.port, "/v1/analyze?requests=barcodes", image, contentType: value)
            #expect(
                response.status == 400 && response.errorCode == "badRequest",
                "\(value): \(response.status) \(response.text)")
            #expect(server.process.isRunning, "Content-Type '\(value)' ended the server")
        }
        // A byte >= 0x80 in a part's header name trapped MultipartKit 4.7.1's parser (found by scripts/fuzz
        // upload-reader): the body is now read by MultipartBody and refused with 400.
        var body =
            Data("--b\r\nContent-Dis".utf8) + Data([0xED]) + Data("position: form-data; name=\"image\"\r\n\r\n".utf8)
        body += image + Data("\r\n--b--\r\n".utf8)
        let multipart = try await ServeTests.post(
            server.port, "/v1/analyze?requests=barcodes", body, contentType: "multipart/form-data; boundary=b")
        #expect(multipart.status == 400 && multipart.errorCode == "badRequest", "\(multipart.status) \(multipart.text)")
        #expect(server.process.isRunning, "a non-ASCII multipart header name ended the server")
        let quoted = try await ServeTests.post(
            server.port, "/v1/analyze?requests=barcodes", image, contentType: "Image/JPEG; name=\"a;b\"")
        #expect(quoted.status == 200, "\(quoted.text)")
        #expect(try await ServeTests.get(server.port, "/healthz").status == 200)
    }

    // MARK: 2. Slow headers

    /// 270 connections (more than the 256 allowed) trickling request heads a byte a second, reconnecting
    /// when closed, kept /healthz from being accepted at all. Now a new connection evicts the one that has
    /// waited longest for its head, and heads slower than --header-timeout are closed: every probe is
    /// answered while the attack goes on. (Latencies are printed, not asserted; the figures under the same
    /// attack on a release build are in docs/serve.md.)
    @Test func slowHeadersDoNotStarveHealthChecks() async throws {
        let server = try ServeProcess(["--header-timeout", "3"])
        let port = server.port
        let attacking = Mutex(true)
        // On a Dispatch thread (`blocking`), not the cooperative pool: the loop sleeps between rounds.
        let attack = Task {
            try await blocking { () -> (opened: Int, closedByServer: Int) in
                var clients: [RawHTTPClient] = []
                var opened = 0
                var closed = 0
                let head = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
                var position: [Int] = []
                while attacking.withLock({ $0 }) {
                    while clients.count < 270, let c = try? RawHTTPClient(port: port) {
                        clients.append(c)
                        position.append(0)
                        opened += 1
                    }
                    for i in clients.indices {
                        let byte = head[min(position[i], head.count - 1)]
                        if clients[i].send(Data([byte])) {
                            position[i] += 1
                        } else if let fresh = try? RawHTTPClient(port: port) {
                            closed += 1
                            clients[i] = fresh
                            position[i] = 0
                            opened += 1
                        }
                    }
                    usleep(1_000_000)
                }
                return (opened, closed)
            }
        }
        // Let the attack fill the server, then probe /healthz every second for 10 s.
        try await Task.sleep(for: .seconds(3))
        var latencies: [Double] = []
        for _ in 0..<10 {
            let start = ContinuousClock.now
            let probe = try await blocking { try RawHTTPClient.request(port: port, "GET", "/healthz", timeout: 30) }
            #expect(probe.status == 200 && probe.json?["status"] as? String == "ok")
            let (s, atto) = (ContinuousClock.now - start).components
            latencies.append(Double(s) + Double(atto) / 1e18)
            try await Task.sleep(for: .seconds(1))
        }
        attacking.withLock { $0 = false }
        let (opened, closedByServer) = try await attack.value
        print(
            "slow headers: \(opened) attack connections, \(closedByServer) closed by the server; /healthz answered in "
                + latencies.map { String(format: "%.3f", $0) }.joined(separator: ", ") + " s")
        // The server closed attackers (header timeout or eviction) and stayed up.
        #expect(closedByServer > 0)
        #expect(server.process.isRunning)
    }

    /// At the connection limit with every connection in a request (bodies still arriving), a new connection is
    /// not evicting anyone: it gets 503 `tooManyConnections` as JSON and is closed; once a request ends, the
    /// next connection is served.
    @Test func busyConnectionsAreNotEvicted() async throws {
        let server = try ServeProcess(["--max-connections", "2"])
        let port = server.port
        let image = try Data(contentsOf: Self.dog)
        var holders: [RawHTTPClient] = []
        for _ in 0..<2 {
            // The interim 100 Continue shows the server has the request head (the connection is in a request).
            let holder = try RawHTTPClient(port: port)
            holder.sendHead(
                "POST", "/v1/analyze?requests=barcodes",
                headers: ["Content-Length": String(image.count), "Expect": "100-continue"])
            let interim = try await blocking { try holder.readInterim() }
            #expect(interim.hasPrefix("HTTP/1.1 100"))
            holders.append(holder)
        }
        let refused = try await ServeTests.get(port, "/healthz")
        #expect(refused.status == 503 && refused.errorCode == "tooManyConnections", "\(refused.status) \(refused.text)")
        for holder in holders {
            holder.send(image)
            let done = try await blocking { try holder.readResponse() }
            #expect(done.status == 200)
        }
        var healthy = 0
        for _ in 0..<100 where healthy != 200 {
            healthy = (try? await ServeTests.get(port, "/healthz"))?.status ?? 0
            if healthy != 200 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(healthy == 200)
    }

    // MARK: 3. Working memory per request

    /// A PNG header declaring 10000 × 10000 (the default --max-pixels exactly): with `personmask` it used to
    /// be decoded and analysed at ~40 bytes per pixel (4 GB). Now the requests' measured bytes per pixel
    /// bound the image within --max-request-memory (2 GiB by default), and it is refused before decoding.
    @Test func imagesBeyondTheMemoryBudgetAreRefused() async throws {
        let server = try ServeProcess()
        // IHDR of 10000 × 10000 RGB and an empty IDAT: the refusal comes from the header.
        let png = PNGFile.make(width: 10_000, height: 10_000, colorType: 2, dataBytes: 16)
        let refused = try await ServeTests.post(server.port, "/v1/analyze?requests=personmask", png)
        #expect(refused.status == 422 && refused.errorCode == "imageTooLarge", "\(refused.status) \(refused.text)")
        #expect(refused.text.contains("--max-request-memory"))
        let rss = try #require(server.rssKB)
        #expect(rss < 512 * 1024, "RSS \(rss) kB")
    }

    /// The budget holds: an image at the person mask's pixel limit under --max-request-memory 128 is analysed,
    /// and the server's peak RSS grows by less than 128 MiB over what it held before (models loaded).
    @Test func theWorstRequestStaysWithinTheBudget() async throws {
        let server = try ServeProcess(["--max-request-memory", "128", "--workers", "1"])
        // The largest square image the budget admits for personmask: 128 MiB / its bytes per pixel.
        let side = Int(
            Double(RequestMemory(bytes: 128 << 20).pixelLimit(for: try RequestKind.kinds(from: ["personmask"])))
                .squareRoot())
        let dog = try VisionImage(contentsOf: Self.dog)
        let warm = try await ServeTests.post(server.port, "/v1/analyze?requests=personmask", try dog.encoded(as: .png))
        #expect(warm.status == 200, "\(warm.text)")
        let before = try #require(ServeHardeningTests.peakKB(server))
        let image = try dog.resized(width: side, height: side).encoded(as: .png)
        let response = try await ServeTests.post(server.port, "/v1/analyze?requests=personmask", image)
        #expect(response.status == 200, "\(response.text)")
        let after = try #require(ServeHardeningTests.peakKB(server))
        print("personmask at \(side) × \(side) under 128 MiB: peak RSS \(before / 1024) → \(after / 1024) MiB")
        #expect(after - before < 128 * 1024, "peak RSS grew by \((after - before) / 1024) MiB")
        // One pixel row more is refused.
        let over = try dog.resized(width: side, height: side + side / 10).encoded(as: .png)
        let refused = try await ServeTests.post(server.port, "/v1/analyze?requests=personmask", over)
        #expect(refused.status == 422 && refused.errorCode == "imageTooLarge")
    }

    /// The process's peak resident set (VmHWM) in kB.
    static func peakKB(_ server: ServeProcess) -> Int? {
        guard
            let status = try? String(
                contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    // MARK: 5. Host, Origin, paths

    /// Bound to loopback, a Host that is not loopback is refused (DNS rebinding); requests from web pages
    /// (any Origin) are refused whatever their Content-Type; curl-like clients (no Origin) are served;
    /// /v1/models shows no path of the machine.
    @Test func browsersAndForeignHostsAreRefused() async throws {
        let models = Fixtures.shared.appendingPathComponent("models/yolo-fastest-1.1-coco")
        let server = try ServeProcess([], environment: ["OPENVISION_MODELS": models.path])
        let port = server.port
        let image = try Data(contentsOf: Self.dog)
        for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example"] {
            let listing = try await ServeTests.get(port, "/v1/models", headers: ["Host": host])
            #expect(listing.status == 403 && listing.errorCode == "forbiddenHost", "\(host): \(listing.status)")
            let upload = try await ServeTests.post(
                port, "/v1/analyze?requests=barcodes", image, headers: ["Host": host])
            #expect(upload.status == 403 && upload.errorCode == "forbiddenHost")
        }
        for host in ["localhost:\(port)", "127.0.0.1", "[::1]:\(port)"] {
            #expect(try await ServeTests.get(port, "/v1/models", headers: ["Host": host]).status == 200, "\(host)")
        }
        // A cross-site page can send each of these without a preflight; browsers always add Origin to a POST.
        for contentType in [nil, "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "text/plain"] {
            let upload = try await ServeTests.post(
                port, "/v1/analyze?requests=barcodes", image, contentType: contentType,
                headers: ["Origin": "https://evil.example"])
            #expect(
                upload.status == 403 && upload.errorCode == "forbiddenOrigin",
                "\(contentType ?? "none"): \(upload.status)")
        }
        let null = try await ServeTests.post(
            port, "/v1/analyze?requests=barcodes", image, contentType: nil, headers: ["Origin": "null"])
        #expect(null.status == 403)
        // curl --data-binary (no Origin, curl's form content type) is served.
        let curl = try await ServeTests.post(
            port, "/v1/analyze?requests=barcodes", image, contentType: "application/x-www-form-urlencoded")
        #expect(curl.status == 200, "\(curl.text)")

        let listing = try await ServeTests.get(port, "/v1/models")
        #expect(listing.status == 200)
        let entries = listing.json?["models"] as? [[String: Any]] ?? []
        #expect(entries.contains { $0["name"] as? String == "yolo-fastest-1.1.cfg" })
        #expect(entries.allSatisfy { $0["path"] == nil })
        #expect(!listing.text.contains(models.path) && !listing.text.contains("/usr/local/share"), "\(listing.text)")
    }

    /// `OPENVISION_API_KEY=""` served without a key, silently: now it warns; `--api-key ""` is refused.
    @Test func emptyAPIKeysAreNotSilent() async throws {
        let server = try ServeProcess([], environment: ["OPENVISION_API_KEY": ""])
        #expect(try await ServeTests.get(server.port, "/v1/models").status == 200)
        #expect(server.log.contains("OPENVISION_API_KEY is set but empty"), "\(server.log)")
        let refused = try await CLIProcess.run(["serve", "--port", "0", "--api-key", ""])
        #expect(refused.status == 64 && refused.stderr.contains("--api-key"), "\(refused.status) \(refused.stderr)")
    }

    // MARK: 6. Option values, unknown paths and methods, the Authorization scheme

    /// Values that trapped (`--timeout inf`, `1e300`) or overflowed on the first POST (`--queue`, `--workers`
    /// at Int.max) are refused by the option parser (exit 64) with the flag named.
    @Test(arguments: [
        ["--timeout", "inf"], ["--timeout", "1e300"], ["--timeout", "nan"], ["--timeout", "0"],
        ["--queue", String(Int.max)], ["--workers", String(Int.max)], ["--max-connections", "0"],
        ["--header-timeout", "inf"], ["--max-body-bytes", String(Int.max)],
    ])
    func trappingOptionValuesAreRefused(_ arguments: [String]) async throws {
        let run = try await Self.runBriefly(["serve", "--port", "0"] + arguments)
        #expect(
            run.status == 64,
            "\(arguments): exit \(run.status.map(String.init) ?? "none: still serving after 30 s") \(run.stderr)")
        #expect(run.stderr.contains(arguments[0]), "\(run.stderr)")
    }

    /// Unknown paths are 404 and known paths with another method 405 with Allow, as JSON; HEAD works where
    /// GET does and sends no body.
    @Test func unknownPathsAndMethodsAreJSON() async throws {
        let server = try ServeProcess()
        let port = server.port
        let missing = try await ServeTests.get(port, "/nope")
        #expect(
            missing.status == 404 && missing.errorCode == "notFound"
                && missing.headers["content-type"] == "application/json")
        let post = try await ServeTests.post(port, "/healthz", Data("x".utf8))
        #expect(
            post.status == 405 && post.errorCode == "methodNotAllowed" && post.headers["allow"] == "GET, HEAD",
            "\(post.headers)")
        let get = try await ServeTests.get(port, "/v1/analyze")
        #expect(get.status == 405 && get.headers["allow"] == "POST")
        let delete = try await blocking { try RawHTTPClient.request(port: port, "DELETE", "/v1/models") }
        #expect(delete.status == 405 && delete.headers["allow"] == "GET, HEAD")
        for (path, status) in [("/healthz", 200), ("/v1/models", 200), ("/nope", 404), ("/v1/detect", 405)] {
            let raw = try await blocking { () throws -> Data in
                let client = try RawHTTPClient(port: port)
                client.sendHead("HEAD", path)
                return client.readToEnd()
            }
            let text = String(decoding: raw, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 \(status)"), "HEAD \(path): \(text)")
            #expect(text.hasSuffix("\r\n\r\n"), "HEAD \(path) sent a body: \(text)")
        }
        #expect(server.process.isRunning)
    }

    /// The Authorization scheme is case-insensitive (RFC 9110 §11.1): `bearer`, `BEARER` are the same scheme.
    @Test func bearerSchemeIsCaseInsensitive() async throws {
        let server = try ServeProcess(["--api-key", "s3cret"])
        for value in ["bearer s3cret", "BEARER s3cret", "Bearer   s3cret", "bEaReR s3cret "] {
            #expect(
                try await ServeTests.get(server.port, "/v1/models", headers: ["Authorization": value]).status == 200,
                "\(value)")
        }
        for value in ["Basic s3cret", "Bearer s3cre", "Bearers3cret", "s3cret", "Bearer"] {
            #expect(
                try await ServeTests.get(server.port, "/v1/models", headers: ["Authorization": value]).status == 401,
                "\(value)")
        }
    }
}
