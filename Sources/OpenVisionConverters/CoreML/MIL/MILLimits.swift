/// Limits of the readers (a corrupt file must not recurse or allocate without bound).
package enum MILLimits {
    /// Nesting of types, values and blocks.
    package static let maximumNesting = 24
    /// A dimension's largest size.
    package static let maximumDimension = 1 << 31 - 1
    /// Elements of one tensor the converter materializes from the file (2^28: a 1 GB float32 tensor;
    /// such a constant is backed by at least that many bits of input).
    package static let maximumElements = 1 << 28
    /// Elements of a tensor the converter makes up itself (default scales, interpolation matrices):
    /// sized by declared shapes, not by data, so kept small.
    package static let maximumGeneratedElements = 1 << 22
    /// Operations of a program, every function and nested block together (as TensorFlow graphs' nodes are bounded).
    package static let maximumOperations = 50_000
}
