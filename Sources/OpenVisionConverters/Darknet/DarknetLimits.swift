import Foundation

/// The bounds the `.cfg` parser puts on every value it reads and every size it derives, so that
/// an absurd file gives a `ConversionError` (`limitExceeded`) instead of a trap on arithmetic
/// overflow or gigabytes of graph. Real networks are far inside them (YOLOv4 at 1280 × 1280:
/// sides ≤ 1280, ≤ 2048 channels, ≤ 60 M weights, 100 k detection rows).
public enum DarknetLimits {
    /// The largest `.cfg` file read, in bytes.
    public static let maxCfgBytes = 16 << 20
    /// The most layers (sections after `[net]`).
    public static let maxLayers = 10_000
    /// `[net]` width and height, and the height and width of every layer's output: 1...16384
    /// (the range OpenVision's preprocessing accepts for a model input).
    public static let maxSide = 16_384
    /// `[net]` channels, `filters`, and the channels of every layer's output.
    public static let maxChannels = 65_536
    /// The elements of one layer's output (channels × height × width): 2³¹, the index range of
    /// OpenCV's and ONNX Runtime's tensors.
    public static let maxLayerElements = 1 << 31
    /// Convolution and max-pool `size`, `stride`, `dilation`, and `[upsample] stride`.
    public static let maxKernel = 1_024
    /// Convolution and max-pool `padding`.
    public static let maxPadding = 16_384
    /// Floats of the `.weights` file the network needs, per layer and in all (8 GB).
    public static let maxWeightFloats = 1 << 31
    /// `[yolo]` `classes`.
    public static let maxClasses = 65_536
    /// `[yolo]` anchors (pairs) and mask entries.
    public static let maxAnchors = 1_024
    /// Detection rows (grid height × width × anchors) summed over every `[yolo]` head: the
    /// converter writes two constants of 2 floats a row, so this keeps them ≤ 64 MB.
    public static let maxDetectionRows = 1 << 22
    /// `route`, `shortcut` and `mask` indices, and other small integers (in magnitude).
    public static let maxIndex = 1_000_000
}
