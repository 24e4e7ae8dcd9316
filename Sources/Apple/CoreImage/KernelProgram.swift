import Foundation
import OpenVision

/// A kernel routine of a Core Image Kernel Language source, type-checked and compiled once into a tree of closures
/// that evaluate whole blocks of pixels at a time (each closure call works on every pixel of the block, so a
/// megapixel costs a few hundred calls, not millions). Control flow runs on masks: both sides of an `if` whose
/// condition varies run, each on its own pixels, and a `return` retires the pixels it covers.
final class KernelProgram: @unchecked Sendable {
    typealias Value = [KernelPlane]
    typealias Evaluate = (Frame) -> Value
    typealias Execute = (Frame, KernelMask) -> Void

    /// The variables of one function call over a block, and the pixels that have returned.
    final class Frame {
        let count: Int
        let x: [Float]
        let y: [Float]
        var slots: [Value]
        var result: Value
        /// Pixels that have returned (nil: none yet).
        var done: [Bool]?
        var allDone = false

        init(count: Int, x: [Float], y: [Float], slots: Int, returns: Int) {
            self.count = count
            self.x = x
            self.y = y
            self.slots = Array(repeating: [], count: slots)
            result = Array(repeating: .constant(0), count: returns)
        }

        /// The pixels of `mask` that have not returned; nil for all of them; an empty array for none.
        func live(_ mask: KernelMask) -> KernelMask {
            if allDone { return [] }
            guard let done else { return mask }
            let notDone = done.map { !$0 }
            return mask.and(notDone)
        }
    }

    /// A compiled function: its parameters' types and names, its body, and how many variables it keeps.
    final class Function {
        let name: String
        let isKernel: Bool
        let parameters: [KernelSyntax.Parameter]
        let returns: KernelSyntax.ValueType
        var slots = 0
        var body: Execute = { _, _ in }
        /// Operations one call runs, the helpers it calls counted in full.
        var cost = 0
        /// Nested calls, this one included.
        var depth = 1

        init(_ f: KernelSyntax.Function) {
            name = f.name
            isKernel = f.isKernel
            parameters = f.parameters
            returns = f.returns
        }

        /// Runs the function over a block whose parameters are `arguments`.
        func call(_ arguments: [Value], count: Int, x: [Float], y: [Float]) -> Value {
            let frame = Frame(count: count, x: x, y: y, slots: slots, returns: returns.components)
            for (i, a) in arguments.enumerated() { frame.slots[i] = a }
            body(frame, nil)
            return frame.result
        }
    }

    let kernel: Function

    /// Most operations one kernel call may run, helpers counted in full (a source that would take longer is nil).
    static let maximumCost = 20_000
    /// Deepest chain of helper calls.
    static let maximumCallDepth = 32

    private init(kernel: Function) { self.kernel = kernel }

    /// The kernels of `source` (each with the helper functions declared before it), in order; nil when the source
    /// does not parse or type-check, or has no kernel.
    static func compile(_ source: String) -> [KernelProgram]? {
        guard let syntax = KernelSyntax.parse(source) else { return nil }
        var known: [String: Function] = [:]
        var kernels: [KernelProgram] = []
        for f in syntax.functions {
            guard known[f.name] == nil, Builtins.names.contains(f.name) == false,
                KernelSyntax.ValueType(f.name) == nil
            else { return nil }
            if f.isKernel {
                // A colour kernel returns vec4 and takes __sample, __color, float and vecn parameters.
                guard f.returns == .vec4, f.parameters.allSatisfy({ $0.type != .bool }) else { return nil }
            } else {
                guard f.parameters.allSatisfy({ $0.type != .sample && $0.type != .color }),
                    f.returns != .sample, f.returns != .color
                else { return nil }
            }
            let compiled = Function(f)
            var compiler = Compiler(functions: known, returns: f.returns.value)
            guard compiler.compile(f, into: compiled), compiler.cost <= maximumCost,
                compiler.callDepth < maximumCallDepth
            else { return nil }
            compiled.cost = compiler.cost
            compiled.depth = compiler.callDepth + 1
            known[f.name] = compiled
            if f.isKernel { kernels.append(KernelProgram(kernel: compiled)) }
        }
        return kernels.isEmpty ? nil : kernels
    }

