import Foundation
import OpenVision

/// The input image of a filter.
public let kCIInputImageKey = "inputImage"
/// The background image of a compositing or blending filter.
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
/// The mask image of a blending filter.
public let kCIInputMaskImageKey = "inputMaskImage"
/// A blur's radius (the Gaussian's standard deviation, in pixels).
public let kCIInputRadiusKey = "inputRadius"
/// A saturation factor.
public let kCIInputSaturationKey = "inputSaturation"
/// A brightness offset.
public let kCIInputBrightnessKey = "inputBrightness"
/// A contrast factor.
public let kCIInputContrastKey = "inputContrast"
/// A scale factor.
public let kCIInputScaleKey = "inputScale"
/// A horizontal stretch factor.
public let kCIInputAspectRatioKey = "inputAspectRatio"
/// An affine transform.
public let kCIInputTransformKey = "inputTransform"
/// A colour.
public let kCIInputColorKey = "inputColor"
/// The output image.
public let kCIOutputImageKey = "outputImage"

/// Core Image's filter: a named operation with input parameters set by key (`setValue(_:forKey:)`, or the typed
/// properties of `CIFilterBuiltins`), whose `outputImage` is a lazy `CIImage` (nothing is computed until a
/// `CIContext` renders it). The filters available are those `filterNames(inCategory:)` lists (docs/porting.md);
/// `CIFilter(name:)` is nil for any other name, as on Apple platforms for an unknown one. A missing or wrongly typed
/// parameter makes `outputImage` nil, as Core Image does.
open class CIFilter: CustomStringConvertible {
    let definition: CIFilterDefinition
    private var inputs: [String: Any]

    init(definition: CIFilterDefinition) {
        self.definition = definition
        inputs = definition.defaults
    }

    /// The filter named `name` with its default parameters; nil for a filter not available here.
    public convenience init?(name: String) {
        guard let definition = CIFilterDefinition.all[name] else { return nil }
        self.init(definition: definition)
    }

    /// The filter named `name` with `params` set over its defaults; nil for a filter not available here.
    public convenience init?(name: String, parameters params: [String: Any]?) {
        self.init(name: name)
        for (key, value) in params ?? [:] { setValue(value, forKey: key) }
    }

    /// The names of the filters available here (every category gives them all; nil gives them all too).
    public class func filterNames(inCategory category: String?) -> [String] {
        CIFilterDefinition.all.keys.sorted()
    }

    /// The filter's name (`"CIGaussianBlur"`, …).
    public var name: String { definition.name }

    /// The names of the filter's inputs.
    public var inputKeys: [String] { definition.inputKeys }

    /// The names of the filter's outputs: `outputImage`.
    public var outputKeys: [String] { [kCIOutputImageKey] }

    /// Sets input `key` to `value` (nil removes it). A key the filter does not have is ignored (Apple raises an
    /// Objective-C exception for it).
    open func setValue(_ value: Any?, forKey key: String) {
        guard definition.inputKeys.contains(key) else { return }
        inputs[key] = value
    }

    /// Sets several inputs (see `setValue(_:forKey:)`).
    open func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues { setValue(value, forKey: key) }
    }

    /// Input `key`'s value, or `outputImage` for `"outputImage"`; nil for a key the filter does not have.
    open func value(forKey key: String) -> Any? {
        key == kCIOutputImageKey ? outputImage : inputs[key]
    }

    /// Sets every input back to its default (the input images are removed).
    open func setDefaults() { inputs = definition.defaults }

    /// The filtered image, built lazily from the inputs; nil when a required input is missing or of the wrong type.
    open var outputImage: CIImage? {
        definition.evaluate(CIFilterInputs(values: inputs)).map { CIImage(recipe: $0) }
    }

    /// The filter's name and inputs.
    public var description: String { "CIFilter \(name) \(inputKeys)" }
}

/// A filter's inputs, read with the types Core Image accepts for them (numbers as any numeric type or NSNumber,
/// points and rectangles as `CIVector` or Core Graphics values).
struct CIFilterInputs {
    let values: [String: Any]

    func image(_ key: String) -> ImageRecipe? { (values[key] as? CIImage)?.recipe }

