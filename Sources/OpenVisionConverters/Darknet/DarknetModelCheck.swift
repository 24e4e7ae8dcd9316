import Foundation

extension DarknetConfig {
    /// Checks a `.cfg` + `.weights` pair before OpenCV's Darknet importer reads it, which would
    /// otherwise crash (anchor masks and route indices out of bounds, a zero `groups`), throw
    /// from inside (a layer reading itself or a later one), allocate without bound, or run on
    /// truncated weights as if they were zeros. Returns the `[net]` input size (OpenCV's 416 × 416
    /// × 3 for keys left out).
    ///
    /// The network is checked in full for OpenCV's reader (`DarknetConfig(text:reader: .openCV)`:
    /// every value and derived size within `DarknetLimits`, every index, every shape), and the
    /// `.weights` file must hold exactly the floats the `.cfg` needs (its header and size are read,
    /// not its floats).
    package static func checkForLoading(cfg: URL, weights: URL) throws -> (width: Int, height: Int, channels: Int) {
        let config = try DarknetConfig(text: readText(cfg), fileName: cfg.lastPathComponent, reader: .openCV)
        try DarknetWeights.check(weights, config: config)
        return (config.width, config.height, config.channels)
    }
}
