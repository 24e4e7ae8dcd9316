import Foundation

/// A decoded barcode, as Vision's `BarcodeObservation`: symbology, payload and the four corners
/// of the symbol (normalised, lower-left origin, relative to the region of interest).
public struct BarcodeObservation: VisionObservation, QuadrilateralProviding {
    /// A unique identifier for this observation, kept by copies.
    public var uuid: UUID
    /// 1.0 for every decoded symbol: the payload passed its error checks.
    public var confidence: Float
    /// The time range of the video frame this observation was made on (`VideoProcessor`), from its presentation
    /// time to the next frame's; nil for a still image. Vision's `timeRange`.
    public var frameTimeRange: Range<Duration>?
    /// Which kind of barcode was read.
    public var symbology: BarcodeSymbology
    /// The payload as text: zxing-cpp's plain text (binary content as ISO 8859-1 characters, one
    /// per byte, as Python zxing-cpp's `text`), every character kept, NUL (U+0000) included; nil only when the
    /// decoder gave none. Exact bytes: `payloadData`.
    public var payloadString: String?
    /// The raw payload bytes.
    public var payloadData: Data
    /// True when the symbol was printed light-on-dark.
    public var isColorInverted: Bool
    /// True when the symbol was mirrored.
    public var isMirrored: Bool
    /// True when the payload is GS1-structured data.
    public var isGS1DataCarrier: Bool
    /// Reading angle of the symbol in degrees, counter-clockwise as seen in the image (0, 90, 180, 270 or in between).
    public var orientationDegrees: Int
    /// The top-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var topLeft: NormalizedPoint
    /// The top-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var topRight: NormalizedPoint
    /// The bottom-right corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var bottomRight: NormalizedPoint
    /// The bottom-left corner as seen upright, normalised with a lower-left origin,
    /// relative to the request's region of interest.
    public var bottomLeft: NormalizedPoint
    /// The observation's bounding box, normalised with a lower-left origin, relative to the
    /// request's region of interest.
    public var boundingBox: NormalizedRect

    /// An observation from its fields (corners normalised, lower-left origin); `boundingBox` is
    /// the corners' bounding rect.
    public init(
        symbology: BarcodeSymbology, payloadString: String?, payloadData: Data, isColorInverted: Bool = false,
        isMirrored: Bool = false, isGS1DataCarrier: Bool = false, orientationDegrees: Int = 0,
        topLeft: NormalizedPoint, topRight: NormalizedPoint, bottomRight: NormalizedPoint,
        bottomLeft: NormalizedPoint, confidence: Float = 1, uuid: UUID = UUID()
    ) {
        self.uuid = uuid
        self.confidence = confidence
        self.symbology = symbology
        self.payloadString = payloadString
        self.payloadData = payloadData
        self.isColorInverted = isColorInverted
        self.isMirrored = isMirrored
        self.isGS1DataCarrier = isGS1DataCarrier
        self.orientationDegrees = orientationDegrees
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
        self.boundingBox = NormalizedRect(boundingPoints: [topLeft, topRight, bottomRight, bottomLeft])
    }
}
