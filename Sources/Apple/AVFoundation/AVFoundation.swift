// AVFoundation on Linux, as far as capture code around Vision needs it: a video data output and its sample-buffer
// delegate (`AVCaptureVideoDataOutputSampleBufferDelegate.captureOutput(_:didOutput:from:)`), fed by
// `CaptureDelegateBridge` from OpenVision's `LiveAnalyzer` (a camera, a video file or a stream); and reading a video
// file's frames in order (`AVAsset`, `AVAssetReader`, `AVAssetReaderTrackOutput`) over OpenVision's video decoding,
// still images at given times (`AVAssetImageGenerator`) and `load(.duration)`. Sessions, devices, preview layers,
// players and writers are not here (docs/porting.md).
// `import AVFoundation` brings Core Media (and with it Core Video, Core Graphics and Foundation) and ImageIO
// (`CGImagePropertyOrientation`, which Apple's uses for photos), as Apple's does.

@_exported import CoreMedia
@_exported import ImageIO
