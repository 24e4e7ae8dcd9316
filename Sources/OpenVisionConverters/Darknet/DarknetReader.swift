/// The Darknet reader a network is checked for. Both read the same `.cfg` syntax and are held to
/// the same checks (every layer index, every size, every count); they differ in the layer types
/// and options they support and in their defaults.
package enum DarknetReader: Sendable {
    /// OpenVision's converter to ONNX (`DarknetToONNX`): darknet's semantics, where darknet and
    /// OpenCV disagree on a default the key must be written, a key set twice is an error.
    case converter
    /// OpenCV 4.6's `readNetFromDarknet`, which OpenVision loads `.cfg` files with: its layer types
    /// (`connected`, `softmax`, `reorg`, `region`, `scale_channels`, `sam`, `cost` too), its
    /// defaults, a key set twice takes its last value. OpenCV itself checks few indices or sizes
    /// (it reads anchors, layers and channel counts out of bounds, divides by a zero `groups` or
    /// `stride`), so everything it would trip on is refused here first.
    case openCV
}
