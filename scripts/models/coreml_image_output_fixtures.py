#!/usr/bin/env python3
"""Core ML models whose outputs are images, for the image-output tests (Tests/VisionCompatTests/CoreMLImageOutputTests.swift,
Tests/OpenVisionTests/Models/CoreMLImageOutputConversionTests.swift, Tests/OpenVisionCLITests/CoreMLCLITests.swift).

Run in a venv with coremltools==9.0 numpy (never in scripts/setup or CI):

    /work/venvs/coremltools/bin/python scripts/models/coreml_image_output_fixtures.py

Writes Tests/Fixtures/coreml/image-outputs/:

  ImageRGB.mlmodel       NeuralNetwork (NeuralNetworkBuilder): RGB image in (5 x 4), a 1 x 1 convolution with bias,
                         RGB image out (5 x 4)
  ImageBGR.mlmodel       the same network with a BGR image out (the tensor's channels are blue, green, red)
  ImageRGBND.mlmodel     ImageRGB as an N-D network (rank-4 image mapping)
  ImageRGBFlexible.mlmodel  ImageRGB with image size ranges (1...unbounded) on the input and the output
  ImageWrongSize.mlmodel ImageRGB with the output declared 6 x 4 (the network gives 5 x 4): refused
  ImageGray.mlmodel      GRAYSCALE image in and out (5 x 4), y = 1.5 x - 20.2 as a 1 x 1 convolution
  ImageProgram.mlpackage ML Program (MIL builder, ct.convert, iOS 16, fp32): RGB image in, y = x * s[c] + b[c] with
                         an ct.ImageType output (RGB image out; the program's output stays a [1, 3, H, W] fp32 tensor)
  ImageProgramBGR16.mlpackage  ImageProgram in fp16 (the default precision) with BGR image input and output
  ImageProgramGray.mlpackage the same, GRAYSCALE in and out: y = 300.3 - 1.7 x
  ImageProgram.mil, ImageProgramGray.mil  the programs as model.mil text (the form of an Xcode-compiled .mlmodelc)
  expected.json          per model: the input pixels, the output tensor (float32, [1, C, H, W], channels in the
                         tensor's order) and the output image's pixels as Core ML gives them (clamped to 0...255
                         and rounded; RGB triples for colour, one byte for grayscale)

coremltools' passes fuse ImageProgram's mul + add into batch_norm (variance 1, epsilon 1e-5): the file computes
y / sqrt(1 + 1e-5), within 0.002 of the source math below — less than the tie margin and the tests' tolerance.

coremltools cannot run Core ML models off macOS: the expected values are each model's math in numpy (the one-liner is in
expected.json under "reference"). Core ML takes an image output's float values as 0...255 pixel values, without scale
or bias (coremltools' docs-guides/source/image-inputs.md: the "x + 100" blanching model). The inputs are chosen so the
outputs of every model cover values below 0 and above 255 (clamping) and no value in 0...255 lies within 0.01 of a .5 tie (rounding).
"""
import json, os, shutil, warnings, logging
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
import numpy as np
import coremltools as ct
from coremltools.models import datatypes
from coremltools.models.neural_network import NeuralNetworkBuilder
from coremltools.proto import FeatureTypes_pb2 as ft
from coremltools.converters.mil import Builder as mb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/coreml/image-outputs")
W, H = 5, 4
rng = np.random.default_rng(20261126)
EXPECTED = {}


def pixels(channels):
    """Input pixels [C, H, W] as uint8 values."""
    return rng.integers(0, 256, size=(channels, H, W)).astype(np.float32)


def image_bytes(y):
    """Core ML's image of a float tensor [C, H, W]: clamp to 0...255, round."""
    return np.clip(np.rint(y), 0, 255).astype(np.uint8)


def has_ties(y):
    """Whether an output inside 0...255 lies within 0.01 of a .5 tie (where round-half rules would differ)."""
    inside = (y > -0.5) & (y < 255.5)
    return bool(np.any(inside & (np.abs(y - np.floor(y) - 0.5) <= 0.01)))


