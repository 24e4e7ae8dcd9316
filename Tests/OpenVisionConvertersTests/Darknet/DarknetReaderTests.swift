import Foundation
import Testing

@testable import OpenVisionConverters

/// Issue 28, item 10: the one `.cfg` validator, for both readers it checks networks for. Every layer
/// index must point at an earlier layer, every anchor mask into the anchors, every divisor be at least
/// 1: OpenCV 4.6 read them unchecked (SIGSEGV on `mask=...,999999` or `layers=-1000000`, SIGFPE on
/// `groups=0`, std::out_of_range on a layer reading itself or a later one). The errors name the file
/// and the line of the key.
@Suite struct DarknetReaderTests {
    /// A 32 × 32 × 3 network: `[net]` on lines 1-4, the layers from line 5.
    static func net(_ layers: String) -> String { "[net]\nwidth=32\nheight=32\nchannels=3\n" + layers }
    static let conv8 = "[convolutional]\nfilters=8\nsize=1\nactivation=linear\n"

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var cfg: String
        var code: ConversionError.Code
        var line: Int
        var fragment: String
        var testDescription: String { name }
    }

    /// Refused by both readers (the converter's own refusals of OpenCV-only layer types aside).
    static let hostile: [Case] = [
        Case(
            name: "mask beyond the anchors",
            cfg: net(
                "[convolutional]\nfilters=28\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13,16,30\nnum=2\nmask=0,1,2,999999\n"), code: .invalidValue,
            line: 13,
            fragment: "mask lists anchor 2; the 2 anchors are 0...1"),
        Case(
            name: "negative mask",
            cfg: net(
                "[convolutional]\nfilters=7\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13,16,30\nnum=2\nmask=-1\n"), code: .invalidValue, line: 13,
            fragment: "anchor -1"),
        Case(
            name: "empty mask item",
            cfg: net(
                "[convolutional]\nfilters=14\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13,16,30\nnum=2\nmask=0,,1\n"), code: .invalidValue, line: 13,
            fragment: "empty item"),
        Case(
            name: "num not the anchors",
            cfg: net(
                "[convolutional]\nfilters=7\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13,16,30\nnum=3\nmask=0\n"), code: .invalidValue, line: 12,
            fragment: "num=3"),
        Case(
            name: "classes against filters",
            cfg: net(
                "[convolutional]\nfilters=20\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13,16,30\nnum=2\nmask=0,1\n"), code: .invalidValue, line: 9,
            fragment: "needs 14 input channels"),
        Case(
            name: "route far back", cfg: net(conv8 + "[route]\nlayers=-1000000\n"), code: .invalidValue, line: 10,
            fragment: "absolute -999999, no layer"),
        Case(
            name: "route beyond the index range", cfg: net(conv8 + "[route]\nlayers=-9223372036854775808\n"),
            code: .limitExceeded, line: 10, fragment: "out of range"),
        Case(
            name: "route before layer 0", cfg: net(conv8 + "[route]\nlayers=-2\n"), code: .invalidValue, line: 10,
            fragment: "absolute -1, no layer"),
        Case(
            name: "route to itself", cfg: net(conv8 + "[route]\nlayers=1\n"), code: .invalidValue, line: 10,
            fragment: "itself"),
        Case(
            name: "route forward", cfg: net(conv8 + "[route]\nlayers=2\n" + conv8), code: .invalidValue, line: 10,
            fragment: "a later layer"),
        Case(
            name: "route group_id past groups", cfg: net(conv8 + "[route]\nlayers=-1\ngroups=2\ngroup_id=2\n"),
            code: .invalidValue, line: 12, fragment: "group_id=2 must be below groups=2"),
        Case(
            name: "route groups zero", cfg: net(conv8 + "[route]\nlayers=-1\ngroups=0\n"), code: .invalidValue,
            line: 11,
            fragment: "groups=0 must be at least 1"),
        Case(
            name: "route of different sizes", cfg: net(conv8 + "[maxpool]\nsize=2\nstride=2\n[route]\nlayers=0,1\n"),
            code: .invalidValue, line: 13, fragment: "different sizes"),
        Case(
            name: "shortcut far back", cfg: net(conv8 + "[shortcut]\nfrom=-7\n"), code: .invalidValue, line: 10,
            fragment: "from"),
        Case(
            name: "shortcut forward", cfg: net(conv8 + "[shortcut]\nfrom=3\n"), code: .invalidValue, line: 10,
            fragment: "a later layer"),
        Case(
            name: "convolution groups zero",
            cfg: net("[convolutional]\nfilters=8\nsize=1\ngroups=0\nactivation=linear\n"),
            code: .invalidValue, line: 8, fragment: "groups=0 must be at least 1"),
        Case(
            name: "convolution stride zero",
            cfg: net("[convolutional]\nfilters=8\nsize=1\nstride=0\nactivation=linear\n"),
            code: .invalidValue, line: 8, fragment: "stride=0"),
        Case(
            name: "kernel larger than the input", cfg: net("[convolutional]\nfilters=8\nsize=64\nactivation=linear\n"),
            code: .invalidValue, line: 7, fragment: "does not fit"),
        Case(
            name: "maxpool stride zero", cfg: net("[maxpool]\nsize=2\nstride=0\n"), code: .invalidValue, line: 7,
            fragment: "stride=0"),
        Case(
            name: "batch_normalize 2",
            cfg: net("[convolutional]\nbatch_normalize=2\nfilters=8\nsize=1\nactivation=linear\n"),
            code: .invalidValue, line: 6, fragment: "must be 0 or 1"),
        Case(
            name: "integer spelled as a float", cfg: net("[convolutional]\nfilters=1e3\nsize=1\nactivation=linear\n"),
            code: .invalidValue, line: 6, fragment: "is not an integer"),
        Case(
            name: "hex anchors",
            cfg: net(
                "[convolutional]\nfilters=7\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=0x10,13\nnum=1\nmask=0\n"), code: .invalidValue, line: 11,
            fragment: "not a number"),
        Case(
            name: "reading a detection head",
            cfg: net(
                "[convolutional]\nfilters=7\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13\nnum=1\nmask=0\n[route]\nlayers=-1\n"), code: .unsupported,
            line: 15,
            fragment: "detection head"),
    ]

    @Test(arguments: hostile, [DarknetReader.converter, .openCV])
    func hostileNetworkIsRefused(_ item: Case, reader: DarknetReader) {
        do {
            let config = try DarknetConfig(text: item.cfg, fileName: "bad.cfg", reader: reader)
            Issue.record("accepted: \(config.layers.count) layers")
        } catch let error as ConversionError {
            #expect(error.code == item.code && error.line == item.line && error.file == "bad.cfg", "\(error)")
            #expect(
                error.description.hasPrefix("bad.cfg:\(item.line): ") && error.message.contains(item.fragment),
                "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// Layer types only OpenCV reads, each with what OpenCV trips on, refused for OpenCV's reader.
    static let openCVHostile: [Case] = [
        Case(
            name: "dropout first", cfg: net("[dropout]\n" + conv8), code: .invalidValue, line: 5,
            fragment: "first layer"),
        Case(name: "cost first", cfg: net("[cost]\n" + conv8), code: .invalidValue, line: 5, fragment: "first layer"),
        Case(
            name: "sam forward", cfg: net(conv8 + "[sam]\nfrom=4\n"), code: .invalidValue, line: 10,
            fragment: "a later layer"),
        Case(
            name: "sam of another shape", cfg: net(conv8 + "[maxpool]\n[sam]\nfrom=0\n"), code: .invalidValue, line: 11,
            fragment: "shapes must be equal"),
        Case(
            name: "scale_channels to itself", cfg: net(conv8 + "[scale_channels]\nfrom=1\n"), code: .invalidValue,
            line: 10,
            fragment: "itself"),
        Case(
            name: "scale_channels by a map", cfg: net(conv8 + conv8 + "[scale_channels]\nfrom=0\n"),
            code: .invalidValue,
            line: 14, fragment: "it needs 8×1×1"),
        Case(
            name: "reorg stride zero", cfg: net(conv8 + "[reorg]\nstride=0\n"), code: .invalidValue, line: 10,
            fragment: "stride=0"),
        Case(
            name: "reorg stride not dividing", cfg: net(conv8 + "[reorg]\nstride=3\n"), code: .invalidValue, line: 10,
            fragment: "does not divide"),
        Case(
            name: "region anchors",
            cfg: net(
                "[convolutional]\nfilters=14\nsize=1\nactivation=linear\n"
                    + "[region]\nclasses=2\nnum=2\nanchors=1,2,3\nsoftmax=1\n"), code: .invalidValue, line: 12,
            fragment: "anchors"),
        Case(
            name: "yolo without num",
            cfg: net(
                "[convolutional]\nfilters=7\nsize=1\nactivation=linear\n"
                    + "[yolo]\nclasses=2\nanchors=10,13\nmask=0\n"), code: .missingKey, line: 9, fragment: "num"),
        Case(
            name: "grouped route of two layers", cfg: net(conv8 + conv8 + "[route]\nlayers=0,1\ngroups=2\n"),
            code: .unsupported, line: 14, fragment: "numbers the layers after it wrongly"),
        Case(
            name: "upsample stride zero", cfg: net(conv8 + "[upsample]\nstride=0\n"), code: .unsupported, line: 10,
            fragment: "downsampling"),
        Case(name: "unknown layer", cfg: net("[local]\nsize=3\n"), code: .unsupported, line: 5, fragment: "[local]"),
        Case(
            name: "case of a layer type", cfg: net("[Convolutional]\nfilters=8\nsize=1\n"), code: .unsupported, line: 5,
            fragment: "[Convolutional]"),
        Case(
            name: "unknown activation", cfg: net("[convolutional]\nfilters=8\nsize=1\nactivation=gelu\n"),
            code: .unsupported,
            line: 8, fragment: "activation=gelu"),
    ]

    @Test(arguments: openCVHostile)
    func hostileNetworkIsRefusedForOpenCV(_ item: Case) {
        do {
            let config = try DarknetConfig(text: item.cfg, fileName: "bad.cfg", reader: .openCV)
            Issue.record("accepted: \(config.layers.count) layers")
        } catch let error as ConversionError {
            #expect(error.code == item.code && error.line == item.line, "\(error)")
            #expect(error.message.contains(item.fragment), "\(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// What OpenCV reads and the converter does not: defaults, last-wins keys, its own layer types.
    @Test func openCVReadsItsOwnDefaultsAndLayers() throws {
        // No [net] keys: OpenCV's 416 × 416 × 3. maxpool's size and stride default to 2, upsample's stride to 1.
        let defaults = try DarknetConfig(text: "[net]\n" + Self.conv8 + "[maxpool]\n[upsample]\n", reader: .openCV)
        #expect(defaults.width == 416 && defaults.height == 416 && defaults.channels == 3)
        #expect(
            defaults.layers.map(\.output) == [
                DarknetShape(channels: 8, height: 416, width: 416),
                DarknetShape(channels: 8, height: 208, width: 208),
                DarknetShape(channels: 8, height: 208, width: 208),
            ])
        #expect(throws: ConversionError.self) { try DarknetConfig(text: "[net]\n" + Self.conv8 + "[maxpool]\n") }
        // A key set twice: OpenCV takes the last, the converter refuses.
        let twice = Self.net("[convolutional]\nfilters=4\nfilters=8\nsize=1\nactivation=linear\n")
        #expect(try DarknetConfig(text: twice, reader: .openCV).layers[0].output.channels == 8)
        #expect(throws: ConversionError.self) { try DarknetConfig(text: twice) }
        // YOLOv2's reorg and region; squeeze-and-excitation's scale_channels; sam; cost; a classifier's connected.
        let v2 = Self.net(
            Self.conv8 + "[reorg]\nstride=2\n[convolutional]\nfilters=35\nsize=1\nactivation=leaky\n"
                + "[region]\nclasses=2\nnum=5\nanchors=1,1,2,2,3,3,4,4,5,5\nsoftmax=1\n")
        let region = try DarknetConfig(text: v2, reader: .openCV)
        #expect(region.layers.map(\.output.channels) == [8, 32, 35, 35] && region.layers[1].output.height == 16)
        #expect(throws: ConversionError.self) { try DarknetConfig(text: v2) }
        let se = Self.net(
            Self.conv8 + "[avgpool]\n[convolutional]\nfilters=8\nsize=1\nactivation=logistic\n"
                + "[scale_channels]\nfrom=0\n[sam]\nfrom=-1\n[cost]\n")
        let excitation = try DarknetConfig(text: se, reader: .openCV)
        #expect(
            excitation.layers.map(\.output) == [
                DarknetShape(channels: 8, height: 32, width: 32), DarknetShape(channels: 8, height: 1, width: 1),
                DarknetShape(channels: 8, height: 1, width: 1), DarknetShape(channels: 8, height: 32, width: 32),
                DarknetShape(channels: 8, height: 32, width: 32), DarknetShape(channels: 8, height: 32, width: 32),
            ])
        #expect(excitation.weightFloatCount == (8 + 8 * 3) + (8 + 8 * 8))
        let dense = Self.net(Self.conv8 + "[maxpool]\n[connected]\noutput=10\nactivation=tanh\n[softmax]\n")
        let classifier = try DarknetConfig(text: dense, reader: .openCV)
        #expect(classifier.layers.map(\.output.channels) == [8, 8, 10, 10] && classifier.layers[2].output.height == 1)
        // Weights: the convolution's 8 + 8·3, the connected layer's 10 + 10·(8·16·16).
        #expect(classifier.weightFloatCount == (8 + 8 * 3) + (10 + 10 * 8 * 16 * 16))
        // OpenCV sizes a [connected] layer from its own running shape, which a [route] leaves stale.
        #expect(throws: ConversionError.self) {
            try DarknetConfig(
                text: Self.net(Self.conv8 + "[route]\nlayers=-1\n[connected]\noutput=10\n"), reader: .openCV)
        }
    }

    /// The shared networks read the same for both readers (the same layers, shapes and weight count).
    @Test func realNetworksReadTheSameForBothReaders() throws {
        for name in ["yolo-fastest-1.1", "yolo-fastest-1.1-xl"] {
            let text = try SharedFiles.cfgText(name)
            let converter = try DarknetConfig(text: text, fileName: "\(name).cfg")
            let openCV = try DarknetConfig(text: text, fileName: "\(name).cfg", reader: .openCV)
            #expect(
                converter.weightFloatCount == openCV.weightFloatCount && converter.layers.count == openCV.layers.count)
            #expect(converter.layers.map(\.output) == openCV.layers.map(\.output))
        }
    }

    /// Lines are read as OpenCV reads them: bytes outside `!`...`z` dropped, so a key OpenCV reads as
    /// `width` is `width` here too.
    @Test func linesAreReadAsOpenCVReadsThem() throws {
        let config = try DarknetConfig(
            text: "\u{FEFF}[net]\r\nwid|th = 64\r\nhei~ght=\t32\r\n" + Self.conv8, reader: .openCV)
        #expect(config.width == 64 && config.height == 32)
    }
}
