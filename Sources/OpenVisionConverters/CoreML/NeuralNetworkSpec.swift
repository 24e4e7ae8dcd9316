import Foundation

/// A `NeuralNetwork`, `NeuralNetworkClassifier` or `NeuralNetworkRegressor` (NeuralNetwork.proto):
/// its layers in file order, image preprocessing, shape mappings and class labels. Each layer's
/// parameters stay as a byte range of `bytes` (the whole file), decoded when the layer is converted.
package struct NeuralNetworkSpec: Sendable {
    package enum Flavor: Sendable {
        case plain, classifier, regressor
        package var typeName: String {
            switch self {
            case .plain: "neuralNetwork"
            case .classifier: "neuralNetworkClassifier"
            case .regressor: "neuralNetworkRegressor"
            }
        }
    }

    /// `NeuralNetworkImageScaler` (10) or `NeuralNetworkMeanImage` (11) of one image input.
    package struct Preprocessing: Sendable, Codable, Equatable {
        package var featureName: String
        package var channelScale: Float = 1
        package var redBias: Float = 0
        package var greenBias: Float = 0
        package var blueBias: Float = 0
        package var grayBias: Float = 0
        /// Whether a scaler was given (otherwise the scale is 1 and biases 0).
        package var hasScaler = false
        /// `meanImage`, [C, H, W] flattened; empty when none.
        package var meanImage: [Float] = []
    }

    package var flavor: Flavor
    package var layers: [NeuralNetworkLayer]
    package var preprocessing: [Preprocessing]
    /// `arrayInputShapeMapping` (5): 0 RANK5_ARRAY_MAPPING, 1 EXACT_ARRAY_MAPPING.
    package var arrayInputShapeMapping: Int
    /// `imageInputShapeMapping` (6): 0 RANK5_IMAGE_MAPPING, 1 RANK4_IMAGE_MAPPING.
    package var imageInputShapeMapping: Int
    /// Classifier labels (`stringClassLabels` 100, or `int64ClassLabels` 101 as decimal strings).
    package var classLabels: [String]
    /// Classifier `labelProbabilityLayerName` (200).
    package var labelProbabilityLayerName: String
    /// The whole file's bytes, into which `NeuralNetworkLayer.parameters` point.
    package var bytes: [UInt8]

    /// Old files (no input shape mapping): every blob is rank 5 `[Seq, Batch, C, H, W]`.
    package var isRank5: Bool { arrayInputShapeMapping == 0 && imageInputShapeMapping == 0 }
}

/// One `NeuralNetworkLayer`: name, inputs, outputs, which layer it is and where its parameters are.
package struct NeuralNetworkLayer: Sendable {
    package var name: String
    package var inputs: [String]
    package var outputs: [String]
    /// The `layer` oneof's field number (100 convolution, 130 activation, …); 0 when none is set.
    package var typeField: Int
    /// The parameters message's bytes in `NeuralNetworkSpec.bytes`.
    package var parameters: Range<Int>
    /// Nested networks of control-flow layers (`branch`, `loop`) are not converted; their presence is kept.
    package var typeName: String {
        Self.typeNames[typeField] ?? (typeField == 0 ? "(no layer type)" : "layer type \(typeField)")
    }

    /// NeuralNetwork.proto's `NeuralNetworkLayer.layer` oneof: field number → name (158 layer types).
    package static let typeNames: [Int: String] = [
        100: "convolution", 120: "pooling", 130: "activation", 140: "innerProduct", 150: "embedding", 160: "batchnorm",
        165: "mvn", 170: "l2normalize", 175: "softmax", 180: "lrn", 190: "crop", 200: "padding", 210: "upsample",
        211: "resizeBilinear", 212: "cropResize", 220: "unary", 230: "add", 231: "multiply", 240: "average",
        245: "scale",
        250: "bias", 260: "max", 261: "min", 270: "dot", 280: "reduce", 290: "loadConstant", 300: "reshape",
        301: "flatten",
        310: "permute", 320: "concat", 330: "split", 340: "sequenceRepeat", 345: "reorganizeData", 350: "slice",
        400: "simpleRecurrent", 410: "gru", 420: "uniDirectionalLSTM", 430: "biDirectionalLSTM", 500: "custom",
        600: "copy",
        605: "branch", 615: "loop", 620: "loopBreak", 625: "loopContinue", 635: "rangeStatic", 640: "rangeDynamic",
        660: "clip", 665: "ceil", 670: "floor", 680: "sign", 685: "round", 700: "exp2", 710: "sin", 715: "cos",
        720: "tan",
        730: "asin", 735: "acos", 740: "atan", 750: "sinh", 755: "cosh", 760: "tanh", 770: "asinh", 775: "acosh",
        780: "atanh", 790: "erf", 795: "gelu", 815: "equal", 820: "notEqual", 825: "lessThan", 827: "lessEqual",
        830: "greaterThan", 832: "greaterEqual", 840: "logicalOr", 845: "logicalXor", 850: "logicalNot",
        855: "logicalAnd",
        865: "modBroadcastable", 870: "minBroadcastable", 875: "maxBroadcastable", 880: "addBroadcastable",
        885: "powBroadcastable", 890: "divideBroadcastable", 895: "floorDivBroadcastable", 900: "multiplyBroadcastable",
        905: "subtractBroadcastable", 920: "tile", 925: "stack", 930: "gather", 935: "scatter", 940: "gatherND",
        945: "scatterND", 950: "softmaxND", 952: "gatherAlongAxis", 954: "scatterAlongAxis", 960: "reverse",
        965: "reverseSeq", 975: "splitND", 980: "concatND", 985: "transpose", 995: "sliceStatic", 1000: "sliceDynamic",
        1005: "slidingWindows", 1015: "topK", 1020: "argMin", 1025: "argMax", 1040: "embeddingND",
        1045: "batchedMatmul",
        1065: "getShape", 1070: "loadConstantND", 1080: "fillLike", 1085: "fillStatic", 1090: "fillDynamic",
        1100: "broadcastToLike", 1105: "broadcastToStatic", 1110: "broadcastToDynamic", 1120: "squeeze",
        1125: "expandDims",
        1130: "flattenTo2D", 1135: "reshapeLike", 1140: "reshapeStatic", 1145: "reshapeDynamic",
        1150: "rankPreservingReshape", 1155: "constantPad", 1170: "randomNormalLike", 1175: "randomNormalStatic",
        1180: "randomNormalDynamic", 1190: "randomUniformLike", 1195: "randomUniformStatic",
        1200: "randomUniformDynamic",
        1210: "randomBernoulliLike", 1215: "randomBernoulliStatic", 1220: "randomBernoulliDynamic",
        1230: "categoricalDistribution", 1250: "reduceL1", 1255: "reduceL2", 1260: "reduceMax", 1265: "reduceMin",
        1270: "reduceSum", 1275: "reduceProd", 1280: "reduceMean", 1285: "reduceLogSum", 1290: "reduceSumSquare",
        1295: "reduceLogSumExp", 1313: "whereNonZero", 1315: "matrixBandPart", 1320: "lowerTriangular",
        1325: "upperTriangular", 1330: "whereBroadcastable", 1350: "layerNormalization", 1400: "NonMaximumSuppression",
        1450: "oneHot", 1455: "cumSum", 1460: "clampedReLU", 1461: "argSort", 1465: "pooling3d",
        1466: "globalPooling3d",
        1470: "sliceBySize", 1471: "convolution3d",
    ]
}
