import ArgumentParser
import Foundation
import OpenVision

enum ModelOutputFormat: String, ExpressibleByArgument { case json, table }

/// Loads a model named on the command line, with a one-line error for bad input.
enum ModelOptions {
    static func load(_ name: String, backend: String, threads: Int) throws -> VisionModel {
        guard let choice = BackendChoice(rawValue: backend) else {
            throw ValidationError("unknown backend '\(backend)'; choose from \(BackendChoice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let url = ModelLocator.find(name) else {
            FileHandle.standardError.write(Data("openvision: error: model '\(name)' not found (searched \(ModelLocator.searchPaths.map(\.path).joined(separator: ", ")))\n".utf8))
            throw ExitCode(1)
        }
        var configuration = VisionModel.Configuration()
        configuration.backend = choice
        configuration.threads = threads
        do {
            return try VisionModel(contentsOf: url, configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("openvision: error: \(error.message) [\(error.code)]\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// JSON / table output of `detect` and `classify`.
struct ModelReport: Codable {
    struct Box: Codable {
        var normalized: NormalizedRect
        var pixels: Pixels
        struct Pixels: Codable { var x, y, width, height: Double }
    }

    struct Object: Codable {
        var label: String
        var confidence: Float
        var box: Box
        var labels: [Label]

        init(_ o: RecognizedObjectObservation, in size: CGSize) {
            label = o.labels.first?.identifier ?? "?"
            confidence = o.confidence
            let p = o.boundingBox.toImageCoordinates(size, origin: .upperLeft)
            box = Box(normalized: o.boundingBox, pixels: .init(x: p.minX, y: p.minY, width: p.width, height: p.height))
            labels = o.labels.map { Label(identifier: $0.identifier, confidence: $0.confidence) }
        }
    }

    struct Label: Codable {
        var identifier: String
        var confidence: Float
    }

    var image: String
    var width: Int
    var height: Int
    var objects: [Object]?
    var classifications: [Label]?
    var timingsMs: [String: Double]?

    init(image: String, width: Int, height: Int) {
        self.image = image
        self.width = width
        self.height = height
    }

    /// Decodes an image file (in colour, as models need), timing it.
    static func decode(_ file: URL) throws -> (VisionImage, Duration) {
        let start = ContinuousClock.now
        let image = try VisionImage(contentsOf: file)
        return (image, ContinuousClock.now - start)
    }

    static func timings(decode: Duration, _ t: InferenceTimings) -> [String: Double] {
        ["decode": decode.milliseconds, "preprocess": t.preprocess.milliseconds, "inference": t.inference.milliseconds,
         "postprocess": t.postprocess.milliseconds]
    }

    func emit(format: ModelOutputFormat, pretty: Bool) throws {
        var text: String
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
            text = String(decoding: try encoder.encode(self), as: UTF8.self)
        case .table:
            var lines = ["\(image) (\(width)×\(height))"]
            for o in objects ?? [] {
                let label = o.label.padding(toLength: max(14, o.label.count), withPad: " ", startingAt: 0)
                lines.append("  \(label)" + String(format: " %.2f  x=%4.0f y=%4.0f w=%4.0f h=%4.0f", o.confidence,
                                                      o.box.pixels.x, o.box.pixels.y, o.box.pixels.width, o.box.pixels.height))
            }
            for c in classifications ?? [] { lines.append(String(format: "  %.3f  %@", c.confidence, c.identifier)) }
            for (k, v) in (timingsMs ?? [:]).sorted(by: { $0.key < $1.key }) { lines.append(String(format: "  time %@ %.1f ms", k, v)) }
            text = lines.joined(separator: "\n")
        }
        BatchRunner.write(text)
    }
}
