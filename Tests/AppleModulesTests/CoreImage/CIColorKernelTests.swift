import CoreImage
import Foundation
import OpenVision
import OpenVisionTestSupport
import Testing

/// `CIColorKernel`: WeScan's adaptive-threshold kernel on a photo against numpy, other kernels of the subset against
/// plain loops of the same formulas (Core Image's semantics: linear sRGB, premultiplied), laziness, and nil from bad
/// sources and arguments.
@Suite struct CIColorKernelTests {
    /// WeScan's `CIImage+Utils.swift` kernel, as published.
    static let wescan = """
        kernel vec4 color(__sample pixel, float inputEdgeO, float inputEdge1)
        {
            float luma = dot(pixel.rgb, vec3(0.2126, 0.7152, 0.0722));
            float threshold = smoothstep(inputEdgeO, inputEdge1, luma);
            return vec4(threshold, threshold, threshold, 1.0);
        }
        """

    static func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func sRGB(_ v: Double) -> Double {
        let c = min(max(v, 0), 1)
        return c <= 0.003_130_8 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }

    /// An image's pixels as RGBA bytes, rows top first.
    static func render(_ image: CIImage) throws -> (bytes: [UInt8], width: Int, height: Int) {
        let cg = try #require(CIContext(options: nil).createCGImage(image, from: image.extent))
        return (CoreImageTests.rgba(cg), cg.width, cg.height)
    }

    /// The kernel on a 500×500 photo, rendered as WeScan renders it. Expected values (rows top first), from
    /// `/usr/bin/python3 -c "import cv2,numpy as np; x=cv2.imread('giraffe.jpg')[...,::-1]/255.0;
    /// l=np.where(x<=0.04045,x/12.92,((x+0.055)/1.055)**2.4); t=np.clip((l@[0.2126,0.7152,0.0722]-0.25)/0.5,0,1);
    /// t=t*t*(3-2*t); o=np.round(255*np.where(t<=0.0031308,12.92*t,1.055*t**(1/2.4)-0.055));
    /// ys=[10,90,170,250,330,410,490]; print(o.mean(), (o==0).sum(), (o==255).sum(), o[np.ix_(ys,ys)])"`:
    /// linearise, the kernel, encode back to sRGB. Every pixel is also held to a plain loop of the same formula.
    @Test func weScanThresholdMatchesNumpy() throws {
        let url = Fixtures.sharedImage("giraffe.jpg")
        let input = try #require(CIImage(contentsOf: url))
        let kernel = try #require(CIColorKernel(source: Self.wescan))
        #expect(kernel.name == "color")
        let arguments: [Any] = [input, 0.25, 0.75]
        let output = try #require(kernel.apply(extent: input.extent, arguments: arguments))
        #expect(output.extent == input.extent)
        let (bytes, width, height) = try Self.render(output)
        #expect(width == 500 && height == 500)
        let expectedGrid: [[Double]] = [
            [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 206, 255, 0], [0, 0, 0, 0, 74, 0, 0], [0, 0, 0, 0, 0, 251, 0],
            [0, 0, 0, 0, 0, 0, 0], [0, 0, 117, 0, 0, 117, 162], [0, 0, 250, 168, 189, 0, 0],
        ]
        let ys = [10, 90, 170, 250, 330, 410, 490]
        for (i, row) in ys.enumerated() {
            for (j, column) in ys.enumerated() {
                let v = Double(bytes[(row * width + column) * 4])
                #expect(abs(v - expectedGrid[i][j]) <= 1, "(\(row), \(column)): \(v)")
            }
        }
        let reds = stride(from: 0, to: bytes.count, by: 4).map { bytes[$0] }
        let mean = Double(reds.reduce(0) { $0 + Int($1) }) / Double(reds.count)
        #expect(abs(mean - 36.710788) < 0.05, "\(mean)")
        #expect(abs(reds.filter { $0 == 0 }.count - 174_675) < 250)
        #expect(abs(reds.filter { $0 == 255 }.count - 4767) < 50)
        // Gray and opaque everywhere, and within 1/255 of a plain loop of the formula at every pixel.
        let source = try VisionImage(contentsOf: url, orientation: .up)
        let rgb = try source.pixels(in: .rgb8)
        var worst = 0.0
        var notGray = 0
        rgb.data.withUnsafeBytes { p in
            for row in 0..<height {
                for column in 0..<width {
                    let s = row * rgb.bytesPerRow + column * 3
                    let l = (0..<3).map { Self.linear(Double(p[s + $0]) / 255) }
                    let luma = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
                    let t = min(max((luma - 0.25) / 0.5, 0), 1)
                    let expected = 255 * Self.sRGB(t * t * (3 - 2 * t))
                    let o = (row * width + column) * 4
                    worst = max(worst, abs(Double(bytes[o]) - expected))
                    if bytes[o] != bytes[o + 1] || bytes[o] != bytes[o + 2] || bytes[o + 3] != 255 { notGray += 1 }
                }
            }
        }
        #expect(notGray == 0)
        #expect(worst <= 1, "largest difference \(worst)")
    }

