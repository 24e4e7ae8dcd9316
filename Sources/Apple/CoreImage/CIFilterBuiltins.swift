import Foundation
import OpenVision

// `import CoreImage.CIFilterBuiltins`: Core Image's typed filters (`CIFilter.gaussianBlur()` and its `radius`
// property, …) for the filters available here. Each property reads and writes the same input a key does.

/// A filter with an output image.
public protocol CIFilterProtocol: AnyObject {
    /// The filtered image (nil when a required input is missing).
    var outputImage: CIImage? { get }
}

/// `CIGaussianBlur`.
public protocol CIGaussianBlur: CIFilterProtocol {
    /// The image to blur.
    var inputImage: CIImage? { get set }
    /// The standard deviation in pixels (default 10).
    var radius: Float { get set }
}

/// `CIColorControls`.
public protocol CIColorControls: CIFilterProtocol {
    /// The image to adjust.
    var inputImage: CIImage? { get set }
    /// 0 gray, 1 unchanged (default 1).
    var saturation: Float { get set }
    /// Added to every colour component (default 0).
    var brightness: Float { get set }
    /// Contrast about 0.5 (default 1).
    var contrast: Float { get set }
}

/// `CIColorMatrix`.
public protocol CIColorMatrix: CIFilterProtocol {
    /// The image to map.
    var inputImage: CIImage? { get set }
    /// Weights of (r, g, b, a) making red.
    var rVector: CIVector { get set }
    /// Weights making green.
    var gVector: CIVector { get set }
    /// Weights making blue.
    var bVector: CIVector { get set }
    /// Weights making alpha.
    var aVector: CIVector { get set }
    /// Added to (r, g, b, a).
    var biasVector: CIVector { get set }
}

/// `CIColorInvert`.
public protocol CIColorInvert: CIFilterProtocol {
    /// The image to invert.
    var inputImage: CIImage? { get set }
}

/// The blend-with-mask filters (`CIBlendWithMask`, `CIBlendWithRedMask`, `CIBlendWithBlueMask`,
/// `CIBlendWithAlphaMask`).
public protocol CIBlendWithMask: CIFilterProtocol {
    /// The image where the mask is 1.
    var inputImage: CIImage? { get set }
    /// The image where the mask is 0 (transparent when nil).
    var backgroundImage: CIImage? { get set }
    /// The mask.
    var maskImage: CIImage? { get set }
}

/// A compositing filter (`CISourceOverCompositing`).
public protocol CICompositeOperation: CIFilterProtocol {
    /// The foreground.
    var inputImage: CIImage? { get set }
    /// The background.
    var backgroundImage: CIImage? { get set }
}

/// `CILanczosScaleTransform`.
public protocol CILanczosScaleTransform: CIFilterProtocol {
    /// The image to scale.
    var inputImage: CIImage? { get set }
    /// The vertical scale factor (default 1).
    var scale: Float { get set }
    /// The horizontal stretch on top of `scale` (default 1).
    var aspectRatio: Float { get set }
}

/// A filter placing an image's four corners.
public protocol CIFourCoordinateGeometryFilter: CIFilterProtocol {
    /// The image.
    var inputImage: CIImage? { get set }
    /// The top-left corner.
    var topLeft: CGPoint { get set }
    /// The top-right corner.
    var topRight: CGPoint { get set }
    /// The bottom-right corner.
    var bottomRight: CGPoint { get set }
    /// The bottom-left corner.
    var bottomLeft: CGPoint { get set }
}

/// `CIPerspectiveCorrection`: the quadrilateral straightened into a rectangle.
public protocol CIPerspectiveCorrection: CIFourCoordinateGeometryFilter {
    /// Whether the output is only the rectangle (default true).
    var crop: Bool { get set }
}

/// `CIPerspectiveTransform`: the image's corners moved onto four points.
public protocol CIPerspectiveTransform: CIFourCoordinateGeometryFilter {}

