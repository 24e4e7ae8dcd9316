import Foundation
internal import OpenVisionConverters
import Synchronization

/// The classes that implement models' custom layers, by the class name the model files give. On Apple platforms
/// Core ML finds an `MLCustomLayer` class by its Objective-C name; Linux has no Objective-C runtime, so the app
/// registers each class once, before loading a model that uses it (Core ML apps do it with
/// `MLCustomLayerRegistry.register(Swish.self, forClassName: "Swish")`). A model whose custom layer class is not
/// registered is refused with `unsupported`, naming the class and that line.
public enum CustomLayerRegistry {
    /// Makes a layer for a model's definition (called once per layer and model load, and at conversion).
    public typealias Factory = @Sendable (CustomLayerDefinition) throws -> any CustomLayer

    private static let factories = Mutex<[String: Factory]>([:])

    /// Registers `factory` for the layers of class `className`, replacing any earlier registration. Models already
    /// loaded keep the layers they made.
    public static func register(className: String, _ factory: @escaping Factory) {
        factories.withLock { $0[className] = factory }
    }

    /// Removes the registration of `className` (models loaded later refuse its layers).
    public static func unregister(className: String) {
        _ = factories.withLock { $0.removeValue(forKey: className) }
    }

    /// The class names registered, sorted.
    public static var registeredClassNames: [String] { factories.withLock { $0.keys.sorted() } }

    static func factory(_ className: String) -> Factory? { factories.withLock { $0[className] } }

    /// A new layer for `layer`: throws `unsupported` naming the class and the registration line when it is not
    /// registered, `customLayer` when the factory throws.
    static func make(_ layer: CoreMLCustomLayer) throws(VisionError) -> any CustomLayer {
        guard let factory = factory(layer.className) else {
            throw VisionError(
                .unsupported,
                "layer '\(layer.layerName)' is the custom layer class '\(layer.className)', which is not registered: "
                    + "register the app's class before loading the model, "
                    + CoreMLCustomLayer.registration(layer.className) + " (docs/coreml.md, \"Custom layers\")")
        }
        let definition = CustomLayerDefinition(
            className: layer.className, layerName: layer.layerName,
            parameters: layer.parameters.mapValues { value in
                switch value {
                case .double(let v): .double(v)
                case .string(let v): .string(v)
                case .int(let v): .int(Int(v))
                case .bool(let v): .bool(v)
                }
            }, weights: layer.weights)
        do {
            return try factory(definition)
        } catch let error as VisionError {
            throw error
        } catch {
            throw VisionError(
                .customLayer,
                "custom layer '\(layer.layerName)' (\(layer.className)): making it from its parameters and weights "
                    + "threw: \(error)", cause: error)
        }
    }

    /// The output shapes of a custom layer as its registered class gives them, for the converter
    /// (`CoreMLCustomLayer.shapes`); its `VisionError`s (`unsupported`, `customLayer`) reach the caller as they are.
    static let shapes = CoreMLCustomLayer.ShapeResolver { layer in
        try CustomLayerSet.outputShapes(CustomLayerRegistry.make(layer), layer, inputShapes: layer.inputShapes)
    }
}
