// Apple's UniformTypeIdentifiers module (`UTType`): the declared types of the formats code around Vision reads and
// writes (images, movies, text, data). As Apple's, importing it brings Foundation.
@_exported import Foundation
