import Foundation

/// The functions a colour kernel can call: GLSL's constructors and built-ins (component by component on float and
/// vecn, a float argument standing for every component), and Core Image's `premultiply`, `unpremultiply`,
/// `compare` and `destCoord`.
enum Builtins {
    typealias Typed = KernelProgram.Compiler.Typed
    typealias Value = KernelProgram.Value
    typealias ValueType = KernelSyntax.ValueType

    static let unary: [String: (Float) -> Float] = [
        "abs": { abs($0) },
        "sign": { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) },
        "floor": { $0.rounded(.down) },
        "ceil": { $0.rounded(.up) },
        "fract": { $0 - $0.rounded(.down) },
        "sqrt": { sqrtf($0) },
        "inversesqrt": { 1 / sqrtf($0) },
        "exp": { expf($0) },
        "exp2": { exp2f($0) },
        "log": { logf($0) },
        "log2": { log2f($0) },
        "sin": { sinf($0) },
        "cos": { cosf($0) },
        "tan": { tanf($0) },
        "asin": { asinf($0) },
        "acos": { acosf($0) },
        "radians": { $0 * .pi / 180 },
        "degrees": { $0 * 180 / .pi },
    ]

    static let binary: [String: (Float, Float) -> Float] = [
        "min": { Swift.min($0, $1) },
        "max": { Swift.max($0, $1) },
        "mod": { $0 - $1 * ($0 / $1).rounded(.down) },
        "pow": { powf($0, $1) },
        "step": { $1 < $0 ? 0 : 1 },
    ]

    static let ternary: [String: (Float, Float, Float) -> Float] = [
        "clamp": { Swift.min(Swift.max($0, $1), $2) },
        "mix": { $0 * (1 - $2) + $1 * $2 },
        "smoothstep": { e0, e1, x in
            let t = Swift.min(Swift.max((x - e0) / (e1 - e0), 0), 1)
            return t * t * (3 - 2 * t)
        },
        "compare": { $0 < 0 ? $1 : $2 },
    ]

    static let names: Set<String> = Set(unary.keys).union(binary.keys).union(ternary.keys).union([
        "atan", "dot", "length", "distance", "normalize", "cross", "premultiply", "unpremultiply", "destCoord",
        "vec2", "vec3", "vec4", "float", "bool",
        // Core Image and GLSL functions outside the subset: never a user function's name either.
        "sample", "samplerCoord", "samplerExtent", "samplerOrigin", "samplerSize", "samplerTransform", "texture2D",
    ])

    /// The result type of a component-by-component call: the arguments' common vector type (float ones broadcast).
    static func common(_ types: [ValueType]) -> ValueType? {
        var n = 1
        for t in types {
            guard t != .bool else { return nil }
            let c = t.components
            if c > 1 {
                guard n == 1 || n == c else { return nil }
                n = c
            }
        }
        return .vector(n)
    }

    static func pick(_ v: Value, _ i: Int) -> KernelPlane { v.count == 1 ? v[0] : v[i] }

    static func call(_ name: String, _ arguments: [Typed]) -> Typed? {
        let types = arguments.map(\.0)
        let args = arguments.map(\.1)
        switch name {
        case "vec2", "vec3", "vec4":
            return construct(Int(String(name.last!))!, arguments)
        case "float", "bool":
            guard arguments.count == 1 else { return nil }
            let a = args[0]
            if name == "float" { return (.float, { frame in [a(frame)[0]] }) }
            guard types[0] == .float || types[0] == .bool else { return nil }
            return (.bool, { frame in [KernelPlane.map(a(frame)[0], frame.count) { $0 != 0 ? 1 : 0 }] })
        case "destCoord":
            guard arguments.isEmpty else { return nil }
            return (.vec2, { frame in [.varying(frame.x), .varying(frame.y)] })
        case "premultiply", "unpremultiply":
            guard types == [.vec4] else { return nil }
            let a = args[0]
            let divide = name == "unpremultiply"
            return (
                .vec4,
                { frame in
                    let v = a(frame)
                    let rgb = (0..<3).map { i in
                        KernelPlane.map(v[i], v[3], frame.count) { c, alpha in
                            divide ? (alpha > 0 ? c / alpha : 0) : c * alpha
                        }
                    }
                    return rgb + [v[3]]
                }
            )
        case "dot", "distance":
            guard types.count == 2, types[0] == types[1], types[0] != .bool else { return nil }
            let (a, b) = (args[0], args[1])
            let isDot = name == "dot"
            return (
                .float,
                { frame in
                    let x = a(frame)
                    let y = b(frame)
                    var sum: KernelPlane = .constant(0)
                    for i in x.indices {
                        let term =
                            isDot
                            ? KernelPlane.map(x[i], y[i], frame.count) { $0 * $1 }
                            : KernelPlane.map(x[i], y[i], frame.count) { ($0 - $1) * ($0 - $1) }
                        sum = KernelPlane.map(sum, term, frame.count) { $0 + $1 }
                    }
                    return [isDot ? sum : KernelPlane.map(sum, frame.count) { sqrtf($0) }]
                }
            )
        case "length", "normalize":
            guard types.count == 1, types[0] != .bool else { return nil }
            let a = args[0]
            let isLength = name == "length"
            return (
                isLength ? .float : types[0],
                { frame in
                    let x = a(frame)
                    var sum: KernelPlane = .constant(0)
                    for p in x { sum = KernelPlane.map(sum, p, frame.count) { $0 + $1 * $1 } }
                    let length = KernelPlane.map(sum, frame.count) { sqrtf($0) }
                    return isLength ? [length] : x.map { KernelPlane.map($0, length, frame.count) { $0 / $1 } }
                }
            )
        case "cross":
            guard types == [.vec3, .vec3] else { return nil }
            let (a, b) = (args[0], args[1])
            return (
                .vec3,
                { frame in
                    let x = a(frame)
                    let y = b(frame)
                    func term(_ i: Int, _ j: Int) -> KernelPlane {
                        KernelPlane.map(
                            KernelPlane.map(x[i], y[j], frame.count) { $0 * $1 },
                            KernelPlane.map(x[j], y[i], frame.count) { $0 * $1 },
                            frame.count
                        ) { $0 - $1 }
                    }
                    return [term(1, 2), term(2, 0), term(0, 1)]
                }
            )
        case "atan":
            guard let type = common(types) else { return nil }
            if arguments.count == 1 {
                return componentwise(type, args) { v, n in KernelPlane.map(v[0], n) { atanf($0) } }
            }
            guard arguments.count == 2 else { return nil }
            return componentwise(type, args) { v, n in KernelPlane.map(v[0], v[1], n) { atan2f($0, $1) } }
        default:
            guard let type = common(types) else { return nil }
            if let f = unary[name], arguments.count == 1 {
                return componentwise(type, args) { v, n in KernelPlane.map(v[0], n, f) }
            }
            if let f = binary[name], arguments.count == 2 {
                return componentwise(type, args) { v, n in KernelPlane.map(v[0], v[1], n, f) }
            }
            if let f = ternary[name], arguments.count == 3 {
                return componentwise(type, args) { v, n in KernelPlane.map(v[0], v[1], v[2], n, f) }
            }
            return nil
        }
    }

    /// A call whose component i is `f` of the arguments' components i.
    static func componentwise(
        _ type: ValueType, _ args: [KernelProgram.Evaluate], _ f: @escaping ([KernelPlane], Int) -> KernelPlane
    ) -> Typed {
        let n = type.components
        return (
            type,
            { frame in
                let values = args.map { $0(frame) }
                return (0..<n).map { i in f(values.map { pick($0, i) }, frame.count) }
            }
        )
    }

    /// vecn(...): one float (every component), or components in order from floats, bools and vectors (a single
    /// longer vector gives its first n).
    static func construct(_ n: Int, _ arguments: [Typed]) -> Typed? {
        guard !arguments.isEmpty else { return nil }
        let sizes = arguments.map(\.0.components)
        let total = sizes.reduce(0, +)
        if arguments.count == 1 {
            guard sizes[0] == 1 || sizes[0] >= n else { return nil }
        } else {
            // Every argument but the last must be used whole, and the last at least in part.
            guard total >= n, total - sizes[sizes.count - 1] < n else { return nil }
        }
        let args = arguments.map(\.1)
        return (
            .vector(n),
            { frame in
                let parts = args.flatMap { $0(frame) }
                return parts.count == 1 ? Array(repeating: parts[0], count: n) : Array(parts.prefix(n))
            }
        )
    }
}
