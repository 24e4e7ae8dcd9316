import Foundation

extension OverlayItem {
    /// Overlays for a live frame: every request's items (`items(for: VisionRequestOutcome)`), the tracked
    /// objects' boxes labelled `#ID label confidence` in a colour per track, and the counting line with
    /// its totals. Pinned labels are not included (see `items(forPinnedLabel:…)`).
    public static func items(for result: LiveResult) -> [OverlayItem] {
        let tracked = result.tracking.flatMap { _ in LiveResult.detectedObjects(in: result.outcomes) }
        var items: [OverlayItem] = []
        for (index, outcome) in result.outcomes.enumerated() {
            guard index == tracked?.index, let objects = tracked?.objects else {
                items += OverlayItem.items(for: outcome)
                continue
            }
            let roi = outcome.request.regionOfInterest
            for (i, object) in objects.enumerated() {
                let name = object.labels.first?.identifier ?? "?"
                let item: OverlayItem
                if let id = result.trackID(ofObjectAt: i) {
                    item = .box(
                        object.boundingBox, color: trackColor(id),
                        label: String(format: "#%d %@ %.2f", id, name, object.confidence))
                } else {
                    item = .box(object.boundingBox, label: name, confidence: object.confidence)
                }
                items.append(item.toFullImage(fromRegionOfInterest: roi))
            }
        }
        if let line = result.lineSegment, let counts = result.lineCounts {
            items.append(
                OverlayItem(
                    shape: .polygon(
                        [
                            NormalizedPoint(x: line.start.x, y: line.start.y),
                            NormalizedPoint(x: line.end.x, y: line.end.y),
                        ], closed: false),
                    color: .white, label: "in \(counts.totalIn) · out \(counts.totalOut)"))
        }
        return items
    }

    /// A distinct colour per track ID (a fixed palette, cycling).
    public static func trackColor(_ id: Int) -> OverlayColor {
        let palette: [OverlayColor] = [
            OverlayColor(red: 0, green: 200, blue: 220), OverlayColor(red: 255, green: 99, blue: 71),
            OverlayColor(red: 124, green: 252, blue: 0), OverlayColor(red: 255, green: 215, blue: 0),
            OverlayColor(red: 218, green: 112, blue: 214), OverlayColor(red: 30, green: 144, blue: 255),
            OverlayColor(red: 255, green: 165, blue: 0), OverlayColor(red: 0, green: 250, blue: 154),
        ]
        return palette[((id % palette.count) + palette.count) % palette.count]
    }
}
