import Foundation

/// A time's numerator.
public typealias CMTimeValue = Int64
/// A time's denominator: units per second.
public typealias CMTimeScale = Int32
/// A time's epoch (loops of a timeline).
public typealias CMTimeEpoch = Int64

/// The largest timescale Core Media uses (`kCMTimeMaxTimescale`).
public let kCMTimeMaxTimescale: CMTimeScale = 1_000_000_000

/// The flags of a `CMTime` (Apple's bits).
public struct CMTimeFlags: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt32
    /// Flags with these bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The time is valid.
    public static let valid = CMTimeFlags(rawValue: 1 << 0)
    /// The value was rounded when it was made or converted.
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)
    /// Positive infinity.
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)
    /// Negative infinity.
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)
    /// Indefinite (unknown).
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)
    /// Any of the non-numeric flags.
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}

/// A rational time `value / timescale` seconds, with validity and infinity flags, as Apple's (a value type).
/// Equality and order compare the times (1/2 == 2/4), not the fields.
public struct CMTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The numerator.
    public var value: CMTimeValue
    /// The denominator (units per second).
    public var timescale: CMTimeScale
    /// Validity, rounding and infinity.
    public var flags: CMTimeFlags
    /// The epoch.
    public var epoch: CMTimeEpoch

    /// A time with these fields.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// `value / timescale` seconds; invalid for a timescale of 0 or less, as `CMTimeMake`.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self = timescale > 0 ? CMTime(value: value, timescale: timescale, flags: .valid, epoch: 0) : .invalid
    }

    /// `seconds` at `preferredTimescale` units per second, rounded to the nearest unit (flagged as rounded when not
    /// exact); NaN is invalid, ±infinity the infinities, as `CMTimeMakeWithSeconds`.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if seconds.isNaN || preferredTimescale <= 0 {
            self = .invalid
            return
        }
        if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        let exact = seconds * Double(preferredTimescale)
        guard abs(exact) < 9.2e18 else {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        let rounded = exact.rounded()
        self.init(
            value: CMTimeValue(rounded), timescale: preferredTimescale,
            flags: rounded == exact ? .valid : [.valid, .hasBeenRounded], epoch: 0)
    }

    /// Zero seconds.
    public static let zero = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 0)
    /// An invalid time (all fields zero).
    public static let invalid = CMTime(value: 0, timescale: 0, flags: [], epoch: 0)
    /// An indefinite time.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)
    /// Positive infinity.
    public static let positiveInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)
    /// Negative infinity.
    public static let negativeInfinity = CMTime(value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    /// Whether the time is valid.
    public var isValid: Bool { flags.contains(.valid) }
    /// Whether it is positive infinity.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }
    /// Whether it is negative infinity.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }
    /// Whether it is indefinite.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }
    /// Whether it is a valid finite time.
    public var isNumeric: Bool { isValid && flags.isDisjoint(with: .impliedValueFlagsMask) }
    /// Whether it was rounded.
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }

    /// The time in seconds: NaN for an invalid or indefinite time, ±infinity for the infinities.
    public var seconds: Double {
        if isPositiveInfinity { return .infinity }
        if isNegativeInfinity { return -.infinity }
        guard isNumeric else { return .nan }
        return Double(value) / Double(timescale)
    }

    /// The time at `newTimescale` units per second, rounded as `method` says (`CMTimeConvertScale`).
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        CMTimeConvertScale(self, timescale: newTimescale, method: method)
    }

    /// The absolute value.
    public var absoluteValue: CMTime { CMTimeAbsoluteValue(self) }

    /// Times are equal when `CMTimeCompare` says so.
    public static func == (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) == 0 }
    /// Times are ordered as `CMTimeCompare` orders them (invalid < negative infinity < numbers < positive infinity
    /// < indefinite).
    public static func < (lhs: CMTime, rhs: CMTime) -> Bool { CMTimeCompare(lhs, rhs) < 0 }

    /// Hashes the time's class and, for a number, its reduced fraction (so equal times hash alike).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(CMTime.rank(self))
        guard isNumeric else { return }
        let divisor = CMTime.gcd(abs(value), CMTimeValue(timescale))
        hasher.combine(epoch)
        hasher.combine(value / max(divisor, 1))
        hasher.combine(CMTimeValue(timescale) / max(divisor, 1))
    }

    /// `{value/timescale = seconds}`, or the time's kind.
    public var description: String {
        if !isValid { return "CMTime(invalid)" }
        if isPositiveInfinity { return "CMTime(+infinity)" }
        if isNegativeInfinity { return "CMTime(-infinity)" }
        if isIndefinite { return "CMTime(indefinite)" }
        return "CMTime(\(value)/\(timescale) = \(seconds))"
    }

    /// Sum (`CMTimeAdd`).
    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeAdd(lhs, rhs) }
    /// Difference (`CMTimeSubtract`).
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime { CMTimeSubtract(lhs, rhs) }
    /// Adds in place.
    public static func += (lhs: inout CMTime, rhs: CMTime) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout CMTime, rhs: CMTime) { lhs = lhs - rhs }
    /// The time times an integer (`CMTimeMultiply`).
    public static func * (lhs: CMTime, rhs: Int32) -> CMTime { CMTimeMultiply(lhs, multiplier: rhs) }
    /// The time times an integer (`CMTimeMultiply`).
    public static func * (lhs: Int32, rhs: CMTime) -> CMTime { CMTimeMultiply(rhs, multiplier: lhs) }
    /// The time times a number (`CMTimeMultiplyByFloat64`).
    public static func * (lhs: CMTime, rhs: Float64) -> CMTime { CMTimeMultiplyByFloat64(lhs, multiplier: rhs) }
    /// The time times a number (`CMTimeMultiplyByFloat64`).
    public static func * (lhs: Float64, rhs: CMTime) -> CMTime { CMTimeMultiplyByFloat64(rhs, multiplier: lhs) }
    /// Multiplies in place by an integer.
    public static func *= (lhs: inout CMTime, rhs: Int32) { lhs = lhs * rhs }
    /// Multiplies in place by a number.
    public static func *= (lhs: inout CMTime, rhs: Float64) { lhs = lhs * rhs }

    /// The order class: 0 invalid, 1 negative infinity, 2 numeric, 3 positive infinity, 4 indefinite.
    static func rank(_ t: CMTime) -> Int {
        if !t.isValid { return 0 }
        if t.isIndefinite { return 4 }
        if t.isNegativeInfinity { return 1 }
        if t.isPositiveInfinity { return 3 }
        return 2
    }

    static func gcd(_ a: CMTimeValue, _ b: CMTimeValue) -> CMTimeValue {
        var (x, y) = (abs(a), abs(b))
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}