    /// Type-checks one function's statements and expressions and builds their closures.
    struct Compiler {
        struct Variable {
            let slot: Int
            let type: KernelSyntax.ValueType
            let constant: Bool
        }

        let functions: [String: Function]
        let returns: KernelSyntax.ValueType
        var scopes: [[String: Variable]] = [[:]]
        var slots = 0
        var cost = 0
        var callDepth = 0

        init(functions: [String: Function], returns: KernelSyntax.ValueType) {
            self.functions = functions
            self.returns = returns
        }

        mutating func compile(_ f: KernelSyntax.Function, into compiled: Function) -> Bool {
            for p in f.parameters {
                guard declare(p.name, p.type.value, constant: false) != nil else { return false }
            }
            guard let body = block(f.body) else { return false }
            compiled.body = body
            compiled.slots = slots
            return true
        }

        mutating func declare(_ name: String, _ type: KernelSyntax.ValueType, constant: Bool) -> Int? {
            guard scopes[scopes.count - 1][name] == nil, functions[name] == nil else { return nil }
            let slot = slots
            slots += 1
            scopes[scopes.count - 1][name] = Variable(slot: slot, type: type, constant: constant)
            return slot
        }

        func lookup(_ name: String) -> Variable? {
            for scope in scopes.reversed() { if let v = scope[name] { return v } }
            return nil
        }

        mutating func block(_ statements: [KernelSyntax.Statement]) -> Execute? {
            scopes.append([:])
            defer { scopes.removeLast() }
            var compiled: [Execute] = []
            for s in statements {
                guard let c = statement(s) else { return nil }
                compiled.append(c)
            }
            return { frame, mask in
                for c in compiled {
                    let live = frame.live(mask)
                    if let live, !live.contains(true) { return }
                    c(frame, live)
                }
            }
        }

        mutating func statement(_ s: KernelSyntax.Statement) -> Execute? {
            cost += 1
            switch s {
            case .block(let b):
                return block(b)
            case .declare(let type, let constant, let names):
                guard type != .sample, type != .color else { return nil }
                var parts: [Execute] = []
                for (name, initial) in names {
                    var value: Evaluate = { _ in Array(repeating: .constant(0), count: type.components) }
                    if let initial {
                        guard let (t, e) = expression(initial), t == type else { return nil }
                        value = e
                    } else if constant {
                        return nil
                    }
                    // The variable is visible from after its own declaration.
                    guard let slot = declare(name, type, constant: constant) else { return nil }
                    parts.append { frame, _ in frame.slots[slot] = value(frame) }
                }
                return { frame, mask in for p in parts { p(frame, mask) } }
            case .assign(let name, let swizzle, let op, let valueSyntax):
                guard let variable = lookup(name), !variable.constant else { return nil }
                var indices = Array(0..<variable.type.components)
                if let swizzle {
                    guard let s = Self.swizzle(swizzle, of: variable.type), Set(s).count == s.count else { return nil }
                    indices = s
                }
                let targetType: KernelSyntax.ValueType =
                    variable.type == .bool ? .bool : .vector(indices.count)
                guard var (t, value) = expression(valueSyntax) else { return nil }
                if op != "=" {
                    // `a op= b` is `a = a op b`.
                    let binary = String(op.dropLast())
                    let (read0, slot0) = (indices, variable.slot)
                    let read: Evaluate = { frame in read0.map { frame.slots[slot0][$0] } }
                    guard let (t2, combined) = Self.arithmetic(binary, (targetType, read), (t, value)) else {
                        return nil
                    }
                    (t, value) = (t2, combined)
                }
                guard t == targetType else { return nil }
                let slot = variable.slot
                let written = indices
                let compute = value
                return { frame, mask in
                    let new = compute(frame)
                    var current = frame.slots[slot]
                    for (k, i) in written.enumerated() {
                        current[i] = mask.map { KernelPlane.select($0, new[k], current[i], frame.count) } ?? new[k]
                    }
                    frame.slots[slot] = current
                }
            case .branch(let conditionSyntax, let thenSyntax, let elseSyntax):
                guard let (t, condition) = expression(conditionSyntax), t == .bool,
                    let then = block(thenSyntax)
                else { return nil }
                var otherwise: Execute?
                if let elseSyntax {
                    guard let e = block(elseSyntax) else { return nil }
                    otherwise = e
                }
                return { frame, mask in
                    switch condition(frame)[0] {
                    case .constant(let c):
                        if c != 0 { then(frame, mask) } else { otherwise?(frame, mask) }
                    case .varying(let v):
                        let yes = v.map { $0 != 0 }
                        let thenMask = mask.and(yes)
                        if thenMask.contains(true) { then(frame, thenMask) }
                        if let otherwise {
                            let elseMask = mask.and(yes.map { !$0 })
                            if elseMask.contains(true) { otherwise(frame, elseMask) }
                        }
                    }
                }
            case .give(let valueSyntax):
                guard let valueSyntax, let (t, value) = expression(valueSyntax), t == returns else { return nil }
                return { frame, mask in
                    let v = value(frame)
                    guard let mask else {
                        frame.result = v
                        frame.allDone = true
                        return
                    }
                    frame.result = zip(v, frame.result).map { KernelPlane.select(mask, $0, $1, frame.count) }
                    let done = frame.done.map { zip($0, mask).map { $0 || $1 } } ?? mask
                    frame.done = done
                    frame.allDone = !done.contains(false)
                }
            }
        }