    /// Whether `key` is absent (nil) or an image; used for optional image inputs.
    func optionalImage(_ key: String) -> ImageRecipe?? {
        guard let value = values[key] else { return .some(nil) }
        guard let image = value as? CIImage else { return nil }
        return .some(image.recipe)
    }

    func number(_ key: String) -> Double? {
        switch values[key] {
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as CGFloat: Double(v)
        case let v as Int: Double(v)
        case let v as Bool: v ? 1 : 0
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    func vector(_ key: String) -> CIVector? { values[key] as? CIVector }

    func point(_ key: String) -> CGPoint? {
        switch values[key] {
        case let v as CIVector where v.count >= 2: v.cgPointValue
        case let p as CGPoint: p
        default: nil
        }
    }

    func rect(_ key: String) -> CGRect? {
        switch values[key] {
        case let v as CIVector where v.count >= 4: v.cgRectValue
        case let r as CGRect: r
        default: nil
        }
    }

    func color(_ key: String) -> CIColor? { values[key] as? CIColor }

    func transform(_ key: String) -> CGAffineTransform? {
        switch values[key] {
        case let t as CGAffineTransform: t
        case let v as CIVector where v.count >= 6: v.cgAffineTransformValue
        default: nil
        }
    }
}

/// One filter available here: its name, inputs with their defaults, and how its output recipe is built.
struct CIFilterDefinition: @unchecked Sendable {
    let name: String
    let inputKeys: [String]
    let defaults: [String: Any]
    let evaluate: (CIFilterInputs) -> ImageRecipe?

    static let all: [String: CIFilterDefinition] = Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })

    private static let image = kCIInputImageKey
    private static let background = kCIInputBackgroundImageKey
    private static let mask = kCIInputMaskImageKey

