extension UTType {
    /// The base type of every type.
    public static let item = UTType("public.item", parents: [])
    /// Content (documents, images, movies, text): the base of what a user opens.
    public static let content = UTType("public.content", parents: ["public.item"])
    /// Bytes of any kind: the base of every file format.
    public static let data = UTType("public.data", parents: ["public.item"])
    /// A folder.
    public static let folder = UTType("public.folder", parents: ["public.directory"])
    /// A directory.
    public static let directory = UTType("public.directory", parents: ["public.item"])
    /// A URL.
    public static let url = UTType("public.url", parents: ["public.data"])
    /// A file URL.
    public static let fileURL = UTType("public.file-url", parents: ["public.url"])
    /// Any image.
    public static let image = UTType("public.image", parents: ["public.data", "public.content"])
    /// PNG.
    public static let png = UTType(
        "public.png", extensions: ["png"], mimeTypes: ["image/png"], parents: ["public.image"])
    /// JPEG.
    public static let jpeg = UTType(
        "public.jpeg", extensions: ["jpeg", "jpg", "jpe"], mimeTypes: ["image/jpeg", "image/jpg"],
        parents: ["public.image"])
    /// TIFF.
    public static let tiff = UTType(
        "public.tiff", extensions: ["tiff", "tif"], mimeTypes: ["image/tiff"], parents: ["public.image"])
    /// GIF.
    public static let gif = UTType(
        "com.compuserve.gif", extensions: ["gif"], mimeTypes: ["image/gif"], parents: ["public.image"])
    /// Windows bitmap.
    public static let bmp = UTType(
        "com.microsoft.bmp", extensions: ["bmp"], mimeTypes: ["image/bmp"], parents: ["public.image"])
    /// WebP.
    public static let webP = UTType(
        "org.webmproject.webp", extensions: ["webp"], mimeTypes: ["image/webp"], parents: ["public.image"])
    /// HEIF.
    public static let heif = UTType(
        "public.heif", extensions: ["heif"], mimeTypes: ["image/heif"], parents: ["public.heif-standard"])
    /// HEIC (HEIF with HEVC images).
    public static let heic = UTType(
        "public.heic", extensions: ["heic"], mimeTypes: ["image/heic"], parents: ["public.heif-standard"])
    /// Any audio and/or video.
    public static let audiovisualContent = UTType(
        "public.audiovisual-content", parents: ["public.data", "public.content"])
    /// A movie (audio and/or video).
    public static let movie = UTType("public.movie", parents: ["public.audiovisual-content"])
    /// Video without audio.
    public static let video = UTType("public.video", parents: ["public.movie"])
    /// MPEG-4 movie.
    public static let mpeg4Movie = UTType(
        "public.mpeg-4", extensions: ["mp4", "mpeg4"], mimeTypes: ["video/mp4"], parents: ["public.movie"])
    /// QuickTime movie.
    public static let quickTimeMovie = UTType(
        "com.apple.quicktime-movie", extensions: ["mov", "qt"], mimeTypes: ["video/quicktime"],
        parents: ["public.movie"])
    /// AVI movie.
    public static let avi = UTType(
        "public.avi", extensions: ["avi"], mimeTypes: ["video/avi", "video/msvideo"], parents: ["public.movie"])
    /// Any text.
    public static let text = UTType("public.text", parents: ["public.data", "public.content"])
    /// Plain text.
    public static let plainText = UTType(
        "public.plain-text", extensions: ["txt", "text"], mimeTypes: ["text/plain"], parents: ["public.text"])
    /// Plain text in UTF-8.
    public static let utf8PlainText = UTType("public.utf8-plain-text", parents: ["public.plain-text"])
    /// Comma-separated values.
    public static let commaSeparatedText = UTType(
        "public.comma-separated-values-text", extensions: ["csv"], mimeTypes: ["text/csv"],
        parents: ["public.delimited-values-text"])
    /// JSON.
    public static let json = UTType(
        "public.json", extensions: ["json"], mimeTypes: ["application/json"], parents: ["public.text"])
    /// XML.
    public static let xml = UTType(
        "public.xml", extensions: ["xml"], mimeTypes: ["application/xml", "text/xml"], parents: ["public.text"])
    /// PDF.
    public static let pdf = UTType(
        "com.adobe.pdf", extensions: ["pdf"], mimeTypes: ["application/pdf"],
        parents: ["public.data", "public.content"])
    /// A property list.
    public static let propertyList = UTType(
        "com.apple.property-list", extensions: ["plist"], parents: ["public.data"])
    /// An archive.
    public static let archive = UTType("public.archive", parents: ["public.data"])
    /// Zip.
    public static let zip = UTType(
        "public.zip-archive", extensions: ["zip"], mimeTypes: ["application/zip"], parents: ["public.archive"])

    /// Intermediate types that only serve as supertypes.
    private static let intermediates = [
        UTType("public.heif-standard", parents: ["public.image"]),
        UTType("public.delimited-values-text", parents: ["public.text"]),
    ]

    /// Every declared type, in lookup order (a filename extension or MIME type resolves to the first that has it).
    static let all: [UTType] =
        [
            png, jpeg, tiff, gif, bmp, webP, heic, heif, mpeg4Movie, quickTimeMovie, avi, plainText, commaSeparatedText,
            json, xml, pdf, propertyList, zip, image, movie, video, audiovisualContent, text, utf8PlainText, archive,
            folder, directory, fileURL, url, content, data, item,
        ] + intermediates

    /// The declared types by identifier (lower-cased).
    static let declared: [String: UTType] = Dictionary(
        all.map { ($0.identifier.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
}