extension CIFilter {
    /// `CIGaussianBlur`.
    public static func gaussianBlur() -> CIFilter & CIGaussianBlur { BuiltinFilter("CIGaussianBlur") }
    /// `CIColorControls`.
    public static func colorControls() -> CIFilter & CIColorControls { BuiltinFilter("CIColorControls") }
    /// `CIColorMatrix`.
    public static func colorMatrix() -> CIFilter & CIColorMatrix { BuiltinFilter("CIColorMatrix") }
    /// `CIColorInvert`.
    public static func colorInvert() -> CIFilter & CIColorInvert { BuiltinFilter("CIColorInvert") }
    /// `CIBlendWithMask` (the mask's green channel; a gray mask's value).
    public static func blendWithMask() -> CIFilter & CIBlendWithMask { BuiltinFilter("CIBlendWithMask") }
    /// `CIBlendWithRedMask`.
    public static func blendWithRedMask() -> CIFilter & CIBlendWithMask { BuiltinFilter("CIBlendWithRedMask") }
    /// `CIBlendWithBlueMask`.
    public static func blendWithBlueMask() -> CIFilter & CIBlendWithMask { BuiltinFilter("CIBlendWithBlueMask") }
    /// `CIBlendWithAlphaMask`.
    public static func blendWithAlphaMask() -> CIFilter & CIBlendWithMask { BuiltinFilter("CIBlendWithAlphaMask") }
    /// `CISourceOverCompositing`.
    public static func sourceOverCompositing() -> CIFilter & CICompositeOperation {
        BuiltinFilter("CISourceOverCompositing")
    }
    /// `CILanczosScaleTransform`.
    public static func lanczosScaleTransform() -> CIFilter & CILanczosScaleTransform {
        BuiltinFilter("CILanczosScaleTransform")
    }
    /// `CIPerspectiveCorrection`.
    public static func perspectiveCorrection() -> CIFilter & CIPerspectiveCorrection {
        BuiltinFilter("CIPerspectiveCorrection")
    }
    /// `CIPerspectiveTransform`.
    public static func perspectiveTransform() -> CIFilter & CIPerspectiveTransform {
        BuiltinFilter("CIPerspectiveTransform")
    }
}

/// The typed face of the filters above: each property is the input key of the same name.
final class BuiltinFilter: CIFilter, CIGaussianBlur, CIColorControls, CIColorMatrix, CIColorInvert, CIBlendWithMask,
    CICompositeOperation, CILanczosScaleTransform, CIPerspectiveCorrection, CIPerspectiveTransform
{
    init(_ name: String) { super.init(definition: CIFilterDefinition.all[name]!) }

    private var inputs: CIFilterInputs {
        CIFilterInputs(
            values: Dictionary(
                uniqueKeysWithValues: inputKeys.compactMap { key in
                    value(forKey: key).map { (key, $0) }
                }))
    }

    private func float(_ key: String) -> Float { Float(inputs.number(key) ?? 0) }
    private func vector(_ key: String) -> CIVector { inputs.vector(key) ?? CIVector(x: 0, y: 0, z: 0, w: 0) }
    private func point(_ key: String) -> CGPoint { inputs.point(key) ?? .zero }
    private func image(_ key: String) -> CIImage? { value(forKey: key) as? CIImage }

    var inputImage: CIImage? {
        get { image(kCIInputImageKey) }
        set { setValue(newValue, forKey: kCIInputImageKey) }
    }
    var backgroundImage: CIImage? {
        get { image(kCIInputBackgroundImageKey) }
        set { setValue(newValue, forKey: kCIInputBackgroundImageKey) }
    }
    var maskImage: CIImage? {
        get { image(kCIInputMaskImageKey) }
        set { setValue(newValue, forKey: kCIInputMaskImageKey) }
    }
    var radius: Float {
        get { float(kCIInputRadiusKey) }
        set { setValue(newValue, forKey: kCIInputRadiusKey) }
    }
    var saturation: Float {
        get { float(kCIInputSaturationKey) }
        set { setValue(newValue, forKey: kCIInputSaturationKey) }
    }
    var brightness: Float {
        get { float(kCIInputBrightnessKey) }
        set { setValue(newValue, forKey: kCIInputBrightnessKey) }
    }
    var contrast: Float {
        get { float(kCIInputContrastKey) }
        set { setValue(newValue, forKey: kCIInputContrastKey) }
    }
    var rVector: CIVector {
        get { vector("inputRVector") }
        set { setValue(newValue, forKey: "inputRVector") }
    }
    var gVector: CIVector {
        get { vector("inputGVector") }
        set { setValue(newValue, forKey: "inputGVector") }
    }
    var bVector: CIVector {
        get { vector("inputBVector") }
        set { setValue(newValue, forKey: "inputBVector") }
    }
    var aVector: CIVector {
        get { vector("inputAVector") }
        set { setValue(newValue, forKey: "inputAVector") }
    }
    var biasVector: CIVector {
        get { vector("inputBiasVector") }
        set { setValue(newValue, forKey: "inputBiasVector") }
    }
    var scale: Float {
        get { float(kCIInputScaleKey) }
        set { setValue(newValue, forKey: kCIInputScaleKey) }
    }
    var aspectRatio: Float {
        get { float(kCIInputAspectRatioKey) }
        set { setValue(newValue, forKey: kCIInputAspectRatioKey) }
    }
    var topLeft: CGPoint {
        get { point("inputTopLeft") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputTopLeft") }
    }
    var topRight: CGPoint {
        get { point("inputTopRight") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputTopRight") }
    }
    var bottomRight: CGPoint {
        get { point("inputBottomRight") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputBottomRight") }
    }
    var bottomLeft: CGPoint {
        get { point("inputBottomLeft") }
        set { setValue(CIVector(cgPoint: newValue), forKey: "inputBottomLeft") }
    }
    var crop: Bool {
        get { (inputs.number("inputCrop") ?? 0) != 0 }
        set { setValue(newValue, forKey: "inputCrop") }
    }
}
