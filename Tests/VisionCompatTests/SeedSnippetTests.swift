import CoreML
import Foundation
import OpenVisionTestSupport
import Testing
import Vision

// The seeds' Vision and Core ML code (../shared/seeds), copied as the seeds give it; only UIKit /
// AVFoundation / ARKit lines are replaced by their smallest Linux equivalent (marked "Linux:").
// Each test checks the results the seed describes on the shared photos, against OpenVision's own requests.

/// Seed 004 (Classifying Images with Vision and Core ML): `ImagePredictor`.
final class ImagePredictor {
    // Linux: the model file instead of Xcode's generated `MobileNet` class.
    static let modelURL = ModelLocator.find("efficientnet-lite0.onnx")!

    static func createImageClassifier() -> VNCoreMLModel {
        // Use a default model configuration.
        let defaultConfig = MLModelConfiguration()

        // Create an instance of the image classifier's wrapper class.
        // Linux: MLModel(contentsOf:configuration:) instead of `MobileNet(configuration:)`.
        let imageClassifierWrapper = try? MLModel(contentsOf: modelURL, configuration: defaultConfig)

        guard let imageClassifier = imageClassifierWrapper else {
            fatalError("App failed to create an image classifier model instance.")
        }

        // Get the underlying model instance.
        let imageClassifierModel = imageClassifier

        // Create a Vision instance using the image classifier's model instance.
        guard let imageClassifierVisionModel = try? VNCoreMLModel(for: imageClassifierModel) else {
            fatalError("App failed to create a `VNCoreMLModel` instance.")
        }

        return imageClassifierVisionModel
    }

    /// A common image classifier instance that all Image Predictor instances use to generate predictions.
    private static let imageClassifier = createImageClassifier()

    /// The function signature the caller must provide as a completion handler.
    typealias ImagePredictionHandler = (_ predictions: [Prediction]?) -> Void

    struct Prediction {
        let classification: String
        let confidencePercentage: String
    }

    /// A dictionary of prediction handler functions, each keyed by its Vision request.
    private var predictionHandlers = [VNRequest: ImagePredictionHandler]()

    /// Generates a new request instance that uses the Image Predictor's image classifier model.
    private func createImageClassificationRequest() -> VNImageBasedRequest {
        // Create an image classification request with an image classifier model.
        let imageClassificationRequest = VNCoreMLRequest(
            model: ImagePredictor.imageClassifier,
            completionHandler: visionRequestHandler)

        imageClassificationRequest.imageCropAndScaleOption = .centerCrop
        return imageClassificationRequest
    }

    /// Generates an image classification prediction for a photo.
    func makePredictions(
        for photo: CGImage, orientation: CGImagePropertyOrientation = .up,
        completionHandler: @escaping ImagePredictionHandler
    ) throws {
        // Linux: the seed reads `photo.cgImage` from a UIImage and converts its orientation.
        let photoImage = photo

        let imageClassificationRequest = createImageClassificationRequest()
        predictionHandlers[imageClassificationRequest] = completionHandler

        let handler = VNImageRequestHandler(cgImage: photoImage, orientation: orientation)
        let requests: [VNRequest] = [imageClassificationRequest]

        // Start the image classification request.
        try handler.perform(requests)
    }

    /// The completion handler method that Vision calls when it completes a request.
    private func visionRequestHandler(_ request: VNRequest, error: Error?) {
        // Remove the caller's handler from the dictionary and keep a reference to it.
        guard let predictionHandler = predictionHandlers.removeValue(forKey: request) else {
            fatalError("Every request must have a prediction handler.")
        }

        // Start with a `nil` value in case there's a problem.
        var predictions: [Prediction]? = nil

        // Call the client's completion handler after the method returns.
        defer {
            // Send the predictions back to the client.
            predictionHandler(predictions)
        }

        // Check for an error first.
        if let error = error {
            print("Vision image classification error...\n\n\(error.localizedDescription)")
            return
        }

        // Check that the results aren't `nil`.
        if request.results == nil {
            print("Vision request had no results.")
            return
        }

        // Cast the request's results as an `VNClassificationObservation` array.
        guard let observations = request.results as? [VNClassificationObservation] else {
            // Image classifiers, like MobileNet, only produce classification observations.
            // However, other Core ML model types can produce other observations.
            // For example, a style transfer model produces `VNPixelBufferObservation` instances.
            print("VNRequest produced the wrong result type: \(type(of: request.results)).")
            return
        }

        // Create a prediction array from the observations.
        predictions = observations.map { observation in
            // Convert each observation into an `ImagePredictor.Prediction` instance.
            Prediction(
                classification: observation.identifier,
                confidencePercentage: observation.confidencePercentageString)
        }
    }
}

extension VNClassificationObservation {
    /// Generates a string of the observation's confidence as a percentage (seed 004's helper).
    var confidencePercentageString: String {
        let percentage = confidence * 100

        switch percentage {
        case 100.0...:
            return "100%"
        case 10.0..<100.0:
            return String(format: "%2.1f", percentage)
        case 1.0..<10.0:
            return String(format: "%2.1f", percentage)
        case ..<1.0:
            return String(format: "%1.2f", percentage)
        default:
            return String(format: "%2.1f", percentage)
        }
    }
}

@Suite(.serialized) struct SeedSnippetTests {
    /// Seed 004: the eagle, classified with centre crop, as OpenVision's ClassifyImageRequest with the same model.
    @Test func seed004ClassifiesWithCentreCrop() throws {
        let eagle = try VisionImage(contentsOf: Fixtures.sharedImage("eagle.jpg"))
        let photo = CGImage(visionImage: eagle)
        var received: [ImagePredictor.Prediction]?
        try ImagePredictor().makePredictions(for: photo) { received = $0 }
        let predictions = try #require(received)

        var native = ClassifyImageRequest(model: try VisionModel(contentsOf: ImagePredictor.modelURL))
        native.imageCropAndScaleOption = .centerCrop
        native.maximumObservations = 0
        let expected = try native.perform(in: ImageRequestHandler(image: eagle).context)
        #expect(predictions.count == expected.count)
        #expect(predictions.prefix(5).map(\.classification) == expected.prefix(5).map(\.identifier))
        // README: bald eagle 0.319, kite 0.302 on eagle.jpg.
        #expect(predictions.first?.classification.hasPrefix("bald eagle") == true)
        #expect(predictions.first?.confidencePercentage == String(format: "%2.1f", expected[0].confidence * 100))
    }
}
