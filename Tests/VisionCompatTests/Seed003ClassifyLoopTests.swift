import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Seed 003 (Recognizing and Labeling Arbitrary Objects): the view controller's one-buffer-at-a-time
/// classification loop. Linux: frames come from a loop standing in for ARKit's session (ARFrame's
/// `capturedImage` → an OpenVision image); the Vision lines are the seed's.
final class LabelingViewController {
    // Linux: the default classifier instead of the bundled Inceptionv3 mlmodel.
    lazy var classificationRequest: VNCoreMLRequest = {
        do {
            // Instantiate the model from its generated Swift class.
            let model = try VNCoreMLModel(for: MLModel(contentsOf: ModelLocator.find("efficientnet-lite0.onnx")!))
            let request = VNCoreMLRequest(
                model: model,
                completionHandler: { [weak self] request, error in
                    self?.processClassifications(for: request, error: error)
                })

            // Crop input images to square area at center, matching the way the ML model was trained.
            request.imageCropAndScaleOption = .centerCrop

            // Use CPU for Vision processing to ensure that there are adequate GPU resources for rendering.
            request.usesCPUOnly = true

            return request
        } catch {
            fatalError("Failed to load Vision ML model: \(error)")
        }
    }()

    // The pixel buffer being held for analysis; used to serialize Vision requests.
    private var currentBuffer: CVPixelBuffer?
    private let lock = NSLock()

    // Queue for dispatching vision classification requests
    private let visionQueue = DispatchQueue(label: "com.example.apple-samplecode.ARKitVision.serialVisionQueue")

    // Classification results
    private(set) var identifierString = ""
    private(set) var confidence: VNConfidence = 0.0
    private(set) var classified = 0
    private(set) var skipped = 0
    private(set) var maxInFlight = 0

    // Linux: called for every camera frame (ARSessionDelegate's session(_:didUpdate:) in the seed).
    func session(didUpdate capturedImage: CVPixelBuffer) {
        // Do not enqueue other buffers for processing while another Vision task is still running.
        // The camera stream has only a finite amount of buffers available; holding too many buffers for analysis would starve the camera.
        lock.lock()
        guard currentBuffer == nil else {
            skipped += 1
            lock.unlock()
            return
        }

        // Retain the image buffer for Vision processing.
        self.currentBuffer = capturedImage
        maxInFlight = max(maxInFlight, 1)
        lock.unlock()
        classifyCurrentImage()
    }

    private func classifyCurrentImage() {
        // Most computer vision tasks are not rotation agnostic so it is important to pass in the orientation of the image with respect to device.
        let orientation = CGImagePropertyOrientation.up  // Linux: the camera's orientation (UIDevice in the seed)

        let requestHandler = VNImageRequestHandler(cvPixelBuffer: currentBuffer!, orientation: orientation)
        visionQueue.async {
            do {
                // Release the pixel buffer when done, allowing the next buffer to be processed.
                defer {
                    self.lock.lock()
                    self.currentBuffer = nil
                    self.lock.unlock()
                }
                try requestHandler.perform([self.classificationRequest])
            } catch {
                print("Error: Vision request failed with error \"\(error)\"")
            }
        }
    }

    // Handle completion of the Vision request and choose results to display.
    func processClassifications(for request: VNRequest, error: Error?) {
        guard let results = request.results else {
            print("Unable to classify image.\n\(error!.localizedDescription)")
            return
        }
        // The `results` will always be `VNClassificationObservation`s, as specified by the Core ML model in this project.
        let classifications = results as! [VNClassificationObservation]

        // Show a label for the highest-confidence result (but only above a minimum confidence threshold).
        if let bestResult = classifications.first(where: { result in result.confidence > 0.1 }),
            let label = bestResult.identifier.split(separator: ",").first
        {
            identifierString = String(label)
            confidence = bestResult.confidence
        } else {
            identifierString = ""
            confidence = 0
        }
        classified += 1
    }

    func waitUntilIdle() { visionQueue.sync {} }
}

@Suite struct Seed003ClassifyLoopTests {
    /// 40 frames delivered faster than they are classified: buffers in analysis are never more than one, the
    /// others are skipped (not queued), and the label is the eagle's.
    @Test func oneBufferAtATime() throws {
        // Linux: a camera frame
        let eagle = CVPixelBuffer(visionImage: try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg")))
        let controller = LabelingViewController()
        _ = controller.classificationRequest  // load the model before the frames start
        for _ in 0..<40 {
            controller.session(didUpdate: eagle)
            Thread.sleep(forTimeInterval: 0.001)
        }
        controller.waitUntilIdle()
        #expect(controller.classified >= 1)
        #expect(controller.classified + controller.skipped == 40)
        #expect(controller.skipped > 0, "every frame was classified: the loop did not skip busy frames")
        #expect(controller.maxInFlight == 1)
        #expect(controller.identifierString == "bald eagle")
    }
}
