import Foundation

/// Lists, from rules on rows of lines (the layout model has no list class).
///
/// A row starts a list item when it begins with a marker: typed (a bullet "•" "●" "▪" "■" "·" "∙" "‣" "⁃" "*" "+", a
/// dash "-" "–" "—", a number "1." "2)" "(3)", a number with parts "1.2.3", "1.2." or "1.2" before a capital, a circled number "①", a letter "a." "B)")
/// followed by a space, or drawn (a dot, square or short dash before the row's first character, within 2.5 line heights,
/// a dot or square 15…80 % of the line height, a dash 15…120 % long and at most 20 % thick, centred on the line). Items whose markers are of one family (bullets and dashes,
/// numbers, letters) at the same indentation (within a line height), at most two line heights apart, make a list of
/// two or more; a row without a marker right under an item (at most a line height below) that starts past the marker
/// continues it.
enum DocumentListRules {
    /// One item: its rows, marker and text without the marker.
    struct Item {
        var rows: [[Int]]
        var marker: DocumentObservation.Container.List.Marker?
        var markerString: String
        var itemString: String
        /// A drawn marker's box (nil when typed).
        var markerBox: PageBox?
        /// Where the marker starts (x, level page) and the line height it was measured against.
        var markerX: Double
        var height: Double
    }

    /// A run of rows that is a paragraph (to be split by `DocumentLayout.paragraphs`) or a list.
    enum Piece {
        case paragraph([[Int]])
        case list([Item])
    }

    /// A row with the block it came from.
    struct Row {
        var lines: [Int]
        var block: Int
    }

    /// `rows` (in reading order) cut into paragraphs and lists; a paragraph never spans two blocks.
    static func split(_ rows: [Row], lines: [DocumentRecognizer.Line], bullets: Bullets) -> [Piece] {
        func box(_ row: Row) -> PageBox {
            row.lines.dropFirst().reduce(lines[row.lines[0]].box) { $0.union(lines[$1].box) }
        }
        let markers = rows.map { marker(of: $0.lines, lines: lines, bullets: bullets) }
        var pieces: [Piece] = []
        var pending: [[Int]] = []
        var pendingBlock: Int?
        func flush() {
            if !pending.isEmpty { pieces.append(.paragraph(pending)) }
            pending = []
            pendingBlock = nil
        }
        var i = 0
        while i < rows.count {
            if let first = markers[i] {
                var items = [first]
                var j = i + 1
                while j < rows.count {
                    let previous = box(rows[j - 1])
                    let current = box(rows[j])
                    let last = items[items.count - 1]
                    let gap = current.y0 - previous.y1
                    if let next = markers[j] {
                        guard family(next.marker) == family(first.marker),
                            abs(next.markerX - first.markerX) <= first.height,
                            gap <= 2 * first.height, gap > -first.height
                        else { break }
                        items.append(next)
                    } else {
                        // A continuation: just below, past the marker, of the item's size.
                        guard gap <= last.height, gap > -last.height, current.x0 > last.markerX + 0.5 * last.height,
                            current.height <= 1.4 * last.height
                        else { break }
                        items[items.count - 1].rows.append(rows[j].lines)
                        items[items.count - 1].itemString +=
                            "\n" + rows[j].lines.map { lines[$0].text }.joined(separator: " ")
                    }
                    j += 1
                }
                if items.count >= 2 {
                    flush()
                    pieces.append(.list(items))
                    i = j
                    continue
                }
            }
            if let block = pendingBlock, block != rows[i].block { flush() }
            pending.append(rows[i].lines)
            pendingBlock = rows[i].block
            i += 1
        }
        flush()
        return pieces
    }

    /// Bullets and dashes as one family, numbers as another, letters as a third.
    static func family(_ marker: DocumentObservation.Container.List.Marker?) -> Int {
        switch marker {
        case .bullet, .hyphen, nil: 0
        case .decimal, .compositeDecimal, .decorativeDecimal: 1
        case .lowercaseLatin, .uppercaseLatin: 2
        }
    }

    /// The item a row starts, if it starts with a marker.
    static func marker(of row: [Int], lines: [DocumentRecognizer.Line], bullets: Bullets) -> Item? {
        guard let firstLine = row.first else { return nil }
        let first = lines[firstLine]
        let height = first.box.height
        let text = row.map { lines[$0].text }.joined(separator: " ")
        if let (marker, markerString, rest) = typedMarker(text) {
            return Item(
                rows: [row], marker: marker, markerString: markerString, itemString: rest, markerBox: nil,
                markerX: first.box.x0, height: height)
        }
        if let (marker, box) = bullets.drawnMarker(before: first) {
            return Item(
                rows: [row], marker: marker, markerString: marker == .hyphen ? "–" : "•", itemString: text,
                markerBox: box, markerX: box.x0, height: height)
        }
        return nil
    }

    /// A typed marker at the start of `text`: its kind, the marker and the rest of the text.
    static func typedMarker(_ text: String) -> (DocumentObservation.Container.List.Marker, String, String)? {
        let ns = text as NSString
        for (pattern, kind) in Patterns.markers {
            guard let m = pattern.firstMatch(in: text, range: NSRange(location: 0, length: ns.length)) else { continue }
            let marker = ns.substring(with: m.range(at: 1))
            let rest = ns.substring(from: m.range.location + m.range.length).trimmingCharacters(in: .whitespaces)
            guard !rest.isEmpty else { continue }
            return (kind, marker, rest)
        }
        return nil
    }

