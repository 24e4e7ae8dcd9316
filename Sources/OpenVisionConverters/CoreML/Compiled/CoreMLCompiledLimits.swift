/// Bounds of what an Xcode-compiled `.mlmodelc` folder may declare, beyond `CoreMLLimits`: a file stating more is
/// refused (`.limitExceeded` or `.syntax`) before anything is allocated for it.
package enum CoreMLCompiledLimits {
    /// Sub-models of one pipeline (`model0` … `model63`).
    package static let pipelineModels = 64
    /// Layers of one Espresso network (as `CaffeNet.maxLayers`).
    package static let espressoLayers = 10_000
    /// Blobs in one `model.espresso.weights` table.
    package static let espressoBlobs = 100_000
    /// The largest `model.espresso.net`, `model.espresso.shape`, `coremldata.bin` or `metadata.json` read (64 MiB;
    /// real ones are kilobytes).
    package static let descriptionFileSize = 64 << 20
}