        // MARK: Expressions

        typealias Typed = (KernelSyntax.ValueType, Evaluate)

        /// The components a swizzle reads (xyzw, rgba or stpq; at most four), nil when `type` has not them all.
        static func swizzle(_ s: String, of type: KernelSyntax.ValueType) -> [Int]? {
            guard type != .bool, type.components > 1, (1...4).contains(s.count) else { return nil }
            for set in ["xyzw", "rgba", "stpq"] {
                let letters = Array(set)
                let indices = s.compactMap { letters.firstIndex(of: $0) }
                if indices.count == s.count {
                    return indices.allSatisfy { $0 < type.components } ? indices : nil
                }
            }
            return nil
        }

        mutating func expression(_ e: KernelSyntax.Expression) -> Typed? {
            cost += 1
            switch e {
            case .number(let v):
                return (.float, { _ in [.constant(v)] })
            case .boolean(let b):
                return (.bool, { _ in [.constant(b ? 1 : 0)] })
            case .name(let n):
                guard let v = lookup(n) else { return nil }
                let slot = v.slot
                return (v.type, { frame in frame.slots[slot] })
            case .field(let base, let s):
                guard let (t, value) = expression(base), let indices = Self.swizzle(s, of: t) else { return nil }
                return (
                    .vector(indices.count),
                    { frame in
                        let v = value(frame)
                        return indices.map { v[$0] }
                    }
                )
            case .unary(let op, let operand):
                guard let (t, value) = expression(operand) else { return nil }
                switch op {
                case "!":
                    guard t == .bool else { return nil }
                    return (t, { frame in [KernelPlane.map(value(frame)[0], frame.count) { $0 != 0 ? 0 : 1 }] })
                case "-":
                    guard t != .bool else { return nil }
                    return (t, { frame in value(frame).map { KernelPlane.map($0, frame.count) { -$0 } } })
                default:
                    guard t != .bool else { return nil }
                    return (t, value)
                }
            case .binary(let op, let l, let r):
                guard let left = expression(l), let right = expression(r) else { return nil }
                return Self.binary(op, left, right)
            case .conditional(let c, let a, let b):
                guard let (ct, condition) = expression(c), ct == .bool, let (at, first) = expression(a),
                    let (bt, second) = expression(b), at == bt
                else { return nil }
                return (
                    at,
                    { frame in
                        switch condition(frame)[0] {
                        case .constant(let v): return v != 0 ? first(frame) : second(frame)
                        case .varying(let v):
                            let yes = v.map { $0 != 0 }
                            return zip(first(frame), second(frame)).map { KernelPlane.select(yes, $0, $1, frame.count) }
                        }
                    }
                )
            case .call(let name, let argumentSyntax):
                var arguments: [Typed] = []
                for a in argumentSyntax {
                    guard let t = expression(a) else { return nil }
                    arguments.append(t)
                }
                if let f = functions[name] {
                    cost += f.cost
                    callDepth = max(callDepth, f.depth)
                    guard !f.isKernel, f.parameters.map({ $0.type.value }) == arguments.map(\.0) else { return nil }
                    let evaluators = arguments.map(\.1)
                    return (
                        f.returns,
                        { frame in
                            f.call(evaluators.map { $0(frame) }, count: frame.count, x: frame.x, y: frame.y)
                        }
                    )
                }
                return Builtins.call(name, arguments)
            }
        }

