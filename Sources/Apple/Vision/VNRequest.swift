import Foundation
import OpenVision

/// Vision's completion handler type: called with the request and the error, if any, after a handler performs it.
public typealias VNRequestCompletionHandler = (VNRequest, Error?) -> Void

/// Vision's abstract request: options, `results` after a handler performs it, and a completion handler
/// called with `(request, error)`. Each subclass builds the matching OpenVision request when performed.
open class VNRequest {
    /// The completion handler type (`VNRequestCompletionHandler`).
    public typealias CompletionHandler = VNRequestCompletionHandler

    /// Called with the request and the error (nil on success) after a handler performs it, on the performing thread.
    public var completionHandler: CompletionHandler?
    /// The observations of the last perform, nil before one or after an error (`results`: typed on each request
    /// class, as Apple's, `[VNObservation]?` through `VNRequest`).
    var storedResults: [VNObservation]?
    /// The algorithm revision to run: `defaultRevision` unless set (Vision's `revision`). A revision outside
    /// `supportedRevisions` is `VNError.unsupportedRevision` when performed.
    public var revision: Int
    /// The revisions this request class runs (`VN…RequestRevisionN`); docs/porting.md maps each to what runs.
    open class var supportedRevisions: IndexSet { IndexSet(integer: 1) }
    /// The revision a new request runs: Apple's current default where OpenVision has that revision.
    open class var defaultRevision: Int { supportedRevisions.last ?? 1 }
    /// The newest revision (Vision's `currentRevision`).
    open class var currentRevision: Int { supportedRevisions.last ?? 1 }
    /// Accepted and ignored: requests run as scheduled by the handler here.
    public var preferBackgroundProcessing = false
    /// All requests run on the CPU here.
    public var usesCPUOnly = false

    /// A request at `defaultRevision`; `completionHandler` is called after each perform.
    public init(completionHandler: CompletionHandler? = nil) {
        self.completionHandler = completionHandler
        revision = Self.defaultRevision
    }

    /// While a handler plans its decode (`plannedRequest(in:)`): the OpenVision request `perform(_:in:)` was given,
    /// recorded instead of run.
    var planning: (active: Bool, request: (any VisionRequest)?) = (false, nil)

    /// The OpenVision request this request would run on `context` (with its options and region of interest), found
    /// by a dry run of `observations(in:)` that stops at its `perform(_:in:)`; nil for a request that runs none.
    /// Handlers decode once for every request's needs before running any (as `ImageRequestHandler` plans).
    func plannedRequest(in context: ImageAnalysisContext) -> (any VisionRequest)? {
        planning = (true, nil)
        defer { planning = (false, nil) }
        _ = try? observations(in: context)
        return planning.request
    }

    /// Whether a handler may dry-run this request to plan its decode (`plannedRequest(in:)`): not for requests
    /// that keep state from frame to frame.
    var isPlannable: Bool { !(self is VNStatefulRequest) }

    /// Runs the request on one image; subclasses override.
    func observations(in context: ImageAnalysisContext) throws(VisionError) -> [VNObservation] {
        throw VisionError(.unsupported, "\(type(of: self)) cannot be performed on its own")
    }

    /// Performs and records the outcome, calling the completion handler; returns the error, if any.
    func run(in context: ImageAnalysisContext) -> Error? {
        do {
            guard Self.supportedRevisions.contains(revision) else {
                throw VNError(
                    .unsupportedRevision,
                    "\(type(of: self)) revision \(revision) is not supported "
                        + "(supported: \(Self.supportedRevisions.map(String.init).joined(separator: ", ")))")
            }
            storedResults = try observations(in: context)
            completionHandler?(self, nil)
            return nil
        } catch {
            storedResults = nil
            let vnError =
                (error as? VNError) ?? VNError((error as? VisionError) ?? VisionError(.internalError, "\(error)"))
            completionHandler?(self, vnError)
            return vnError
        }
    }

    /// Requests are not cancellable once running here; a no-op, as Vision's on a finished request.
    public func cancel() {}
}

/// `results` of any request as Vision's `VNRequest` declares them (`[VNObservation]?`); each request class declares
/// its own typed `results` (`[VNFaceObservation]?`, …), which Swift picks over this one wherever the class is known.
public protocol VNRequestResultsProviding: AnyObject {}

extension VNRequestResultsProviding where Self: VNRequest {
    /// The observations of the last perform, nil before one or after an error.
    public var results: [VNObservation]? { storedResults }
}

extension VNRequest: VNRequestResultsProviding {}

/// A request on an image, with Vision's `regionOfInterest` (normalised, lower-left origin).
open class VNImageBasedRequest: VNRequest {
    /// The part of the image to analyse, normalised with a lower-left origin (the whole image by default);
    /// results are relative to it, as in Vision.
    public var regionOfInterest: CGRect = VNNormalizedIdentityRect

    var nativeRegion: NormalizedRect { NormalizedRect(regionOfInterest) }

    /// Runs `request` with this request's region of interest (or `region`, for a context holding an image made from it).
    func perform<R: VisionRequest>(_ request: R, in context: ImageAnalysisContext, region: NormalizedRect? = nil)
        throws(VisionError) -> R.Result
    {
        var request = request
        request.regionOfInterest = region ?? nativeRegion
        if planning.active {
            planning.request = request
            throw VisionError(.cancelled, "planned, not run")
        }
        return try request.perform(in: context)
    }
}

/// How images fit a Core ML model's input (Vision's `VNImageCropAndScaleOption`).
public enum VNImageCropAndScaleOption: UInt, Sendable {
    /// Scales the image's shorter side to the input and crops the centre.
    case centerCrop = 0
    /// Scales the whole image to fit the input, keeping its aspect ratio (letterboxed).
    case scaleFit = 1
    /// Scales the image to fill the input, stretching it.
    case scaleFill = 2
    /// `scaleFit` after turning the image 90° counter-clockwise.
    case scaleFitRotate90CCW = 257
    /// `scaleFill` after turning the image 90° counter-clockwise.
    case scaleFillRotate90CCW = 258

    var native: ImageCropAndScaleOption {
        switch self {
        case .centerCrop: .centerCrop
        case .scaleFit, .scaleFitRotate90CCW: .scaleFit
        case .scaleFill, .scaleFillRotate90CCW: .scaleFill
        }
    }

    /// True for the options that turn the image 90° counter-clockwise before fitting it.
    var rotatesCounterClockwise: Bool { self == .scaleFitRotate90CCW || self == .scaleFillRotate90CCW }
}

/// Options for request handlers (Vision's `VNImageOption`); none change results here.
public struct VNImageOption: Hashable, RawRepresentable, Sendable {
    /// Apple's string for it.
    public let rawValue: String
    /// Wraps `rawValue`; any string is accepted, as with Apple's type.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Vision's image-properties option; accepted, not used.
    public static let properties = VNImageOption(rawValue: "VNImageOptionProperties")
    /// Vision's camera-intrinsics option; accepted, not used.
    public static let cameraIntrinsics = VNImageOption(rawValue: "VNImageOptionCameraIntrinsics")
    /// Vision's Core Image context option; accepted, not used.
    public static let ciContext = VNImageOption(rawValue: "VNImageOptionCIContext")
}

/// Requests are objects (`NSObject`s in Apple's Vision): equal and hashed by identity, so they can key dictionaries.
extension VNRequest: Hashable {
    /// Identity: equal only to itself (Vision's `isEqual:` on objects).
    public static func == (lhs: VNRequest, rhs: VNRequest) -> Bool { lhs === rhs }
    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
