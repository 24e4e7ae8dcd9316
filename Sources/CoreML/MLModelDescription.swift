import OpenVision

/// Core ML's `MLModelDescription`: input and output names and the class labels.
public struct MLModelDescription {
    public let inputDescriptionsByName: [String: [Int?]]
    public let outputDescriptionsByName: [String: [Int?]]
    /// The classifier's or detector's labels (Core ML's `classLabels`), empty when the model has none.
    public let classLabels: [String]

    init(_ d: ModelDescription) {
        inputDescriptionsByName = Dictionary(d.inputs.map { ($0.name, $0.shape) }, uniquingKeysWith: { a, _ in a })
        outputDescriptionsByName = Dictionary(d.outputs.map { ($0.name, $0.shape) }, uniquingKeysWith: { a, _ in a })
        classLabels = d.labels
    }
}
