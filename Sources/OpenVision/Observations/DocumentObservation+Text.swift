import Foundation

extension DocumentObservation.Container {
    /// A run of text in a document (a paragraph, a title, a list item's or a cell's text, or all of a container's), as
    /// Vision's `DocumentObservation.Container.Text`: its lines as recognised, and their transcript.
    public struct Text: Sendable, Hashable, Codable, BoundingRegionProviding {
        /// How a paragraph's lines sit in it, as Vision's `DocumentObservation.Container.Text.Alignment`.
        public enum Alignment: String, Sendable, Hashable, Codable {
            /// Lines start at the same place.
            case leading
            /// Lines are centred on the same place.
            case center
            /// Lines end at the same place.
            case trailing
        }

        /// The lines, in reading order, as `RecognizeTextRequest` gives them (`.accurate`: PP-OCRv4), relative to the
        /// request's region of interest.
        public var lines: [RecognizedTextObservation]
        /// The lines' strings joined with line breaks (a space between pieces of one row of a table cell).
        public var transcript: String
        /// The region around the lines.
        public var boundingRegion: NormalizedRegion
        /// How the lines are aligned; nil for a single line, and when they are aligned neither way (within half a line
        /// height).
        public var textAlignment: Alignment?

        /// The text of `lines` in reading order, around `boundingRegion`.
        public init(
            lines: [RecognizedTextObservation], boundingRegion: NormalizedRegion, textAlignment: Alignment? = nil
        ) {
            self.init(
                lines: lines, boundingRegion: boundingRegion, textAlignment: textAlignment,
                separators: Array(repeating: "\n", count: max(0, lines.count - 1)))
        }

        /// The text of `lines` joined by `separators` (one character between each two lines: a line break, or a space
        /// between pieces of one row).
        init(
            lines: [RecognizedTextObservation], boundingRegion: NormalizedRegion, textAlignment: Alignment? = nil,
            separators: [Character]
        ) {
            self.lines = lines
            var transcript = ""
            for (k, line) in lines.enumerated() {
                if k > 0 { transcript.append(k - 1 < separators.count ? separators[k - 1] : "\n") }
                transcript += line.candidates.first?.string ?? ""
            }
            self.transcript = transcript
            self.boundingRegion = boundingRegion
            self.textAlignment = textAlignment
        }

        /// Each word of the lines as an observation of its own (its box, string and confidence), in reading order.
        public var words: [RecognizedTextObservation]? {
            lines.flatMap { line -> [RecognizedTextObservation] in
                guard let best = line.candidates.first else { return [] }
                // The words are the line's runs of non-space characters, in order: each takes its characters' boxes.
                var runs: [Range<Int>] = []
                var start: Int?
                for (k, c) in best.string.enumerated() {
                    if c.isWhitespace {
                        if let s = start {
                            runs.append(s..<k)
                            start = nil
                        }
                    } else if start == nil {
                        start = k
                    }
                }
                if let s = start { runs.append(s..<best.string.count) }
                let aligned = runs.count == best.words.count && best.characterBoxes.count == best.string.count
                return best.words.enumerated().map { k, word in
                    let boxes = aligned ? Array(best.characterBoxes[runs[k]]) : []
                    var observation = RecognizedTextObservation(
                        boundingBox: word.boundingBox,
                        candidates: [
                            RecognizedText(
                                string: word.string, confidence: word.confidence, characterBoxes: boxes,
                                words: [word])
                        ])
                    observation.textOrientation = line.textOrientation
                    return observation
                }
            }
        }

        /// The email addresses, links, phone numbers and dates in `transcript` (see `DataDetector`), in order, each
        /// with the region around its characters. Computed on each call: it scans the transcript.
        public var detectedData: [DocumentObservation.Container.DataDetectorMatch] {
            DataDetector.matches(in: transcript, types: .all, options: DataDetector.Options()).compactMap { match in
                guard let range = match.range, let region = boundingRegion(for: range) else { return nil }
                return DocumentObservation.Container.DataDetectorMatch(match: match, boundingRegion: region)
            }
        }

        /// The region around the characters of `range` (a range of `transcript`): the box around their boxes (a line
        /// break has none); nil for an empty range or one outside the transcript.
        public func boundingRegion(for range: Range<String.Index>) -> NormalizedRegion? {
            guard range.lowerBound >= transcript.startIndex, range.upperBound <= transcript.endIndex, !range.isEmpty
            else {
                return nil
            }
            let start = transcript.distance(from: transcript.startIndex, to: range.lowerBound)
            let end = transcript.distance(from: transcript.startIndex, to: range.upperBound)
            var box: NormalizedRect?
            var offset = 0
            for line in lines {
                let best = line.candidates.first
                let count = best?.string.count ?? 0
                let lo = max(start, offset)
                let hi = min(end, offset + count)
                if lo < hi, let best {
                    // Character boxes when the recogniser gave one per character, else the line's box.
                    let boxes =
                        best.characterBoxes.count == count
                        ? Array(best.characterBoxes[(lo - offset)..<(hi - offset)])
                        : [line.boundingBox]
                    for b in boxes { box = box.map { $0.union(b) } ?? b }
                }
                offset += count + 1  // the separator
            }
            return box.map { NormalizedRegion(rect: $0, aspectRatio: boundingRegion.aspectRatio) }
        }
    }
}