    private static let list: [CIFilterDefinition] = [
        // CIGaussianBlur: inputRadius is the standard deviation in pixels (default 10).
        CIFilterDefinition(
            name: "CIGaussianBlur", inputKeys: [image, kCIInputRadiusKey],
            defaults: [kCIInputRadiusKey: 10.0]
        ) { i in
            guard let input = i.image(image), let radius = i.number(kCIInputRadiusKey) else { return nil }
            return input.gaussianBlurred(sigma: radius)
        },
        CIFilterDefinition(
            name: "CIColorControls",
            inputKeys: [image, kCIInputSaturationKey, kCIInputBrightnessKey, kCIInputContrastKey],
            defaults: [
                kCIInputSaturationKey: 1.0, kCIInputBrightnessKey: 0.0,
                kCIInputContrastKey: 1.0,
            ]
        ) { i in
            guard let input = i.image(image), let s = i.number(kCIInputSaturationKey),
                let b = i.number(kCIInputBrightnessKey), let c = i.number(kCIInputContrastKey)
            else { return nil }
            return input.applyingColorMatrix(.colorControls(saturation: s, brightness: b, contrast: c))
        },
        CIFilterDefinition(
            name: "CIColorMatrix",
            inputKeys: [
                image, "inputRVector", "inputGVector", "inputBVector", "inputAVector",
                "inputBiasVector",
            ],
            defaults: [
                "inputRVector": CIVector(x: 1, y: 0, z: 0, w: 0),
                "inputGVector": CIVector(x: 0, y: 1, z: 0, w: 0),
                "inputBVector": CIVector(x: 0, y: 0, z: 1, w: 0),
                "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 1),
                "inputBiasVector": CIVector(x: 0, y: 0, z: 0, w: 0),
            ]
        ) { i in
            guard let input = i.image(image) else { return nil }
            var rows: [SIMD4<Double>] = []
            for key in ["inputRVector", "inputGVector", "inputBVector", "inputAVector", "inputBiasVector"] {
                guard let v = i.vector(key) else { return nil }
                rows.append(SIMD4(Double(v.x), Double(v.y), Double(v.z), Double(v.w)))
            }
            return input.applyingColorMatrix(
                ColorMatrix(
                    red: rows[0], green: rows[1], blue: rows[2], alpha: rows[3],
                    bias: rows[4]))
        },
        CIFilterDefinition(name: "CIColorInvert", inputKeys: [image], defaults: [:]) { i in
            i.image(image)?.applyingColorMatrix(.invert)
        },
        blend("CIBlendWithMask", .green),
        blend("CIBlendWithRedMask", .red),
        blend("CIBlendWithBlueMask", .blue),
        blend("CIBlendWithAlphaMask", .alpha),
        CIFilterDefinition(name: "CISourceOverCompositing", inputKeys: [image, background], defaults: [:]) { i in
            guard let input = i.image(image), let back = i.image(background) else { return nil }
            return input.composited(over: back)
        },
        CIFilterDefinition(
            name: "CILanczosScaleTransform",
            inputKeys: [image, kCIInputScaleKey, kCIInputAspectRatioKey],
            defaults: [kCIInputScaleKey: 1.0, kCIInputAspectRatioKey: 1.0]
        ) { i in
            guard let input = i.image(image), let s = i.number(kCIInputScaleKey),
                let a = i.number(kCIInputAspectRatioKey)
            else { return nil }
            return input.lanczosScaled(by: s, aspectRatio: a)
        },
        CIFilterDefinition(
            name: "CIAffineTransform", inputKeys: [image, kCIInputTransformKey],
            defaults: [kCIInputTransformKey: CGAffineTransform.identity]
        ) { i in
            guard let input = i.image(image), let t = i.transform(kCIInputTransformKey) else { return nil }
            return input.transformed(by: CIImage.matrix(t))
        },
        CIFilterDefinition(
            name: "CICrop", inputKeys: [image, "inputRectangle"],
            defaults: [
                "inputRectangle": CIVector(
                    x: -8.98847e307, y: -8.98847e307, z: 1.79769e308,
                    w: 1.79769e308)
            ]
        ) { i in
            guard let input = i.image(image), let r = i.rect("inputRectangle") else { return nil }
            return input.cropped(to: r)
        },
        CIFilterDefinition(
            name: "CIConstantColorGenerator", inputKeys: [kCIInputColorKey],
            defaults: [kCIInputColorKey: CIColor.black]
        ) { i in
            i.color(kCIInputColorKey).map { ImageRecipe(color: $0.rgbaColor) }
        },
        CIFilterDefinition(
            name: "CIPerspectiveCorrection", inputKeys: corners + [image, "inputCrop"],
            defaults: cornerDefaults.merging(["inputCrop": true]) { a, _ in a }
        ) { i in
            guard let input = i.image(image), let tl = i.point("inputTopLeft"), let tr = i.point("inputTopRight"),
                let bl = i.point("inputBottomLeft"), let br = i.point("inputBottomRight"),
                let crop = i.number("inputCrop")
            else { return nil }
            return input.perspectiveCorrected(
                topLeft: tl, topRight: tr, bottomLeft: bl, bottomRight: br,
                crop: crop != 0)
        },
        CIFilterDefinition(
            name: "CIPerspectiveTransform", inputKeys: corners + [image],
            defaults: cornerDefaults
        ) { i in
            guard let input = i.image(image), let tl = i.point("inputTopLeft"), let tr = i.point("inputTopRight"),
                let bl = i.point("inputBottomLeft"), let br = i.point("inputBottomRight")
            else { return nil }
            return input.perspectiveTransformed(topLeft: tl, topRight: tr, bottomLeft: bl, bottomRight: br)
        },
    ]

    private static let corners = ["inputTopLeft", "inputTopRight", "inputBottomRight", "inputBottomLeft"]
    /// Core Image's documented defaults for the four corners.
    private static let cornerDefaults: [String: Any] = [
        "inputTopLeft": CIVector(x: 118, y: 484), "inputTopRight": CIVector(x: 646, y: 507),
        "inputBottomRight": CIVector(x: 548, y: 140), "inputBottomLeft": CIVector(x: 155, y: 153),
    ]

    /// A blend of the input over the background weighed by one channel of the mask.
    private static func blend(_ name: String, _ channel: ImageRecipe.MaskChannel) -> CIFilterDefinition {
        CIFilterDefinition(name: name, inputKeys: [image, background, mask], defaults: [:]) { i in
            guard let input = i.image(image), let m = i.image(mask), let back = i.optionalImage(background)
            else { return nil }
            return input.blended(with: m, background: back, maskChannel: channel)
        }
    }
}
