import Foundation

/// Overlays for the classic catalogue requests: contours by nesting depth (green, then cyan, then
/// yellow, repeating), the horizon as a red line through the centre, the saliency heat map (JET, half
/// opacity) under its regions' boxes, orange (attention) or purple (objectness), text regions red with
/// character boxes purple, the document blue.
extension OverlayItem {
    private static let depthColors: [OverlayColor] = [.green, .cyan, .yellow]

    /// Every contour as a closed polygon, thin, coloured by depth.
    public static func items(for contours: ContoursObservation) -> [OverlayItem] {
        var items: [OverlayItem] = []
        items.reserveCapacity(contours.contourCount)
        func visit(_ c: Contour, depth: Int) {
            if c.pointCount > 1 {
                items.append(
                    OverlayItem(
                        shape: .polygon(c.points, closed: true), color: depthColors[depth % depthColors.count],
                        lineWidth: 1))
            }
            for child in c.childContours { visit(child, depth: depth + 1) }
        }
        contours.topLevelContours.forEach { visit($0, depth: 0) }
        return items
    }

    /// The aesthetics score (and "utility" for utility images) as a label at the analysed region's top-left corner.
    public static func items(for aesthetics: ImageAestheticsScoresObservation) -> [OverlayItem] {
        let label =
            String(format: "aesthetics %.2f", aesthetics.overallScore) + (aesthetics.isUtility ? " utility" : "")
        return [OverlayItem(shape: .points([NormalizedPoint(x: 0.02, y: 0.98)]), color: .cyan, label: label)]
    }

    /// The horizon line across the analysed region, labelled with its angle.
    public static func items(for horizon: HorizonObservation) -> [OverlayItem] {
        let (a, b) = horizon.lineEndpoints(aspectRatio: horizon.regionAspectRatio)
        let degrees = horizon.angle.converted(to: .degrees).value
        return [
            OverlayItem(
                shape: .polygon([a, b], closed: false), color: .red, label: String(format: "horizon %.1f°", degrees))
        ]
    }

    /// The heat map over the analysed region at half opacity, then the salient regions' boxes with their confidences
    /// (orange "salient", or purple "object" for objectness-based saliency).
    public static func items(for saliency: SaliencyImageObservation, objectness: Bool = false) -> [OverlayItem] {
        let name = objectness ? "object" : "salient"
        return [.heatMap(saliency.heatMap, over: .fullImage, opacity: 0.5)]
            + saliency.salientObjects.map {
                .box(
                    $0.boundingBox, color: objectness ? .purple : .orange,
                    label: String(format: "%@ %.2f", name, $0.confidence))
            }
    }

    /// A text region's box and, when present, its characters' boxes.
    public static func items(for text: TextObservation) -> [OverlayItem] {
        var items: [OverlayItem] = (text.characterBoxes ?? []).map {
            var item = OverlayItem.box($0.boundingBox, color: .purple)
            item.lineWidth = 1
            return item
        }
        items.append(
            OverlayItem(
                shape: .polygon(text.corners, closed: true), color: .red,
                label: String(format: "text %.2f", text.confidence)))
        return items
    }

    /// The document's outline.
    public static func items(for document: DetectedDocumentObservation) -> [OverlayItem] {
        [
            OverlayItem(
                shape: .polygon(document.corners, closed: true), color: .blue,
                label: String(format: "document %.2f", document.confidence))
        ]
    }
}