def tie_free(make_input, f):
    """The first input (of 1000 draws) whose outputs have no ties and reach below 0 and above 255, and the outputs."""
    for _ in range(1000):
        x = make_input()
        y = f(x)
        if not has_ties(y) and y.min() < -0.5 and y.max() > 255.5:
            return x, y
    raise SystemExit("no tie-free input found")


def set_image(feature, space):
    feature.type.imageType.width = W
    feature.type.imageType.height = H
    feature.type.imageType.colorSpace = space


def network(name, channels, weights, bias, out_space, in_space, edit=None, nd=False):
    """A 1 x 1 convolution from an image input to an image output (spec.description.output[0].type.imageType);
    `edit(spec)` changes the spec before it is saved; `nd`: an N-D network (rank-4 image mapping, no rank-5 blobs)."""
    shape = (1, channels, H, W) if nd else (channels, H, W)
    b = NeuralNetworkBuilder([("image", datatypes.Array(*shape))], [("styled", None)], disable_rank5_shape_mapping=nd)
    b.add_convolution("conv", kernel_channels=channels, output_channels=weights.shape[0], height=1, width=1,
                      stride_height=1, stride_width=1, border_mode="valid", groups=1,
                      W=weights.T.reshape(1, 1, channels, weights.shape[0]), b=bias, has_bias=True,
                      input_name="image", output_name="styled")
    spec = b.spec
    spec.specificationVersion = 4
    set_image(spec.description.input[0], in_space)
    set_image(spec.description.output[0], out_space)
    spec.description.output[0].shortDescription = "the filtered image"
    if edit:
        edit(spec)
    ct.utils.save_spec(spec, os.path.join(OUT, name + ".mlmodel"))


def record(name, kind, x, y, out_space, reference):
    assert not has_ties(y)
    img = image_bytes(y)
    if out_space == "BGR":
        img = img[::-1]             # the tensor holds blue, green, red; the image's pixels are RGB
    EXPECTED[name] = {
        "kind": kind, "width": W, "height": H, "outputColorSpace": out_space,
        "input": x.astype(np.uint8).transpose(1, 2, 0).ravel().tolist(),          # H x W x C (RGB or gray) bytes
        "tensor": [float(f"{v:.9g}") for v in y.ravel()],                           # [C, H, W]
        "pixels": img.transpose(1, 2, 0).ravel().tolist(),                          # H x W x (RGB or gray) bytes
        "reference": reference,
    }


