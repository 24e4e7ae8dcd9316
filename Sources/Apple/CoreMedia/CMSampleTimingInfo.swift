/// A sample's timing: its duration, presentation time and decode time.
public struct CMSampleTimingInfo: Hashable, Sendable {
    /// How long the sample lasts.
    public var duration: CMTime
    /// When it is shown.
    public var presentationTimeStamp: CMTime
    /// When it is decoded (invalid when the same as the presentation time).
    public var decodeTimeStamp: CMTime

    /// Invalid times.
    public init() {
        self.init(duration: .invalid, presentationTimeStamp: .invalid, decodeTimeStamp: .invalid)
    }

    /// Timing with these times.
    public init(duration: CMTime, presentationTimeStamp: CMTime, decodeTimeStamp: CMTime) {
        self.duration = duration
        self.presentationTimeStamp = presentationTimeStamp
        self.decodeTimeStamp = decodeTimeStamp
    }
}

/// Timing with every time invalid.
public let kCMTimingInfoInvalid = CMSampleTimingInfo()
