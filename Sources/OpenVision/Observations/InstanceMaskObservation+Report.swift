import Foundation

/// Person instances in the report (`personInstances`).
extension AnalysisReport {
    /// `GeneratePersonInstanceMaskRequest`'s mask: its size (and, with `--maps`, its files: the PNG holds the
    /// instance numbers as gray levels 0, 1, 2… out of 255) and each person's number and pixel count.
    public struct PersonInstances: Sendable, Codable, Hashable {
        /// One person in the mask.
        public struct Instance: Sendable, Codable, Hashable {
            /// The person's number in the mask (1…n).
            public var index: Int
            /// How many pixels are theirs.
            public var pixels: Int
            /// Their pixels' bounding box.
            public var box: Box
        }
        /// The instance mask's size and, with `--maps`, its files.
        public var mask: Map
        /// Each person, by number.
        public var instances: [Instance]
    }

    static func summary(personInstances p: PersonInstances) -> [String] {
        [
            "  person instances \(p.mask.width)×\(p.mask.height): \(p.instances.count)"
                + (p.mask.png.map { " → \($0)" } ?? "")
        ]
            + p.instances.map { "  person \($0.index): \($0.pixels) px " + at($0.box) }
    }
}

/// `GeneratePersonInstanceMaskRequest`'s result: reported under `personInstances`, each person blended in a colour of
/// its own. The map written is the instance mask divided by 255 (PNG gray level = instance number).
public struct PersonInstancesReport: ReportableResult {
    /// The instance mask to report.
    public var observation: InstanceMaskObservation
    /// Wraps `observation` for reporting.
    public init(_ observation: InstanceMaskObservation) { self.observation = observation }

    /// Heat-map values (OpenCV's JET) per instance: red, green, orange, yellow-green; ≥ 0.5 so each blends visibly.
    static let palette: [Float] = [1.0, 0.5, 0.8, 0.62]

    /// Puts these results into `report`; `files` holds what was written for each of `maps`, by name.
    public func add(to report: inout AnalysisReport, files: [String: AnalysisReport.MapFiles]) {
        report.personInstances = Self.entry(observation, in: report, files: files)
    }

    /// What to draw for these results, in the coordinates they carry (the region of interest).
    public var overlayItems: [OverlayItem] { Self.overlayItems(observation) }

    /// The image-valued parts of these results, by name ("" for the only one).
    public var maps: [(name: String, map: PixelBufferObservation)] { Self.maps(observation) }

    /// The report entry of any instance mask (people's or the foreground's): its size, files and each instance's
    /// number, pixel count and box.
    static func entry(
        _ observation: InstanceMaskObservation, in report: AnalysisReport, files: [String: AnalysisReport.MapFiles]
    ) -> AnalysisReport.PersonInstances {
        let m = observation.instanceMask
        var boxes: [Int: (x0: Int, y0: Int, x1: Int, y1: Int, n: Int)] = [:]
        m.withUnsafeBufferPointer { v in
            for y in 0..<m.height {
                for x in 0..<m.width {
                    let l = Int(v[y * m.width + x])
                    guard l > 0 else { continue }
                    var b = boxes[l] ?? (x, y, x, y, 0)
                    b = (min(b.x0, x), min(b.y0, y), max(b.x1, x), max(b.y1, y), b.n + 1)
                    boxes[l] = b
                }
            }
        }
        let toNormalized = PixelToNormalized(width: m.width, height: m.height)
        return AnalysisReport.PersonInstances(
            mask: AnalysisReport.Map(m, files: files[""]),
            instances: boxes.keys.sorted().map { l in
                let b = boxes[l]!
                return .init(
                    index: l, pixels: b.n,
                    box: report.box(
                        toNormalized.rect(
                            x: Double(b.x0), y: Double(b.y0),
                            width: Double(b.x1 - b.x0 + 1),
                            height: Double(b.y1 - b.y0 + 1))))
            })
    }

    /// Each instance of `observation` blended in a colour of its own.
    static func overlayItems(_ observation: InstanceMaskObservation) -> [OverlayItem] {
        let m = observation.instanceMask
        let values = m.values.map { $0 > 0 ? Self.palette[(Int($0) - 1) % Self.palette.count] : 0 }
        guard let colours = try? PixelBufferObservation(width: m.width, height: m.height, values: values) else {
            return []
        }
        return [.heatMap(colours, opacity: 0.6)]
    }

    /// The instance mask divided by 255 (PNG gray level = instance number).
    static func maps(_ observation: InstanceMaskObservation) -> [(name: String, map: PixelBufferObservation)] {
        let m = observation.instanceMask
        guard
            let scaled = try? PixelBufferObservation(
                width: m.width, height: m.height, values: m.values.map { $0 / 255 },
                featureName: "instanceMask")
        else { return [] }
        return [("", scaled)]
    }
}
