import Foundation
import Testing
import Vision

#if canImport(AppleClassify2)
    @testable import AppleClassify2
#endif
#if canImport(AppleFeatureprint)
    @testable import AppleFeatureprint
#endif
#if canImport(AppleMarshabitat)
    @testable import AppleMarshabitat
#endif
#if canImport(AppleReceipts)
    @testable import AppleReceipts
#endif
#if canImport(AppleTextscanner)
    @testable import AppleTextscanner
#endif
#if canImport(Coremlhelpers)
    @testable import Coremlhelpers
#endif
#if canImport(Wescan)
    import CoreImage
    @testable import Wescan
#endif

/// Corpus files called on images, their answers checked against OpenVision's own requests or against plain loops.
@Suite struct ImageSampleTests {
    #if canImport(AppleClassify2)
        /// "Classifying Images with Vision and Core ML" (ImagePredictor, with Xcode's generated `MobileNet` from the
        /// shared stand-in model): eagle.jpg's first prediction is the one `Examples/PortedVisionApp` checks.
        @Test func imagePredictorClassifiesTheEagle() throws {
            let eagle = try VisionImage(contentsOf: Corpus.image("eagle.jpg"))
            var received: [ImagePredictor.Prediction]?
            try ImagePredictor().makePredictions(for: CGImage(visionImage: eagle)) { received = $0 }
            let first = try #require(received?.first)
            #expect(["kite", "bald eagle, American eagle, Haliaeetus leucocephalus"].contains(first.classification))
            // The sample's confidencePercentageString: "%2.1f" of the percentage, "100%" only at 100.
            let percent = try #require(Double(first.confidencePercentage))
            #expect(percent > 0 && percent < 100)
        }
    #endif

    #if canImport(AppleFeatureprint)
        /// "Analyzing Image Similarity with Feature Print": the identical photo ranks first, at distance 0.
        @Test func featurePrintRanksTheSamePhotoFirst() throws {
            let results = ResultsViewController()
            results.originalImageURL = Corpus.image("dog.jpg")
            results.contestantImageURLs = ["horses.jpg", "dog.jpg", "giraffe.jpg"].map(Corpus.image)
            results.processImages()
            #expect(results.ranking.count == 3)
            #expect(results.ranking.first?.contestantIndex == 1 && results.ranking.first?.featureprintDistance == 0)
            #expect(results.ranking.dropFirst().allSatisfy { $0.featureprintDistance > 0.1 })
        }
    #endif

    #if canImport(AppleTextscanner)
        /// "Locating and displaying recognized text" (Apple's Swift API): the lines of a rendered page, in order.
        @Test func textScannerReadsRenderedLines() async throws {
            let folder = try Corpus.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let page = try Corpus.textImage(
                ["Vision on Linux", "reads this page"], width: 900, height: 300,
                in: folder, name: "page.png")
            let ocr = OCR()
            try await ocr.performOCR(imageData: try Data(contentsOf: page))
            let lines = ocr.observations.compactMap { $0.topCandidates(1).first?.string }
            #expect(lines == ["Vision on Linux", "reads this page"])
        }
    #endif

