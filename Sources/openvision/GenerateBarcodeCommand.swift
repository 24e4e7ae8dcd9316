import ArgumentParser
import Foundation
import OpenVision

/// `openvision barcode`: writes a barcode image (for labels and tests).
struct GenerateBarcodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barcode",
        abstract: "Write a barcode image with zxing-cpp's writer."
    )

    @Argument(help: "The payload text.")
    var payload: String

    @Option(
        name: .shortAndLong, help: "Symbology: \(BarcodeSymbology.creatable.map(\.rawValue).joined(separator: ", ")).")
    var symbology: String = "qr"

    @Option(name: .shortAndLong, help: "Output image file (.png, .jpg, ...).")
    var output: String

    @Option(help: "Pixels per module.")
    var moduleSize: Int = 4

    func run() async throws {
        guard let symbology = BarcodeSymbology(rawValue: symbology) else {
            throw ValidationError("unknown symbology '\(symbology)'")
        }
        do {
            try BarcodeGenerator.image(for: payload, symbology: symbology, moduleSize: moduleSize)
                .write(to: URL(fileURLWithPath: output))
        } catch {
            FileHandle.standardError.write(Data("openvision: error: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }
}
