import Foundation

extension CoreMLToONNX {
    /// Model types that are Apple-private parts rather than a computation the file holds: their weights ship with
    /// iOS and macOS (Create ML builds image classifiers on VisionFeaturePrint, text models on NaturalLanguage).
    static let applePrivateModels: [String: String] = [
        "visionFeaturePrint": "Apple's private Vision feature extractor (VisionFeaturePrint, the base of Create ML's "
            + "image classifiers): its network ships inside iOS and macOS, not in the file",
        "textClassifier": "a Create ML text classifier, run by Apple's private NaturalLanguage framework",
        "wordTagger": "a Create ML word tagger, run by Apple's private NaturalLanguage framework",
        "gazetteer": "a NaturalLanguage gazetteer, run by Apple's private NaturalLanguage framework",
        "wordEmbedding": "a NaturalLanguage word embedding, run by Apple's private NaturalLanguage framework",
        "soundAnalysisPreprocessing": "Apple's private SoundAnalysis preprocessing (Create ML sound classifiers)",
        "audioFeaturePrint": "Apple's private SoundAnalysis feature extractor (AudioFeaturePrint)",
        "customModel": "a custom model the app implements in code (MLCustomModel)",
        "linkedModel": "a link to another compiled model on the device (linkedModel)",
    ]

    /// The error for a model type that is not converted, saying why.
    static func unconverted(_ name: String) -> ConversionError {
        if let reason = applePrivateModels[name] {
            return ConversionError(.unsupported, "the model uses \(name), \(reason); it is not converted")
        }
        return ConversionError(
            .unsupported,
            "\(name) models are not converted (neural networks, ML Programs, pipelines, "
                + "non-maximum suppression and Core ML's classic model types are)")
    }
}
