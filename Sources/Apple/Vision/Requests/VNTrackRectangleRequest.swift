import Foundation
import OpenVision

/// Vision's rectangle tracker (OpenVision's `TrackRectangleRequest`): follows a rectangle's four corners.
open class VNTrackRectangleRequest: VNTrackingRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNRectangleObservation]? { storedResults as? [VNRectangleObservation] }
    /// Apple's revision 1 (`VNTrackRectangleRequestRevision1`).
    override open class var supportedRevisions: IndexSet { IndexSet([1]) }
    /// Apple's default: revision 1.
    override open class var defaultRevision: Int { VNTrackRectangleRequestRevision1 }
    /// Vision's current revision, `VNTrackRectangleRequestRevision1`.
    override open class var currentRevision: Int { VNTrackRectangleRequestRevision1 }

    typealias InputObservation = VNRectangleObservation
    private(set) var native: TrackRectangleRequest

    /// The rectangle to follow; after each frame, the rectangle found in it.
    public var inputObservation: VNRectangleObservation {
        // A caller's new observation restarts the tracker there; the request's own update after a frame does not.
        didSet { if !updatingFromResult { native.inputObservation = Self.nativeObservation(inputObservation) } }
    }
    private var updatingFromResult = false

    /// Tracks `observation`'s corners from the next frame performed on.
    public init(rectangleObservation observation: VNRectangleObservation, completionHandler: CompletionHandler? = nil) {
        inputObservation = observation
        native = TrackRectangleRequest(rectangleObservation: Self.nativeObservation(observation))
        super.init(completionHandler: completionHandler)
    }

    static func nativeObservation(_ o: VNRectangleObservation) -> RectangleObservation {
        func p(_ c: CGPoint) -> NormalizedPoint { NormalizedPoint(x: c.x, y: c.y) }
        return RectangleObservation(
            topLeft: p(o.topLeft), topRight: p(o.topRight), bottomRight: p(o.bottomRight),
            bottomLeft: p(o.bottomLeft), confidence: o.confidence, uuid: o.uuid)
    }

    override var trackedUUID: UUID? { inputObservation.uuid }
    override var tracker: AnyObject? { native }

    override func continueTracker(_ tracker: AnyObject) {
        guard let tracker = tracker as? TrackRectangleRequest else { return }
        native = tracker
        applyOptions()
    }

    override func applyOptions() {
        native.trackingLevel = trackingLevel.native
        native.isLastFrame = isLastFrame
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        let found = try perform(native, in: context).map(VNRectangleObservation.init)
        hasPerformed = true
        if let latest = found.first as? InputObservation {
            updatingFromResult = true
            inputObservation = latest
            updatingFromResult = false
        }
        return found
    }
}
