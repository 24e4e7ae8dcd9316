/// One line of a MOTChallenge text file: `frame, id, x, y, w, h, score, …` (boxes in pixels, top-left
/// corner; detection files use id −1; trailing columns are class, visibility or 3-D coordinates, depending
/// on the file).
public struct MOTRecord: Sendable, Hashable {
    /// The frame number (1-based in MOTChallenge files).
    public var frame: Int
    /// The track or ground-truth ID; −1 in detection files.
    public var id: Int
    /// The box's left edge, top edge, width and height, in pixels.
    public var x: Double, y: Double, width: Double, height: Double
    /// The detection score (ground truth: the "consider" flag); 1 when the line has only six columns.
    public var score: Double
    /// The columns after the score, as numbers (tracker output: −1, −1, −1).
    public var extra: [Double]

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(
        frame: Int, id: Int, x: Double, y: Double, width: Double, height: Double, score: Double = 1,
        extra: [Double] = [-1, -1, -1]
    ) {
        self.frame = frame
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.score = score
        self.extra = extra
    }
}
