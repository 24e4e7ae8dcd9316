/// Finds lines of text and, optionally, their characters without reading them, as Vision's
/// `DetectTextRectanglesRequest`. Vision's is a network; ours groups connected components of a local
/// threshold (both polarities) into horizontal lines (see `ov_textrects.cpp`): printed, roughly level
/// text with separate glyphs. Lines top to bottom.
public struct DetectTextRectanglesRequest: CompletionHandlingRequest {
    public typealias Result = [TextObservation]
    public var reportName: String { "textrects" }

    public var regionOfInterest: NormalizedRect = .fullImage
    /// False: reads only the gray plane.
    public var requiresColor: Bool { false }
    /// True: each observation carries its characters' boxes. Default false.
    public var reportCharacterBoxes = false
    public var completionHandler: RequestCompletionHandler<Result>?

    public init(completionHandler: RequestCompletionHandler<Result>? = nil) {
        self.completionHandler = completionHandler
    }

    public func perform(in context: ImageAnalysisContext) throws(VisionError) -> Result {
        try OpenCVTextRectangles.detect(in: try imageForRegionOfInterest(in: context), characterBoxes: reportCharacterBoxes)
    }
}
