import Foundation

/// Foundation's `NSNumber` conversions for `CGFloat` that Apple's Foundation has and Linux's lacks (it has them for
/// `Double`, `Float` and the integers): `CGFloat(truncating:)` and `CGFloat(exactly:)`, as Apple's.
extension CGFloat {
    /// The number's value as a `CGFloat` (its `doubleValue`), losing precision where a `Double` would.
    public init(truncating number: NSNumber) {
        self.init(number.doubleValue)
    }

    /// The number's value, or nil when a `CGFloat` cannot hold it exactly (as `Double(exactly:)`).
    public init?(exactly number: NSNumber) {
        guard let value = Double(exactly: number) else { return nil }
        self.init(value)
    }
}