/// How `CMTimeConvertScale` rounds (Apple's raw values).
public enum CMTimeRoundingMethod: UInt32, Sendable {
    /// Towards zero for negative times, half away from zero otherwise (the default).
    case roundHalfAwayFromZero = 1
    /// Towards zero.
    case roundTowardZero = 2
    /// Away from zero.
    case roundAwayFromZero = 3
    /// Exact, or invalid when it is not.
    case quickTime = 4
    /// Towards positive infinity.
    case roundTowardPositiveInfinity = 5
    /// Towards negative infinity.
    case roundTowardNegativeInfinity = 6
    /// The default: half away from zero.
    public static let `default` = CMTimeRoundingMethod.roundHalfAwayFromZero
}

/// `value / timescale` seconds (`CMTime(value:timescale:)`).
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime { CMTime(value: value, timescale: timescale) }

/// `seconds` at `preferredTimescale` (`CMTime(seconds:preferredTimescale:)`).
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// The time in seconds (`time.seconds`).
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 { time.seconds }

/// -1, 0 or 1 as `time1` is before, at or after `time2` (invalid < −∞ < numbers < +∞ < indefinite; numbers of
/// different epochs by epoch first).
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    let r1 = CMTime.rank(time1)
    let r2 = CMTime.rank(time2)
    if r1 != r2 { return r1 < r2 ? -1 : 1 }
    guard r1 == 2 else { return 0 }
    if time1.epoch != time2.epoch { return time1.epoch < time2.epoch ? -1 : 1 }
    // value1 / scale1 vs value2 / scale2, exactly: compare value1 × scale2 with value2 × scale1 in 128 bits.
    let left = time1.value.multipliedFullWidth(by: CMTimeValue(time2.timescale))
    let right = time2.value.multipliedFullWidth(by: CMTimeValue(time1.timescale))
    if left.high != right.high { return left.high < right.high ? -1 : 1 }
    if left.low != right.low { return left.low < right.low ? -1 : 1 }
    return 0
}

/// The sum: exact at the least common multiple of the timescales when it is at most `kCMTimeMaxTimescale`, else at
/// the larger timescale, rounded; an infinity or indefinite operand gives what Apple's `CMTimeAdd` gives.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    combine(lhs, rhs, negateRight: false)
}

/// The difference `lhs − rhs` (as `CMTimeAdd` of the negation).
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    combine(lhs, rhs, negateRight: true)
}

