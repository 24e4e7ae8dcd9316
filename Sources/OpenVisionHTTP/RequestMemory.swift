import OpenVision

/// The working memory one request may take while it runs (`ServeConfiguration.maximumRequestMemory`),
/// and from it the largest image each request may take. What a request holds grows with the image's
/// pixels: the decoded image, and the buffers each kind of request makes (a person mask's guided filter
/// keeps several float planes of the full image, a face detector its image pyramid). An analysis runs
/// its requests together on one decoded image, so their rates add up. An image with more pixels than
/// the budget allows is refused before it is decoded (422 `imageTooLarge`).
struct RequestMemory: Sendable {
    /// The budget in bytes.
    let bytes: Int

    /// What a request runs.
    enum Work: Hashable, Sendable {
        case analysis(RequestKind)
        /// `/v1/detect` and `/v1/classify`: one model on the image, resized to its input.
        case model
    }

    /// Peak bytes per pixel of each kind of work, the decode included: each built-in request's as its kind declares
    /// it (`RequestDescriptor.bytesPerPixel`, with the measurements); `.model`: detect (Yolo-Fastest 1.1,
    /// `openvision detect`) 7.0 and classify (EfficientNet-Lite0, `openvision classify`) 8.1 measured the same way,
    /// a quarter added.
    static func bytesPerPixel(_ work: Work) -> Int {
        switch work {
        case .model: 11
        case .analysis(let kind): kind.descriptor.bytesPerPixel
        }
    }

    /// The most pixels an image may have for `work` to stay within the budget (at least 1).
    func pixelLimit(for work: [Work]) -> Int {
        let rate = max(1, work.reduce(0) { $0 + Self.bytesPerPixel($1) })
        return max(1, bytes / rate)
    }
}
