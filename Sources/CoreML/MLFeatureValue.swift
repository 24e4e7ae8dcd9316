import OpenVision

/// Core ML's `MLFeatureValue`: a multi-array, an image, a string, a number or a dictionary of class scores.
open class MLFeatureValue {
    public let multiArrayValue: MLMultiArray?
    /// The image (Core ML's `CVPixelBuffer` image feature; here an OpenVision image).
    public let imageBufferValue: VisionImage?
    public let stringValue: String
    public let doubleValue: Double
    public let dictionaryValue: [AnyHashable: NSNumberValue]

    public init(multiArray: MLMultiArray) {
        multiArrayValue = multiArray; imageBufferValue = nil; stringValue = ""; doubleValue = 0; dictionaryValue = [:]
    }

    public init(pixelBuffer: VisionImage) {
        multiArrayValue = nil; imageBufferValue = pixelBuffer; stringValue = ""; doubleValue = 0; dictionaryValue = [:]
    }

    public init(string: String) {
        multiArrayValue = nil; imageBufferValue = nil; stringValue = string; doubleValue = 0; dictionaryValue = [:]
    }

    public init(double: Double) {
        multiArrayValue = nil; imageBufferValue = nil; stringValue = ""; doubleValue = double; dictionaryValue = [:]
    }
}

/// A number in a feature dictionary (Core ML uses `NSNumber`).
public typealias NSNumberValue = Double
