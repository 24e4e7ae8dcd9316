import Foundation

extension VisionModel {
    /// Runs the model on tensors you built yourself (one per input, in input order, shapes as
    /// `modelDescription.inputs` declare; for a `.tflite` model NHWC `[1, H, W, 3]`) and returns every
    /// output in the model's order, by the model's names. For pipelines whose preprocessing is not
    /// `makeInput`'s (MediaPipe's rotated region crops). Throws `invalidArgument` for a wrong input
    /// count or a tensor whose values do not fill its shape, and the backend's errors.
    public func prediction(from inputs: [Tensor]) throws(VisionError) -> [Tensor] {
        try check(inputs)
        return try backend.run(inputs)
    }

    /// Throws `invalidArgument` unless `inputs` fit the model's inputs (count, shapes, value counts).
    private func check(_ inputs: [Tensor]) throws(VisionError) {
        guard inputs.count == modelDescription.inputs.count else {
            throw VisionError(
                .invalidArgument,
                "\(url.lastPathComponent) takes \(modelDescription.inputs.count) inputs, got \(inputs.count)")
        }
        for (tensor, declared) in zip(inputs, modelDescription.inputs) {
            let count = tensor.shape.reduce(1) { $0.multipliedReportingOverflow(by: max($1, 0)).partialValue }
            guard count == tensor.scalars.count, tensor.shape.allSatisfy({ $0 > 0 }) else {
                throw VisionError(
                    .invalidArgument,
                    "input '\(tensor.name)' has \(tensor.scalars.count) values for shape \(tensor.shape)")
            }
            guard declared.shape.count == tensor.shape.count,
                zip(declared.shape, tensor.shape).allSatisfy({ $0.0 == nil || $0.0 == $0.1 })
            else {
                throw VisionError(
                    .invalidArgument,
                    "input '\(tensor.name)' has shape \(tensor.shape); \(url.lastPathComponent) "
                        + "expects \(declared.shape.map { $0.map(String.init) ?? "?" })")
            }
        }
    }

    /// `prediction(from:)` with the model's overridable scalar inputs set: a Core ML detector pipeline's optional
    /// `iouThreshold` / `confidenceThreshold` (graph inputs backed by their defaults, `modelDescription.coreML`'s
    /// `nms`). Names the model does not have are `invalidArgument`; a backend that cannot set them (OpenCV DNN,
    /// OpenVINO) throws `unsupported`; an empty `overrides` is `prediction(from:)`.
    public func prediction(from inputs: [Tensor], overriding overrides: [String: Float]) throws(VisionError) -> [Tensor]
    {
        guard !overrides.isEmpty else { return try prediction(from: inputs) }
        let known = backend.overridableInputs
        if let unknown = overrides.keys.sorted().first(where: { !known.contains($0) }) {
            throw VisionError(
                .invalidArgument,
                "\(url.lastPathComponent) has no overridable input '\(unknown)'"
                    + (known.isEmpty ? "" : " (it has \(known.sorted().joined(separator: ", ")))"))
        }
        try check(inputs)
        return try backend.run(inputs, overriding: overrides)
    }

    /// The names among `overrides` (a request's `inputOverrides`) that this model has: what a request sets on it.
    func applicable(_ overrides: [String: Float]) -> [String: Float] {
        let known = backend.overridableInputs
        return overrides.filter { known.contains($0.key) }
    }
}
