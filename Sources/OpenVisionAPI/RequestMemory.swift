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

    /// The most pixels an image may have for `kinds` (run together on one image) to stay within the budget (at least
    /// 1): each kind's peak bytes per pixel, the decode included, as it declares it (`RequestKind.bytesPerPixel`, with
    /// the measurements), added up.
    func pixelLimit(for kinds: [RequestKind]) -> Int {
        let rate = max(1, kinds.reduce(0) { $0 + $1.bytesPerPixel })
        return max(1, bytes / rate)
    }
}
