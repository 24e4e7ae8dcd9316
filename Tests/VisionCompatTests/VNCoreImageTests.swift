import Foundation
import OpenVisionTestSupport
import Testing
import Vision

/// Vision's Core Image entry points: `VNImageRequestHandler(ciImage:…)`, `targetedCIImage:` and the sequence
/// handler give what the same pixels give through OpenVision.
@Suite(.serialized) struct VNCoreImageTests {
    static let dog = try! VisionImage(contentsOf: Fixtures.sharedImage("dog.jpg"))

    /// The registration sample (ImageRegistration.swift): the reference and the floating image as CIImages; a
    /// floating image moved 6 px right (Core Image's x runs as the pixels' columns) is the translation OpenVision
    /// finds for the same shift made by OpenCV.
    @Test func targetedCIImageRegistersAsTheSamePixels() throws {
        let reference = CIImage(cgImage: CGImage(visionImage: Self.dog))
        // Clamped, so that the 6 uncovered columns repeat the edge as `warpedPerspective`'s replicated border does.
        let floating = reference.clampedToExtent().transformed(by: CGAffineTransform(translationX: 6, y: 0))
            .cropped(to: reference.extent)
        let shifted = try Self.dog.warpedPerspective(
            by: Matrix3x3(rowMajor: [1, 0, 6, 0, 1, 0, 0, 0, 1]),
            width: Self.dog.width, height: Self.dog.height, origin: .upperLeft)
        #expect(try floating.recipe.renderedImage().rgbData() == shifted.rgbData())
        let request = VNTranslationalImageRegistrationRequest(targetedCIImage: floating)
        try VNImageRequestHandler(ciImage: reference, options: [:]).perform([request])
        let observation = try #require(request.results?.first as? VNImageTranslationAlignmentObservation)
        let native = try #require(
            try TranslationalImageRegistrationRequest(targetImage: shifted)
                .perform(in: ImageRequestHandler(image: Self.dog).context))
        #expect(Double(observation.alignmentTransform.tx) == native.tx)
        #expect(Double(observation.alignmentTransform.ty) == native.ty)
    }

    /// The classification sample: a CIImage with an orientation gives what the turned image gives; an unbounded
    /// image is each request's error.
    @Test func ciImageHandlerOrientsAndRefusesUnboundedImages() throws {
        let image = CIImage(cgImage: CGImage(visionImage: Self.dog))
        let viaCI = VNClassifyImageRequest()
        try VNImageRequestHandler(ciImage: image, orientation: .right).perform([viaCI])
        let viaCG = VNClassifyImageRequest()
        try VNImageRequestHandler(cgImage: CGImage(visionImage: Self.dog), orientation: .right).perform([viaCG])
        let ciLabels = (viaCI.results as? [VNClassificationObservation])?.prefix(5).map(\.identifier)
        let cgLabels = (viaCG.results as? [VNClassificationObservation])?.prefix(5).map(\.identifier)
        #expect(ciLabels != nil && ciLabels == cgLabels)

        let unbounded = VNClassifyImageRequest()
        #expect(throws: (any Error).self) {
            try VNImageRequestHandler(ciImage: CIImage(color: .red)).perform([unbounded])
        }
        let sequence = VNSequenceRequestHandler()
        let again = VNClassifyImageRequest()
        try sequence.perform([again], on: image, orientation: .right)
        #expect((again.results as? [VNClassificationObservation])?.prefix(5).map(\.identifier) == ciLabels)
    }
}
