import Foundation
import Testing

@testable import OpenVision

/// Labels in OpenCV's Hershey font, which draws printable ASCII only (each byte of anything else as "?": the line
/// counter's "in 9 · out 9" was drawn "in 9 ?? out 9"): what cannot be drawn becomes its ASCII look-alike, its
/// base letter, or nothing.
@Suite struct CanvasLabelTests {
    @Test func onlyWhatHersheyDraws() {
        #expect(ImageCanvas.hersheyText("in 9 · out 9") == "in 9 | out 9")
        #expect(ImageCanvas.hersheyText("café — naïve “x” …") == "cafe - naive \"x\" ...")
        #expect(ImageCanvas.hersheyText("person 日本 #3") == "person #3")
        #expect(ImageCanvas.hersheyText("a\tb\nc") == "a b c")
        #expect(ImageCanvas.hersheyText("日本") == "")
    }

    static func labelled(_ text: String) throws -> Data {
        var canvas = try ImageCanvas(width: 200, height: 40, color: OverlayColor(red: 90, green: 90, blue: 90))
        try canvas.label(text, at: CGPoint(x: 4, y: 30))
        return canvas.makeImage().rgbData()
    }

    /// The counter's label draws the same pixels as its ASCII look-alike, and a label with nothing drawable draws
    /// nothing (no "?" box).
    @Test func theCounterLabelDrawsAsItsLookAlike() throws {
        let drawn = try Self.labelled("in 9 · out 9")
        #expect(drawn == (try Self.labelled("in 9 | out 9")))
        #expect(drawn != (try Self.labelled("in 9 ?? out 9")))
        let blank = try ImageCanvas(width: 200, height: 40, color: OverlayColor(red: 90, green: 90, blue: 90))
            .makeImage().rgbData()
        #expect(try Self.labelled("日本") == blank)
    }
}
