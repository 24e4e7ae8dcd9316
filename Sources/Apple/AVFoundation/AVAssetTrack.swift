import Foundation
import OpenVision

/// A track of an `AVAsset`: here its video track, as the decoder delivers it.
open class AVAssetTrack: NSObject, @unchecked Sendable {
    /// The asset the track belongs to.
    public private(set) weak var asset: AVAsset?
    /// The track's number in the file (1: the video track).
    public let trackID: CMPersistentTrackID
    /// The kind of media (`.video`).
    public let mediaType: AVMediaType
    /// The size of the frames the reader delivers, in pixels. The decoder applies the file's rotation, so this is
    /// the upright size and `preferredTransform` is the identity.
    public let naturalSize: CGSize
    /// The file's frame rate, in frames per second, as its stream declares it.
    public let nominalFrameRate: Float
    /// The transform from the frames to how they are shown: the identity, as the frames come upright (the decoder
    /// applies the file's rotation).
    public let preferredTransform: CGAffineTransform = .identity
    /// The number of frames and the frame rate as the file's stream declares them (0 when it does not).
    let frameCount: Int
    let frameRate: Double

    init(
        asset: AVAsset, trackID: CMPersistentTrackID, mediaType: AVMediaType, naturalSize: CGSize,
        nominalFrameRate: Double, frameCount: Int
    ) {
        self.asset = asset
        self.trackID = trackID
        self.mediaType = mediaType
        self.naturalSize = naturalSize
        self.nominalFrameRate = Float(nominalFrameRate)
        self.frameRate = nominalFrameRate
        self.frameCount = frameCount
        super.init()
    }
}
