import Foundation

/// The lines outside tables grouped into blocks, and the rules that read blocks: rows, paragraphs and the title.
///
/// A block is the lines of one layout region (each line goes to the region it overlaps most, at least half its area;
/// regions of every class but table); lines in no region are grouped among themselves: a line joins the block above
/// it when they overlap horizontally, are at most a line height apart and of similar height (within 1.4×).
struct DocumentLayout {
    struct Block {
        var lines: [Int]
        var box: PageBox
    }

    /// The lines that make a title.
    struct Title {
        var lines: [Int]
    }

    let lines: [DocumentRecognizer.Line]
    let blocks: [Block]
    let pageHeight: Double
    /// The median height of the body text a title stands out from: the lines outside tables when there are at least
    /// three (the timetable page's cells measure 42 px where its paragraph and list measure 35–38), else all the
    /// page's lines (a page of tables).
    let medianHeight: Double

    init(lines: [DocumentRecognizer.Line], free: [Int], regions: [DocumentLayoutDetector.Region], page: UprightPage) {
        self.lines = lines
        pageHeight = Double(page.image.height)
        let body = free.count >= 3 ? free.map { lines[$0] } : lines
        let heights = body.map(\.box.height).sorted()
        medianHeight = heights.isEmpty ? 1 : max(1, heights[heights.count / 2])
        let areas = regions.filter { $0.label != "table" }
        var byRegion: [Int: [Int]] = [:]
        var loose: [Int] = []
        for k in free {
            let box = lines[k].box
            var best: Int?
            var bestKey = (0.0, Float(0))
            for (r, region) in areas.enumerated() {
                let key = (box.intersectionArea(region.box), region.confidence)
                if key.0 >= 0.5 * box.area, key.0 > 0, key > bestKey {
                    bestKey = key
                    best = r
                }
            }
            if let best { byRegion[best, default: []].append(k) } else { loose.append(k) }
        }
        var blocks = byRegion.keys.sorted().map { Self.block(byRegion[$0]!, lines: lines) }
        // Lines in no region, top to bottom, each joining the first block it continues.
        var looseBlocks: [Block] = []
        for k in loose.sorted(by: { lines[$0].box.y0 < lines[$1].box.y0 }) {
            let b = lines[k].box
            if let j = looseBlocks.lastIndex(where: { block in
                let last = block.lines.map { lines[$0].box }.max { $0.y1 < $1.y1 }!
                let overlap = min(last.x1, b.x1) - max(last.x0, b.x0)
                let gap = b.y0 - last.y1
                let ratio = max(last.height, b.height) / max(1, min(last.height, b.height))
                return overlap > 0 && gap <= max(last.height, b.height) && gap > -0.5 * b.height && ratio <= 1.4
            }) {
                looseBlocks[j].lines.append(k)
                looseBlocks[j].box = looseBlocks[j].box.union(b)
            } else {
                looseBlocks.append(Block(lines: [k], box: b))
            }
        }
        blocks += looseBlocks
        self.blocks = blocks
    }

    static func block(_ indices: [Int], lines: [DocumentRecognizer.Line]) -> Block {
        let boxes = indices.map { lines[$0].box }
        return Block(lines: indices, box: boxes.dropFirst().reduce(boxes[0]) { $0.union($1) })
    }

    /// A block's rows, top to bottom: lines overlapping vertically by at least half the smaller height share a row,
    /// left to right.
    func rows(of block: Block) -> [[Int]] {
        var rows: [(box: PageBox, lines: [Int])] = []
        for k in block.lines.sorted(by: { lines[$0].box.midY < lines[$1].box.midY }) {
            let b = lines[k].box
            if let r = rows.indices.last,
                min(rows[r].box.y1, b.y1) - max(rows[r].box.y0, b.y0) >= 0.5 * min(rows[r].box.height, b.height)
            {
                rows[r].lines.append(k)
                rows[r].box = rows[r].box.union(b)
            } else {
                rows.append((b, [k]))
            }
        }
        return rows.map { $0.lines.sorted { lines[$0].box.x0 < lines[$1].box.x0 } }
    }

    func box(of row: [Int]) -> PageBox {
        row.dropFirst().reduce(lines[row[0]].box) { $0.union(lines[$1].box) }
    }

    /// Rows split into paragraphs: a new one where the gap to the row above is more than 0.8 line heights, or the
    /// text height changes by more than 1.3×.
    func paragraphs(_ rows: [[Int]]) -> [[[Int]]] {
        var out: [[[Int]]] = []
        for row in rows {
            let b = box(of: row)
            if let previous = out.last?.last {
                let a = box(of: previous)
                let height = (a.height + b.height) / 2
                let ratio = max(a.height, b.height) / max(1, min(a.height, b.height))
                if b.y0 - a.y1 <= 0.8 * height, ratio <= 1.3 {
                    out[out.count - 1].append(row)
                    continue
                }
            }
            out.append([row])
        }
        return out
    }

    /// The title: the first line, in reading order, at least 1.3 times the median line height whose top is in the upper
    /// 40 % of the page, with the rows of its block next to it that are at least 0.8 times its height; nil when no line
    /// stands out (fewer than two lines, or all of one size).
    func title(ordered: [ReadingOrder.Unit]) -> Title? {
        for unit in ordered {
            guard case .block(let block) = unit.kind else { continue }
            let rows = rows(of: block)
            guard
                let start = rows.firstIndex(where: { row in
                    row.contains { k in
                        let b = lines[k].box
                        return b.height >= 1.3 * medianHeight && b.y0 <= 0.4 * pageHeight
                    }
                })
            else { continue }
            guard lines.count >= 2 else { return nil }
            let height = box(of: rows[start]).height
            var end = start
            while end + 1 < rows.count, box(of: rows[end + 1]).height >= 0.8 * height { end += 1 }
            return Title(lines: rows[start...end].flatMap { $0 })
        }
        return nil
    }
}
