import ArgumentParser
import Foundation
import OpenVision

/// `openvision register A B`: the transform aligning B with A (translation, or homography with --homographic).
struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Find the translation (or homography) that aligns the second image with the first.",
        discussion: """
            Prints JSON (docs/json-schema.md; --format text for a line): "translation" {tx, ty} or "homography" {warpTransform, openCVTransform},
            in pixels; warpTransform and tx/ty use Vision's lower-left origin (y up), openCVTransform top-left.
            Both images must have the same size. Exit status 1 on an error, 2 when no alignment was found
            (a flat image, or too few matching features for --homographic).
            """
    )

    @Argument(help: "The reference image.") var reference: String
    @Argument(help: "The image to align with the reference.") var target: String
    @Flag(help: "Find a homography (perspective warp: ORB + RANSAC) instead of a translation (phase correlation).")
    var homographic = false
    @Option(name: .shortAndLong, help: "Write the target warped onto the reference here (PNG, JPEG, …).")
    var out: String?
    @Option(name: .shortAndLong, help: "Output format: json (default) or text.")
    var format: OutputFormat = .json

    func run() async throws {
        do {
            let pair = try await ImagePair(reference, target, color: out != nil)
            let (referenceImage, targetImage) = (pair.first, pair.second)
            let handler = ImageRequestHandler(image: referenceImage)
            var report = AnalysisReport(image: reference, width: referenceImage.width, height: referenceImage.height)
            let warp: Matrix3x3?
            if homographic {
                let result = try await handler.perform(HomographicImageRegistrationRequest(targetImage: targetImage))
                result.add(to: &report)
                warp = result?.warpTransform
            } else {
                let result = try await handler.perform(TranslationalImageRegistrationRequest(targetImage: targetImage))
                result.add(to: &report)
                warp = result.map { Matrix3x3(rowMajor: [1, 0, $0.tx, 0, 1, $0.ty, 0, 0, 1]) }
            }
            try ReportOutput.emit(report, format: format, pretty: true)
            guard let warp else {
                FileHandle.standardError.write(
                    Data("openvision: no alignment found (flat image or no matching features)\n".utf8))
                throw ExitCode(2)
            }
            if let out {
                try targetImage.warpedPerspective(by: warp, width: referenceImage.width, height: referenceImage.height)
                    .write(to: URL(fileURLWithPath: out))
            }
        } catch let error as VisionError {
            FileHandle.standardError.write(Data("openvision: error: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }
}
