import OpenVision

/// Where a Core Graphics bitmap layout keeps each component: the memory index of red, green and blue (one index
/// for gray), of alpha (nil for none or a skipped byte), and whether colour is premultiplied.
struct CGPixelLayout: Equatable {
    var channels: Int
    var colorIndices: [Int]
    var alphaIndex: Int?
    var premultiplied: Bool

    /// The canvas layout of these pixels.
    var canvas: BitmapCanvas.Layout {
        BitmapCanvas.Layout(channels: channels, alphaIndex: alphaIndex, premultiplied: premultiplied)
    }

    /// The layout of 8-bit components: gray (8 bits), RGB (24) or RGB with alpha or a skipped byte (32, any byte
    /// order); nil for another.
    init?(bitsPerComponent: Int, bitsPerPixel: Int, model: CGColorSpaceModel, bitmapInfo: CGBitmapInfo) {
        guard bitsPerComponent == 8, !bitmapInfo.contains(.floatComponents),
            bitmapInfo.rawValue & CGBitmapInfo.pixelFormatMask.rawValue == 0,
            let alpha = CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue),
            let order = CGImageByteOrderInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.byteOrderMask.rawValue)
        else { return nil }
        switch (model, bitsPerPixel) {
        case (.monochrome, 8) where alpha == .none:
            self.init(channels: 1, colorIndices: [0], alphaIndex: nil, premultiplied: false)
        case (.rgb, 24) where alpha == .none && (order == .orderDefault || order == .order32Big):
            self.init(channels: 3, colorIndices: [0, 1, 2], alphaIndex: nil, premultiplied: false)
        case (.rgb, 32):
            let first = [.first, .premultipliedFirst, .noneSkipFirst].contains(alpha)
            let last = [.last, .premultipliedLast, .noneSkipLast].contains(alpha)
            guard first || last else { return nil }
            let hasAlpha = ![.noneSkipFirst, .noneSkipLast].contains(alpha)
            let premultiplied = alpha == .premultipliedFirst || alpha == .premultipliedLast
            // In memory: big-endian (default) keeps the named order, 32-bit little-endian reverses it.
            let little = order == .order32Little
            guard order == .orderDefault || order == .order32Big || little else { return nil }
            let named = first ? ["A", "R", "G", "B"] : ["R", "G", "B", "A"]
            let memory = little ? Array(named.reversed()) : named
            self.init(
                channels: 4, colorIndices: ["R", "G", "B"].map { memory.firstIndex(of: $0)! },
                alphaIndex: hasAlpha ? memory.firstIndex(of: "A") : nil, premultiplied: premultiplied)
        default:
            return nil
        }
    }

    private init(channels: Int, colorIndices: [Int], alphaIndex: Int?, premultiplied: Bool) {
        self.channels = channels
        self.colorIndices = colorIndices
        self.alphaIndex = alphaIndex
        self.premultiplied = premultiplied
    }
}
