import Foundation
import OpenVision
import OpenVisionTestSupport
import Synchronization
import Testing

@Suite struct HandlerTests {
    static func scene() throws -> VisionImage {
        var canvas = try Fixtures.canvas(width: 640, height: 480)
        try Fixtures.paste(
            try BarcodeGenerator.image(for: "handler", symbology: .qr, moduleSize: 5), on: &canvas, x: 40, y: 40)
        try Fixtures.fill([(360, 200), (600, 200), (600, 440), (360, 440)], on: &canvas, gray: 30)
        return canvas.makeImage()
    }

    @Test func decodesOnceAndSharesTheImage() async throws {
        let png = try Self.scene().encoded(as: .png)
        let handler = ImageRequestHandler(data: png)
        let first = try handler.image()
        let second = try handler.image()
        #expect(first === second)
        // Many tasks at once still see one decoded image.
        let identities = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<8 { group.addTask { (try? handler.image()).map(ObjectIdentifier.init) } }
            var ids = Set<ObjectIdentifier?>()
            for await id in group { ids.insert(id) }
            return ids
        }
        #expect(identities == [ObjectIdentifier(first)])
    }

    @Test func performSeveralRequestsReturnsEachResult() async throws {
        let handler = ImageRequestHandler(image: try Self.scene())
        var rectangles = DetectRectanglesRequest()
        rectangles.maximumObservations = 0
        let (codes, quads) = try await handler.perform(DetectBarcodesRequest(), rectangles)
        #expect(codes.map(\.payloadString) == ["handler"])
        #expect(
            quads.contains {
                abs($0.boundingBox.midX - 480.0 / 640) < 0.02 && abs($0.boundingBox.midY - (1 - 320.0 / 480)) < 0.02
            })
    }

    @Test func performAllGivesEachRequestItsOwnOutcome() async throws {
        let handler = ImageRequestHandler(image: try Self.scene())
        var badROI = DetectBarcodesRequest()
        badROI.regionOfInterest = NormalizedRect(x: 0.5, y: 0.5, width: 0.9, height: 0.1)
        var unknownLanguage = RecognizeTextRequest()
        unknownLanguage.recognitionLanguages = ["xyz"]
        let outcomes = await handler.performAll([DetectBarcodesRequest(), badROI, unknownLanguage])
        #expect(outcomes.count == 3)
        #expect(outcomes[0].results(as: DetectBarcodesRequest.self)?.first?.payloadString == "handler")
        #expect(outcomes[1].error?.code == .invalidArgument)
        #expect(outcomes[2].error?.code == .unsupportedLanguage)
        #expect(outcomes[2].error?.message.contains("xyz") == true)
    }

    @Test func completionHandlersAreCalled() async throws {
        let received = Mutex<[String]>([])
        let request = DetectBarcodesRequest { result in
            received.withLock { $0.append((try? result.get())?.first?.payloadString ?? "error") }
        }
        var failing = DetectRectanglesRequest { result in
            if case .failure(let error) = result { received.withLock { $0.append("failed: \(error.code)") } }
        }
        failing.minimumAspectRatio = 2  // out of range
        try? await ImageRequestHandler(image: try Self.scene()).perform([request, failing])
        #expect(Set(received.withLock { $0 }) == ["handler", "failed: invalidArgument"])
    }

    @Test func decodeFailureReachesEveryRequest() async {
        let handler = ImageRequestHandler(data: Data("not an image".utf8))
        let outcomes = await handler.performAll([DetectBarcodesRequest(), DetectRectanglesRequest()])
        #expect(outcomes.map { $0.error?.code } == [.invalidImage, .invalidImage])
        await #expect(throws: VisionError.self) { _ = try await handler.perform(DetectBarcodesRequest()) }
    }

    @Test func requestOnFileURL() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ov-handler-\(UUID()).png")
        try Self.scene().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let codes = try await DetectBarcodesRequest().perform(on: url)
        #expect(codes.first?.payloadString == "handler")
    }
}

extension HandlerTests {
    @Test func outcomesAreTypedByRequestNotByValue() async throws {
        // Text finds nothing here ([]), which must not be mistaken for the barcodes' results.
        let handler = ImageRequestHandler(image: try BarcodeGenerator.image(for: "typed", symbology: .qr))
        let outcomes = await handler.performAll([RecognizeTextRequest(), DetectBarcodesRequest()])
        #expect(outcomes[0].results(as: DetectBarcodesRequest.self) == nil)
        #expect(outcomes[0].results(as: RecognizeTextRequest.self) != nil)
        #expect(outcomes[1].results(as: DetectBarcodesRequest.self)?.first?.payloadString == "typed")
    }
}

extension HandlerTests {
    @Test func cancelledTasksGetTypedCancellationErrors() async throws {
        let handler = ImageRequestHandler(image: try BarcodeGenerator.image(for: "cancel", symbology: .qr))
        let task = Task { () -> (VisionError.Code?, [VisionError.Code?]) in
            while !Task.isCancelled { await Task.yield() }
            var single: VisionError.Code?
            do { _ = try await handler.perform(DetectBarcodesRequest()) } catch let error as VisionError {
                single = error.code
            } catch {}
            let all = await handler.performAll([DetectBarcodesRequest(), DetectRectanglesRequest()]).map {
                $0.error?.code
            }
            return (single, all)
        }
        task.cancel()
        let (single, all) = await task.value
        #expect(single == VisionError.Code.cancelled)
        #expect(all == [.cancelled, .cancelled])
    }
}