def networks():
    w = np.array([[1.23, -0.47, 0.31], [0.21, 0.93, 0.11], [-0.71, 0.43, 1.57]], np.float32)
    bias = np.array([-40.3, 12.7, 30.2], np.float32)
    x, y = tie_free(lambda: pixels(3), lambda x: (np.einsum("oc,chw->ohw", w.astype(np.float64), x) + bias.reshape(3, 1, 1)).astype(np.float32))
    network("ImageRGB", 3, w, bias, ft.ImageFeatureType.RGB, ft.ImageFeatureType.RGB)
    record("ImageRGB", "neuralNetwork", x, y, "RGB", "y = einsum('oc,chw->ohw', w, x) + bias[:, None, None]; pixels = clip(rint(y), 0, 255)")
    # BGR out: the network's tensor is (blue, green, red).
    network("ImageBGR", 3, w, bias, ft.ImageFeatureType.BGR, ft.ImageFeatureType.RGB)
    record("ImageBGR", "neuralNetwork", x, y, "BGR", "y as ImageRGB; the image's R, G, B are y[2], y[1], y[0]")

    # Flexible sizes (image size ranges 1...∞ on the input and the output): converted at the default 5 x 4, the
    # output's height and width symbolic; the same pixels as ImageRGB.
    def flexible(spec):
        for f in (spec.description.input[0], spec.description.output[0]):
            r = f.type.imageType.imageSizeRange
            r.widthRange.lowerBound, r.widthRange.upperBound = 1, -1
            r.heightRange.lowerBound, r.heightRange.upperBound = 1, -1
    network("ImageRGBFlexible", 3, w, bias, ft.ImageFeatureType.RGB, ft.ImageFeatureType.RGB, edit=flexible)
    record("ImageRGBFlexible", "neuralNetwork", x, y, "RGB", "as ImageRGB")

    # The same as an N-D network (specification 4 with rank-4 image mapping): the blob is [1, 3, H, W] itself.
    network("ImageRGBND", 3, w, bias, ft.ImageFeatureType.RGB, ft.ImageFeatureType.RGB, nd=True)
    record("ImageRGBND", "neuralNetwork", x, y, "RGB", "as ImageRGB")

    # An output declared 6 x 4 that the network computes 5 x 4: the converter refuses it (invalidValue).
    network("ImageWrongSize", 3, w, bias, ft.ImageFeatureType.RGB, ft.ImageFeatureType.RGB,
            edit=lambda spec: setattr(spec.description.output[0].type.imageType, "width", W + 1))

    g, yg = tie_free(lambda: pixels(1), lambda g: (g.astype(np.float64) * 1.5 - 20.2).astype(np.float32))
    network("ImageGray", 1, np.array([[1.5]], np.float32), np.array([-20.2], np.float32),
            ft.ImageFeatureType.GRAYSCALE, ft.ImageFeatureType.GRAYSCALE)
    record("ImageGray", "neuralNetwork", g, yg, "GRAYSCALE", "y = 1.5 x - 20.2; pixels = clip(rint(y), 0, 255)")


