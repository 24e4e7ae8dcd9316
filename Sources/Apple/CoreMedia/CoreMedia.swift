// Apple's Core Media on Linux: times (`CMTime`), sample buffers (`CMSampleBuffer`) that carry a pixel buffer and
// its time, format descriptions and attachments. `import CoreMedia` brings Core Video (and with it Core Graphics
// and Foundation), as Apple's does.

@_exported import CoreVideo

/// A track's number within its file, as Core Media's `CMPersistentTrackID`.
public typealias CMPersistentTrackID = Int32
