import ArgumentParser
import Foundation
import OpenVision

/// `predict`'s `--input NAME=VALUE` / `NAME=@FILE` arguments as the model's features.
enum PredictInputs {
    /// The features of `arguments` for `model`: each value read as its input's kind (see `PredictCommand`). Throws
    /// `ValidationError` for an argument without `=` or a repeated name, `invalidArgument` for an unknown input (listing
    /// the model's) or a value that is not of its input's kind, and the image and `.npy` readers' errors.
    static func parse(_ arguments: [String], for model: VisionModel) throws -> [String: FeatureValue] {
        let declared = model.inputFeatures
        var features: [String: FeatureValue] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw ValidationError("--input takes NAME=VALUE or NAME=@FILE, not '\(argument)'")
            }
            let name = String(argument[..<equals])
            let text = String(argument[argument.index(after: equals)...])
            guard features[name] == nil else { throw ValidationError("--input \(name) is given twice") }
            guard let feature = declared.first(where: { $0.name == name }) else {
                let list = declared.map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")
                throw VisionError(
                    .invalidArgument, "\(model.url.lastPathComponent) has no input '\(name)'; its inputs: \(list)")
            }
            features[name] = try value(text, for: feature)
        }
        return features
    }

    static func value(_ text: String, for feature: FeatureDescription) throws(VisionError) -> FeatureValue {
        let name = feature.name
        func wrong(_ what: String) -> VisionError {
            VisionError(.invalidArgument, "input '\(name)' takes \(what), not '\(text.prefix(80))'")
        }
        if text.hasPrefix("@") {
            let url = URL(fileURLWithPath: String(text.dropFirst()))
            if url.pathExtension.lowercased() == "npy" {
                let data: Data
                do { data = try Data(contentsOf: url) } catch {
                    throw VisionError(.ioError, "cannot read \(url.path): \(error.localizedDescription)")
                }
                do { return .multiArray(try MultiArray(npy: data)) } catch {
                    throw VisionError(.invalidArgument, "input '\(name)': \(url.lastPathComponent) is \(error.message)")
                }
            }
            return .image(try VisionImage(contentsOf: url))
        }
        switch feature.kind {
        case .double:
            guard let d = Double(text) else { throw wrong("a number") }
            return .double(d)
        case .int64:
            if let i = Int64(text) { return .int64(i) }
            guard let d = Double(text), d.rounded() == d, abs(d) < 0x1p63 else { throw wrong("an integer") }
            return .int64(Int64(d))
        case .string:
            return .string(text)
        case .image:
            throw wrong("an image file (@FILE)")
        case .dictionary:
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw wrong("a JSON object of numbers")
            }
            var scores: [String: Double] = [:]
            for (key, value) in object {
                guard let number = value as? NSNumber, !(value is Bool) else { throw wrong("a JSON object of numbers") }
                scores[key] = number.doubleValue
            }
            guard feature.dataType == "int64" else { return .stringDictionary(scores) }
            var integers: [Int64: Double] = [:]
            for (key, value) in scores {
                guard let k = Int64(key) else { throw wrong("a JSON object with integer keys") }
                integers[k] = value
            }
            return .int64Dictionary(integers)
        case .multiArray:
            let numbers = try Self.numbers(
                text, wrong: wrong("numbers (comma-separated or a JSON list) or a .npy file (@FILE)"))
            let declared = feature.shape.map { $0 ?? 1 }
            let shape = !declared.isEmpty && declared.reduce(1, *) == numbers.count ? declared : [numbers.count]
            return .multiArray(try MultiArray(shape: shape, elements: .float64(numbers)))
        default:
            throw VisionError(.unsupported, "input '\(name)' is a \(feature.kind.rawValue), which predict cannot give")
        }
    }

    /// `1,2,3` or a (nested) JSON list of numbers, flattened.
    static func numbers(_ text: String, wrong: VisionError) throws(VisionError) -> [Double] {
        if text.trimmingCharacters(in: .whitespaces).hasPrefix("[") {
            guard let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { throw wrong }
            var result: [Double] = []
            var stack: [Any] = [list]
            while let item = stack.popLast() {
                if let array = item as? [Any] {
                    stack.append(contentsOf: array.reversed())
                } else if let n = item as? NSNumber, !(item is Bool) {
                    result.append(n.doubleValue)
                } else {
                    throw wrong
                }
            }
            return result
        }
        var result: [Double] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let d = Double(part.trimmingCharacters(in: .whitespaces)) else { throw wrong }
            result.append(d)
        }
        return result
    }
}
