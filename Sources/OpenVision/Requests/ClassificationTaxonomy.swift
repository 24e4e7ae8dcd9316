/// The labels `ClassifyImageRequest` answers in.
public enum ClassificationTaxonomy: String, Sendable, Codable, CaseIterable {
    /// The model's own labels ("German shepherd, German shepherd dog, …" for ImageNet-1k): the default.
    case model
    /// Apple Vision's 1,303 identifiers, hierarchical ("german_shepherd", "dog", "canine", "mammal", "animal"), as
    /// `VNClassifyImageRequest` answers them: for ImageNet-1k classifiers, mapped through WordNet (`AppleTaxonomy`).
    case apple
}
