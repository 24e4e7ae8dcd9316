/// The N-D layers of NeuralNetwork.proto (specification 4 and later, "Following layers are available only after Core ML
/// Specification version >= 4"): each case is the layer's field number in the `NeuralNetworkLayer.layer` oneof, as
/// coremltools 9.0 defines it.
enum NDLayer: Int, CaseIterable {
    case rangeStatic = 635
    case clip = 660
    case ceil = 665
    case floor = 670
    case sign = 680
    case round = 685
    case exp2 = 700
    case sin = 710
    case cos = 715
    case tan = 720
    case asin = 730
    case acos = 735
    case atan = 740
    case sinh = 750
    case cosh = 755
    case tanh = 760
    case asinh = 770
    case acosh = 775
    case atanh = 780
    case erf = 790
    case gelu = 795
    case equal = 815
    case notEqual = 820
    case lessThan = 825
    case lessEqual = 827
    case greaterThan = 830
    case greaterEqual = 832
    case logicalOr = 840
    case logicalXor = 845
    case logicalNot = 850
    case logicalAnd = 855
    case modBroadcastable = 865
    case minBroadcastable = 870
    case maxBroadcastable = 875
    case addBroadcastable = 880
    case powBroadcastable = 885
    case divideBroadcastable = 890
    case floorDivBroadcastable = 895
    case multiplyBroadcastable = 900
    case subtractBroadcastable = 905
    case tile = 920
    case stack = 925
    case gather = 930
    case gatherND = 940
    case softmaxND = 950
    case gatherAlongAxis = 952
    case reverse = 960
    case splitND = 975
    case concatND = 980
    case transpose = 985
    case sliceStatic = 995
    case sliceDynamic = 1000
    case topK = 1015
    case argMin = 1020
    case argMax = 1025
    case embeddingND = 1040
    case batchedMatmul = 1045
    case getShape = 1065
    case loadConstantND = 1070
    case fillLike = 1080
    case fillStatic = 1085
    case fillDynamic = 1090
    case broadcastToLike = 1100
    case broadcastToStatic = 1105
    case broadcastToDynamic = 1110
    case squeeze = 1120
    case expandDims = 1125
    case flattenTo2D = 1130
    case reshapeLike = 1135
    case reshapeStatic = 1140
    case reshapeDynamic = 1145
    case rankPreservingReshape = 1150
    case constantPad = 1155
    case reduceL1 = 1250
    case reduceL2 = 1255
    case reduceMax = 1260
    case reduceMin = 1265
    case reduceSum = 1270
    case reduceProd = 1275
    case reduceMean = 1280
    case reduceLogSum = 1285
    case reduceSumSquare = 1290
    case reduceLogSumExp = 1295
    case matrixBandPart = 1315
    case lowerTriangular = 1320
    case upperTriangular = 1325
    case whereBroadcastable = 1330
    case layerNormalization = 1350
    case oneHot = 1450
    case cumSum = 1455
    case clampedReLU = 1460
    case argSort = 1461
    case sliceBySize = 1470

    /// The random layers (`randomNormalLike` … `categoricalDistribution`): refused, their numbers are Core ML's
    /// generator's.
    static let random: Set<Int> = [1170, 1175, 1180, 1190, 1195, 1200, 1210, 1215, 1220, 1230]
}