private func combine(_ lhs: CMTime, _ rhs: CMTime, negateRight: Bool) -> CMTime {
    guard lhs.isValid, rhs.isValid else { return .invalid }
    if lhs.isIndefinite || rhs.isIndefinite { return .indefinite }
    let rightPositive = negateRight ? rhs.isNegativeInfinity : rhs.isPositiveInfinity
    let rightNegative = negateRight ? rhs.isPositiveInfinity : rhs.isNegativeInfinity
    if (lhs.isPositiveInfinity && rightNegative) || (lhs.isNegativeInfinity && rightPositive) { return .invalid }
    if lhs.isPositiveInfinity || rightPositive { return .positiveInfinity }
    if lhs.isNegativeInfinity || rightNegative { return .negativeInfinity }
    guard lhs.epoch == rhs.epoch else { return .invalid }
    let a = CMTimeValue(lhs.timescale)
    let b = CMTimeValue(rhs.timescale)
    let lcm = a / CMTime.gcd(a, b) * b
    let scale = lcm <= CMTimeValue(kCMTimeMaxTimescale) ? CMTimeScale(lcm) : max(lhs.timescale, rhs.timescale)
    let l = CMTimeConvertScale(lhs, timescale: scale, method: .default)
    let r = CMTimeConvertScale(rhs, timescale: scale, method: .default)
    let (sum, overflow) =
        negateRight
        ? l.value.subtractingReportingOverflow(r.value)
        : l.value.addingReportingOverflow(r.value)
    if overflow { return (negateRight ? l.value > r.value : l.value > 0) ? .positiveInfinity : .negativeInfinity }
    var flags: CMTimeFlags = .valid
    if l.hasBeenRounded || r.hasBeenRounded { flags.insert(.hasBeenRounded) }
    return CMTime(value: sum, timescale: scale, flags: flags, epoch: lhs.epoch)
}

/// The time times `multiplier`, exactly (an overflow gives the infinity of its sign).
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    guard time.isNumeric else {
        if multiplier < 0, time.isPositiveInfinity { return .negativeInfinity }
        if multiplier < 0, time.isNegativeInfinity { return .positiveInfinity }
        return time
    }
    let (product, overflow) = time.value.multipliedReportingOverflow(by: CMTimeValue(multiplier))
    if overflow { return (time.value < 0) != (multiplier < 0) ? .negativeInfinity : .positiveInfinity }
    var result = time
    result.value = product
    return result
}

/// The time times `multiplier`, at the same timescale, rounded.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    guard time.isNumeric else { return time }
    return CMTime(seconds: time.seconds * multiplier, preferredTimescale: time.timescale)
}

/// The time at `newTimescale`, rounded as `method` says (`.quickTime` gives an invalid time when not exact).
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    guard time.isNumeric, newTimescale > 0 else { return newTimescale > 0 ? time : .invalid }
    if newTimescale == time.timescale { return time }
    let product = time.value.multipliedFullWidth(by: CMTimeValue(newTimescale))
    let divisor = CMTimeValue(time.timescale)
    guard abs(Double(time.value) * Double(newTimescale) / Double(divisor)) < 9.2e18 else {
        return time.value > 0 ? .positiveInfinity : .negativeInfinity
    }
    let (quotient, remainder) = divisor.dividingFullWidth(product)
    var value = quotient
    if remainder != 0 {
        let negative = (remainder < 0)
        switch method {
        case .roundTowardZero: break
        case .roundAwayFromZero: value += negative ? -1 : 1
        case .roundTowardPositiveInfinity: if !negative { value += 1 }
        case .roundTowardNegativeInfinity: if negative { value -= 1 }
        case .quickTime: return .invalid
        case .roundHalfAwayFromZero: if 2 * abs(remainder) >= divisor { value += negative ? -1 : 1 }
        }
    }
    var flags = time.flags
    if remainder != 0 { flags.insert(.hasBeenRounded) }
    return CMTime(value: value, timescale: newTimescale, flags: flags, epoch: time.epoch)
}

/// The larger of two times (`CMTimeCompare`).
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time1, time2) >= 0 ? time1 : time2
}

/// The smaller of two times (`CMTimeCompare`).
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTimeCompare(time1, time2) <= 0 ? time1 : time2
}

/// The absolute value (negative infinity becomes positive infinity).
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    if time.isNegativeInfinity { return .positiveInfinity }
    guard time.isNumeric, time.value < 0 else { return time }
    var result = time
    result.value = -time.value
    return result
}

/// The zero time (`CMTime.zero`).
public let kCMTimeZero = CMTime.zero
/// The invalid time (`CMTime.invalid`).
public let kCMTimeInvalid = CMTime.invalid
/// The indefinite time.
public let kCMTimeIndefinite = CMTime.indefinite
/// Positive infinity.
public let kCMTimePositiveInfinity = CMTime.positiveInfinity
/// Negative infinity.
public let kCMTimeNegativeInfinity = CMTime.negativeInfinity
