import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@Suite struct OpticalFlowTests {
    // Reference (Python, Debian's cv2 4.6): a=cv2.imread('dog.jpg',0); b = a shifted by (7.3, -4.6) as in
    // RegistrationTests.shifted; f=cv2.DISOpticalFlow_create(p).calc(a,b,None); f[...,0].mean(), f[...,1].mean()
    //   → ULTRAFAST (7.3651, -4.4998), FAST (7.3322, -4.4852), MEDIUM (7.3457, -4.5854);
    //   veryHigh (MEDIUM with setFinestScale(0), setPatchSize(8), setPatchStride(3),
    //   setGradientDescentIterations(25), setVariationalRefinementIterations(10)) → (7.2488, -4.6199)
    @Test(arguments: GenerateOpticalFlowRequest.ComputationAccuracy.allCases)
    func meanFlowOfAKnownShiftWithinPointTwoPixels(_ accuracy: GenerateOpticalFlowRequest.ComputationAccuracy)
        async throws
    {
        let reference = try VisionImage(contentsOf: RegistrationTests.dog)
        let target = try RegistrationTests.shifted(reference, dx: 7.3, dy: -4.6)
        var request = GenerateOpticalFlowRequest(targetImage: target)
        request.computationAccuracy = accuracy
        let flow = try await ImageRequestHandler(image: reference).perform(request)
        #expect(flow.width == reference.width && flow.height == reference.height && flow.channels == 2)
        #expect(flow.featureName == GenerateOpticalFlowRequest.featureName)
        let stats = flow.flowStatistics
        #expect(
            abs(stats.meanDx - 7.3) < 0.2 && abs(stats.meanDy - -4.6) < 0.2,
            "\(accuracy): \(stats.meanDx), \(stats.meanDy)")
        // The middle of the image moved by the shift too.
        #expect(abs(flow[reference.width / 2, reference.height / 2, 0] - 7.3) < 0.5)
    }

    /// ov_optical_flow keeps one DIS instance per accuracy (below veryHigh) for the next call of the same size
    /// and has DIS write into the observation's buffer: the field does not depend on what ran before, bit for
    /// bit. A 64 x 48 pair in between is the case that broke a size-blind reuse (OpenCV's DIS carries state
    /// across pyramid depths: `d=cv2.DISOpticalFlow_create(1); d.calc(a64x48, b64x48, None); d.calc(a, b, None)`
    /// differs from a fresh instance's field by up to 10.8 px with Debian's cv2 4.6).
    @Test func keptInstancesGiveTheSameFieldBitForBit() async throws {
        let reference = try VisionImage(contentsOf: RegistrationTests.dog)
        let target = try RegistrationTests.shifted(reference, dx: 7.3, dy: -4.6)
        let small = try reference.resized(width: 320, height: 240)
        let smallTarget = try RegistrationTests.shifted(small, dx: 2, dy: 1)
        let tiny = try reference.resized(width: 64, height: 48)
        let tinyTarget = try target.resized(width: 64, height: 48)
        for accuracy in GenerateOpticalFlowRequest.ComputationAccuracy.allCases {
            func field(_ a: VisionImage, _ b: VisionImage) async throws -> [Float] {
                var request = GenerateOpticalFlowRequest(targetImage: b)
                request.computationAccuracy = accuracy
                let flow = try await ImageRequestHandler(image: a).perform(request)
                return flow.withUnsafeBufferPointer { Array($0) }
            }
            let first = try await field(reference, target)
            let again = try await field(reference, target)
            let other = try await field(small, smallTarget)
            let afterOther = try await field(reference, target)
            _ = try await field(tiny, tinyTarget)
            let afterTiny = try await field(reference, target)
            #expect(first == again && first == afterOther && first == afterTiny, "\(accuracy)")
            #expect(other.count == 320 * 240 * 2)
        }
    }

    @Test func identicalFramesHaveZeroFlow() async throws {
        let image = try VisionImage(contentsOf: RegistrationTests.dog)
        for accuracy in GenerateOpticalFlowRequest.ComputationAccuracy.allCases {
            var request = GenerateOpticalFlowRequest(targetImage: image)
            request.computationAccuracy = accuracy
            let flow = try await ImageRequestHandler(image: image).perform(request)
            #expect(flow.flowStatistics.maximumMagnitude == 0, "\(accuracy)")
        }
        let flat = try Fixtures.canvas(width: 64, height: 48, gray: 90).makeImage()
        let flatFlow = try await ImageRequestHandler(image: flat).perform(GenerateOpticalFlowRequest(targetImage: flat))
        #expect(flatFlow.flowStatistics.maximumMagnitude == 0)
    }

    @Test func flowStatisticsOfKnownFields() throws {
        // Fields of 1...9 vectors: the 4-vector blocks and the tail, the largest vector in either.
        for count in 1...9 {
            for largest in [0, count - 1] {
                var values = [Float]()
                for k in 0..<count { values += k == largest ? [-6, 8] : [Float(k) * 0.5, -Float(k)] }
                let field = try PixelBufferObservation(width: count, height: 1, channels: 2, values: values)
                let stats = field.flowStatistics
                let dx = (0..<count).map { $0 == largest ? -6.0 : Double($0) * 0.5 }.reduce(0, +) / Double(count)
                let dy = (0..<count).map { $0 == largest ? 8.0 : -Double($0) }.reduce(0, +) / Double(count)
                #expect(abs(stats.meanDx - dx) < 1e-12 && abs(stats.meanDy - dy) < 1e-12, "\(count) vectors")
                let others = (0..<count).filter { $0 != largest }.map { hypot(Double($0) * 0.5, Double($0)) }.max() ?? 0
                #expect(abs(stats.maximumMagnitude - max(10, others)) < 1e-5, "\(count) vectors, largest at \(largest)")
            }
        }
    }

    @Test func trackingGivesTheFlowBetweenConsecutiveFrames() async throws {
        let base = try VisionImage(contentsOf: RegistrationTests.dog).resized(width: 384, height: 288)
        let request = TrackOpticalFlowRequest(computationAccuracy: .high)
        let sequence = SequenceRequestHandler()
        #expect(try await sequence.perform(request, on: base) == nil)
        let next = try RegistrationTests.shifted(base, dx: -4, dy: 3)
        let flow = try #require(try await sequence.perform(request, on: next))
        #expect(abs(flow.flowStatistics.meanDx - -4) < 0.2 && abs(flow.flowStatistics.meanDy - 3) < 0.2)
        await #expect(throws: VisionError.self) {
            _ = try await sequence.perform(request, on: try base.resized(width: 100, height: 80))
        }
    }

    @Test func flowRendersWithTheColourWheelAndArrows() async throws {
        let reference = try VisionImage(contentsOf: RegistrationTests.dog).resized(width: 320, height: 240)
        let target = try RegistrationTests.shifted(reference, dx: 5, dy: 0)
        let flow = try await ImageRequestHandler(image: reference).perform(
            GenerateOpticalFlowRequest(targetImage: target))
        let picture = try flow.flowColorImage()
        #expect(picture.width == 320 && picture.height == 240)
        // The Middlebury wheel (flow_vis's a = atan2(-v, -u) / pi): motion to the right is red, so the
        // centre pixel is red, not white (no motion) nor another hue.
        let rgb = picture.rgbData()
        let centre = (120 * 320 + 160) * 3
        #expect(
            Int(rgb[centre]) > Int(rgb[centre + 2]) + 80 && Int(rgb[centre]) > Int(rgb[centre + 1]) + 80,
            "\(rgb[centre]), \(rgb[centre + 1]), \(rgb[centre + 2])")
        // The request reports its field as a flow (`opticalFlow`, arrows), not as any pixel buffer.
        let reported = GenerateOpticalFlowRequest(targetImage: target).reportable(flow)
        #expect(!reported.overlayItems.isEmpty)
        #expect(reported.maps.count == 1)
        var report = AnalysisReport(image: "x", width: 320, height: 240)
        reported.add(to: &report)
        #expect(abs((report.opticalFlow?.meanDx ?? 0) - 5) < 0.3)
    }
}
