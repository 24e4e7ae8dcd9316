import Foundation

// The parsed network: a `DarknetConfig`'s layers, their kinds and shapes.

/// A Darknet activation function (the set both readers support).
package enum DarknetActivation: String, Sendable, CaseIterable {
    case linear, leaky, relu, mish, logistic, swish, tanh
}

/// The shape of one layer's output for a batch of one image: channels × height × width.
package struct DarknetShape: Sendable, Equatable, CustomStringConvertible {
    var channels: Int
    var height: Int
    var width: Int
    package var description: String { "\(channels)×\(height)×\(width)" }
}

/// `[convolutional]`.
package struct DarknetConvolution: Sendable {
    var filters: Int
    var size: Int
    var stride: Int
    /// Padding on each side (darknet's `pad=1` means `size/2`; otherwise `padding`).
    var padding: Int
    var groups: Int
    var dilation: Int
    var batchNormalize: Bool
    var activation: DarknetActivation
    /// Channels coming in, from the previous layer.
    var inputChannels: Int

    /// How many floats of the `.weights` file this layer consumes: biases, the three batch-norm
    /// vectors when there is batch normalisation, and the kernels.
    var weightFloatCount: Int {
        filters * (batchNormalize ? 4 : 1) + kernelCount
    }

    /// The number of kernel weights: filters × (inputChannels / groups) × size × size.
    var kernelCount: Int { filters * (inputChannels / groups) * size * size }

    /// `weightFloatCount`, or nil when it overflows `Int` (the parser rejects such layers, so
    /// `weightFloatCount` and `kernelCount` never overflow afterwards).
    var checkedWeightFloatCount: Int? {
        var total = filters
        for factor in [inputChannels / groups, size, size] {
            let (product, overflow) = total.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            total = product
        }
        let (sum, overflow) = total.addingReportingOverflow(filters * (batchNormalize ? 4 : 1))
        return overflow ? nil : sum
    }
}

/// `[maxpool]`.
package struct DarknetMaxPool: Sendable {
    var size: Int
    var stride: Int
    /// Total padding per axis (darknet default `size - 1`); `padding / 2` goes before, the rest after.
    var padding: Int
}

/// `[route]`: concatenates the outputs of earlier layers along channels; with `groups` > 1 it
/// takes the `groupID`-th of `groups` equal channel slices of each input first.
package struct DarknetRoute: Sendable {
    /// Absolute layer indices.
    var layers: [Int]
    var groups: Int
    var groupID: Int
}

/// `[shortcut]`: adds the output of an earlier layer to the previous layer's output.
package struct DarknetShortcut: Sendable {
    /// Absolute layer index.
    var from: Int
    var activation: DarknetActivation
}

/// `[yolo]`: a detection head.
package struct DarknetYolo: Sendable {
    var classes: Int
    /// Every anchor of the cfg, as (width, height) pairs in input pixels.
    var anchors: [(width: Float, height: Float)]
    /// Indices into `anchors` this head uses.
    var mask: [Int]
    var scaleXY: Float
    /// 0: sigmoid / exp box coordinates (YOLOv3, v4); 1: the scaled-YOLOv4 form where the inputs are
    /// already logistic and w, h are (2t)² × anchor.
    var newCoords: Int
    /// Class scores objectness × class probability at or below this are written as 0 (OpenCV's `thresh`).
    var thresh: Float
    /// `nms_threshold` of the cfg. OpenCV's region layer runs a per-class NMS inside the layer when
    /// it is > 0; the converted graph does not (see `DarknetToONNX`).
    var nmsThreshold: Float

    /// The (width, height) of the anchors this head uses, in mask order.
    var usedAnchors: [(width: Float, height: Float)] { mask.map { anchors[$0] } }
}

/// `[connected]` (OpenCV's reader only): a fully connected layer over the whole input.
package struct DarknetConnected: Sendable {
    var outputs: Int
    var batchNormalize: Bool
    /// Input values per image (channels × height × width of the previous layer).
    var inputCount: Int

    /// Floats of the `.weights` file: biases, three batch-norm vectors when normalised, the matrix.
    var weightFloatCount: Int { outputs * (batchNormalize ? 4 : 1) + outputs * inputCount }
}

/// `[region]` (OpenCV's reader only): YOLOv2's detection head.
package struct DarknetRegion: Sendable {
    var classes: Int
    var anchors: Int
}

/// One layer of a Darknet network.
package enum DarknetLayerKind: Sendable {
    case convolutional(DarknetConvolution)
    case maxpool(DarknetMaxPool)
    /// Darknet's `[avgpool]`: a global average over height and width.
    case avgpool
    case route(DarknetRoute)
    case shortcut(DarknetShortcut)
    case upsample(stride: Int)
    case yolo(DarknetYolo)
    /// Inference-time identity (`[dropout]`, and OpenCV's `[cost]`).
    case dropout
    /// The kinds below are OpenCV's reader's only; the converter refuses them when parsing.
    case connected(DarknetConnected)
    case softmax
    /// Space to depth by `stride`.
    case reorg(stride: Int)
    case region(DarknetRegion)
    /// The output of layer `from` scaled per channel by the previous layer's (a C × 1 × 1 vector).
    case scaleChannels(from: Int)
    /// The previous layer's output times layer `from`'s (spatial attention).
    case sam(from: Int)

    /// A detection head, whose output no other layer may read.
    var isDetection: Bool {
        switch self {
        case .yolo, .region: true
        default: false
        }
    }
}

/// A layer with its position and the shapes around it.
package struct DarknetLayer: Sendable {
    /// Darknet's 0-based layer index (the index `route` and `shortcut` refer to).
    var index: Int
    /// The 1-based line of the section header in the `.cfg`.
    var line: Int
    /// The section name as written (`convolutional`, `conv`, ...).
    var typeName: String
    var kind: DarknetLayerKind
    /// The previous layer's output (the network input for layer 0).
    var input: DarknetShape
    var output: DarknetShape
}
