// Apple's Core Media on Linux: times (`CMTime`), sample buffers (`CMSampleBuffer`) that carry a pixel buffer and
// its time, format descriptions and attachments. `import CoreMedia` brings Core Video (and with it Core Graphics
// and Foundation), as Apple's does.

@_exported import CoreVideo
