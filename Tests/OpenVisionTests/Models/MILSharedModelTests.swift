import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

@testable import OpenVisionConverters

/// The shared ML Programs (../shared/models/coreml) lowered to ONNX and run on the shared inputs,
/// against the references of make_coreml_fixtures.py: the source network in fp32 arithmetic with the
/// file's own fp16 weights substituted (`references_stored_weights`), which is what the lowering
/// computes (fp16 weights and constants widened exactly, fp32 arithmetic).
@Suite struct MILSharedModelTests {
    struct ClassifierReference: Decodable {
        struct Entry: Decodable {
            struct Top: Decodable { var index: Int }
            var input_png: String
            var top5: [Top]
            var classLabelProbs: [Float]
        }
        var references_stored_weights: [String: Entry]
        var references: [String: Entry]
    }

    struct DetectorReference: Decodable {
        struct Row: Decodable {
            var row: Int
            var coordinates: [Float]
            var confidence: [String: Float]
        }
        struct Entry: Decodable {
            var input_png: String
            var raw_rows: Int
            var raw_nonzero_rows: [Row]
        }
        var references_stored_weights: [String: Entry]
    }

    static func model(_ package: String) throws -> (VisionModel, MILProgram, URL) {
        let (program, blobs) = try MILTestModels.package(package)
        let url = try MILTestModels.onnxFile(program, blobs: blobs)
        var configuration = VisionModel.Configuration()
        configuration.backend = .onnxRuntime
        configuration.threads = 2
        return (try VisionModel(contentsOf: url, configuration: configuration), program, url)
    }

    /// MobileNetLike.mlpackage (ML Program, CoreML5, fp16 weights, a `classify` op): probabilities within
    /// 1e-5 of the stored-weights reference (measured: 3.7e-7), the same top-5, and the same top-1 as the
    /// fp32 source network.
    @Test func mobileNetLikeMatchesStoredWeightsReference() throws {
        let reference = try JSONDecoder().decode(
            ClassifierReference.self,
            from: Data(
                contentsOf:
                    MILTestModels.coreml.appendingPathComponent("references/MobileNetLike_mlpackage.json")))
        let (model, program, url) = try Self.model("MobileNetLike.mlpackage")
        defer { try? FileManager.default.removeItem(at: url) }
        let classifier = try #require(program.classifier)
        #expect(classifier.labels.count == 1000)
        #expect(classifier.labels.first == "tench, Tinca tinca")
        #expect(program.mainInputs == [MILValueDescription(name: "image", dataType: "fp32", shape: [1, 3, 224, 224])])
        for (image, expected) in reference.references_stored_weights.sorted(by: { $0.key < $1.key }) {
            let input = try MILTestModels.pixels(
                MILTestModels.coreml.appendingPathComponent(expected.input_png), name: "image")
            let outputs = try model.prediction(from: [input])
            let label = try #require(outputs.first { $0.name == classifier.labelOutput })
            let probabilities = try #require(outputs.first { $0.name == classifier.probabilitiesOutput })
            try #require(probabilities.scalars.count == 1000)
            let worst = zip(probabilities.scalars, expected.classLabelProbs).map { abs($0 - $1) }.max() ?? 1
            #expect(worst < 1e-5, "\(image): max |p − reference| = \(worst)")
            let top5 = probabilities.scalars.indices.sorted { probabilities.scalars[$0] > probabilities.scalars[$1] }
                .prefix(5)
            #expect(Array(top5) == expected.top5.map(\.index), "\(image)")
            #expect(Int(label.scalars[0]) == expected.top5[0].index)
            #expect(
                Int(label.scalars[0]) == reference.references[image]?.top5[0].index,
                "\(image): top-1 of the fp32 source")
        }
    }

    /// YoloFastestPipeline.mlpackage's ML Program (the raw rows before NMS): the same rows above the 0.2
    /// cut as the stored-weights reference, coordinates within 5e-4 (the file's fp16 grid and anchor
    /// constants move them by up to 2.4e-4) and confidences within 1e-3 (its fp16 leaky-ReLU slope,
    /// 0.0999756 for 0.1, moves them by up to 3.1e-4; with 0.1 they agree within 2e-6).
    @Test func yoloFastestProgramMatchesStoredWeightsReference() throws {
        let reference = try JSONDecoder().decode(
            DetectorReference.self,
            from: Data(
                contentsOf:
                    MILTestModels.coreml.appendingPathComponent("references/YoloFastestPipeline_mlpackage.json")))
        let (model, program, url) = try Self.model("YoloFastestPipeline.mlpackage")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(program.mainOutputs.map(\.name) == ["raw_confidence", "raw_coordinates"])
        for (image, expected) in reference.references_stored_weights.sorted(by: { $0.key < $1.key }) {
            let input = try MILTestModels.pixels(
                MILTestModels.coreml.appendingPathComponent(expected.input_png), name: "image")
            let outputs = try model.prediction(from: [input])
            let confidence = try #require(outputs.first { $0.name == "raw_confidence" })
            let coordinates = try #require(outputs.first { $0.name == "raw_coordinates" })
            #expect(confidence.shape == [expected.raw_rows, 80] && coordinates.shape == [expected.raw_rows, 4])
            let rows = (0..<expected.raw_rows).filter { r in (0..<80).contains { confidence.scalars[r * 80 + $0] > 0 } }
            #expect(rows == expected.raw_nonzero_rows.map(\.row), "\(image): rows above the cut")
            var coordinateError: Float = 0
            var confidenceError: Float = 0
            for row in expected.raw_nonzero_rows {
                for k in 0..<4 {
                    coordinateError = max(
                        coordinateError, abs(coordinates.scalars[row.row * 4 + k] - row.coordinates[k]))
                }
                let mine = (0..<80).map { confidence.scalars[row.row * 80 + $0] }.filter { $0 > 0 }.sorted()
                let theirs = row.confidence.values.sorted()
                #expect(mine.count == theirs.count, "\(image) row \(row.row)")
                for (a, b) in zip(mine, theirs) { confidenceError = max(confidenceError, abs(a - b)) }
            }
            #expect(coordinateError < 5e-4, "\(image): coordinates off by \(coordinateError)")
            #expect(confidenceError < 1e-3, "\(image): confidences off by \(confidenceError)")
        }
    }
}