    // CoreMLHelpers builds with the CoreImage module (its CGImage+CVPixelBuffer.swift imports it).
    #if canImport(Coremlhelpers)
        /// CoreMLHelpers' vDSP-based math, against plain loops on the same numbers.
        @Test func coreMLHelpersMathMatchesPlainLoops() {
            let x: [Float] = [0.5, -1.25, 3, 2.75, 0]
            let (index, value) = Coremlhelpers.argmax(x)
            #expect(index == 2 && value == 3)
            let e = x.map { exp($0 - 3) }
            let total = e.reduce(0, +)
            for (a, b) in zip(Coremlhelpers.softmax(x), e.map { $0 / total }) { #expect(abs(a - b) < 1e-6) }
            var y = x
            Coremlhelpers.sigmoid(&y, count: y.count)
            for (a, b) in zip(y, x.map { 1 / (1 + exp(-$0)) }) { #expect(abs(a - b) < 1e-6) }
            // Two overlapping boxes of one class and one apart: the weaker overlapping one goes (IoU 0.68 > 0.5).
            let boxes = [
                BoundingBox(classIndex: 0, score: 0.9, rect: CGRect(x: 0, y: 0, width: 10, height: 10)),
                BoundingBox(classIndex: 0, score: 0.8, rect: CGRect(x: 1, y: 1, width: 10, height: 10)),
                BoundingBox(classIndex: 0, score: 0.7, rect: CGRect(x: 50, y: 50, width: 10, height: 10)),
            ]
            #expect(abs(IOU(boxes[0].rect, boxes[1].rect) - Float(81.0 / 119.0)) < 1e-6)
            #expect(nonMaxSuppression(boundingBoxes: boxes, iouThreshold: 0.5, maxBoxes: 10) == [0, 2])
        }

        /// CoreMLHelpers' vImage helpers: a quarter turn moves the pixels as numpy's `rot90` moves an array's
        /// elements, a resize of a uniform image keeps its colour, and a float array becomes the image of its values.
        @Test func coreMLHelpersVImageHelpers() throws {
            let source = try #require(createPixelBuffer(width: 3, height: 2, pixelFormat: kCVPixelFormatType_32BGRA))
            func pixels(_ buffer: CVPixelBuffer) -> [UInt32] {
                CVPixelBufferLockBaseAddress(buffer, .readOnly)
                defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
                let base = CVPixelBufferGetBaseAddress(buffer)!
                let row = CVPixelBufferGetBytesPerRow(buffer)
                return (0..<CVPixelBufferGetHeight(buffer)).flatMap { y in
                    (0..<CVPixelBufferGetWidth(buffer)).map { x in
                        base.loadUnaligned(fromByteOffset: y * row + x * 4, as: UInt32.self)
                    }
                }
            }
            CVPixelBufferLockBaseAddress(source, [])
            let base = CVPixelBufferGetBaseAddress(source)!
            for y in 0..<2 {
                for x in 0..<3 {
                    base.storeBytes(
                        of: UInt32(y * 3 + x), toByteOffset: y * CVPixelBufferGetBytesPerRow(source) + x * 4,
                        as: UInt32.self)
                }
            }
            CVPixelBufferUnlockBaseAddress(source, [])
            // np.rot90(np.arange(6).reshape(2, 3), 1).reshape(-1)
            let turned = try #require(rotate90PixelBuffer(source, factor: 1))
            #expect(CVPixelBufferGetWidth(turned) == 2 && CVPixelBufferGetHeight(turned) == 3)
            #expect(pixels(turned) == [2, 5, 1, 4, 0, 3])

            let uniform = try #require(createPixelBuffer(width: 40, height: 30, pixelFormat: kCVPixelFormatType_32BGRA))
            CVPixelBufferLockBaseAddress(uniform, [])
            let bytes = CVPixelBufferGetBaseAddress(uniform)!
            for i in 0..<(CVPixelBufferGetBytesPerRow(uniform) * 30 / 4) {
                bytes.storeBytes(of: 0xFF20_6090 as UInt32, toByteOffset: i * 4, as: UInt32.self)
            }
            CVPixelBufferUnlockBaseAddress(uniform, [])
            let small = try #require(resizePixelBuffer(uniform, width: 13, height: 7))
            #expect(CVPixelBufferGetWidth(small) == 13 && CVPixelBufferGetHeight(small) == 7)
            #expect(pixels(small).allSatisfy { $0 == 0xFF20_6090 })

            // Three 1 × 2 planes (B, G, R) over 0…255: clamped and rounded, alpha 255; read back as RGBA bytes.
            let array = try MLMultiArray(shape: [3, 1, 2], dataType: .float32)
            for (i, v) in [Float(0), 300, 127.6, -4, 64.4, 255].enumerated() { array[i] = NSNumber(value: v) }
            let image = try #require(createCGImage(fromFloatArray: array))
            #expect(image.width == 2 && image.height == 1)
            #expect(image.toByteArrayRGBA() == [0, 128, 64, 255, 255, 0, 255, 255])
        }
    #endif

    #if canImport(AppleMarshabitat)
        /// "Integrating a Core ML Model into Your App" (MarsHabitatPricer, the sample's own model): the picker's first
        /// selection (2 solar panels, 3 greenhouses, 1,500 acres) priced by the model's linear regression.
        @Test func marsHabitatPricerPricesTheFirstSelection() {
            // The model's GLM regressor (coremltools: ct.utils.load_spec(path).pipelineRegressor.pipeline.models[1]):
            // 136.726723·2 + 653.511014·3 + 5.854079·1500 − 3751.055878 = 7264.05 (millions), shown as currency:
            // "$7,264" on Apple; swift-corelibs-foundation's currency formatter ignores `maximumFractionDigits = 0`.
            let controller = AppleMarshabitat.ViewController()
            controller.viewDidLoad()
            #expect(controller.priceLabel == "$7,264.05")
        }
    #endif

    #if canImport(AppleReceipts)
        /// "Structuring Recognized Text on a Document": the receipt reader's fields from a rendered receipt — its
        /// name (large, top left), the order number ("#…"), the small line that NSDataDetector reads as a date, and a
        /// large value under its small label.
        @Test func receiptContentsReadARenderedReceipt() throws {
            let folder = try Corpus.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Box heights over the image's: large ≈ 0.04 > 0.025 (the sample's threshold), small ≈ 0.02.
            var canvas = try ImageCanvas(width: 800, height: 1000, color: .white)
            let lines: [(String, Int, Double)] = [
                ("Ristretto", 44, 60), ("#1234", 14, 180), ("Cashier", 14, 260), ("10/22/19 4:36 PM", 14, 340),
                ("Tim", 44, 420),
            ]
            for (text, height, y) in lines {
                try canvas.text(
                    text, at: CGPoint(x: 60, y: y), fontFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                    pixelHeight: height, color: OverlayColor(red: 0, green: 0, blue: 0))
            }
            let url = folder.appendingPathComponent("receipt.png")
            try canvas.makeImage().encoded(as: .png).write(to: url)
            let request = VNRecognizeTextRequest()
            try VNImageRequestHandler(url: url, options: [:]).perform([request])
            let observations = try #require(request.results)
            let controller = ReceiptContentsViewController()
            controller.addRecognizedText(recognizedText: observations)
            #expect(controller.contents.name == "Ristretto")
            #expect(controller.contents.items.map(\.name) == ["Order", "Date", "Cashier"])
            #expect(controller.contents.items.map(\.value) == ["#1234", "10/22/19 4:36 PM", "Tim"])
        }
    #endif

    #if canImport(Wescan)
        /// WeScan's `CIImage.applyingAdaptiveThreshold()` (CIImage+Utils.swift, its Core Image colour kernel) on a
        /// photo: gray, opaque, and at a grid of pixels what numpy gives for the kernel in Core Image's linear working
        /// space (`/usr/bin/python3 -c "import cv2,numpy as np; x=cv2.imread('giraffe.jpg')[...,::-1]/255.0;
        /// l=np.where(x<=0.04045,x/12.92,((x+0.055)/1.055)**2.4); t=np.clip((l@[0.2126,0.7152,0.0722]-0.25)/0.5,0,1);
        /// t=t*t*(3-2*t); o=np.round(255*np.where(t<=0.0031308,12.92*t,1.055*t**(1/2.4)-0.055));
        /// ys=[10,90,170,250,330,410,490]; print(o.mean(), o[np.ix_(ys,ys)])"`).
        @Test func weScanAdaptiveThresholdMatchesNumpy() throws {
            let image = try #require(CIImage(contentsOf: Corpus.image("giraffe.jpg")))
            let thresholded = try #require(image.applyingAdaptiveThreshold())
            #expect(thresholded.width == 500 && thresholded.height == 500)
            let data = try #require(thresholded.dataProvider?.data as Data?)
            let expected: [[Int]] = [
                [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 206, 255, 0], [0, 0, 0, 0, 74, 0, 0], [0, 0, 0, 0, 0, 251, 0],
                [0, 0, 0, 0, 0, 0, 0], [0, 0, 117, 0, 0, 117, 162], [0, 0, 250, 168, 189, 0, 0],
            ]
            let ys = [10, 90, 170, 250, 330, 410, 490]
            for (i, row) in ys.enumerated() {
                for (j, column) in ys.enumerated() {
                    let o = row * thresholded.bytesPerRow + column * 4
                    #expect(abs(Int(data[o]) - expected[i][j]) <= 1, "(\(row), \(column)): \(data[o])")
                }
            }
            var sum = 0
            var notGray = 0
            for row in 0..<500 {
                for column in 0..<500 {
                    let o = row * thresholded.bytesPerRow + column * 4
                    sum += Int(data[o])
                    if data[o] != data[o + 1] || data[o] != data[o + 2] || data[o + 3] != 255 { notGray += 1 }
                }
            }
            #expect(notGray == 0)
            #expect(abs(Double(sum) / 250_000 - 36.710788) < 0.05)
        }
    #endif
}
