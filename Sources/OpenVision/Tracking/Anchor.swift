import Foundation

/// A label pinned to a spot of the scene, tracked in the image by an `AnchorTracker`.
public struct Anchor: Sendable, Identifiable, Equatable {
    /// Unique per tracker, increasing from 1.
    public let id: Int
    /// The text shown at the anchor.
    public var label: String
    /// Normalised, lower-left origin (Vision coordinates): the tracked position; the last tracked one when lost.
    public var point: CGPoint
    /// How well the anchor is tracked on the latest frame.
    public var state: AnchorState

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(id: Int, label: String, point: CGPoint, state: AnchorState) {
        self.id = id
        self.label = label
        self.point = point
        self.state = state
    }
}
