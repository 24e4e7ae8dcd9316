import Foundation
import Testing

@testable import OpenVisionConverters

/// Absurd `.cfg` values (issue 14, finding 5) are `limitExceeded` errors, found while parsing,
/// never an arithmetic trap or gigabytes of graph.
@Suite struct DarknetLimitsTests {
    static func expectLimit(
        _ text: String, containing fragment: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let config = try DarknetConfig(text: text, fileName: "bad.cfg")
            Issue.record(
                "parsed: input \(config.width)×\(config.height), \(config.layers.count) layers",
                sourceLocation: sourceLocation)
        } catch let error as ConversionError {
            #expect(error.code == .limitExceeded, "\(error)", sourceLocation: sourceLocation)
            if let fragment {
                #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Yolo-Fastest XL with one line changed by `edit`.
    static func xl(_ edit: (String) -> String) throws -> String {
        try SharedFiles.cfgText("yolo-fastest-1.1-xl").split(separator: "\n", omittingEmptySubsequences: false)
            .map { edit(String($0)) }.joined(separator: "\n")
    }

    /// What `/work/shared/checks/hardening` builds: `width=100000` ran the old converter for 36 s to 7 GB.
    @Test func hugeInputIsRejected() throws {
        let text = try Self.xl {
            $0.hasPrefix("width") ? "width=100000" : $0.hasPrefix("height") ? "height=100000" : $0
        }
        Self.expectLimit(text, containing: "width=100000")
        #expect(throws: ConversionError.self) { try DarknetConfig.inputSize(text: text) }
    }

    /// An upsample stride of 2⁶² trapped on `input.height * stride` (SIGILL).
    @Test func upsampleStrideOverflowIsAnError() throws {
        var inUpsample = false
        let text = try Self.xl { line in
            if line.hasPrefix("[") { inUpsample = line == "[upsample]" }
            return inUpsample && line.hasPrefix("stride") ? "stride=4611686018427387904" : line
        }
        Self.expectLimit(text, containing: "stride")
    }

    @Test func derivedSizesAreBounded() {
        let net = "[net]\nwidth=64\nheight=64\nchannels=3\n"
        // Every value within its own bound, the product beyond the layer limit.
        Self.expectLimit(
            net + "[convolutional]\nfilters=65536\nsize=1\nactivation=linear\n"
                + "[convolutional]\nfilters=65536\nsize=1024\npadding=16384\nactivation=linear\n")
        // Upsampling past the side limit, one step at a time.
        Self.expectLimit(net + String(repeating: "[upsample]\nstride=16\n", count: 3), containing: "[upsample]")
        // Single values.
        Self.expectLimit(
            net + "[convolutional]\nfilters=1000000000\nsize=1\nactivation=linear\n", containing: "filters")
        Self.expectLimit(net + "[convolutional]\nfilters=8\nsize=9223372036854775807\nactivation=linear\n")
        Self.expectLimit(net + "[maxpool]\nsize=2\nstride=2\npadding=99999999\n", containing: "padding")
        Self.expectLimit("[net]\nwidth=64\nheight=64\nchannels=100000000\n[dropout]\n", containing: "channels")
        Self.expectLimit(net + "[route]\nlayers=-9223372036854775808\n")
        Self.expectLimit(
            net + String(repeating: "[dropout]\n", count: DarknetLimits.maxLayers + 1), containing: "layers")
    }

    /// 16384 × 16384 (the largest input) with many detection rows: the converter's constants stay bounded.
    @Test func detectionRowsAreBounded() {
        let text =
            "[net]\nwidth=16384\nheight=16384\nchannels=3\n"
            + "[convolutional]\nfilters=255\nsize=1\nstride=8\nactivation=linear\n"
            + "[yolo]\nclasses=80\nanchors=10,13,16,30,33,23\nmask=0,1,2\n"
        Self.expectLimit(text, containing: "detection rows")
    }

    @Test func realNetworksAreWithinTheLimits() throws {
        for name in ["yolo-fastest-1.1", "yolo-fastest-1.1-xl"] {
            let config = try DarknetConfig(text: SharedFiles.cfgText(name), fileName: "\(name).cfg")
            #expect(config.width == 320 && config.height == 320)
            #expect(config.weightFloatCount > 0)
        }
    }
}
