import Foundation
import OpenVision

/// Vision's single-object tracker (OpenVision's `TrackObjectRequest`): follows a detected object's box.
open class VNTrackObjectRequest: VNTrackingRequest {
    /// The observations of the last perform (Vision's typed `results`), nil before one or after an error.
    public var results: [VNDetectedObjectObservation]? { storedResults as? [VNDetectedObjectObservation] }
    /// Apple's revisions 1, 2 (`VNTrackObjectRequestRevision1`…); docs/porting.md says what each runs.
    override open class var supportedRevisions: IndexSet { IndexSet([1, 2]) }
    /// Apple's default: revision 2.
    override open class var defaultRevision: Int { VNTrackObjectRequestRevision2 }
    /// Vision's current revision, `VNTrackObjectRequestRevision2`.
    override open class var currentRevision: Int { VNTrackObjectRequestRevision2 }

    typealias InputObservation = VNDetectedObjectObservation
    private(set) var native: TrackObjectRequest

    /// The box to follow; after each frame, the box found in it.
    public var inputObservation: VNDetectedObjectObservation {
        // A caller's new observation restarts the tracker there; the request's own update after a frame does not.
        didSet { if !updatingFromResult { native.inputObservation = Self.nativeObservation(inputObservation) } }
    }
    private var updatingFromResult = false

    /// Tracks `observation`'s box from the next frame performed on.
    public init(
        detectedObjectObservation observation: VNDetectedObjectObservation, completionHandler: CompletionHandler? = nil
    ) {
        inputObservation = observation
        native = TrackObjectRequest(detectedObjectObservation: Self.nativeObservation(observation))
        super.init(completionHandler: completionHandler)
    }

    static func nativeObservation(_ o: VNDetectedObjectObservation) -> DetectedObjectObservation {
        DetectedObjectObservation(boundingBox: NormalizedRect(o.boundingBox), confidence: o.confidence, uuid: o.uuid)
    }

    override var trackedUUID: UUID? { inputObservation.uuid }
    override var tracker: AnyObject? { native }

    override func continueTracker(_ tracker: AnyObject) {
        guard let tracker = tracker as? TrackObjectRequest else { return }
        native = tracker
        applyOptions()
    }

    override func applyOptions() {
        native.trackingLevel = trackingLevel.native
        native.isLastFrame = isLastFrame
    }

    override func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        let found = try perform(native, in: context).map {
            VNDetectedObjectObservation(uuid: $0.uuid, confidence: $0.confidence, boundingBox: $0.boundingBox)
        }
        hasPerformed = true
        if let latest = found.first as? InputObservation {
            updatingFromResult = true
            inputObservation = latest
            updatingFromResult = false
        }
        return found
    }
}
