import CoreVideo
import Foundation
import OpenVision

extension MLFeatureValue {
    /// This value as OpenVision's input for `feature`; `MLModelError.featureType` naming the input when it is of
    /// another kind (numbers are interchangeable, a number fills a one-element multi-array).
    func featureValue(for feature: FeatureDescription, imageInputs: Int, inputs: Int) throws -> FeatureValue {
        let name = feature.name
        switch (feature.kind, type) {
        case (.image, .image),
            (.multiArray, .image) where inputs == 1:
            return .image(try imageBufferValue!.visionImage())
        case (.multiArray, .image):
            throw MLModelError.featureType(
                "input '\(name)' is an image; the model takes \(inputs) inputs, and images are fed to "
                    + "models with one image input here (give multi-arrays)")
        case (.image, _):
            throw MLModelError.featureType("input '\(name)' must be an image, not \(type)")
        case (.multiArray, .multiArray):
            return .multiArray(try multiArrayValue!.openVisionArray())
        case (.multiArray, .double), (.double, .double), (.int64, .double):
            return .double(doubleValue)
        case (.multiArray, .int64), (.double, .int64), (.int64, .int64):
            return .int64(int64Value)
        case (.double, _), (.int64, _):
            throw MLModelError.featureType("input '\(name)' must be a number, not \(type)")
        case (.string, .string):
            return .string(stringValue)
        case (.dictionary, .dictionary):
            if feature.dataType == "int64" {
                var d: [Int64: Double] = [:]
                for (key, value) in dictionaryValue {
                    guard let k = key.base as? Int64 ?? (key.base as? Int).map(Int64.init) else {
                        throw MLModelError.featureType(
                            "input '\(name)' takes integer keys, not \(Swift.type(of: key.base))")
                    }
                    d[k] = value
                }
                return .int64Dictionary(d)
            }
            var d: [String: Double] = [:]
            for (key, value) in dictionaryValue {
                guard let k = key.base as? String else {
                    throw MLModelError.featureType("input '\(name)' takes string keys, not \(Swift.type(of: key.base))")
                }
                d[k] = value
            }
            return .stringDictionary(d)
        default:
            throw MLModelError.featureType("input '\(name)' must be a \(feature.kind.rawValue), not \(type)")
        }
    }

    /// OpenVision's output `value` as Core ML's feature value (an int64 multi-array as int32 or, beyond its range, double).
    /// `grayImage`: an image output Core ML declares grayscale, given as a OneComponent8 buffer (colour: 32BGRA).
    convenience init(_ value: FeatureValue, name: String, grayImage: Bool = false) throws {
        switch value {
        case .double(let d): self.init(double: d)
        case .int64(let i): self.init(int64: i)
        case .string(let s): self.init(string: s)
        case .image(let image): self.init(pixelBuffer: try modelOutputBuffer(of: image, gray: grayImage))
        case .stringDictionary(let d):
            try self.init(dictionary: Dictionary(uniqueKeysWithValues: d.map { (AnyHashable($0.key), $0.value) }))
        case .int64Dictionary(let d):
            try self.init(dictionary: Dictionary(uniqueKeysWithValues: d.map { (AnyHashable($0.key), $0.value) }))
        case .multiArray(let array): self.init(multiArray: try MLMultiArray(array, name: name))
        }
    }
}

extension MLMultiArray {
    /// OpenVision's array of this one's values: float32 for Float32 and Float16, float64 for Double, int32 for Int32.
    func openVisionArray() throws -> MultiArray {
        let dims = shape.map(\.intValue)
        do {
            switch dataType {
            case .float32, .float16: return try MultiArray(shape: dims, elements: .float32(values))
            case .double: return try MultiArray(shape: dims, elements: .float64(doubleValues))
            case .int32: return try MultiArray(shape: dims, elements: .int32(doubleValues.map { Int32($0) }))
            }
        } catch {
            throw MLModelError.featureType(error.message)
        }
    }

    /// A Core ML array of OpenVision's `array` (output `name`): float32, double and int32 as they are, int64 as int32
    /// when every value fits (else double); strings are `MLModelError.generic`.
    convenience init(_ array: MultiArray, name: String) throws {
        let type: MLMultiArrayDataType
        let values: [Double]
        switch array.elements {
        case .float32(let v):
            self.init(shape: array.shape, values: v)
            return
        case .float64(let v):
            type = .double
            values = v
        case .int32(let v):
            type = .int32
            values = v.map(Double.init)
        case .int64(let v):
            let fits = v.allSatisfy { Int64(Int32.min)...Int64(Int32.max) ~= $0 }
            type = fits ? .int32 : .double
            values = v.map(Double.init)
        case .string:
            throw MLModelError.generic("output '\(name)' is an array of strings, which MLMultiArray cannot hold")
        }
        try self.init(shape: array.shape.map { NSNumber(value: $0) }, dataType: type)
        for (i, v) in values.enumerated() { store(v, at: i) }
    }
}

/// A model's image output as Core ML gives it: 32BGRA, or OneComponent8 for a grayscale output (its first channel).
func modelOutputBuffer(of image: VisionImage, gray: Bool) throws -> CVPixelBuffer {
    guard gray || image.isGrayscale else { return CVPixelBuffer(visionImage: image) }
    var made: CVPixelBuffer?
    guard
        CVPixelBufferCreate(
            kCFAllocatorDefault, image.width, image.height, kCVPixelFormatType_OneComponent8, nil,
            &made) == kCVReturnSuccess, let buffer = made
    else {
        throw MLModelError.generic("cannot make a \(image.width) × \(image.height) pixel buffer")
    }
    let rgb = [UInt8](image.rgbData())
    _ = CVPixelBufferLockBaseAddress(buffer, [])
    defer { _ = CVPixelBufferUnlockBaseAddress(buffer, []) }
    guard let base = CVPixelBufferGetBaseAddress(buffer)?.assumingMemoryBound(to: UInt8.self) else {
        throw MLModelError.generic("the pixel buffer has no memory")
    }
    let bytesPerRow = CVPixelBufferGetBytesPerRow(buffer)
    for y in 0..<image.height {
        for x in 0..<image.width { base[y * bytesPerRow + x] = rgb[(y * image.width + x) * 3] }
    }
    return buffer
}
