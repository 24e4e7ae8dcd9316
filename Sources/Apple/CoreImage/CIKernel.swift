import Foundation
import OpenVision

/// Core Image's kernel: a routine in the Core Image Kernel Language, compiled when it is made and run per output
/// pixel when an image it made is rendered. Here every kernel is a colour kernel (see `CIColorKernel` for the
/// language subset and the semantics); sources with `sampler` parameters (general and warp kernels) are nil.
open class CIKernel: @unchecked Sendable {
    let program: KernelProgram

    init(program: KernelProgram) { self.program = program }

    /// The first kernel routine of `source` (helper functions before it are allowed); nil when the source does not
    /// parse or type-check, or uses something outside the subset `CIColorKernel` describes.
    public convenience init?(source string: String) {
        guard let program = KernelProgram.compile(string)?.first else { return nil }
        self.init(program: program)
    }

    /// Every kernel routine of `source`, in order, each a `CIColorKernel`; nil as `init(source:)`.
    open class func makeKernels(source string: String) -> [CIKernel]? {
        KernelProgram.compile(string)?.map { CIColorKernel(program: $0) }
    }

    /// The kernel routine's name (the function's name in the source).
    open var name: String { program.kernel.name }

    /// The image the kernel makes over `extent` from `args` (see `CIColorKernel.apply(extent:arguments:)`); a colour
    /// kernel reads each input only where it writes, so `callback` (the region of an input a region of the output
    /// needs) is not called.
    open func apply(
        extent: CGRect, roiCallback callback: @escaping CIKernelROICallback, arguments args: [Any]
    ) -> CIImage? {
        CIColorKernel.image(of: program, extent: extent, arguments: args)
    }
}

/// The region of input `index` a kernel needs to make `destRect` of its output.
public typealias CIKernelROICallback = (_ index: Int32, _ destRect: CGRect) -> CGRect
