import CoreMedia
import Testing

@Suite struct CMTimeTests {
    @Test func makingAndSeconds() {
        #expect(CMTimeMake(value: 3, timescale: 2).seconds == 1.5)
        #expect(CMTime(value: 1, timescale: 30).seconds == 1.0 / 30)
        let t = CMTime(seconds: 0.1, preferredTimescale: 600)
        #expect(t.value == 60 && t.timescale == 600 && !t.hasBeenRounded)
        let rounded = CMTimeMakeWithSeconds(1.0 / 3, preferredTimescale: 10)
        #expect(rounded.value == 3 && rounded.hasBeenRounded)
        #expect(CMTimeGetSeconds(CMTime(value: -7, timescale: 4)) == -1.75)
        #expect(!CMTime(value: 1, timescale: 0).isValid && CMTime.invalid.seconds.isNaN)
        #expect(CMTime(seconds: .infinity, preferredTimescale: 1).isPositiveInfinity)
        #expect(CMTime.zero.seconds == 0 && CMTime.zero.isNumeric)
    }

    /// Arithmetic is exact at the common timescale (1/30 + 1/25 = 11/150), comparison by value (1/2 == 2/4).
    @Test func arithmeticAndComparison() {
        let sum = CMTimeMake(value: 1, timescale: 30) + CMTimeMake(value: 1, timescale: 25)
        #expect(sum.value == 11 && sum.timescale == 150 && !sum.hasBeenRounded)
        let difference = CMTimeSubtract(CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 3, timescale: 4))
        #expect(difference.seconds == -0.25)
        #expect(CMTimeMake(value: 1, timescale: 2) == CMTimeMake(value: 2, timescale: 4))
        #expect(CMTimeMake(value: 1, timescale: 3) < CMTimeMake(value: 1, timescale: 2))
        #expect(CMTimeCompare(.positiveInfinity, CMTimeMake(value: Int64.max, timescale: 1)) == 1)
        #expect(CMTimeCompare(.invalid, .negativeInfinity) == -1)
        #expect(CMTimeMultiply(CMTimeMake(value: 2, timescale: 3), multiplier: 6).seconds == 4)
        #expect(CMTimeMultiplyByFloat64(CMTimeMake(value: 10, timescale: 100), multiplier: 2.5).value == 25)
        #expect((CMTime.positiveInfinity + CMTimeMake(value: 1, timescale: 1)).isPositiveInfinity)
        #expect(!(CMTime.positiveInfinity - CMTime.positiveInfinity).isValid)
        #expect(Set([CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 2, timescale: 4)]).count == 1)
        #expect(CMTimeMaximum(CMTimeMake(value: 1, timescale: 2), .zero) == CMTimeMake(value: 1, timescale: 2))
        #expect(CMTimeAbsoluteValue(CMTimeMake(value: -3, timescale: 2)).seconds == 1.5)
    }

    @Test func convertScaleRounds() {
        let t = CMTimeMake(value: 1, timescale: 3)
        #expect(CMTimeConvertScale(t, timescale: 10, method: .roundHalfAwayFromZero).value == 3)
        #expect(CMTimeConvertScale(t, timescale: 10, method: .roundAwayFromZero).value == 4)
        #expect(
            CMTimeConvertScale(CMTimeMake(value: -1, timescale: 3), timescale: 10, method: .roundTowardNegativeInfinity)
                .value == -4)
        #expect(!CMTimeConvertScale(t, timescale: 10, method: .quickTime).isValid)
        #expect(t.convertScale(9, method: .quickTime).value == 3)
    }
}

/// `CMTimeRange`: end, containment (start in, end out), validity and equality by value, against hand-computed times.
@Suite struct CMTimeRangeTests {
    @Test func rangesContainTheirStartButNotTheirEnd() {
        let range = CMTimeRange(start: CMTime(value: 3, timescale: 10), duration: CMTime(value: 1, timescale: 10))
        #expect(range.end == CMTime(value: 4, timescale: 10) && CMTimeRangeGetEnd(range).seconds == 0.4)
        #expect(range.containsTime(CMTime(value: 30, timescale: 100)))
        #expect(CMTimeRangeContainsTime(range, time: CMTime(value: 35, timescale: 100)))
        #expect(!range.containsTime(CMTime(value: 4, timescale: 10)) && !range.containsTime(.zero))
        #expect(
            range == CMTimeRange(start: CMTime(value: 180, timescale: 600), end: CMTime(value: 240, timescale: 600)))
        #expect(CMTimeRangeMake(start: .zero, duration: .zero) == .zero && CMTimeRange.zero.isEmpty)
        #expect(range.isValid && !range.isEmpty)
        #expect(!CMTimeRange.invalid.isValid)
        #expect(!CMTimeRange(start: .zero, duration: CMTime(value: -1, timescale: 1)).isValid)
        #expect(
            Set([range, CMTimeRange(start: CMTime(value: 6, timescale: 20), duration: CMTime(value: 2, timescale: 20))])
                .count == 1)
    }
}
