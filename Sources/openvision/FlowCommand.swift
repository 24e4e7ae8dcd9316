import ArgumentParser
import Foundation
import OpenVision

/// `openvision flow A B --out flow.png`: the dense optical flow from A to B, drawn with the Middlebury colour wheel.
struct FlowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flow",
        abstract: "Compute the dense optical flow from the first image to the second (DIS optical flow).",
        discussion: """
            Prints JSON (docs/json-schema.md) with "opticalFlow": the field's size, mean displacement and largest
            displacement in pixels (y down), and the paths written. --out draws the field with the Middlebury
            colour wheel (hue: direction, saturation: length; white: still); --npy keeps the exact Float32
            field (height × width × 2: dx, dy). Both images must have the same size.
            """
    )

    @Argument(help: "The first image (the flow starts here).") var first: String
    @Argument(help: "The second image.") var second: String
    @Option(name: .shortAndLong, help: "Write the colour-wheel rendering here (PNG).") var out: String?
    @Option(help: "Write the exact field as a NumPy .npy file here.") var npy: String?
    @Option(help: "Computation accuracy: low, medium, high, veryHigh (DIS presets; see docs).")
    var accuracy: String = "medium"
    @Option(help: "Displacement in pixels drawn fully saturated (default: the largest in the field).")
    var maxMagnitude: Double?

    func run() async throws {
        guard let level = GenerateOpticalFlowRequest.ComputationAccuracy(rawValue: accuracy) else {
            throw ValidationError("unknown accuracy '\(accuracy)'; choose from low, medium, high, veryHigh")
        }
        if let maxMagnitude, !(maxMagnitude.isFinite && maxMagnitude > 0) {
            throw ValidationError("--max-magnitude must be a positive number")
        }
        do {
            let pair = try await ImagePair(first, second, color: false)
            let (from, to) = (pair.first, pair.second)
            var request = GenerateOpticalFlowRequest(targetImage: to)
            request.computationAccuracy = level
            let flow = try await ImageRequestHandler(image: from).perform(request)
            // The field's files: its Middlebury colour rendering (`--out`) and exact values (`--npy`).
            if let out { try flow.flowColorImage(maximumMagnitude: maxMagnitude).write(to: URL(fileURLWithPath: out)) }
            if let npy { try flow.writeNPY(to: URL(fileURLWithPath: npy)) }
            var report = AnalysisReport(image: first, width: from.width, height: from.height)
            request.reportable(flow).add(to: &report, files: ["": AnalysisReport.MapFiles(png: out, npy: npy)])
            try ReportOutput.emit(report, format: .json, pretty: true)
        } catch let error as VisionError {
            FileHandle.standardError.write(Data("openvision: error: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }
}