    private enum Patterns {
        static func make(_ pattern: String) -> NSRegularExpression {
            // Constants of this file: a failure is a programming error caught by the tests.
            try! NSRegularExpression(pattern: pattern)
        }
        static let markers: [(NSRegularExpression, DocumentObservation.Container.List.Marker)] = [
            (make(#"^\s*([•●▪■◦○∙‣⁃])\s*"#), .bullet),
            (make(#"^\s*([·*+])\s+"#), .bullet),
            (make(#"^\s*([-–—])(?:\s+|(?=\p{Lu}))"#), .hyphen),
            // "1.2.3", "1.2." and "1.2" before a capital: a decimal number ("3.14 is pi", "2.5 kg") is no marker.
            (make(#"^\s*(\d{1,3}(?:\.\d{1,3}){2,}\.?|\d{1,3}(?:\.\d{1,3})+\.)\s+"#), .compositeDecimal),
            (make(#"^\s*(\d{1,3}\.\d{1,3})\s+(?=[\p{Lu}\p{Lo}])"#), .compositeDecimal),
            (make(#"^\s*(\d{1,3}[.)]|\(\d{1,3}\))(?:\s+|(?=[^\d\s.,)]))"#), .decimal),
            (make(#"^\s*([\x{2460}-\x{2473}\x{2776}-\x{277F}\x{2780}-\x{2793}])\s*"#), .decorativeDecimal),
            (make(#"^\s*([a-z][.)]|\([a-z]\))\s+"#), .lowercaseLatin),
            (make(#"^\s*([A-Z][.)]|\([A-Z]\))\s+"#), .uppercaseLatin),
        ]
    }

    /// Drawn markers, found on the level page's gray plane.
    struct Bullets {
        let page: UprightPage

        /// A dot, square or short dash drawn before a line's first character (see `DocumentListRules`): its kind and
        /// box. The window ends where the first character's glyph starts (its cell's centre less a third of the line
        /// height), so that a marker the recogniser read past, inside the line's box, is found too.
        func drawnMarker(before line: DocumentRecognizer.Line) -> (DocumentObservation.Container.List.Marker, PageBox)?
        {
            let box = line.box
            let h = box.height
            let image = page.image
            var end = box.x0
            if let first = line.observation.candidates.first?.characterBoxes.first {
                end = max(end, page.uprightBox(first).midX - h / 3)
            }
            let x0 = max(0, Int((box.x0 - 2.5 * h).rounded(.down)))
            let x1 = min(image.width, Int(end.rounded(.down)))
            let y0 = max(0, Int(box.y0.rounded(.down)))
            let y1 = min(image.height, Int(box.y1.rounded(.up)))
            let w = x1 - x0
            let rows = y1 - y0
            guard w >= 3, rows >= 3, h >= 4 else { return nil }
            // The window's ink: darker than halfway between its darkest and lightest pixel, when they differ enough.
            var window = [UInt8](repeating: 0, count: w * rows)
            do {
                try image.withGrayPixels { base, stride in
                    for y in 0..<rows {
                        for x in 0..<w { window[y * w + x] = base[(y0 + y) * stride + x0 + x] }
                    }
                }
            } catch {
                return nil
            }
            guard let lo = window.min(), let hi = window.max(), Int(hi) - Int(lo) >= 60 else { return nil }
            let threshold = (Int(lo) + Int(hi)) / 2
            // Connected components of ink (4-neighbours); the rightmost is the one next to the text.
            var label = [Int32](repeating: 0, count: w * rows)
            var components: [(x0: Int, y0: Int, x1: Int, y1: Int, count: Int)] = []
            var stack: [Int] = []
            for start in 0..<(w * rows) where label[start] == 0 && Int(window[start]) < threshold {
                components.append((w, rows, -1, -1, 0))
                let id = Int32(components.count)
                label[start] = id
                stack.append(start)
                while let p = stack.popLast() {
                    let px = p % w
                    let py = p / w
                    var c = components[components.count - 1]
                    c = (min(c.x0, px), min(c.y0, py), max(c.x1, px), max(c.y1, py), c.count + 1)
                    components[components.count - 1] = c
                    for (nx, ny) in [(px - 1, py), (px + 1, py), (px, py - 1), (px, py + 1)]
                    where nx >= 0 && nx < w && ny >= 0 && ny < rows {
                        let q = ny * w + nx
                        if label[q] == 0 && Int(window[q]) < threshold {
                            label[q] = id
                            stack.append(q)
                        }
                    }
                }
            }
            guard let c = components.filter({ $0.count >= 4 }).max(by: { $0.x1 < $1.x1 }) else { return nil }
            let cw = Double(c.x1 - c.x0 + 1)
            let chh = Double(c.y1 - c.y0 + 1)
            let mark = PageBox(
                x0: Double(x0 + c.x0), y0: Double(y0 + c.y0), x1: Double(x0 + c.x1 + 1), y1: Double(y0 + c.y1 + 1))
            // Centred on the line, and touching neither side of the window (part of something wider, or of the glyph).
            guard abs(mark.midY - box.midY) <= 0.25 * h, c.x0 > 0, c.x1 < w - 1 else { return nil }
            let fill = Double(c.count) / (cw * chh)
            if cw >= 0.15 * h, cw <= 0.8 * h, chh >= 0.15 * h, chh <= 0.8 * h, cw / chh >= 0.5, cw / chh <= 2,
                fill >= 0.45
            {
                return (.bullet, mark)
            }
            if cw >= 0.15 * h, cw <= 1.2 * h, chh <= 0.2 * h, chh >= 1, cw >= 2 * chh, fill >= 0.6 {
                return (.hyphen, mark)
            }
            return nil
        }
    }
}
