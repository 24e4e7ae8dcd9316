// Apple's DataDetection module name, for code that imports it (Apple's "Recognize tables within a document" sample
// does, for `DataDetector.Match`): the detector and its types are OpenVision's (`DataDetector`,
// `StringProtocol.dataDetectorMatches(_:options:)`), re-exported here as Vision re-exports them.
@_exported import OpenVision
