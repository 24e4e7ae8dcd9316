/// Core ML's `MLMetricKey`: the keys of `MLUpdateContext.metrics`.
public struct MLMetricKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's name.
    public let description: String
    private init(_ name: String) { description = name }
    /// The mean loss (a `Double`) of the last mini-batch (`miniBatchEnd`) or of the last epoch (`epochEnd`, and at
    /// completion); absent for kNN updates, which have no loss.
    public static let lossValue = MLMetricKey("lossValue")
    /// The index (an `Int`, from 0) of the current epoch.
    public static let epochIndex = MLMetricKey("epochIndex")
    /// The index (an `Int`, from 0) of the current mini-batch within its epoch.
    public static let miniBatchIndex = MLMetricKey("miniBatchIndex")
}
