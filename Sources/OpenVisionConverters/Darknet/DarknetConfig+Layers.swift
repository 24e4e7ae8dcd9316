import Foundation

/// Layers: each `.cfg` section checked and turned into a `DarknetLayer` for one reader.
extension DarknetConfig {
    /// Layer types by reader: the converter's (with darknet's short names) and OpenCV 4.6's.
    static let converterTypes: [String: String] = [
        "convolutional": "convolutional", "conv": "convolutional", "maxpool": "maxpool", "max": "maxpool",
        "avgpool": "avgpool", "avg": "avgpool", "route": "route", "shortcut": "shortcut", "upsample": "upsample",
        "yolo": "yolo", "dropout": "dropout",
    ]
    static let openCVTypes: [String] = [
        "convolutional", "connected", "maxpool", "avgpool", "softmax", "route", "dropout", "cost", "reorg",
        "region", "shortcut", "scale_channels", "sam", "upsample", "yolo",
    ]

    static func makeLayer(
        _ s: DarknetSection, index: Int, input: DarknetShape,
        previous: [DarknetLayer], reader: DarknetReader
    ) throws -> DarknetLayer {
        let openCV = reader == .openCV
        let type: String
        switch reader {
        case .converter:
            guard let known = converterTypes[s.name] else {
                if s.name == "net" || s.name == "network" { throw s.error(.syntax, "a second [\(s.name)] section") }
                throw s.error(
                    .unsupported,
                    "unsupported layer type [\(s.name)]; supported: convolutional, maxpool, "
                        + "avgpool, route, shortcut, upsample, yolo, dropout")
            }
            type = known
        case .openCV:
            guard openCVTypes.contains(s.name) else {
                throw s.error(
                    .unsupported,
                    "OpenCV cannot read the layer type [\(s.name)]; it reads "
                        + openCVTypes.joined(separator: ", "))
            }
            type = s.name
            // OpenCV adds the activation after any layer type.
            _ = try s.activation(required: false)
        }

        let builder = DarknetLayerBuilder(s: s, index: index, input: input, previous: previous, openCV: openCV)
        switch type {
        case "convolutional": return try builder.convolutional()
        case "connected": return try builder.connected()
        case "maxpool": return try builder.maxPool()
        case "avgpool": return try builder.averagePool()
        case "softmax": return try builder.softmax()
        case "route": return try builder.route()
        case "dropout", "cost": return try builder.dropout()
        case "reorg": return try builder.reorg()
        case "region": return try builder.region()
        case "shortcut": return try builder.shortcut()
        case "scale_channels": return try builder.scaleChannels()
        case "sam": return try builder.sam()
        case "upsample": return try builder.upsample()
        case "yolo": return try builder.yolo()
        default:
            // Unreachable: `type` comes from the reader's own list above.
            throw s.error(.unsupported, "unsupported layer type [\(s.name)]")
        }
    }
}
