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

    /// Peak bytes per pixel of each kind of work, the decode included: the growth of `openvision analyze
    /// IMAGE --requests KIND`'s peak RSS between a 2000 × 2000 and a 4000 × 4000 PNG of dog.jpg (scaled),
    /// divided by the 12 million pixels between them, a quarter added for other images and rounded up
    /// (at least 2). Reproduce: `/usr/bin/time -f %M openvision analyze dogN.png --requests KIND` for both
    /// sizes (debug build; release allocates the same buffers or fewer). Measured growth in bytes per
    /// pixel: barcodes 4.3, rectangles 1.4, text 5.7 (half added: documents have more to hold), contours
    /// 1.0, horizon 1.2, saliency 1.2, objectness 1.4, textrects 1.9, document 1.3, animals 3.5, humans 3.6,
    /// handpose 4.0, bodypose 3.5, personmask 52.3 (its guided filter's float planes: 3.99 GB for
    /// 10000 × 10000 before this budget), faces 30.9 (1000 × 1000 to 2000 × 2000: dlib takes minutes on
    /// larger ones), landmarks at least 31.4 (its 2000 × 2000 run was cut at 600 s); `.model`: detect
    /// (Yolo-Fastest 1.1, `openvision detect`) 7.0 and classify (EfficientNet-Lite0, `openvision classify`) 8.1.
    static func bytesPerPixel(_ work: Work) -> Int {
        switch work {
        case .model: 11
        case .analysis(let kind):
            switch kind {
            case .barcodes: 6
            case .rectangles, .contours, .horizon, .saliency, .objectness, .document: 2
            case .text: 9
            case .textrects: 3
            case .animals, .humans, .bodypose: 5
            case .handpose: 6
            case .personmask: 66
            // dlib's HOG detector with one up-sampling: the image twice as large, and its pyramid's features.
            case .faces: 39
            // The same face detector (the shape predictor's cost is per face, not per pixel).
            case .landmarks: 39
            // Sequence kinds never reach an analysis (StillAnalysis refuses them).
            case .flow, .registration, .homography, .trajectories: 66
            }
        }
    }

    /// The most pixels an image may have for `work` to stay within the budget (at least 1).
    func pixelLimit(for work: [Work]) -> Int {
        let rate = max(1, work.reduce(0) { $0 + Self.bytesPerPixel($1) })
        return max(1, bytes / rate)
    }
}
