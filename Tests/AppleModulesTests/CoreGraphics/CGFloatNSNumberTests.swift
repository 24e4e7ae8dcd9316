import CoreGraphics
import Foundation
import Testing

/// `CGFloat(truncating:)` and `CGFloat(exactly:)` from `NSNumber`, as Apple's Foundation converts (Apple's face-tracking
/// sample scales a pose angle with `CGFloat(truncating: value)`).
@Suite struct CGFloatNSNumberTests {
    @Test func truncatingKeepsTheDoubleValue() {
        #expect(CGFloat(truncating: NSNumber(value: 2.75)) == 2.75)
        #expect(CGFloat(truncating: NSNumber(value: -3)) == -3)
        #expect(CGFloat(truncating: NSNumber(value: Float(0.1))) == CGFloat(Double(Float(0.1))))
        #expect(CGFloat(truncating: NSNumber(value: true)) == 1)
    }

    @Test func exactlyRefusesWhatADoubleCannotHold() {
        #expect(CGFloat(exactly: NSNumber(value: 0.5)) == 0.5)
        #expect(CGFloat(exactly: NSNumber(value: 42)) == 42)
        // 2^53 + 1 is not a Double.
        #expect(CGFloat(exactly: NSNumber(value: Int64(9_007_199_254_740_993))) == nil)
    }
}