/// Field numbers of the N-D layers' parameter messages (NeuralNetwork.proto, coremltools 9.0), by message.
enum NDField {
    /// `RangeStaticLayerParams`.
    enum RangeStatic { static let endValue = 1, startValue = 2, stepSizeValue = 3 }
    /// `ClipLayerParams`.
    enum Clip { static let minVal = 1, maxVal = 2 }
    /// `GeluLayerParams` (mode: EXACT 0, TANH_APPROXIMATION 1, SIGMOID_APPROXIMATION 2).
    enum Gelu { static let mode = 1 }
    /// `EqualLayerParams` and `NotEqualLayerParams`: the scalar compared with when there is one input.
    enum Equality { static let alpha = 1 }
    /// `LessThanLayerParams`, `LessEqualLayerParams`, `GreaterThanLayerParams`, `GreaterEqualLayerParams`.
    enum Ordering { static let alpha = 2 }
    /// `TileLayerParams`.
    enum Tile { static let reps = 1 }
    /// The layers whose only parameter is `axis`: `StackLayerParams`, `GatherLayerParams`, `SoftmaxNDLayerParams`,
    /// `GatherAlongAxisLayerParams`, `FlattenTo2DLayerParams`.
    enum Axis { static let axis = 1 }
    /// `ReverseLayerParams`.
    enum Reverse { static let reverseDim = 1 }
    /// `SplitNDLayerParams`.
    enum SplitND { static let axis = 1, numSplits = 2, splitSizes = 3 }
    /// `ConcatNDLayerParams`.
    enum ConcatND { static let axis = 1, interleave = 2 }
    /// `TransposeLayerParams`.
    enum Transpose { static let axes = 1 }
    /// `ArgMaxLayerParams`, `ArgMinLayerParams`.
    enum ArgReduce { static let axis = 1, removeDim = 2 }
    /// `FillLikeLayerParams`, `FillStaticLayerParams`, `FillDynamicLayerParams`.
    enum Fill { static let value = 1, targetShape = 2 }
    /// `BroadcastToStaticLayerParams`, `ReshapeStaticLayerParams`, `RankPreservingReshapeLayerParams`.
    enum TargetShape { static let targetShape = 1 }
    /// `SqueezeLayerParams`.
    enum Squeeze { static let axes = 1, squeezeAll = 2 }
    /// `ExpandDimsLayerParams`.
    enum ExpandDims { static let axes = 1 }
    /// `ConstantPaddingLayerParams`.
    enum ConstantPad { static let value = 1, padAmounts = 2, padToGivenOutputSizeMode = 3 }
    /// `MatrixBandPartLayerParams`.
    enum MatrixBandPart { static let numLower = 1, numUpper = 2 }
    /// `LowerTriangularLayerParams`, `UpperTriangularLayerParams`.
    enum Triangular { static let k = 1 }
    /// `LayerNormalizationLayerParams`.
    enum LayerNormalization { static let normalizedShape = 1, eps = 2, gamma = 3, beta = 4 }
    /// `OneHotLayerParams`.
    enum OneHot { static let oneHotVectorSize = 1, axis = 2, onValue = 3, offValue = 4 }
    /// `CumSumLayerParams`.
    enum CumSum { static let axis = 1, excludeFinalSum = 2, reverse = 3 }
    /// `ClampedReLULayerParams`.
    enum ClampedReLU { static let alpha = 1, beta = 2 }
    /// `ArgSortLayerParams`.
    enum ArgSort { static let axis = 1, descending = 2 }
    /// `SliceBySizeLayerParams` (the start is the second input).
    enum SliceBySize { static let size = 2, axis = 3 }
    /// The `Reduce…LayerParams` of the N-D reductions.
    enum Reduce { static let axes = 1, keepDims = 2, reduceAll = 3 }
    /// `SliceStaticLayerParams` (and `SliceDynamicLayerParams`, whose begins are its second input).
    enum Slice { static let beginIds = 1, beginMasks = 2, endIds = 3, endMasks = 4, strides = 5, squeezeMasks = 6 }
    /// `TopKLayerParams`.
    enum TopK { static let axis = 1, k = 2, useBottomK = 3 }
    /// `EmbeddingNDLayerParams`.
    enum EmbeddingND { static let vocabSize = 1, embeddingSize = 2, hasBias = 3, weights = 20, bias = 21 }
    /// `BatchedMatMulLayerParams`.
    enum BatchedMatMul {
        static let transposeA = 1, transposeB = 2, weightMatrixFirstDimension = 5, weightMatrixSecondDimension = 6
        static let hasBias = 7, weights = 8, bias = 9
    }
}
