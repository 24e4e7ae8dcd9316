import Foundation

/// What `RecognizeDocumentsRequest` found on a page, as iOS 26 Vision's `DocumentObservation`: the document's content
/// in one container (`document`): its title, paragraphs, lists and tables, all its text, and the data in it (email
/// addresses, links, phone numbers, dates). Regions are normalised (lower-left origin) and relative to the request's
/// region of interest, as every observation's; on a page read turned or skewed they are turned quadrilaterals.
public struct DocumentObservation: VisionObservation {
    /// A unique identifier of this observation, as every Vision observation has.
    public let uuid: UUID
    /// The mean confidence of the page's recognised lines.
    public let confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// The document's content.
    public let document: Container

    /// An observation of `document`.
    public init(document: Container, confidence: Float, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.document = document
    }
}

extension DocumentObservation: BoundingRegionProviding {
    /// The region around the document's content (`document.boundingRegion`).
    public var boundingRegion: NormalizedRegion { document.boundingRegion }
}