        static func binary(_ op: String, _ left: Typed, _ right: Typed) -> Typed? {
            let (lt, l) = left
            let (rt, r) = right
            switch op {
            case "+", "-", "*", "/":
                return arithmetic(op, left, right)
            case "<", ">", "<=", ">=":
                guard lt == .float, rt == .float else { return nil }
                let f: (Float, Float) -> Float =
                    switch op {
                    case "<": { $0 < $1 ? 1 : 0 }
                    case ">": { $0 > $1 ? 1 : 0 }
                    case "<=": { $0 <= $1 ? 1 : 0 }
                    default: { $0 >= $1 ? 1 : 0 }
                    }
                return (.bool, { frame in [KernelPlane.map(l(frame)[0], r(frame)[0], frame.count, f)] })
            case "==", "!=":
                guard lt == rt else { return nil }
                let equal = op == "=="
                return (
                    .bool,
                    { frame in
                        let a = l(frame)
                        let b = r(frame)
                        var all: KernelPlane = .constant(1)
                        for i in a.indices {
                            let same = KernelPlane.map(a[i], b[i], frame.count) { $0 == $1 ? 1 : 0 }
                            all = KernelPlane.map(all, same, frame.count) { $0 * $1 }
                        }
                        return [equal ? all : KernelPlane.map(all, frame.count) { 1 - $0 }]
                    }
                )
            case "&&", "||", "^^":
                guard lt == .bool, rt == .bool else { return nil }
                let f: (Float, Float) -> Float =
                    switch op {
                    case "&&": { $0 != 0 && $1 != 0 ? 1 : 0 }
                    case "||": { $0 != 0 || $1 != 0 ? 1 : 0 }
                    default: { ($0 != 0) != ($1 != 0) ? 1 : 0 }
                    }
                return (.bool, { frame in [KernelPlane.map(l(frame)[0], r(frame)[0], frame.count, f)] })
            default:
                return nil
            }
        }

        /// + - * / component by component, a float operand standing for every component of a vector one.
        static func arithmetic(_ op: String, _ left: Typed, _ right: Typed) -> Typed? {
            let (lt, l) = left
            let (rt, r) = right
            guard lt != .bool, rt != .bool, lt == rt || lt == .float || rt == .float else { return nil }
            let type = lt == .float ? rt : lt
            let n = type.components
            func run(_ f: @escaping (Float, Float) -> Float) -> Typed {
                (
                    type,
                    { frame in
                        let a = l(frame)
                        let b = r(frame)
                        return (0..<n).map { i in
                            KernelPlane.map(a.count == 1 ? a[0] : a[i], b.count == 1 ? b[0] : b[i], frame.count, f)
                        }
                    }
                )
            }
            switch op {
            case "+": return run { $0 + $1 }
            case "-": return run { $0 - $1 }
            case "*": return run { $0 * $1 }
            case "/": return run { $0 / $1 }
            default: return nil
            }
        }
    }

    // MARK: Running

    /// The kernel's output over one block, its parameters bound to `arguments` (one value per parameter; a
    /// `__sample` parameter's value is the block's input of that index).
    func run(_ block: PixelFunction.Block, arguments: [KernelArgument]) -> PixelFunction.Planes {
        let values: [Value] = arguments.map { a in
            switch a {
            case .uniform(let v): v.map { .constant($0) }
            case .image(let i):
                [
                    .varying(block.inputs[i].red), .varying(block.inputs[i].green), .varying(block.inputs[i].blue),
                    .varying(block.inputs[i].alpha),
                ]
            }
        }
        let n = block.count
        let v = kernel.call(values, count: n, x: block.x, y: block.y)
        return PixelFunction.Planes(
            red: v[0].materialised(n), green: v[1].materialised(n), blue: v[2].materialised(n),
            alpha: v[3].materialised(n))
    }
}

/// A kernel parameter's value when it is applied: numbers the same for every pixel, or the index of an input image.
enum KernelArgument: Sendable {
    case uniform([Float])
    case image(Int)
}
