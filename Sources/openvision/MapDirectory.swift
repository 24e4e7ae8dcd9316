import Foundation
import OpenVision

/// `analyze --maps DIR`: image-valued results written as `DIR/<image>.<request>[.<map>].png` (8-bit) and `.npy`
/// (exact Float32), their paths (as given: relative when DIR is) recorded in the JSON.
struct MapDirectory: Sendable {
    var path: String

    /// The output for one image's results.
    func forImage(_ file: URL) -> Output {
        Output(directory: path, stem: file.deletingPathExtension().lastPathComponent)
    }

    struct Output: MapOutput {
        var directory: String
        var stem: String

        func write(_ map: PixelBufferObservation, request: String, name: String) throws(VisionError)
            -> AnalysisReport.MapFiles
        {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw VisionError(.ioError, "cannot create \(directory): \(error.localizedDescription)")
            }
            let base = (directory as NSString).appendingPathComponent(
                stem + "." + request + (name.isEmpty ? "" : "." + name))
            let png = base + ".png"
            let npy = base + ".npy"
            try map.makeImage().write(to: URL(fileURLWithPath: png))
            try map.writeNPY(to: URL(fileURLWithPath: npy))
            return AnalysisReport.MapFiles(png: png, npy: npy)
        }
    }
}
