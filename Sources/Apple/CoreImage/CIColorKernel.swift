import Foundation
import OpenVision

/// Core Image's colour kernel: a `kernel vec4 name(…)` routine of the Core Image Kernel Language that computes each
/// output pixel from the input pixels at the same place. The source is parsed, type-checked and compiled once, by
/// `init(source:)` (nil when it is not valid, or uses something outside the subset below); `apply(extent:arguments:)`
/// makes a lazy image that runs the kernel on blocks of pixels when a `CIContext` renders it.
///
/// The subset (GLSL's, as Core Image's): parameter types `__sample`, `__color`, `float`, `vec2`, `vec3`, `vec4`;
/// local `float`, `vec2`–`vec4` and `bool` variables (`const` too), assignments (`=`, `+=`, `-=`, `*=`, `/=`, and to
/// swizzles such as `c.rgb`), `if` / `else`, `return`, `?:`, arithmetic with float operands broadcast over vectors,
/// comparisons, `&&` `||` `^^` `!`, swizzles (`.xyzw`, `.rgba`, `.stpq`), constructors `vec2`–`vec4`, `float` and
/// `bool`, helper functions declared before the kernel, and the built-ins `dot`, `smoothstep`, `step`, `mix`, `clamp`,
/// `min`, `max`, `abs`, `sign`, `floor`, `ceil`, `fract`, `mod`, `pow`, `sqrt`, `inversesqrt`, `exp`, `exp2`, `log`,
/// `log2`, `sin`, `cos`, `tan`, `asin`, `acos`, `atan` (one or two arguments), `radians`, `degrees`, `length`,
/// `distance`, `normalize`, `cross`, and Core Image's `premultiply`, `unpremultiply`, `compare` and `destCoord()`.
/// Integer literals are floats. Not here: loops, `int`, matrices, arrays, `sampler` parameters and `sample()`.
///
/// Semantics are Core Image's: the kernel works in linear sRGB with premultiplied alpha (an sRGB image's samples are
/// linearised before the kernel, its results encoded back to sRGB), outside an input's extent its samples are
/// transparent (0, 0, 0, 0), and results are clamped as a render clamps them (alpha to 0...1, colour to 0...alpha;
/// here when they are encoded back to sRGB, so a filter applied after a kernel sees them clamped too).
open class CIColorKernel: CIKernel, @unchecked Sendable {
    /// The image the kernel makes over `extent` (transparent outside it) from `args`, one per kernel parameter in
    /// order: a `CIImage` for `__sample`, a number (`Double`, `Float`, `CGFloat`, `Int`, `NSNumber`) for `float`, a
    /// `CIVector` of n values for `vecn`, a `CIColor` for `__color`. Nil when the count or a type does not match.
    open func apply(extent: CGRect, arguments args: [Any]) -> CIImage? {
        Self.image(of: program, extent: extent, arguments: args)
    }

    /// The lazy image of `program` applied to `args` over `extent`.
    static func image(of program: KernelProgram, extent: CGRect, arguments args: [Any]) -> CIImage? {
        let parameters = program.kernel.parameters
        guard args.count == parameters.count else { return nil }
        var inputs: [ImageRecipe] = []
        var bound: [KernelArgument] = []
        for (parameter, value) in zip(parameters, args) {
            switch parameter.type {
            case .sample:
                guard let image = value as? CIImage else { return nil }
                bound.append(.image(inputs.count))
                inputs.append(image.recipe)
            case .color:
                guard let c = value as? CIColor else { return nil }
                // Core Image matches a colour to the working space: linear, premultiplied.
                let a = Float(c.alpha)
                let rgb = [c.red, c.green, c.blue].map { PixelFunction.linear(Float($0)) * a }
                bound.append(.uniform(rgb + [a]))
            case .float:
                guard let v = number(value) else { return nil }
                bound.append(.uniform([v]))
            case .vec2, .vec3, .vec4:
                guard let v = value as? CIVector, v.count == parameter.type.components else { return nil }
                bound.append(.uniform((0..<v.count).map { Float(v.value(at: $0)) }))
            case .bool:
                return nil
            }
        }
        let arguments = bound
        let function = PixelFunction(name: program.kernel.name, workingSpace: .linearSRGB) { block in
            program.run(block, arguments: arguments)
        }
        return CIImage(recipe: ImageRecipe(pixelFunction: function, inputs: inputs, extent: extent))
    }

    /// A number argument as a float, nil for anything else.
    static func number(_ value: Any) -> Float? {
        switch value {
        case let v as Double: Float(v)
        case let v as Float: v
        case let v as CGFloat: Float(v)
        case let v as Int: Float(v)
        case let v as NSNumber: v.floatValue
        default: nil
        }
    }
}
