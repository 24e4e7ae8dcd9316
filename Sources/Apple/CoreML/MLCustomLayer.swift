import Foundation

/// Core ML's `MLCustomLayer`: a neural-network layer the app implements, named in the model file by its class
/// (`custom { className: "Swish" }`). Core ML finds the class by that name through the Objective-C runtime; Linux has
/// none, so register the class once before loading the model:
///
///     MLCustomLayerRegistry.register(Swish.self, forClassName: "Swish")
///
/// The layer runs at its place in the converted graph (ONNX Runtime runs the layers around it), on float32
/// `MLMultiArray`s over the runtime's own buffers (no copy), rank 5 `[Seq, Batch, C, H, W]` in old networks as in
/// Core ML. Core ML's optional GPU method, `encode(commandBuffer:inputs:outputs:)` (Metal), is absent: layers run on the
/// CPU. Calls to one layer instance are serialized.
public protocol MLCustomLayer: AnyObject {
    /// Makes the layer from the model file's `parameters` (by name: `Double`, `Int`, `Bool` or `String` values, as
    /// Core ML's `NSNumber` and `NSString` bridge). Called once per layer when a model is converted and loaded.
    init(parameters: [String: Any]) throws

    /// Gives the layer the model file's weight blobs, in order (float weights as little-endian float32 bytes,
    /// float16 / raw / int8 weights as stored).
    func setWeightData(_ weights: [Data]) throws

    /// The shapes of the layer's outputs for inputs of `inputShapes`.
    func outputShapes(forInputShapes inputShapes: [[NSNumber]]) throws -> [[NSNumber]]

    /// Computes `outputs` (allocated with the shapes `outputShapes(forInputShapes:)` gave) from `inputs` (float32,
    /// valid only during the call). An error thrown here fails the prediction with a message naming the layer.
    func evaluate(inputs: [MLMultiArray], outputs: [MLMultiArray]) throws
}
