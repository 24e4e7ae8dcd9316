import Foundation

extension VisionModel {
    /// Runs the model on tensors you built yourself (one per input, in input order, shapes as
    /// `modelDescription.inputs` declare; for a `.tflite` model NHWC `[1, H, W, 3]`) and returns every
    /// output in the model's order, by the model's names. For pipelines whose preprocessing is not
    /// `makeInput`'s (MediaPipe's rotated region crops). Throws `invalidArgument` for a wrong input
    /// count or a tensor whose values do not fill its shape, and the backend's errors.
    public func prediction(from inputs: [Tensor]) throws(VisionError) -> [Tensor] {
        guard inputs.count == modelDescription.inputs.count else {
            throw VisionError(.invalidArgument, "\(url.lastPathComponent) takes \(modelDescription.inputs.count) inputs, got \(inputs.count)")
        }
        for (tensor, declared) in zip(inputs, modelDescription.inputs) {
            let count = tensor.shape.reduce(1) { $0.multipliedReportingOverflow(by: max($1, 0)).partialValue }
            guard count == tensor.scalars.count, tensor.shape.allSatisfy({ $0 > 0 }) else {
                throw VisionError(.invalidArgument, "input '\(tensor.name)' has \(tensor.scalars.count) values for shape \(tensor.shape)")
            }
            guard declared.shape.count == tensor.shape.count,
                  zip(declared.shape, tensor.shape).allSatisfy({ $0.0 == nil || $0.0 == $0.1 }) else {
                throw VisionError(.invalidArgument, "input '\(tensor.name)' has shape \(tensor.shape); \(url.lastPathComponent) "
                                  + "expects \(declared.shape.map { $0.map(String.init) ?? "?" })")
            }
        }
        return try backend.run(inputs)
    }

    /// Runs the backend, replacing the overridable initializers named in `overrides` (those the model has) with
    /// the given values; backends without overridable initializers ignore them.
    func run(_ inputs: [Tensor], overriding overrides: [String: Float]) throws(VisionError) -> [Tensor] {
        guard let ort = backend as? ONNXRuntimeBackend else { return try backend.run(inputs) }
        let known = overrides.filter { ort.overridable.contains($0.key) }
        return known.isEmpty ? try ort.run(inputs) : try ort.run(inputs, overriding: known)
    }
}
