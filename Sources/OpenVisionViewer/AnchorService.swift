/// A label pinned to a point of the live picture, as the viewer and the `/anchors` endpoints show it.
/// `x`, `y`: normalised 0...1, origin LOWER-left (as every overlay point); `state`: `normal` (tracked),
/// `limited` (tracked with little evidence) or `lost` (its spot is out of view or could not be found; the
/// point is the last known one).
public struct PinnedAnchor: Sendable, Codable, Equatable {
    /// The label's ID, unique per viewer session.
    public var id: Int
    /// The label's text.
    public var label: String
    /// Horizontal position, 0...1 from the left edge.
    public var x: Double
    /// Vertical position, 0...1 from the bottom edge.
    public var y: Double
    /// `normal`, `limited` or `lost` (see the type).
    public var state: String

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(id: Int, label: String, x: Double, y: Double, state: String) {
        self.id = id
        self.label = label
        self.x = x
        self.y = y
        self.state = state
    }
}

/// Why a pin request was refused: `status` is the HTTP status to answer (400 bad input, 409 nothing to label
/// with or the most labels pinned already, 503 no frame analysed yet), `message` says why.
public struct AnchorServiceError: Error, Sendable, Equatable {
    /// The HTTP status to answer: 400, 409 or 503 (see the type).
    public var status: Int
    /// Why the request was refused, for people.
    public var message: String

    /// Creates the value from its fields, each as documented on its property (no validation).
    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }
}

/// What the viewer's `/anchors` endpoints call (`LiveViewerServer.serveAnchors(_:)`): pins, lists and removes
/// labels. Called on the server's event loop, so each call must return quickly: no waiting for a frame and no
/// work per pinned label beyond copying the list (`LiveAnalyzer`'s queue pins for its analysis thread).
public protocol AnchorService: Sendable {
    /// Every pinned label, by ascending ID.
    func listAnchors() -> [PinnedAnchor]
    /// Pins `label` (nil: the current top classification) at (x, y), already checked finite and within
    /// 0...1. Throws `AnchorServiceError` to refuse.
    func addAnchor(x: Double, y: Double, label: String?) throws(AnchorServiceError) -> PinnedAnchor
    /// Removes the label; false when there is none with that ID.
    func removeAnchor(id: Int) -> Bool
}
