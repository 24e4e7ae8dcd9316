import Foundation
import OpenVision
internal import OpenVisionConverters

/// Core ML's `MLFeatureDescription`: a model input's or output's name, type and constraints.
open class MLFeatureDescription: CustomStringConvertible {
    /// The feature's name, as the model's inputs and outputs key it.
    public let name: String
    /// What kind of value the feature holds.
    public let type: MLFeatureType
    /// True when the model runs without it (the thresholds of detector pipelines).
    public let isOptional: Bool
    /// Shape and element type of a multi-array feature.
    public let multiArrayConstraint: MLMultiArrayConstraint?
    /// Size and pixel format of an image feature.
    public let imageConstraint: MLImageConstraint?
    /// Key type of a dictionary feature (a classifier's label → probability).
    public let dictionaryConstraint: MLDictionaryConstraint?

    init(
        name: String, type: MLFeatureType, isOptional: Bool = false, multiArray: MLMultiArrayConstraint? = nil,
        image: MLImageConstraint? = nil, dictionary: MLDictionaryConstraint? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        multiArrayConstraint = multiArray
        imageConstraint = image
        dictionaryConstraint = dictionary
    }

    /// From a Core ML file's own description (`CoreMLModelInfo.Feature`).
    convenience init(_ f: CoreMLModelInfo.Feature) {
        switch f.type {
        case "image":
            // Colour images as 32BGRA, grayscale ones (GRAYSCALE_FLOAT16 too: images here are 8-bit) as OneComponent8.
            let gray = f.colorSpace?.uppercased().hasPrefix("GRAY") == true
            let constraint = MLImageConstraint(
                pixelsWide: f.width ?? 0, pixelsHigh: f.height ?? 0,
                pixelFormatType: gray ? kCVPixelFormatType_OneComponent8 : kCVPixelFormatType_32BGRA)
            self.init(name: f.name, type: .image, isOptional: f.optional, image: constraint)
        case "multiArray":
            let constraint = MLMultiArrayConstraint(
                shape: (f.shape ?? []).map { NSNumber(value: $0) },
                dataType: MLMultiArrayDataType(coreML: f.dataType))
            self.init(name: f.name, type: .multiArray, isOptional: f.optional, multiArray: constraint)
        case "dictionary":
            let key: MLFeatureType = f.keyType?.lowercased() == "int64" ? .int64 : .string
            self.init(
                name: f.name, type: .dictionary, isOptional: f.optional,
                dictionary: MLDictionaryConstraint(keyType: key))
        case "int64": self.init(name: f.name, type: .int64, isOptional: f.optional)
        case "double": self.init(name: f.name, type: .double, isOptional: f.optional)
        case "string": self.init(name: f.name, type: .string, isOptional: f.optional)
        case "sequence": self.init(name: f.name, type: .sequence, isOptional: f.optional)
        case "state": self.init(name: f.name, type: .state, isOptional: f.optional)
        default: self.init(name: f.name, type: .invalid, isOptional: f.optional)
        }
    }

    /// From a tensor of a model in another format: a multi-array (unknown dimensions as 0, as Core ML's flexible ones).
    convenience init(_ t: TensorDescription) {
        self.init(
            name: t.name, type: .multiArray,
            multiArray: MLMultiArrayConstraint(shape: t.shape.map { NSNumber(value: $0 ?? 0) }, dataType: .float32))
    }

    /// Whether `value` may be given for this feature.
    public func isAllowedValue(_ value: MLFeatureValue) -> Bool {
        if value.type == type { return true }
        return isOptional && value.isUndefined
    }

    /// The value as short text, for logs.
    public var description: String {
        switch type {
        case .image: "\(name) : Image (\(imageConstraint?.pixelsWide ?? 0) x \(imageConstraint?.pixelsHigh ?? 0))"
        case .multiArray:
            "\(name) : MultiArray (\(multiArrayConstraint?.shape.map(\.stringValue).joined(separator: " x ") ?? ""))"
        default: "\(name) : \(type)"
        }
    }
}

/// Core ML's `MLMultiArrayConstraint`.
public struct MLMultiArrayConstraint {
    /// The default shape (0 for a dimension only known at run time).
    public let shape: [NSNumber]
    /// The element type.
    public let dataType: MLMultiArrayDataType
}

/// Core ML's `MLImageConstraint`.
public struct MLImageConstraint {
    /// The default width in pixels.
    public let pixelsWide: Int
    /// The default height in pixels.
    public let pixelsHigh: Int
    /// A Core Video pixel format code (`kCVPixelFormatType_32BGRA` for colour, `…_OneComponent8` for gray).
    public let pixelFormatType: OSType
}

/// Core ML's `MLDictionaryConstraint`.
public struct MLDictionaryConstraint {
    /// The key type: `.string` or `.int64`.
    public let keyType: MLFeatureType
}

extension MLFeatureValue {
    /// The image file at `url` sized to an input's constraint (Core ML's `init(imageAt:constraint:options:)`), e.g.
    /// `model.modelDescription.inputDescriptionsByName["image"]!.imageConstraint!`.
    public convenience init(imageAt url: URL, constraint: MLImageConstraint, options: [ImageOption: Any]? = nil) throws
    {
        try self.init(
            imageAt: url, pixelsWide: constraint.pixelsWide, pixelsHigh: constraint.pixelsHigh,
            pixelFormatType: constraint.pixelFormatType, options: options)
    }
}
