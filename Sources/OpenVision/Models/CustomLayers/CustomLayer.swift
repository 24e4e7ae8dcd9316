/// A layer of a model that the app implements in code: a Core ML custom layer (`NeuralNetworkLayer.custom`, which
/// Core ML apps implement with `MLCustomLayer`) runs at its place in the converted graph by calling the class
/// registered for its class name (`CustomLayerRegistry`), while ONNX Runtime runs the layers around it.
///
/// - Important: Calls to one layer instance are serialized; different layers (and models) may run at once.
public protocol CustomLayer: AnyObject {
    /// The shapes of the layer's outputs for inputs of `shapes` (rank 5 `[Seq, Batch, C, H, W]` in old Core ML
    /// networks, as Core ML gives them). Called when the model is converted and loaded, and before each evaluation.
    func outputShapes(forInputShapes shapes: [[Int]]) throws -> [[Int]]

    /// Computes `outputs` (allocated with the shapes `outputShapes` gave) from `inputs`, float32 values in place.
    /// The tensors are valid only during the call.
    func evaluate(inputs: [CustomLayerTensor], outputs: [CustomLayerTensor]) throws
}