    /// if / else if / else on varying conditions, swizzle reads and writes, compound assignment, the ternary, a
    /// helper function, `vec2` and `__color` arguments, `mix`: against a plain loop of the same statements.
    @Test func controlFlowSwizzlesAndArguments() throws {
        let source = """
            // Rec. 601 luma of a colour.
            float lum(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

            /* Three bands of luma, each treated its own way, then a tint. */
            kernel vec4 bands(__sample s, vec2 range, __color tint)
            {
                vec4 c = s;
                float l = lum(c.rgb);
                if (l < range.x) {
                    c.rgb = vec3(0.0);
                } else if (l > range.y) {
                    c.gb = c.bg * 0.5;
                } else {
                    c.r += 0.25;
                    c.b *= 2.0;
                }
                const float half = 0.5;
                c.a = l > half ? 1.0 : c.a;
                return mix(c, tint, 0.25);
            }
            """
        let kernel = try #require(CIColorKernel(source: source))
        #expect(kernel.name == "bands")
        let (buffer, bgra) = try CoreImageTests.frame()
        let input = CIImage(cvPixelBuffer: buffer)
        let tint = CIColor(red: 0.2, green: 0.4, blue: 0.8)
        let output = try #require(
            kernel.apply(extent: input.extent, arguments: [input, CIVector(x: 0.1, y: 0.3), tint]))
        let (bytes, width, height) = try Self.render(output)
        let t = [0.2, 0.4, 0.8].map(Self.linear)
        var worst = 0.0
        for i in 0..<(width * height) {
            var c = [2, 1, 0].map { Self.linear(Double(bgra[i * 4 + $0]) / 255) }
            let l = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
            if l < 0.1 {
                c = [0, 0, 0]
            } else if l > 0.3 {
                (c[1], c[2]) = (c[2] * 0.5, c[1] * 0.5)
            } else {
                c[0] += 0.25
                c[2] *= 2
            }
            for k in 0..<3 {
                let expected = 255 * Self.sRGB(c[k] * 0.75 + t[k] * 0.25)
                worst = max(worst, abs(Double(bytes[i * 4 + k]) - expected))
            }
            #expect(bytes[i * 4 + 3] == 255)
        }
        #expect(worst <= 1, "largest difference \(worst)")
    }

    /// The built-ins, on varying and uniform values, against Swift's own functions.
    @Test func builtinsMatchPlainFunctions() throws {
        let source = """
            kernel vec4 builtins(__sample s, float k, vec3 w)
            {
                vec3 c = s.rgb;
                float r = clamp(pow(c.r, 2.0) + fract(c.g * 3.0) * step(0.5, c.b), 0.0, 1.0);
                float g = abs(sin(c.r * 6.0)) * max(c.g, 0.2) * 0.5 + mod(c.b * 5.0, 0.3);
                float b = length(normalize(c + vec3(0.01)) * 0.5) + 0.25 * min(sqrt(c.b), exp2(-c.r));
                float d = distance(c.xy, w.zy) + dot(cross(c, w), vec3(1.0)) * 0.0 + sign(-k) * 0.0;
                return vec4(r, g, b * k, 1.0) * (d > -1.0 ? 1.0 : 0.0);
            }
            """
        let kernel = try #require(CIColorKernel(source: source))
        let (buffer, bgra) = try CoreImageTests.frame(seed: 5)
        let input = CIImage(cvPixelBuffer: buffer)
        let output = try #require(
            kernel.apply(extent: input.extent, arguments: [input, NSNumber(value: 0.8), CIVector(x: 1, y: 2, z: 3)]))
        let (bytes, width, height) = try Self.render(output)
        var worst = 0.0
        for i in 0..<(width * height) {
            let c = [2, 1, 0].map { Self.linear(Double(bgra[i * 4 + $0]) / 255) }
            func fract(_ v: Double) -> Double { v - v.rounded(.down) }
            func mod(_ x: Double, _ y: Double) -> Double { x - y * (x / y).rounded(.down) }
            let r = min(max(c[0] * c[0] + fract(c[1] * 3) * (c[2] < 0.5 ? 0 : 1), 0), 1)
            let g = abs(sin(c[0] * 6)) * max(c[1], 0.2) * 0.5 + mod(c[2] * 5, 0.3)
            let b = 0.5 + 0.25 * min(c[2].squareRoot(), pow(2, -c[0]))
            let expected = [r, g, b * 0.8].map { 255 * Self.sRGB($0) }
            for k in 0..<3 { worst = max(worst, abs(Double(bytes[i * 4 + k]) - expected[k])) }
        }
        #expect(worst <= 1, "largest difference \(worst)")
    }

    /// `destCoord()` is the pixel centre in Core Image's coordinates (lower-left origin); a kernel without images
    /// makes whatever extent it is given.
    @Test func destCoordIsLowerLeftPixelCentres() throws {
        let kernel = try #require(
            CIColorKernel(
                source: "kernel vec4 ramp() { vec2 p = destCoord(); return vec4(p.x / 8.0, p.y / 4.0, 0.0, 1.0); }"
            ))
        let image = try #require(kernel.apply(extent: CGRect(x: 0, y: 0, width: 8, height: 4), arguments: []))
        let (bytes, width, height) = try Self.render(image)
        #expect(width == 8 && height == 4)
        for row in 0..<height {
            for column in 0..<width {
                let x = (Double(column) + 0.5) / 8
                let y = (Double(height - 1 - row) + 0.5) / 4
                let o = (row * width + column) * 4
                #expect(abs(Double(bytes[o]) - 255 * Self.sRGB(x)) <= 1)
                #expect(abs(Double(bytes[o + 1]) - 255 * Self.sRGB(y)) <= 1)
            }
        }
    }

    /// Outside its input's extent a sample is transparent; the output covers the extent given, lazily: nothing
    /// runs until it renders, then the kernel is one pass.
    @Test func samplesOutsideTheInputAreTransparentAndApplyIsLazy() throws {
        let kernel = try #require(
            CIColorKernel(source: "kernel vec4 a(__sample s) { return vec4(s.a, 0.0, 0.0, 1.0); }"))
        let white = CIImage(color: .white).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let image = try #require(kernel.apply(extent: CGRect(x: 0, y: 0, width: 8, height: 4), arguments: [white]))
        #expect(image.extent == CGRect(x: 0, y: 0, width: 8, height: 4))
        let (pixels, passes) = try image.recipe.renderReporting(in: image.extent)
        #expect(passes.contains("pixel function a 8×4"), "\(passes)")
        let bytes = [UInt8](pixels.data)
        for row in 0..<4 {
            for column in 0..<8 { #expect(bytes[(row * 8 + column) * 4] == (column < 4 ? 255 : 0)) }
        }
    }

    /// Results that are not numbers render clamped (NaN as 0, infinities to the ends), a NaN alpha as transparent.
    @Test func nonFiniteResultsRenderClamped() throws {
        let extent = CGRect(x: 0, y: 0, width: 3, height: 2)
        let image = CIImage(color: .white).cropped(to: extent)
        let colours = try #require(
            CIColorKernel(
                source: """
                    kernel vec4 odd(__sample s) {
                        float inf = 1.0 / (s.r - s.r);
                        return vec4(sqrt(-1.0 - s.r), inf, -inf, 1.0);
                    }
                    """))
        let (bytes, _, _) = try Self.render(try #require(colours.apply(extent: extent, arguments: [image])))
        #expect(Array(bytes.prefix(4)) == [0, 255, 0, 255])
        let alpha = try #require(
            CIColorKernel(source: "kernel vec4 nan(__sample s) { return vec4(s.rgb, log(-s.a)); }"))
        let (clear, _, _) = try Self.render(try #require(alpha.apply(extent: extent, arguments: [image])))
        #expect(clear.allSatisfy { $0 == 0 })
    }

    /// Every kernel of a source, in order, with the helpers before it.
    @Test func makeKernelsGivesEveryKernel() throws {
        let kernels = try #require(
            CIKernel.makeKernels(
                source: """
                    vec4 gray(vec4 c) { float l = (c.r + c.g + c.b) / 3.0; return vec4(l, l, l, c.a); }
                    kernel vec4 first(__sample s) { return gray(s); }
                    kernel vec4 second(__sample s, float k) { return s * k; }
                    """))
        #expect(kernels.map(\.name) == ["first", "second"])
        #expect(kernels.allSatisfy { $0 is CIColorKernel })
        #expect(CIKernel(source: "kernel vec4 k(__sample s) { return s; }")?.name == "k")
    }

    /// A source that must give nil, and why (the test's name shows the reason, not the text).
    struct BadSource: CustomTestStringConvertible, Sendable {
        let reason: String
        let text: String
        var testDescription: String { reason }
        init(_ reason: String, _ text: String) {
            self.reason = reason
            self.text = text
        }
    }

    static let badSources: [BadSource] = [
        BadSource("empty", ""),
        BadSource("no semicolon", "kernel vec4 k(__sample s) { return s }"),
        BadSource("unknown function", "kernel vec4 k(__sample s) { return frobnicate(s); }"),
        BadSource("kernel returning vec3", "kernel vec3 k(__sample s) { return s.rgb; }"),
        BadSource("return type", "kernel vec4 k(__sample s) { return s.rgb; }"),
        BadSource("declaration type", "kernel vec4 k(__sample s) { float x = s.xy; return s; }"),
        BadSource("undeclared", "kernel vec4 k(__sample s) { return t; }"),
        BadSource("constant assigned", "kernel vec4 k(__sample s) { const float x = 1.0; x = 2.0; return s; }"),
        BadSource("mixed swizzle sets", "kernel vec4 k(__sample s) { return s.rgbq; }"),
        BadSource("repeated swizzle write", "kernel vec4 k(__sample s) { s.rr = vec2(1.0); return s; }"),
        BadSource("too few components", "kernel vec4 k(__sample s) { return vec4(s.rgb); }"),
        BadSource("condition not bool", "kernel vec4 k(__sample s) { if (s.r) { return s; } return s; }"),
        BadSource("loop", "kernel vec4 k(__sample s) { for (float i = 0.0; i < 9.0; i += 1.0) {} return s; }"),
        BadSource("general kernel", "kernel vec4 k(sampler s) { return sample(s, samplerCoord(s)); }"),
        BadSource("preprocessor", "#define X 1\nkernel vec4 k(__sample s) { return s; }"),
        BadSource("unterminated comment", "kernel vec4 k(__sample s) { return s; } /* unterminated"),
        BadSource("no kernel", "vec4 helper(vec4 c) { return c; }"),
        BadSource(
            "helper used before it is declared",
            "kernel vec4 k(__sample s) { return later(s); } vec4 later(vec4 c) { return c; }"),
        BadSource(
            "defined twice", "kernel vec4 k(__sample s) { return s; } kernel vec4 k(__sample s) { return s; }"),
        BadSource("100,000 open parentheses", String(repeating: "(", count: 100_000)),
        BadSource(
            "5,000 nested parentheses",
            "kernel vec4 k(__sample s) { return " + String(repeating: "(", count: 5000) + "s"
                + String(repeating: ")", count: 5000) + "; }"),
        BadSource(
            "a sum of 100,000 terms",
            "kernel vec4 k(__sample s) { return s" + String(repeating: " + s", count: 100_000) + "; }"),
        // Each helper calls the one before twice: 2^40 calls if it were run.
        BadSource(
            "helpers doubling 40 times",
            (1...40).map { "float f\($0)(float x) { return f\($0 - 1)(x) + f\($0 - 1)(x); }\n" }.joined(
                separator: "", prefix: "float f0(float x) { return x; }\n")
                + "kernel vec4 k(__sample s) { return s * f40(1.0); }"),
        BadSource(
            "helper calls 40 deep",
            (1...40).map { "float f\($0)(float x) { return f\($0 - 1)(x); }\n" }.joined(
                separator: "", prefix: "float f0(float x) { return x; }\n")
                + "kernel vec4 k(__sample s) { return s * f40(1.0); }"),
    ]

    /// Sources that do not parse, do not type-check, or leave the subset are nil, without a crash or a hang.
    @Test(arguments: badSources)
    func badSourcesAreNil(source: BadSource) {
        #expect(CIColorKernel(source: source.text) == nil)
        #expect(CIKernel.makeKernels(source: source.text) == nil)
    }

    /// A helper chain within the limits compiles and runs: f8(x) = x + 8.
    @Test func helperChainsWithinTheLimitsRun() throws {
        let helpers = (1...8).map { "float f\($0)(float x) { return f\($0 - 1)(x) + 1.0; }\n" }.joined(
            separator: "", prefix: "float f0(float x) { return x; }\n")
        let kernel = try #require(
            CIColorKernel(source: helpers + "kernel vec4 k() { return vec4(f8(-7.5), 0.0, 0.0, 1.0); }"))
        let image = try #require(kernel.apply(extent: CGRect(x: 0, y: 0, width: 2, height: 2), arguments: []))
        let (bytes, _, _) = try Self.render(image)
        // 0.5 linear is 188 in sRGB.
        #expect(bytes[0] == UInt8((255 * Self.sRGB(0.5)).rounded()))
    }

    /// Arguments that do not match the parameters in count or type give nil.
    @Test func wrongArgumentsAreNil() throws {
        let kernel = try #require(
            CIColorKernel(source: "kernel vec4 k(__sample s, float f, vec2 v, __color c) { return s * f; }"))
        let image = CIImage(color: .white).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        let extent = image.extent
        let v = CIVector(x: 1, y: 2)
        #expect(kernel.apply(extent: extent, arguments: [image, 1.0, v, CIColor.red]) != nil)
        #expect(kernel.apply(extent: extent, arguments: [image, 1.0, v]) == nil)
        #expect(kernel.apply(extent: extent, arguments: [image, 1.0, v, CIColor.red, 2.0]) == nil)
        #expect(kernel.apply(extent: extent, arguments: [1.0, 1.0, v, CIColor.red]) == nil)
        #expect(kernel.apply(extent: extent, arguments: [image, "1.0", v, CIColor.red]) == nil)
        #expect(kernel.apply(extent: extent, arguments: [image, 1.0, CIVector(x: 1, y: 2, z: 3), CIColor.red]) == nil)
        #expect(kernel.apply(extent: extent, arguments: [image, 1.0, v, v]) == nil)
    }
}

extension Array where Element == String {
    /// The strings after `prefix`, joined.
    fileprivate func joined(separator: String, prefix: String) -> String { prefix + joined(separator: separator) }
}
