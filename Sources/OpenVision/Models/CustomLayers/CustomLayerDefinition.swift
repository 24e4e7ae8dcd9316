import Foundation

/// What a model file says about one custom layer: its class, its name, its parameters and its weights, given to the
/// factory registered for the class (`CustomLayerRegistry`).
public struct CustomLayerDefinition: Sendable, Hashable {
    /// A parameter's value (Core ML's `CustomLayerParamValue`).
    public enum Parameter: Sendable, Hashable {
        /// A `doubleValue`.
        case double(Double)
        /// A `stringValue`.
        case string(String)
        /// An `intValue` or `longValue`.
        case int(Int)
        /// A `boolValue`.
        case bool(Bool)
    }

    /// The class name the file gives (`className`), which the app registers.
    public let className: String
    /// The layer's name in the network.
    public let layerName: String
    /// The layer's parameters by name.
    public let parameters: [String: Parameter]
    /// The layer's weight blobs in file order: float weights as little-endian float32 bytes, others (float16, raw,
    /// int8) as stored.
    public let weights: [Data]

    /// A definition of `className`'s layer `layerName` with `parameters` and `weights`.
    public init(className: String, layerName: String, parameters: [String: Parameter], weights: [Data]) {
        self.className = className
        self.layerName = layerName
        self.parameters = parameters
        self.weights = weights
    }
}
