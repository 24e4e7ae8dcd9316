import Foundation

/// A Core ML custom layer (`NeuralNetworkLayer.custom`, `CustomLayerParams`): a layer the app implements in code
/// (`MLCustomLayer`), named by its class. The converter keeps it as one node of the ONNX graph
/// (`CoreMLCustomLayer.opType` in `CoreMLCustomLayer.domain`, attribute `index` = its place in the graph's metadata
/// list under `CoreMLCustomLayer.metadataKey`), which the runtime hands to the registered class.
package struct CoreMLCustomLayer: Sendable, Codable, Equatable {
    /// A `CustomLayerParamValue`: one of double, string, int32/int64 or bool.
    package enum Parameter: Sendable, Codable, Equatable {
        case double(Double)
        case string(String)
        case int(Int64)
        case bool(Bool)
    }

    /// The class the app registers for this layer (`className`).
    package var className: String
    /// The layer's name in the network.
    package var layerName: String
    /// `description` of the layer.
    package var summary: String
    /// `parameters`, by name.
    package var parameters: [String: Parameter]
    /// Each `WeightParams` as bytes, in order: `floatValue` as little-endian float32, otherwise the bytes of
    /// `float16Value`, `rawValue` or `int8RawValue` as stored (what Core ML hands `setWeightData`).
    package var weights: [Data]
    /// The shapes of the layer's inputs as Core ML gives them to `outputShapes(forInputShapes:)` (rank 5
    /// `[Seq, Batch, C, H, W]` in old networks).
    package var inputShapes: [[Int]]
    /// The shapes the app's class gave for its outputs when the model was converted.
    package var outputShapes: [[Int]]
    /// True in old (rank-5) networks, whose ONNX values are rank 4 `[Seq × Batch, C, H, W]`.
    package var rank5: Bool

    /// The ONNX domain of custom-layer nodes.
    package static let domain = "org.openvision.coreml"
    /// The ONNX operator of custom-layer nodes.
    package static let opType = "CustomLayer"
    /// The metadata key holding the JSON list of the graph's custom layers.
    package static let metadataKey = "coreml_custom_layers"
    /// What the registration line looks like, for messages.
    package static func registration(_ className: String) -> String {
        "MLCustomLayerRegistry.register(\(className).self, forClassName: \"\(className)\")"
    }

    /// Gives the output shapes of a custom layer from its class (registered by the app), or throws; a conversion
    /// meeting a custom layer without one is `.unsupported`. Set around a conversion with `$shapes.withValue`.
    /// (A class, not a bare closure: a task-local of function type crashed `swift_task_localValuePush` in release.)
    @TaskLocal package static var shapes: ShapeResolver?

    /// The app's side of a conversion with custom layers: the output shapes of a layer.
    package final class ShapeResolver: Sendable {
        package let resolve: @Sendable (CoreMLCustomLayer) throws -> [[Int]]

        package init(_ resolve: @escaping @Sendable (CoreMLCustomLayer) throws -> [[Int]]) { self.resolve = resolve }
    }

    /// The custom layers listed in a converted graph's metadata (`metadataKey`).
    package static func decode(_ json: String) throws -> [CoreMLCustomLayer] {
        do {
            return try JSONDecoder().decode([CoreMLCustomLayer].self, from: Data(json.utf8))
        } catch {
            throw ConversionError(.syntax, "the graph's custom layer list does not read: \(error)")
        }
    }

    /// The JSON list stored under `metadataKey`.
    package static func encode(_ layers: [CoreMLCustomLayer]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(layers)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