def programs():
    scale = np.array([1.31, 0.553, -0.807], np.float32).reshape(1, 3, 1, 1)
    shift = np.array([-20.4, 70.3, 230.1], np.float32).reshape(1, 3, 1, 1)

    @mb.program(input_specs=[mb.TensorSpec(shape=(1, 3, H, W))], opset_version=ct.target.iOS16)
    def prog(x):
        return mb.add(x=mb.mul(x=x, y=scale), y=shift, name="filtered")

    # What the PyTorch frontend does with outputs=[ct.ImageType(...)] (torch/converter.py: set_output_types); ct.convert
    # of a MIL program does not apply `outputs` itself.
    prog.functions["main"].set_output_types([ct.ImageType(name="filtered", color_layout=ct.colorlayout.RGB)])
    model = ct.convert(prog, convert_to="mlprogram", compute_precision=ct.precision.FLOAT32,
                       minimum_deployment_target=ct.target.iOS16,
                       inputs=[ct.ImageType(name="x", shape=(1, 3, H, W), color_layout=ct.colorlayout.RGB)],
                       outputs=[ct.ImageType(name="filtered", color_layout=ct.colorlayout.RGB)])
    model.save(os.path.join(OUT, "ImageProgram.mlpackage"))
    x, y = tie_free(lambda: pixels(3), lambda x: (x.astype(np.float64) * scale[0] + shift[0]).astype(np.float32))
    record("ImageProgram", "mlProgram", x, y, "RGB", "y = x * scale[c] + shift[c]; pixels = clip(rint(y), 0, 255)")

    # fp16 (ct.convert's default precision for ML Programs) with BGR image input and output: the program casts the
    # input to fp16, keeps its constants in fp16 and casts the result to fp32 for the image. Computed here in fp32
    # from the stored fp16 constants (as the converter computes fp16 programs; Core ML's fp16 arithmetic would differ
    # by fp16 rounding).
    @mb.program(input_specs=[mb.TensorSpec(shape=(1, 3, H, W))], opset_version=ct.target.iOS16)
    def prog16(x):
        return mb.add(x=mb.mul(x=x, y=scale), y=shift, name="filtered")

    prog16.functions["main"].set_output_types([ct.ImageType(name="filtered", color_layout=ct.colorlayout.BGR)])
    model = ct.convert(prog16, convert_to="mlprogram", compute_precision=ct.precision.FLOAT16,
                       minimum_deployment_target=ct.target.iOS16,
                       inputs=[ct.ImageType(name="x", shape=(1, 3, H, W), color_layout=ct.colorlayout.BGR)],
                       outputs=[ct.ImageType(name="filtered", color_layout=ct.colorlayout.BGR)])
    model.save(os.path.join(OUT, "ImageProgramBGR16.mlpackage"))
    ops = {op.outputs[0].name: op for op in model.get_spec().mlProgram.functions["main"].block_specializations["CoreML6"].operations}

    def stored(name):
        return np.frombuffer(ops[name].attributes["val"].immediateValue.tensor.bytes.values, np.float16).astype(np.float64)

    g16, b16, e16 = stored("filtered_gamma_0_to_fp16"), stored("filtered_beta_0_to_fp16"), stored("filtered_epsilon_0_to_fp16")[0]
    # The tensor's channels are the input's B, G, R: x here is the input image's RGB planes.
    xb, yb = tie_free(lambda: pixels(3), lambda x: (x[::-1].astype(np.float64) * (g16 / np.sqrt(1 + e16)).reshape(3, 1, 1)
                                                  + b16.reshape(3, 1, 1)).astype(np.float32))
    record("ImageProgramBGR16", "mlProgram", xb, yb, "BGR",
           "t = x[::-1] (BGR planes); y = t * gamma16[c] / sqrt(1 + eps16) + beta16[c] (the file's fp16 constants, fp32 math); "
           "the image's R, G, B are y[2], y[1], y[0]")

    @mb.program(input_specs=[mb.TensorSpec(shape=(1, 1, H, W))], opset_version=ct.target.iOS16)
    def gray(x):
        return mb.sub(x=np.float32(300.3), y=mb.mul(x=x, y=np.float32(1.7)), name="inverted")

    gray.functions["main"].set_output_types([ct.ImageType(name="inverted", color_layout=ct.colorlayout.GRAYSCALE)])
    model = ct.convert(gray, convert_to="mlprogram", compute_precision=ct.precision.FLOAT32,
                       minimum_deployment_target=ct.target.iOS16,
                       inputs=[ct.ImageType(name="x", shape=(1, 1, H, W), color_layout=ct.colorlayout.GRAYSCALE)],
                       outputs=[ct.ImageType(name="inverted", color_layout=ct.colorlayout.GRAYSCALE)])
    model.save(os.path.join(OUT, "ImageProgramGray.mlpackage"))
    g, yg = tie_free(lambda: pixels(1), lambda g: (300.3 - 1.7 * g.astype(np.float64)).astype(np.float32))
    record("ImageProgramGray", "mlProgram", g, yg, "GRAYSCALE", "y = 300.3 - 1.7 x; pixels = clip(rint(y), 0, 255)")


def compiled_text():
    """The programs as Xcode's compiled model.mil text (coreml_mil_fixtures.mil_text), for the .mlmodelc tests."""
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from coreml_mil_fixtures import mil_text
    for name in ["ImageProgram", "ImageProgramGray"]:
        spec = ct.utils.load_spec(os.path.join(OUT, name + ".mlpackage"))
        with open(os.path.join(OUT, name + ".mil"), "w") as f:
            f.write(mil_text(spec.mlProgram))


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    networks()
    programs()
    compiled_text()
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        f.write('{"generator": "scripts/models/coreml_image_output_fixtures.py", ' + f'"coremltools": "{ct.__version__}", "numpy": "{np.__version__}",\n"models": {{\n')
        f.write(",\n".join(json.dumps(k) + ": " + json.dumps(v, separators=(",", ":")) for k, v in sorted(EXPECTED.items())))
        f.write("\n}}\n")
    for name in sorted(os.listdir(OUT)):
        print(name)


if __name__ == "__main__":
    main()
