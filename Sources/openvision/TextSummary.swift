import Foundation
import OpenVision

/// The `--format text` rendering of a report: one line per observation, pixel boxes.
enum TextSummary {
    static func render(_ r: AnalysisReport) -> String {
        var lines = ["\(r.image) (\(r.width)×\(r.height))"]
        func box(_ b: AnalysisReport.Box) -> String {
            String(format: "at x=%.0f y=%.0f w=%.0f h=%.0f", b.pixels.x, b.pixels.y, b.pixels.width, b.pixels.height)
        }
        for b in r.barcodes ?? [] { lines.append("  barcode \(b.symbology) \"\(b.payload ?? "<binary>")\" \(box(b.box))") }
        for x in r.rectangles ?? [] { lines.append(String(format: "  rectangle %.2f ", x.confidence) + box(x.box)) }
        for f in r.faces ?? [] {
            var line = String(format: "  face %.2f ", f.confidence) + box(f.box)
            if let roll = f.roll { line += String(format: " roll=%.1f°", roll * 180 / .pi) }
            if let landmarks = f.landmarks { line += " landmarks: \(landmarks.count) regions" }
            lines.append(line)
        }
        for t in r.text ?? [] { lines.append(String(format: "  text %.2f \"%@\" ", t.confidence, t.string) + box(t.box)) }
        for o in r.objects ?? [] {
            let label = o.label.padding(toLength: max(14, o.label.count), withPad: " ", startingAt: 0)
            lines.append("  \(label)" + String(format: " %.2f  x=%4.0f y=%4.0f w=%4.0f h=%4.0f", o.confidence,
                                                  o.box.pixels.x, o.box.pixels.y, o.box.pixels.width, o.box.pixels.height))
        }
        for a in r.animals ?? [] { lines.append(String(format: "  animal %@ %.2f ", a.label, a.confidence) + box(a.box)) }
        for h in r.humans ?? [] {
            lines.append(String(format: "  human%@ %.2f ", h.upperBodyOnly ? " (upper body)" : "", h.confidence) + box(h.box))
        }
        for h in r.hands ?? [] {
            var line = String(format: "  hand %@ %.2f ", h.chirality, h.confidence) + box(h.box)
            if let wrist = h.joints.first, let tip = h.joints.first(where: { $0.name == "indexTip" }) {
                line += String(format: " wrist=(%.0f,%.0f) indexTip=(%.0f,%.0f)", wrist.point.pixels.x, wrist.point.pixels.y, tip.point.pixels.x, tip.point.pixels.y)
            }
            lines.append(line)
        }
        for pose in r.bodyPoses ?? [] {
            let seen = pose.joints.filter { $0.confidence >= 0.5 }
            var line = String(format: "  body pose %.2f: %d/%d joints", pose.confidence, seen.count, pose.joints.count)
            for name in ["nose", "neck", "root"] {
                if let j = pose.joints.first(where: { $0.name == name }) {
                    line += String(format: " %@=(%.0f,%.0f)", name, j.point.pixels.x, j.point.pixels.y)
                }
            }
            lines.append(line)
        }
        if let m = r.personMask { lines.append("  person mask \(m.width)×\(m.height)" + (m.png.map { " → \($0)" } ?? "")) }
        for c in r.classifications ?? [] { lines.append(String(format: "  %.3f  %@", c.confidence, c.identifier)) }
        if let t = r.translation { lines.append(String(format: "  translation tx=%.2f ty=%.2f (lower-left origin) confidence %.2f", t.tx, t.ty, t.confidence)) }
        if let h = r.homography {
            lines.append("  homography (lower-left origin) " + h.warpTransform.map { String(format: "%.4g", $0) }.joined(separator: " ")
                         + String(format: " confidence %.2f", h.confidence))
        }
        if let c = r.contours { lines.append("  contours \(c.contourCount) (\(c.topLevelContourCount) top-level)") }
        if let h = r.horizon { lines.append(String(format: "  horizon %.1f°", h.angleDegrees)) }
        for (name, s) in [("saliency", r.saliency), ("objectness", r.objectness)] {
            guard let s else { continue }
            lines.append("  \(name) \(s.heatMap.width)×\(s.heatMap.height) map" + (s.heatMap.png.map { " → \($0)" } ?? ""))
            for o in s.salientObjects { lines.append(String(format: "    salient %.2f ", o.confidence) + box(o.box)) }
        }
        for t in r.textRectangles ?? [] {
            lines.append(String(format: "  text region %.2f ", t.confidence) + box(t.box) + (t.characters.map { " \($0.count) characters" } ?? ""))
        }
        if let d = r.document { lines.append(String(format: "  document %.2f ", d.confidence) + box(d.box)) }
        for w in r.warnings ?? [] { lines.append("  warning: \(w)") }
        for (name, e) in (r.errors ?? [:]).sorted(by: { $0.key < $1.key }) { lines.append("  error \(name): \(e.message) [\(e.code)]") }
        for (name, ms) in (r.timingsMs ?? [:]).sorted(by: { $0.key < $1.key }) { lines.append(String(format: "  time %@ %.1f ms", name, ms)) }
        return lines.joined(separator: "\n")
    }
}
