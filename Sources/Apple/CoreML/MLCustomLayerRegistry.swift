import Foundation
import OpenVision

/// Where a Linux app registers its `MLCustomLayer` classes: the one line that replaces Core ML's lookup of the class
/// by its Objective-C name. Register before loading a model that uses the class; a model whose custom layer class is
/// not registered fails to load with an error naming the class and this line.
///
///     MLCustomLayerRegistry.register(Swish.self, forClassName: "Swish")
public enum MLCustomLayerRegistry {
    /// Registers `layerClass` for the layers whose class name is `className` (default: the Swift type's own name,
    /// `"Swish"` for `Swish`), replacing an earlier registration of that name.
    public static func register<Layer: MLCustomLayer>(_ layerClass: Layer.Type, forClassName className: String? = nil) {
        CustomLayerRegistry.register(className: className ?? String(describing: layerClass)) { definition in
            var parameters: [String: Any] = [:]
            for (name, value) in definition.parameters {
                switch value {
                case .double(let v): parameters[name] = v
                case .int(let v): parameters[name] = v
                case .bool(let v): parameters[name] = v
                case .string(let v): parameters[name] = v
                }
            }
            let layer = try Layer(parameters: parameters)
            try layer.setWeightData(definition.weights)
            return MLCustomLayerAdapter(layer)
        }
    }

    /// Removes the registration of `className`; models loaded later refuse its layers.
    public static func unregister(className: String) {
        CustomLayerRegistry.unregister(className: className)
    }
}

/// An `MLCustomLayer` as OpenVision's `CustomLayer`: shapes as `NSNumber`s, tensors as `MLMultiArray`s over the same
/// memory.
final class MLCustomLayerAdapter: CustomLayer {
    let layer: any MLCustomLayer

    init(_ layer: any MLCustomLayer) { self.layer = layer }

    func outputShapes(forInputShapes shapes: [[Int]]) throws -> [[Int]] {
        try layer.outputShapes(forInputShapes: shapes.map { $0.map { NSNumber(value: $0) } }).map { $0.map(\.intValue) }
    }

    func evaluate(inputs: [CustomLayerTensor], outputs: [CustomLayerTensor]) throws {
        try layer.evaluate(inputs: inputs.map(Self.array), outputs: outputs.map(Self.array))
    }

    /// Backs arrays of no elements (whose tensor has no buffer).
    nonisolated(unsafe) private static let empty = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)

    /// A float32 `MLMultiArray` over `tensor`'s buffer (row-major, not freed by the array).
    static func array(_ tensor: CustomLayerTensor) throws -> MLMultiArray {
        let strides = MLMultiArray.rowMajorStrides(tensor.shape)
        return try MLMultiArray(
            dataPointer: tensor.baseAddress.map { UnsafeMutableRawPointer($0) } ?? empty,
            shape: tensor.shape.map { NSNumber(value: $0) }, dataType: .float32,
            strides: strides.map { NSNumber(value: $0) })
    }
}
