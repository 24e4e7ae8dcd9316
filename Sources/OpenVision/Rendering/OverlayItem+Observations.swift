import Foundation

/// Overlays for each kind of observation, in the seed sample's colours: text lines red with
/// characters purple, faces yellow, landmarks green, barcodes orange, rectangles blue.
extension OverlayItem {
    /// A barcode's outline and payload.
    public static func items(for barcode: BarcodeObservation) -> [OverlayItem] {
        let label = "\(barcode.symbology.rawValue): \(barcode.payloadString ?? "\(barcode.payloadData.count) bytes")"
        return [OverlayItem(shape: .polygon(barcode.corners, closed: true), color: .orange, label: label)]
    }

    /// A rectangle's corners.
    public static func items(for rectangle: RectangleObservation) -> [OverlayItem] {
        [
            OverlayItem(
                shape: .polygon(rectangle.corners, closed: true), color: .blue,
                label: String(format: "rect %.2f", rectangle.confidence))
        ]
    }

    /// A face's box (labelled with its confidence and, when measured, its capture quality) and, when present, its
    /// landmark regions.
    public static func items(for face: FaceObservation) -> [OverlayItem] {
        var label = String(format: "face %.2f", face.confidence)
        if let quality = face.captureQuality { label += String(format: " quality %.2f", quality.score) }
        var items = [OverlayItem.box(face.boundingBox, color: .yellow, label: label)]
        if let l = face.landmarks {
            let regions = [
                l.faceContour, l.leftEyebrow, l.rightEyebrow, l.noseCrest, l.nose, l.leftEye, l.rightEye,
                l.outerLips, l.innerLips,
            ]
            for region in regions where region.pointCount >= 2 {
                items.append(
                    OverlayItem(
                        shape: .polygon(
                            region.pointsNormalizedToImage,
                            closed: region.pointsClassification == .closedPath),
                        color: .green, lineWidth: 1.5))
            }
            items.append(
                OverlayItem(
                    shape: .points(l.leftPupil.pointsNormalizedToImage + l.rightPupil.pointsNormalizedToImage),
                    color: .red, lineWidth: 2))
            if l.constellation == .points6 {
                // BlazeFace's coarse keypoints (eyes, nose, mouth, ears).
                items.append(
                    OverlayItem(shape: .points(l.allPoints.pointsNormalizedToImage), color: .green, lineWidth: 2))
            }
        }
        return items
    }

    /// A hand's skeleton (Vision's joint pairs: wrist to each finger, along each finger), its joints, and a
    /// label with its chirality at the wrist.
    public static func items(for hand: HumanHandPoseObservation) -> [OverlayItem] {
        var items: [OverlayItem] = []
        let colors: [OverlayColor] = [.orange, .yellow, .green, .cyan, .purple]
        for (i, (a, b)) in HumanHandPoseObservation.skeletonPairs.enumerated() {
            items.append(
                OverlayItem(
                    shape: .polygon(
                        [hand.recognizedPoint(a).location, hand.recognizedPoint(b).location], closed: false),
                    color: colors[i / 4], lineWidth: 2))
        }
        items.append(OverlayItem(shape: .points(hand.joints.map(\.location)), color: .red, lineWidth: 2))
        items.append(
            OverlayItem(
                shape: .points([hand.recognizedPoint(.wrist).location]), color: .white,
                label: String(format: "%@ hand %.2f", hand.chirality.rawValue, hand.confidence), lineWidth: 2))
        return items
    }

    /// A text line's quadrilateral with its string, and the box of each character.
    public static func items(for text: RecognizedTextObservation, characterBoxes: Bool = true) -> [OverlayItem] {
        var items: [OverlayItem] = []
        if characterBoxes, let best = text.candidates.first {
            for (character, box) in zip(best.string, best.characterBoxes) where !character.isWhitespace {
                var item = OverlayItem.box(box, color: .purple)
                item.lineWidth = 1
                items.append(item)
            }
        }
        // The line's quadrilateral: its box for axis-aligned lines, a rotated outline for rotated ones (.accurate).
        items.append(
            OverlayItem(
                shape: .polygon([text.topLeft, text.topRight, text.bottomRight, text.bottomLeft], closed: true),
                color: .red, label: text.candidates.first?.string))
        return items
    }

    /// A box, label and confidence for a recognised object (top label).
    public static func box(_ rect: NormalizedRect, label: String, confidence: Float, color: OverlayColor = .cyan)
        -> OverlayItem
    {
        .box(rect, color: color, label: String(format: "%@ %.2f", label, confidence))
    }
}

extension OverlayItem {
    /// Overlays for whatever a request produced (see `ReportableResult.overlayItems`), in
    /// full-image coordinates (the request's region of interest undone); none for failures.
    public static func items(for outcome: VisionRequestOutcome) -> [OverlayItem] {
        (outcome.reportable?.overlayItems ?? []).map {
            $0.toFullImage(fromRegionOfInterest: outcome.request.regionOfInterest)
        }
    }
}
