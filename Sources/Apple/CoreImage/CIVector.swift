import Foundation

/// Core Image's vector of `CGFloat` values: filter parameters such as points (x, y), rectangles (x, y, width,
/// height) and colour-matrix rows (four weights). Immutable, a reference type, as Apple's.
public final class CIVector: CustomStringConvertible, @unchecked Sendable {
    private let values: [CGFloat]

    /// A vector of the first `count` values at `values`.
    public init(values: UnsafePointer<CGFloat>, count: Int) {
        self.values = Array(UnsafeBufferPointer(start: values, count: max(0, count)))
    }

    /// A vector of these values (Linux only; Apple code passes a pointer and a count).
    public init(_ values: [CGFloat]) { self.values = values }

    /// A one-value vector.
    public convenience init(x: CGFloat) { self.init([x]) }
    /// A two-value vector.
    public convenience init(x: CGFloat, y: CGFloat) { self.init([x, y]) }
    /// A three-value vector.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init([x, y, z]) }
    /// A four-value vector.
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init([x, y, z, w]) }
    /// A point as (x, y).
    public convenience init(cgPoint p: CGPoint) { self.init([p.x, p.y]) }
    /// A rectangle as (x, y, width, height).
    public convenience init(cgRect r: CGRect) { self.init([r.origin.x, r.origin.y, r.size.width, r.size.height]) }
    /// An affine transform as (a, b, c, d, tx, ty).
    public convenience init(cgAffineTransform t: CGAffineTransform) { self.init([t.a, t.b, t.c, t.d, t.tx, t.ty]) }

    /// A vector from its string form, "[1 2 3]" (nil when a value is not a number).
    public convenience init?(string representation: String) {
        let trimmed = representation.trimmingCharacters(in: CharacterSet(charactersIn: "[] \n\t"))
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "," })
        var values: [CGFloat] = []
        for part in parts {
            guard let v = Double(part) else { return nil }
            values.append(CGFloat(v))
        }
        self.init(values)
    }

    /// The number of values.
    public var count: Int { values.count }
    /// The value at `index`; 0 past the end, as Apple's.
    public func value(at index: Int) -> CGFloat { values.indices.contains(index) ? values[index] : 0 }
    /// The first value (0 when there is none).
    public var x: CGFloat { value(at: 0) }
    /// The second value.
    public var y: CGFloat { value(at: 1) }
    /// The third value.
    public var z: CGFloat { value(at: 2) }
    /// The fourth value.
    public var w: CGFloat { value(at: 3) }
    /// (x, y) as a point.
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    /// (x, y, z, w) as a rectangle: origin (x, y), size (z, w).
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    /// The first six values as an affine transform (a, b, c, d, tx, ty).
    public var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(
            a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4),
            ty: value(at: 5))
    }

    /// The values as "[x y …]".
    public var stringRepresentation: String { "[" + values.map { "\(Double($0))" }.joined(separator: " ") + "]" }
    /// The string representation.
    public var description: String { stringRepresentation }
}
