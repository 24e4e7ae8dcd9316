#!/usr/bin/env python3
"""Per-layer fixtures for the Core ML NeuralNetwork importer's tests (Tests/OpenVisionTests/Models/CoreMLLayerTests.swift).

Run in a venv of its own (never in scripts/setup or CI):

    python3 -m venv /work/venvs/coremltools && /work/venvs/coremltools/bin/pip install coremltools==9.0 numpy
    /work/venvs/coremltools/bin/python scripts/models/coreml_fixtures.py

Writes Tests/Fixtures/coreml/layers/<name>.mlmodel (one tiny model per layer and option, made with coremltools'
NeuralNetworkBuilder, as its converters write them) and <name>.json: the inputs and the expected outputs, every
value, float32 printed with 9 digits.

coremltools cannot run Core ML models off macOS, so the expected outputs are computed here with numpy from each
layer's definition in NeuralNetwork.proto (and, where the proto leaves it open, from coremltools' own numpy tests
of those layers against Core ML, coremltools/test/neural_network/test_numpy_nn_layers.py): nothing here runs the
converter under test. Quantized weights are de-quantized with coremltools' own `_dequantize_wp`. A fixture whose
numbers depend on a choice the documentation does not settle carries "shape_only": true (its output shape is
still checked) and says why in "note".
"""
import json, os, sys, copy, zlib
import numpy as np
import coremltools as ct
from coremltools.models import datatypes
from coremltools.models.neural_network import NeuralNetworkBuilder
from coremltools.models.neural_network.quantization_utils import _quantize_wp_field, _dequantize_wp
from coremltools.proto import FeatureTypes_pb2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/coreml/layers")
rng = np.random.default_rng(20261125)
FIXTURES = {}


def fixture(fn):
    FIXTURES[fn.__name__] = fn
    return fn


def rand(*shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def builder(inputs, outputs=("y",), nd=False):
    """inputs: [(name, shape)]; outputs without declared shapes."""
    return NeuralNetworkBuilder([(n, datatypes.Array(*s)) for n, s in inputs], [(o, None) for o in outputs],
                                disable_rank5_shape_mapping=nd)


def legacy_out(y):
    """Core ML's output of a rank-5 network for a [C, H, W] result (the converter drops Seq and Batch)."""
    return y


# ---------------------------------------------------------------------------------------------------------------
# numpy definitions of the layers
# ---------------------------------------------------------------------------------------------------------------
def conv2d(x, w, b, stride=(1, 1), dilation=(1, 1), pads=(0, 0, 0, 0), groups=1):
    """x [C, H, W], w [Cout, C/groups, kh, kw], pads (top, bottom, left, right), zero padding."""
    t, bo, l, r = pads
    x = np.pad(x, ((0, 0), (t, bo), (l, r)))
    c, h, wd = x.shape
    cout, kc, kh, kw = w.shape
    eh, ew = (kh - 1) * dilation[0] + 1, (kw - 1) * dilation[1] + 1
    oh, ow = (h - eh) // stride[0] + 1, (wd - ew) // stride[1] + 1
    y = np.zeros((cout, oh, ow), np.float64)
    per = cout // groups
    for o in range(cout):
        g = o // per
        xs = x[g * kc:(g + 1) * kc]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, i * stride[0]:i * stride[0] + eh:dilation[0], j * stride[1]:j * stride[1] + ew:dilation[1]]
                y[o, i, j] = np.sum(patch * w[o])
    if b is not None:
        y += b.reshape(-1, 1, 1)
    return y.astype(np.float32)


def deconv2d(x, w, b, stride, pads, groups=1):
    """x [Cin, H, W], w [Cin, Cout/groups, kh, kw]; the full transposed convolution cropped by pads (t, b, l, r)."""
    cin, h, wd = x.shape
    _, per, kh, kw = w.shape
    full = np.zeros((per * groups, (h - 1) * stride[0] + kh, (wd - 1) * stride[1] + kw), np.float64)
    cin_per = cin // groups
    for ci in range(cin):
        g = ci // cin_per
        for i in range(h):
            for j in range(wd):
                full[g * per:(g + 1) * per, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw] += x[ci, i, j] * w[ci]
    t, bo, l, r = pads
    y = full[:, t:full.shape[1] - bo, l:full.shape[2] - r]
    if b is not None:
        y = y + b.reshape(-1, 1, 1)
    return y.astype(np.float32)


def same_pads(size, k, s, top_left):
    out = -(-size // s)
    total = max(0, (out - 1) * s + k - size)
    small = total // 2
    return (total - small, small) if top_left else (small, total - small)


def pool2d(x, kind, k, s, pads, include_pad_in_average, last_pixel_pad=None, out_size=None):
    """Pooling over x [C, H, W] with explicit (top, bottom, left, right) pads; average divisors count the padded
    window when include_pad_in_average (Caffe: the window clipped to the symmetric padding `last_pixel_pad`)."""
    c, h, w = x.shape
    t, bo, l, r = pads
    oh = out_size[0] if out_size else (h + t + bo - k[0]) // s[0] + 1
    ow = out_size[1] if out_size else (w + l + r - k[1]) // s[1] + 1
    y = np.zeros((c, oh, ow), np.float64)
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * s[0] - t, j * s[1] - l
            h1, w1 = h0 + k[0], w0 + k[1]
            hs, ws, he, we = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            win = x[:, hs:he, ws:we].astype(np.float64)
            if kind == "MAX":
                y[:, i, j] = win.reshape(c, -1).max(1)
            elif kind == "L2":
                y[:, i, j] = np.sqrt((win ** 2).reshape(c, -1).sum(1))
            else:
                if include_pad_in_average:
                    if last_pixel_pad is not None:
                        ph, pw = last_pixel_pad
                        count = (min(h1, h + ph) - h0) * (min(w1, w + pw) - w0)
                    else:
                        count = k[0] * k[1]
                else:
                    count = (he - hs) * (we - ws)
                y[:, i, j] = win.reshape(c, -1).sum(1) / count
    return y.astype(np.float32)


def interp_axis(x, axis, points):
    """Linear interpolation of x along axis at fractional positions (clamped to the edges)."""
    n = x.shape[axis]
    p = np.clip(np.asarray(points, np.float64), 0, n - 1)
    lo = np.floor(p).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    f = p - lo
    a, b = np.take(x, lo, axis=axis), np.take(x, hi, axis=axis)
    shape = [1] * x.ndim
    shape[axis] = len(points)
    f = f.reshape(shape)
    return a * (1 - f) + b * f


def bilinear(x, ys, xs):
    return interp_axis(interp_axis(x.astype(np.float64), -2, ys), -1, xs).astype(np.float32)


def upsample_points(xin, xout, mode):
    """UpsampleLayerParams.LinearUpsampleMode grids."""
    i = np.arange(xout, dtype=np.float64)
    if mode == "DEFAULT":
        spacing = (xin - xin / xout) / (xout - 1) if xout > 1 else 0
        return np.minimum(xin - 1, np.maximum(0, i * spacing))
    if mode == "ALIGN_CORNERS_TRUE":
        spacing = (xin - 1) / (xout - 1) if xout > 1 else 0
        return np.minimum(xin - 1, np.maximum(0, i * spacing))
    spacing = xin / xout
    return np.minimum(xin - 1, np.maximum(0, i * spacing + 0.5 * spacing - 0.5))


def sampling_points(start, end, n, method):
    """SamplingMode over the interval [start, end] (X − 1 = end − start)."""
    i = np.arange(n, dtype=np.float64)
    extent = end - start
    if method == "STRICT_ALIGN_ENDPOINTS_MODE":
        return start + (i * extent / (n - 1) if n > 1 else np.zeros(1))
    if method == "ALIGN_ENDPOINTS_MODE":
        return start + (i * extent / (n - 1) if n > 1 else np.full(1, extent / 2))
    if method == "UPSAMPLE_MODE":
        return start + np.minimum(extent, i * (extent + 1) / n)
    spacing = max(1.0, extent) / n
    return start + np.minimum(extent, 0.5 * spacing + i * spacing)


# ---------------------------------------------------------------------------------------------------------------
# Convolutions
# ---------------------------------------------------------------------------------------------------------------
def conv_fixture(cin, cout, k, stride=(1, 1), dilation=(1, 1), groups=1, border="valid", pads=(0, 0, 0, 0),
                 asym="BOTTOM_RIGHT_HEAVY", size=(7, 9), bias=True):
    x = rand(cin, *size)
    w = rand(cout, cin // groups, *k)
    b = rand(cout) if bias else None
    bl = builder([("x", x.shape)])
    bl.add_convolution("conv", kernel_channels=cin // groups, output_channels=cout, height=k[0], width=k[1],
                       stride_height=stride[0], stride_width=stride[1], border_mode=border, groups=groups,
                       W=w.transpose(2, 3, 1, 0), b=b, has_bias=bias, input_name="x", output_name="y",
                       dilation_factors=list(dilation), padding_top=pads[0], padding_bottom=pads[1], padding_left=pads[2],
                       padding_right=pads[3], same_padding_asymmetry_mode=asym)
    if border == "same":
        eff = [(k[a] - 1) * dilation[a] + 1 for a in range(2)]
        ph = same_pads(size[0], eff[0], stride[0], asym == "TOP_LEFT_HEAVY")
        pw = same_pads(size[1], eff[1], stride[1], asym == "TOP_LEFT_HEAVY")
        pads = (ph[0], ph[1], pw[0], pw[1])
    return bl.spec, {"x": x}, {"y": conv2d(x, w, b, stride, dilation, pads, groups)}


@fixture
def conv_valid_padded_stride2():
    return conv_fixture(3, 4, (3, 3), stride=(2, 2), pads=(1, 2, 0, 1))


@fixture
def conv_same_top_left_heavy():
    return conv_fixture(2, 3, (4, 3), stride=(2, 2), border="same", asym="TOP_LEFT_HEAVY")


@fixture
def conv_same_bottom_right_heavy():
    return conv_fixture(2, 3, (4, 4), stride=(3, 2), border="same")


@fixture
def conv_grouped_dilated():
    return conv_fixture(4, 6, (3, 3), dilation=(2, 1), groups=2, size=(9, 8))


@fixture
def conv_depthwise_no_bias():
    return conv_fixture(5, 5, (3, 3), groups=5, pads=(1, 1, 1, 1), bias=False)


def deconv_fixture(cin, cout, k, stride, groups=1, border="valid", pads=(0, 0, 0, 0), output_shape=None, size=(4, 5)):
    x = rand(cin, *size)
    w = rand(cin, cout // groups, *k)
    b = rand(cout)
    bl = builder([("x", x.shape)])
    bl.add_convolution("deconv", kernel_channels=cin, output_channels=cout, height=k[0], width=k[1], stride_height=stride[0],
                       stride_width=stride[1], border_mode=border, groups=groups, W=w.transpose(2, 3, 0, 1), b=b, has_bias=True,
                       is_deconv=True, output_shape=output_shape, input_name="x", output_name="y", padding_top=pads[0],
                       padding_bottom=pads[1], padding_left=pads[2], padding_right=pads[3])
    return bl.spec, x, w, b


@fixture
def deconv_valid_padded():
    spec, x, w, b = deconv_fixture(3, 4, (3, 3), (2, 2), pads=(1, 0, 0, 2))
    return spec, {"x": x}, {"y": deconv2d(x, w, b, (2, 2), (1, 0, 0, 2))}


@fixture
def deconv_grouped():
    spec, x, w, b = deconv_fixture(4, 6, (2, 3), (2, 1), groups=2)
    return spec, {"x": x}, {"y": deconv2d(x, w, b, (2, 1), (0, 0, 0, 0), groups=2)}


@fixture
def deconv_same():
    spec, x, w, b = deconv_fixture(2, 3, (4, 3), (2, 2), border="same")
    # Output H x stride is documented; where the k - s extra rows are cropped is not.
    full = deconv2d(x, w, b, (2, 2), (0, 0, 0, 0))
    return spec, {"x": x}, {"y": full[:, 1:1 + 8, 0:10]}, {"shape_only": True,
                                                          "note": "SamePadding documents H_out = H_in x stride for deconvolution, not where the extra rows are cropped"}


# ---------------------------------------------------------------------------------------------------------------
# Weight storage: float16, linear and lookup-table quantization, int8 dynamic
# ---------------------------------------------------------------------------------------------------------------
def quantized_conv(nbits, mode, **kw):
    spec, inputs, _ = conv_fixture(4, 6, (3, 3), pads=(1, 1, 1, 1), size=(5, 6))
    layer = spec.neuralNetwork.layers[0].convolution
    shape = (6, 4, 3, 3)
    if mode == "fp16":
        w = np.array(layer.weights.floatValue, np.float32).astype(np.float16)
        del layer.weights.floatValue[:]
        layer.weights.float16Value = w.tobytes()
    else:
        _quantize_wp_field(layer.weights, nbits, mode, shape, **kw)
    stored = copy.deepcopy(layer.weights)
    if mode == "fp16":
        w = np.frombuffer(stored.float16Value, np.float16).astype(np.float32).reshape(shape)
    else:
        _dequantize_wp(stored, shape, 0)
        w = np.array(stored.floatValue, np.float32).reshape(shape)
    b = np.array(layer.bias.floatValue, np.float32)
    return spec, inputs, {"y": conv2d(inputs["x"], w, b, pads=(1, 1, 1, 1))}


@fixture
def weights_float16():
    return quantized_conv(16, "fp16")


@fixture
def weights_linear_8bit_per_channel():
    return quantized_conv(8, "_linear_quantization")


@fixture
def weights_linear_5bit():
    return quantized_conv(5, "_linear_quantization")


for _bits in (1, 2, 3, 4, 6, 8):
    def _lut(bits=_bits):
        def lut_fn(nbits, w):
            w = np.asarray(w, np.float32).ravel()
            levels = np.quantile(w, np.linspace(0, 1, 1 << nbits)).astype(np.float32)
            idx = np.abs(w[:, None] - levels[None, :]).argmin(1)
            return levels, idx
        return quantized_conv(bits, "_lookup_table_quantization_custom", lut_function=lut_fn)
    _lut.__name__ = f"weights_lut_{_bits}bit"
    fixture(_lut)


@fixture
def inner_product_int8_dynamic():
    x = rand(7)
    w = rand(5, 7)
    bl = builder([("x", (7,))], nd=True)
    scale = float(np.abs(w).max() / 127)
    q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    bl.add_inner_product("ip", W=q.tobytes(), b=None, input_channels=7, output_channels=5, has_bias=False, input_name="x",
                         output_name="y", int_8_dynamic_quantize=True, is_quantized_weight=True, quantization_type="linear",
                         nbits=8, quant_scale=np.array([scale]), quant_bias=None)
    spec = bl.spec
    wq = q.astype(np.float32) * np.float32(scale)
    return spec, {"x": x}, {"y": (wq @ x).astype(np.float32)}, {
        "tolerance": 2e-2, "note": "Core ML quantizes the input to int8 at run time (scheme not documented); the converter computes in float32 with the de-quantized weights, which differs by that rounding"}


# ---------------------------------------------------------------------------------------------------------------
# Inner product, batchnorm, activations
# ---------------------------------------------------------------------------------------------------------------
@fixture
def inner_product_rank5():
    x = rand(3, 2, 2)
    w = rand(4, 12)
    b = rand(4)
    bl = builder([("x", x.shape)])
    bl.add_inner_product("ip", W=w, b=b, input_channels=12, output_channels=4, has_bias=True, input_name="x", output_name="y")
    return bl.spec, {"x": x}, {"y": ((w @ x.ravel()) + b).reshape(4, 1, 1)}


@fixture
def inner_product_nd_rank3():
    x = rand(2, 3, 6)
    w = rand(4, 6)
    bl = builder([("x", x.shape)], nd=True)
    bl.add_inner_product("ip", W=w, b=None, input_channels=6, output_channels=4, has_bias=False, input_name="x", output_name="y")
    return bl.spec, {"x": x}, {"y": (x @ w.T).astype(np.float32)}


@fixture
def batchnorm():
    x = rand(3, 4, 5)
    g, be, m, v = rand(3), rand(3), rand(3), rand(3, low=0.5, high=2)
    bl = builder([("x", x.shape)])
    bl.add_batchnorm("bn", 3, g, be, m, v, input_name="x", output_name="y", epsilon=1e-3)
    y = g.reshape(3, 1, 1) * (x - m.reshape(3, 1, 1)) / np.sqrt(v.reshape(3, 1, 1) + 1e-3) + be.reshape(3, 1, 1)
    return bl.spec, {"x": x}, {"y": y}


@fixture
def batchnorm_instance():
    x = rand(3, 4, 5)
    g, be = rand(3), rand(3)
    bl = builder([("x", x.shape)])
    bl.add_batchnorm("bn", 3, g, be, input_name="x", output_name="y", compute_mean_var=True, instance_normalization=True)
    mean, var = x.mean((1, 2), keepdims=True), x.var((1, 2), keepdims=True)
    return bl.spec, {"x": x}, {"y": g.reshape(3, 1, 1) * (x - mean) / np.sqrt(var + 1e-5) + be.reshape(3, 1, 1)}


ACTIVATIONS = {
    "linear": ("LINEAR", [0.5, -2.0], lambda x: 0.5 * x - 2),
    "relu": ("RELU", None, lambda x: np.maximum(x, 0)),
    "leaky_relu": ("LEAKYRELU", [0.1], lambda x: np.where(x >= 0, x, 0.1 * x)),
    "thresholded_relu": ("THRESHOLDEDRELU", 0.25, lambda x: np.where(x >= 0.25, x, 0)),
    "tanh": ("TANH", None, np.tanh),
    "scaled_tanh": ("SCALED_TANH", [1.7, 0.6], lambda x: 1.7 * np.tanh(0.6 * x)),
    "sigmoid": ("SIGMOID", None, lambda x: 1 / (1 + np.exp(-x))),
    "sigmoid_hard": ("SIGMOID_HARD", [0.3, 0.4], lambda x: np.clip(0.3 * x + 0.4, 0, 1)),
    "elu": ("ELU", 0.7, lambda x: np.where(x >= 0, x, 0.7 * (np.exp(x) - 1))),
    "softsign": ("SOFTSIGN", None, lambda x: x / (1 + np.abs(x))),
    "softplus": ("SOFTPLUS", None, lambda x: np.log1p(np.exp(x))),
}
for _name, (_kind, _params, _f) in ACTIVATIONS.items():
    def _act(name=_name, kind=_kind, params=_params, f=_f):
        x = rand(3, 4, 5, low=-3, high=3)
        bl = builder([("x", x.shape)])
        bl.add_activation("act", kind, "x", "y", params=params)
        return bl.spec, {"x": x}, {"y": f(x.astype(np.float64)).astype(np.float32)}
    _act.__name__ = f"activation_{_name}"
    fixture(_act)


@fixture
def activation_prelu():
    x = rand(3, 4, 5, low=-3, high=3)
    a = rand(3)
    bl = builder([("x", x.shape)])
    bl.add_activation("act", "PRELU", "x", "y", params=a)
    return bl.spec, {"x": x}, {"y": np.where(x >= 0, x, a.reshape(3, 1, 1) * x)}


@fixture
def activation_parametric_softplus():
    x = rand(3, 4, 5, low=-3, high=3)
    a, b = rand(3, low=0.5, high=2), rand(3, low=0.5, high=2)
    bl = builder([("x", x.shape)])
    bl.add_activation("act", "PARAMETRICSOFTPLUS", "x", "y", params=[a, b])
    return bl.spec, {"x": x}, {"y": (a.reshape(3, 1, 1) * np.log1p(np.exp(b.reshape(3, 1, 1) * x))).astype(np.float32)}


# ---------------------------------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------------------------------
def pool_fixture(kind, k, s, padding, pads=(0, 0, 0, 0), exclude=True, asym="BOTTOM_RIGHT_HEAVY", size=(7, 8), is_global=False):
    x = rand(3, *size)
    bl = builder([("x", x.shape)])
    bl.add_pooling("pool", k[0], k[1], s[0], s[1], kind, padding, "x", "y", exclude_pad_area=exclude, is_global=is_global,
                   padding_top=pads[0], padding_bottom=pads[1], padding_left=pads[2], padding_right=pads[3],
                   same_padding_asymmetry_mode=asym)
    return bl.spec, x


@fixture
def pool_max_valid_padded():
    spec, x = pool_fixture("MAX", (3, 2), (2, 2), "VALID", pads=(1, 1, 0, 1))
    return spec, {"x": x}, {"y": pool2d(x, "MAX", (3, 2), (2, 2), (1, 1, 0, 1), True)}


@fixture
def pool_average_valid_counting_padding():
    spec, x = pool_fixture("AVERAGE", (3, 3), (2, 2), "VALID", pads=(1, 1, 1, 1), exclude=False)
    return spec, {"x": x}, {"y": pool2d(x, "AVERAGE", (3, 3), (2, 2), (1, 1, 1, 1), True)}


@fixture
def pool_average_same_excluding_padding():
    spec, x = pool_fixture("AVERAGE", (3, 3), (2, 2), "SAME", exclude=True)
    ph, pw = same_pads(7, 3, 2, False), same_pads(8, 3, 2, False)
    return spec, {"x": x}, {"y": pool2d(x, "AVERAGE", (3, 3), (2, 2), (ph[0], ph[1], pw[0], pw[1]), False)}


@fixture
def pool_average_same_top_left_counting_padding():
    spec, x = pool_fixture("AVERAGE", (2, 4), (2, 3), "SAME", exclude=False, asym="TOP_LEFT_HEAVY")
    ph, pw = same_pads(7, 2, 2, True), same_pads(8, 4, 3, True)
    return spec, {"x": x}, {"y": pool2d(x, "AVERAGE", (2, 4), (2, 3), (ph[0], ph[1], pw[0], pw[1]), True)}


def last_pixel(kind, k, s, p, size, exclude):
    spec, x = pool_fixture(kind, k, s, "INCLUDE_LAST_PIXEL", pads=(p[0], p[0], p[1], p[1]), exclude=exclude, size=size)
    out = []
    for a in range(2):
        n = int(np.ceil((size[a] + 2 * p[a] - k[a]) / s[a])) + 1
        if (p[0] > 0 or p[1] > 0) and (n - 1) * s[a] >= size[a] + p[a]:
            n -= 1
        out.append(n)
    y = pool2d(x, kind, k, s, (p[0], 0, p[1], 0), not exclude, last_pixel_pad=p, out_size=out)
    return spec, {"x": x}, {"y": y}


@fixture
def pool_average_include_last_pixel():
    return last_pixel("AVERAGE", (3, 3), (2, 2), (1, 1), (6, 7), False)


@fixture
def pool_max_include_last_pixel():
    return last_pixel("MAX", (3, 2), (2, 2), (1, 0), (6, 7), True)


@fixture
def pool_average_include_last_pixel_dropped_window():
    # H = 4, p = 1, k = 2, s = 3: ceil((4 + 2 - 2) / 3) + 1 = 3 windows, the last starting in the padding: 2.
    return last_pixel("AVERAGE", (2, 2), (3, 3), (1, 1), (4, 5), False)


@fixture
def pool_l2_valid():
    spec, x = pool_fixture("L2", (2, 2), (2, 2), "VALID")
    return spec, {"x": x}, {"y": pool2d(x, "L2", (2, 2), (2, 2), (0, 0, 0, 0), True)}


@fixture
def pool_global_average():
    spec, x = pool_fixture("AVERAGE", (1, 1), (1, 1), "VALID", is_global=True)
    return spec, {"x": x}, {"y": x.mean((1, 2), keepdims=True)}


@fixture
def pool_global_max():
    spec, x = pool_fixture("MAX", (1, 1), (1, 1), "VALID", is_global=True)
    return spec, {"x": x}, {"y": x.max((1, 2), keepdims=True)}


# ---------------------------------------------------------------------------------------------------------------
# Padding, crop, resizing
# ---------------------------------------------------------------------------------------------------------------
for _mode, _np in (("constant", "constant"), ("reflection", "reflect"), ("replication", "edge")):
    def _pad(mode=_mode, npmode=_np):
        x = rand(2, 4, 5)
        bl = builder([("x", x.shape)])
        bl.add_padding("pad", left=2, right=1, top=1, bottom=3, value=-0.5, input_name="x", output_name="y", padding_type=mode)
        kw = {"constant_values": -0.5} if npmode == "constant" else {}
        return bl.spec, {"x": x}, {"y": np.pad(x, ((0, 0), (1, 3), (2, 1)), mode=npmode, **kw)}
    _pad.__name__ = f"padding_{_mode}"
    fixture(_pad)


@fixture
def crop_amounts():
    x = rand(2, 6, 7)
    bl = builder([("x", x.shape)])
    bl.add_crop("crop", left=1, right=2, top=2, bottom=1, offset=[0, 0], input_names=["x"], output_name="y")
    return bl.spec, {"x": x}, {"y": x[:, 2:5, 1:5]}


@fixture
def crop_like_offset():
    x, r = rand(2, 6, 7), rand(2, 3, 4)
    bl = builder([("x", x.shape), ("r", r.shape)])
    bl.add_crop("crop", left=0, right=0, top=0, bottom=0, offset=[2, 1], input_names=["x", "r"], output_name="y")
    return bl.spec, {"x": x, "r": r}, {"y": x[:, 2:5, 1:5]}


@fixture
def upsample_nearest():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_upsample("up", 2, 3, "x", "y", mode="NN")
    return bl.spec, {"x": x}, {"y": x.repeat(2, 1).repeat(3, 2)}


for _m in ("DEFAULT", "ALIGN_CORNERS_TRUE", "ALIGN_CORNERS_FALSE"):
    def _up(mode=_m):
        x = rand(2, 3, 4)
        bl = builder([("x", x.shape)])
        bl.add_upsample("up", 2, 3, "x", "y", mode="BILINEAR", linear_upsample_mode=mode)
        return bl.spec, {"x": x}, {"y": bilinear(x, upsample_points(3, 6, mode), upsample_points(4, 12, mode))}
    _up.__name__ = f"upsample_bilinear_{_m.lower()}"
    fixture(_up)


@fixture
def upsample_bilinear_fractional():
    x = rand(2, 4, 6)
    bl = builder([("x", x.shape)])
    bl.add_upsample("up", 1.5, 2.5, "x", "y", mode="BILINEAR", linear_upsample_mode="ALIGN_CORNERS_FALSE")
    return bl.spec, {"x": x}, {"y": bilinear(x, upsample_points(4, 6, "ALIGN_CORNERS_FALSE"), upsample_points(6, 15, "ALIGN_CORNERS_FALSE"))}


for _m in ("STRICT_ALIGN_ENDPOINTS_MODE", "ALIGN_ENDPOINTS_MODE", "UPSAMPLE_MODE", "ROI_ALIGN_MODE"):
    def _rb(mode=_m):
        x = rand(2, 5, 6)
        bl = builder([("x", x.shape)])
        bl.add_resize_bilinear("rb", "x", "y", target_height=3, target_width=9, mode=mode)
        return bl.spec, {"x": x}, {"y": bilinear(x, sampling_points(0, 4, 3, mode), sampling_points(0, 5, 9, mode))}
    _rb.__name__ = f"resize_bilinear_{_m.lower()}"
    fixture(_rb)


def crop_resize_fixture(mode, box_mode, normalized, boxes, five=False):
    x = rand(2, 7, 8)
    n = boxes.shape[0]
    roi = boxes.reshape(n, 1, boxes.shape[1], 1, 1).astype(np.float32)
    bl = NeuralNetworkBuilder([("x", datatypes.Array(2, 7, 8)), ("roi", datatypes.Array(boxes.shape[1]))], [("y", None)])
    # The roi input [4] is rank 5 [1, 1, 4, 1, 1] in the network: one box (Core ML's sequence axis would give more).
    bl.add_crop_resize("cr", ["x", "roi"], "y", target_height=3, target_width=4, mode=mode, normalized_roi=normalized,
                       box_indices_mode=box_mode, spatial_scale=1.0)
    out = []
    for b in boxes:
        v = b[1:] if five else b
        if box_mode == "CORNERS_HEIGHT_FIRST":
            y1, x1, y2, x2 = v
        elif box_mode == "CORNERS_WIDTH_FIRST":
            x1, y1, x2, y2 = v
        elif box_mode == "CENTER_SIZE_HEIGHT_FIRST":
            cy, cx, bh, bw = v
            y1, x1, y2, x2 = cy - bh / 2, cx - bw / 2, cy + bh / 2, cx + bw / 2
        else:
            cx, cy, bw, bh = v
            y1, x1, y2, x2 = cy - bh / 2, cx - bw / 2, cy + bh / 2, cx + bw / 2
        if normalized:
            y1, y2, x1, x2 = y1 * 6, y2 * 6, x1 * 7, x2 * 7
        out.append(bilinear(x, sampling_points(y1, y2, 3, mode), sampling_points(x1, x2, 4, mode)))
    # [N, 1, C, H, W] with N = 1: the converter gives rank-5 outputs of one sequence step and batch as [C, H, W].
    return bl.spec, x, roi, out[0]


@fixture
def crop_resize_strict_corners():
    boxes = np.array([[1, 1, 5, 6]], np.float32)
    spec, x, roi, y = crop_resize_fixture("STRICT_ALIGN_ENDPOINTS_MODE", "CORNERS_HEIGHT_FIRST", False, boxes)
    return spec, {"x": x, "roi": roi}, {"y": y}


@fixture
def crop_resize_roi_align_normalized_center():
    boxes = np.array([[0.5, 0.4, 0.6, 0.5]], np.float32)
    spec, x, roi, y = crop_resize_fixture("ROI_ALIGN_MODE", "CENTER_SIZE_WIDTH_FIRST", True, boxes)
    return spec, {"x": x, "roi": roi}, {"y": y}


@fixture
def crop_resize_upsample_width_first():
    boxes = np.array([[2, 1, 7, 6]], np.float32)
    spec, x, roi, y = crop_resize_fixture("UPSAMPLE_MODE", "CORNERS_WIDTH_FIRST", False, boxes)
    return spec, {"x": x, "roi": roi}, {"y": y}


# ---------------------------------------------------------------------------------------------------------------
# Unary, elementwise, scale, bias, dot, reduce
# ---------------------------------------------------------------------------------------------------------------
UNARY = {
    "sqrt": (None, lambda v, a, e: np.sqrt(v)),
    "rsqrt": (None, lambda v, a, e: 1 / np.sqrt(v + e)),
    "inverse": (None, lambda v, a, e: 1 / (v + e)),
    "power": (2.5, lambda v, a, e: v ** a),
    "exp": (None, lambda v, a, e: np.exp(v)),
    "log": (None, lambda v, a, e: np.log(v)),
    "abs": (None, lambda v, a, e: np.abs(v)),
    "threshold": (1.2, lambda v, a, e: np.maximum(v, a)),
}
for _name, (_alpha, _f) in UNARY.items():
    def _un(name=_name, alpha=_alpha, f=_f):
        x = rand(2, 3, 4, low=0.1, high=2)
        bl = builder([("x", x.shape)])
        bl.add_unary("u", "x", "y", name, alpha=alpha or 1.0, shift=0.25, scale=1.5, epsilon=1e-4)
        v = 1.5 * x.astype(np.float64) + 0.25
        return bl.spec, {"x": x}, {"y": f(v, alpha or 1.0, 1e-4).astype(np.float32)}
    _un.__name__ = f"unary_{_name}"
    fixture(_un)


@fixture
def elementwise_add_broadcast_channels():
    a, b, c = rand(3, 4, 5), rand(3, 1, 1), rand(1, 4, 5)
    bl = builder([("a", a.shape), ("b", b.shape), ("c", c.shape)])
    bl.add_elementwise("add", ["a", "b", "c"], "y", "ADD")
    return bl.spec, {"a": a, "b": b, "c": c}, {"y": a + b + c}


@fixture
def elementwise_multiply_scalar():
    a = rand(3, 4, 5)
    bl = builder([("a", a.shape)])
    bl.add_elementwise("mul", ["a"], "y", "MULTIPLY", alpha=-2.5)
    return bl.spec, {"a": a}, {"y": a * -2.5}


@fixture
def elementwise_average_max_min():
    a, b = rand(3, 4, 5), rand(3, 4, 5)
    bl = builder([("a", a.shape), ("b", b.shape)], outputs=("avg", "max", "min"))
    bl.add_elementwise("avg", ["a", "b"], "avg", "AVE")
    bl.add_elementwise("max", ["a", "b"], "max", "MAX")
    bl.add_elementwise("min", ["a", "b"], "min", "MIN")
    return bl.spec, {"a": a, "b": b}, {"avg": (a + b) / 2, "max": np.maximum(a, b), "min": np.minimum(a, b)}


@fixture
def elementwise_dot_and_cosine():
    a, b = rand(6, 1, 1), rand(6, 1, 1)
    bl = builder([("a", a.shape), ("b", b.shape)], outputs=("dot", "cos"))
    bl.add_elementwise("dot", ["a", "b"], "dot", "DOT")
    bl.add_elementwise("cos", ["a", "b"], "cos", "COS")
    d = float((a * b).sum())
    return bl.spec, {"a": a, "b": b}, {"dot": np.full((1, 1, 1), d, np.float32),
                                       "cos": np.full((1, 1, 1), d / np.linalg.norm(a) / np.linalg.norm(b), np.float32)}


@fixture
def scale_with_bias():
    x = rand(3, 4, 5)
    w, b = rand(3), rand(1, 4, 5)
    bl = builder([("x", x.shape)])
    bl.add_scale("scale", W=w, b=b, has_bias=True, input_name="x", output_name="y", shape_scale=[3], shape_bias=[1, 4, 5])
    return bl.spec, {"x": x}, {"y": x * w.reshape(3, 1, 1) + b}


@fixture
def bias_per_channel():
    x = rand(3, 4, 5)
    b = rand(3)
    bl = builder([("x", x.shape)])
    bl.add_bias("bias", b=b, input_name="x", output_name="y", shape_bias=[3])
    return bl.spec, {"x": x}, {"y": x + b.reshape(3, 1, 1)}


REDUCE = {"sum": np.sum, "avg": np.mean, "prod": np.prod, "sumsquare": lambda x, axis, keepdims: np.sum(x * x, axis=axis, keepdims=keepdims),
          "L1": lambda x, axis, keepdims: np.sum(np.abs(x), axis=axis, keepdims=keepdims),
          "L2": lambda x, axis, keepdims: np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims)), "max": np.max, "min": np.min,
          "logsum": lambda x, axis, keepdims: np.sum(np.log(x + 1e-6), axis=axis, keepdims=keepdims),
          "argmax": lambda x, axis, keepdims: np.expand_dims(np.argmax(x, axis=axis[0]), axis[0]).astype(np.float32)}
AXES = {"CHW": (0, 1, 2), "HW": (1, 2), "C": (0,), "H": (1,), "W": (2,)}
for _mode, _f in REDUCE.items():
    for _axis in (["C", "H", "W"] if _mode == "argmax" else ["CHW", "HW", "C"]):
        def _red(mode=_mode, f=_f, axis=_axis):
            x = rand(3, 4, 5, low=0.5, high=1.5)
            bl = builder([("x", x.shape)])
            bl.add_reduce("r", "x", "y", axis, mode)
            return bl.spec, {"x": x}, {"y": f(x.astype(np.float64), axis=AXES[axis], keepdims=True).astype(np.float32)}
        _red.__name__ = f"reduce_{_mode.lower()}_{_axis.lower()}"
        fixture(_red)


# ---------------------------------------------------------------------------------------------------------------
# Normalisations
# ---------------------------------------------------------------------------------------------------------------
@fixture
def l2_normalize():
    x = rand(3, 4, 5)
    bl = builder([("x", x.shape)])
    bl.add_l2_normalize("l2", "x", "y", epsilon=1e-4)
    return bl.spec, {"x": x}, {"y": x / np.sqrt((x.astype(np.float64) ** 2).sum() + 1e-4)}


@fixture
def lrn():
    x = rand(6, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_lrn("lrn", "x", "y", alpha=0.3, beta=0.75, local_size=3, k=2.0)
    sq = np.pad(x.astype(np.float64) ** 2, ((1, 1), (0, 0), (0, 0)))
    window = sq[0:6] + sq[1:7] + sq[2:8]
    return bl.spec, {"x": x}, {"y": x / (2.0 + 0.3 / 3 * window) ** 0.75}


for _across in (False, True):
    for _normalize in (False, True):
        def _mvn(across=_across, normalize=_normalize):
            x = rand(3, 4, 5)
            bl = builder([("x", x.shape)])
            bl.add_mvn("mvn", "x", "y", across_channels=across, normalize_variance=normalize, epsilon=1e-3)
            axes = (0, 1, 2) if across else (1, 2)
            v = x.astype(np.float64)
            c = v - v.mean(axes, keepdims=True)
            y = c / np.sqrt(v.var(axes, keepdims=True) + 1e-3) if normalize else c
            return bl.spec, {"x": x}, {"y": y}
        _mvn.__name__ = f"mvn_{'across' if _across else 'per_channel'}{'_normalized' if _normalize else ''}"
        fixture(_mvn)


@fixture
def softmax_channels():
    x = rand(5, 2, 3, low=-3, high=3)
    bl = builder([("x", x.shape)])
    bl.add_softmax("sm", "x", "y")
    e = np.exp(x - x.max(0))
    return bl.spec, {"x": x}, {"y": e / e.sum(0)}


# ---------------------------------------------------------------------------------------------------------------
# Rank-5 data layers
# ---------------------------------------------------------------------------------------------------------------
@fixture
def load_constant_add():
    x = rand(2, 3, 4)
    c = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_load_constant("lc", "c", c, [2, 3, 4])
    bl.add_elementwise("add", ["x", "c"], "y", "ADD")
    return bl.spec, {"x": x}, {"y": x + c}


@fixture
def reshape_channel_first():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_reshape("rs", "x", "y", (4, 6, 1), 0)
    return bl.spec, {"x": x}, {"y": x.reshape(4, 6, 1)}


@fixture
def reshape_channel_last():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_reshape("rs", "x", "y", (3, 2, 4), 1)
    # Flatten in H, W, C order, reshape to [H_out, W_out, C_out], back to channels first.
    y = x.transpose(1, 2, 0).reshape(2, 4, 3).transpose(2, 0, 1)
    return bl.spec, {"x": x}, {"y": y}


@fixture
def flatten_channel_first():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_flatten("fl", 0, "x", "y")
    return bl.spec, {"x": x}, {"y": x.reshape(24, 1, 1)}


@fixture
def flatten_channel_last():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_flatten("fl", 1, "x", "y")
    return bl.spec, {"x": x}, {"y": x.transpose(1, 2, 0).reshape(24, 1, 1)}


@fixture
def permute_chw():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_permute("pm", (0, 3, 1, 2), "x", "y")  # [Seq, C, H, W] -> [Seq, W, C, H]
    return bl.spec, {"x": x}, {"y": x.transpose(2, 0, 1)}


@fixture
def concat_channels():
    a, b = rand(2, 3, 4), rand(3, 3, 4)
    bl = builder([("a", a.shape), ("b", b.shape)])
    bl.add_elementwise("cat", ["a", "b"], "y", "CONCAT")
    return bl.spec, {"a": a, "b": b}, {"y": np.concatenate([a, b], 0)}


@fixture
def split_channels():
    x = rand(6, 2, 3)
    bl = builder([("x", x.shape)], outputs=("y0", "y1", "y2"))
    bl.add_split("sp", "x", ["y0", "y1", "y2"])
    return bl.spec, {"x": x}, {"y0": x[0:2], "y1": x[2:4], "y2": x[4:6]}


for _m in ("SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "PIXEL_SHUFFLE"):
    def _reorg(mode=_m):
        b = 2
        x = rand(8, 2, 4) if mode != "SPACE_TO_DEPTH" else rand(2, 4, 6)
        bl = builder([("x", x.shape)])
        bl.add_reorganize_data("ro", "x", "y", mode=mode, block_size=b)
        c, h, w = x.shape
        if mode == "SPACE_TO_DEPTH":
            # Inverse of DEPTH_TO_SPACE: output[(i*b + j)*C + c, h, w] = input[c, h*b + i, w*b + j]
            y = x.reshape(c, h // b, b, w // b, b).transpose(2, 4, 0, 1, 3).reshape(c * b * b, h // b, w // b)
        elif mode == "DEPTH_TO_SPACE":
            # NeuralNetwork.proto's example: channel (i*b + j)*C_out + c goes to (h*b + i, w*b + j).
            co = c // (b * b)
            y = x.reshape(b, b, co, h, w).transpose(2, 3, 0, 4, 1).reshape(co, h * b, w * b)
        else:
            co = c // (b * b)
            y = x.reshape(co, b, b, h, w).transpose(0, 3, 1, 4, 2).reshape(co, h * b, w * b)
        return bl.spec, {"x": x}, {"y": y}
    _reorg.__name__ = f"reorganize_{_m.lower()}"
    fixture(_reorg)


@fixture
def depth_to_space_proto_example():
    x = np.arange(1, 17, dtype=np.float32).reshape(8, 1, 2)
    bl = builder([("x", x.shape)])
    bl.add_reorganize_data("ro", "x", "y", mode="DEPTH_TO_SPACE", block_size=2)
    y = np.array([[[1, 5, 2, 6], [9, 13, 10, 14]], [[3, 7, 4, 8], [11, 15, 12, 16]]], np.float32)
    return bl.spec, {"x": x}, {"y": y}


for _axis, _start, _end, _stride in (("channel", 1, -1, 2), ("height", 0, 3, 1), ("width", 2, 7, 2), ("width", 1, -2, 1)):
    def _slice(axis=_axis, start=_start, end=_end, stride=_stride):
        x = rand(5, 4, 8)
        bl = builder([("x", x.shape)])
        bl.add_slice("sl", "x", "y", axis, start, end, stride)
        index = {"channel": np.s_[start:end:stride, :, :], "height": np.s_[:, start:end:stride, :], "width": np.s_[:, :, start:end:stride]}[axis]
        return bl.spec, {"x": x}, {"y": x[index]}
    _slice.__name__ = f"slice_{_axis}_{_start}_{_end}_{_stride}".replace("-", "m")
    fixture(_slice)


@fixture
def embedding_rank5():
    ids = np.array([3, 0, 4], np.float32).reshape(3, 1, 1, 1)
    w, b = rand(6, 5), rand(6)
    bl = NeuralNetworkBuilder([("x", datatypes.Array(1))], [("y", None)])
    bl.add_embedding("emb", W=w, b=b, input_dim=5, output_channels=6, has_bias=True, input_name="x", output_name="y")
    x = np.array([3], np.float32)
    return bl.spec, {"x": x}, {"y": (w[:, 3] + b).reshape(6, 1, 1)}


# ---------------------------------------------------------------------------------------------------------------
# N-D layers (specification 4)
# ---------------------------------------------------------------------------------------------------------------
def nd(inputs, outputs=("y",)):
    return builder(inputs, outputs, nd=True)


ND_UNARY = {"ceil": np.ceil, "floor": np.floor, "sign": np.sign, "round": np.round, "sin": np.sin, "cos": np.cos,
            "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
            "tanh": np.tanh, "asinh": np.arcsinh, "atanh": np.arctanh, "exp2": np.exp2}
for _name, _f in ND_UNARY.items():
    def _ndu(name=_name, f=_f):
        x = rand(2, 3, 4, low=-0.9, high=0.9) * (3 if name in ("ceil", "floor", "sign", "round") else 1)
        bl = nd([("x", x.shape)])
        getattr(bl, f"add_{name}")(name, "x", "y")
        return bl.spec, {"x": x}, {"y": f(x.astype(np.float64)).astype(np.float32)}
    _ndu.__name__ = f"nd_{_name}"
    fixture(_ndu)


@fixture
def nd_acosh_erf():
    x = rand(2, 5, low=1.1, high=3)
    bl = nd([("x", x.shape)], outputs=("a", "e"))
    bl.add_acosh("acosh", "x", "a")
    bl.add_erf("erf", "x", "e")
    import math
    return bl.spec, {"x": x}, {"a": np.arccosh(x), "e": np.vectorize(math.erf)(x.astype(np.float64)).astype(np.float32)}


for _mode in ("EXACT", "TANH_APPROXIMATION", "SIGMOID_APPROXIMATION"):
    def _gelu(mode=_mode):
        import math
        x = rand(3, 4, low=-3, high=3)
        bl = nd([("x", x.shape)])
        bl.add_gelu("gelu", "x", "y", mode=mode)
        v = x.astype(np.float64)
        if mode == "EXACT":
            y = 0.5 * v * (1 + np.vectorize(math.erf)(v / math.sqrt(2)))
        elif mode == "TANH_APPROXIMATION":
            y = 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
        else:
            y = v / (1 + np.exp(-1.702 * v))
        return bl.spec, {"x": x}, {"y": y.astype(np.float32)}
    _gelu.__name__ = f"nd_gelu_{_mode.lower()}"
    fixture(_gelu)


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide, "max": np.maximum,
          "min": np.minimum, "pow": np.power, "mod": np.mod, "floor_div": np.floor_divide}
for _name, _f in BINARY.items():
    def _bin(name=_name, f=_f):
        a = rand(2, 3, 4, low=0.5, high=3) * (np.sign(rand(2, 3, 4)) if name in ("mod", "floor_div", "add") else 1)
        b = rand(3, 1, low=0.5, high=2)
        bl = nd([("a", a.shape), ("b", b.shape)])
        getattr(bl, f"add_{name}_broadcastable")(name, ["a", "b"], "y")
        return bl.spec, {"a": a, "b": b}, {"y": f(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)}
    _bin.__name__ = f"nd_{_name}_broadcastable"
    fixture(_bin)


@fixture
def nd_comparisons_and_logic():
    a, b = np.round(rand(3, 4) * 2) / 2, np.round(rand(4) * 2) / 2
    bl = nd([("a", a.shape), ("b", b.shape)], outputs=("gt", "ge", "lt", "eq", "ne", "and", "or", "xor", "not", "gta"))
    bl.add_greater_than("gt", ["a", "b"], "gt")
    bl.add_greater_than("ge", ["a", "b"], "ge", use_greater_than_equal=True)
    bl.add_less_than("lt", ["a", "b"], "lt")
    bl.add_equal("eq", ["a", "b"], "eq")
    bl.add_not_equal("ne", ["a", "b"], "ne")
    bl.add_logical("and", ["a", "b"], "and", "AND")
    bl.add_logical("or", ["a", "b"], "or", "OR")
    bl.add_logical("xor", ["a", "b"], "xor", "XOR")
    bl.add_logical("not", ["a"], "not", "NOT")
    bl.add_greater_than("gta", ["a"], "gta", alpha=0.25)
    f = lambda v: v.astype(np.float32)
    return bl.spec, {"a": a, "b": b}, {"gt": f(a > b), "ge": f(a >= b), "lt": f(a < b), "eq": f(a == b), "ne": f(a != b),
                                       "and": f((a != 0) & (b != 0)), "or": f((a != 0) | (b != 0)), "xor": f((a != 0) ^ (b != 0)),
                                       "not": f(a == 0), "gta": f(a > 0.25)}


@fixture
def nd_softmax_axis():
    x = rand(2, 3, 4, low=-3, high=3)
    bl = nd([("x", x.shape)])
    bl.add_softmax_nd("sm", "x", "y", axis=-2)
    e = np.exp(x - x.max(1, keepdims=True))
    return bl.spec, {"x": x}, {"y": e / e.sum(1, keepdims=True)}


@fixture
def nd_concat_interleave():
    a, b = rand(3, 2), rand(3, 2)
    bl = nd([("a", a.shape), ("b", b.shape)], outputs=("cat", "inter"))
    bl.add_concat_nd("cat", ["a", "b"], "cat", axis=1)
    bl.add_concat_nd("inter", ["a", "b"], "inter", axis=0, interleave=True)
    inter = np.empty((6, 2), np.float32)
    inter[0::2], inter[1::2] = a, b
    return bl.spec, {"a": a, "b": b}, {"cat": np.concatenate([a, b], 1), "inter": inter}


@fixture
def nd_split_sizes():
    x = rand(2, 7)
    bl = nd([("x", x.shape)], outputs=("p", "q"))
    bl.add_split_nd("sp", "x", ["p", "q"], axis=-1, split_sizes=[3, 4])
    return bl.spec, {"x": x}, {"p": x[:, :3], "q": x[:, 3:]}


@fixture
def nd_transpose_squeeze_expand_flatten():
    x = rand(2, 1, 3, 4)
    bl = nd([("x", x.shape)], outputs=("t", "s", "e", "f"))
    bl.add_transpose("t", [3, 0, 2, 1], "x", "t")
    bl.add_squeeze("s", "x", "s", axes=[1])
    bl.add_expand_dims("e", "x", "e", axes=[0, -1])
    bl.add_flatten_to_2d("f", "x", "f", axis=2)
    return bl.spec, {"x": x}, {"t": x.transpose(3, 0, 2, 1), "s": x.reshape(2, 3, 4), "e": x.reshape(1, 2, 1, 3, 4, 1),
                               "f": x.reshape(2, 12)}


@fixture
def nd_reshapes():
    x = rand(4, 6)
    bl = nd([("x", x.shape)], outputs=("r", "p"))
    bl.add_reshape_static("r", "x", "r", [2, 3, 4])
    bl.add_rank_preserving_reshape("p", "x", "p", [0, -1] if False else [8, -1])
    return bl.spec, {"x": x}, {"r": x.reshape(2, 3, 4), "p": x.reshape(8, 3)}


@fixture
def nd_slice_static_masks_and_negative_stride():
    x = rand(5, 6, 4)
    bl = nd([("x", x.shape)], outputs=("a", "b"))
    bl.add_slice_static("a", "x", "a", begin_ids=[1, 0, 3], end_ids=[5, -2, 0], strides=[2, 1, -1],
                        begin_masks=[False, True, False], end_masks=[True, False, True])
    bl.add_slice_static("b", "x", "b", begin_ids=[2, 1, 0], end_ids=[3, 5, 4], strides=[1, 2, 1],
                        begin_masks=[False, False, True], end_masks=[False, False, True], squeeze_masks=[True, False, False])
    return bl.spec, {"x": x}, {"a": x[1::2, :-2, 3::-1], "b": x[2, 1:5:2, :]}


@fixture
def nd_slice_dynamic_constant_begin():
    x = rand(4, 6)
    bl = nd([("x", x.shape)])
    bl.add_load_constant_nd("begin", "begin", np.array([1, 2], np.float32), [2])
    bl.add_slice_dynamic("sd", ["x", "begin"], "y", end_ids=[3, 6], strides=[1, 2], begin_masks=[False, False], end_masks=[False, True])
    return bl.spec, {"x": x}, {"y": x[1:3, 2::2]}


@fixture
def nd_slice_by_size():
    x = rand(3, 8)
    begin = np.array([2], np.float32)
    bl = nd([("x", x.shape), ("begin", (1,))])
    bl.add_slice_by_size("sbs", ["x", "begin"], "y", axis=1, size=3)
    return bl.spec, {"x": x, "begin": begin}, {"y": x[:, 2:5]}


@fixture
def nd_gathers():
    x = rand(4, 5)
    idx = np.array([3, 0, -1], np.float32)
    idx2 = np.array([[1, 2], [3, 4]], np.float32)
    ida = np.array([[0, 3, 1, 2, 3], [3, 3, 0, 1, 2]], np.float32)
    bl = nd([("x", x.shape), ("i", idx.shape), ("j", idx2.shape), ("k", ida.shape)], outputs=("g", "gn", "ga"))
    bl.add_gather("g", ["x", "i"], "g", axis=1)
    bl.add_gather_nd("gn", ["x", "j"], "gn")
    bl.add_gather_along_axis("ga", ["x", "k"], "ga", axis=0)
    return bl.spec, {"x": x, "i": idx, "j": idx2, "k": ida}, {
        "g": x[:, [3, 0, -1]], "gn": np.array([x[1, 2], x[3, 4]], np.float32), "ga": np.take_along_axis(x, ida.astype(int), 0)}


ND_REDUCE = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "max": np.max, "min": np.min,
             "l1": lambda v, axis, keepdims: np.sum(np.abs(v), axis=axis, keepdims=keepdims),
             "l2": lambda v, axis, keepdims: np.sqrt(np.sum(v * v, axis=axis, keepdims=keepdims)),
             "sumsquare": lambda v, axis, keepdims: np.sum(v * v, axis=axis, keepdims=keepdims),
             "logsum": lambda v, axis, keepdims: np.log(np.sum(v, axis=axis, keepdims=keepdims)),
             "logsumexp": lambda v, axis, keepdims: np.log(np.sum(np.exp(v), axis=axis, keepdims=keepdims))}
for _name, _f in ND_REDUCE.items():
    def _ndr(name=_name, f=_f):
        x = rand(2, 3, 4, low=0.5, high=1.5)
        bl = nd([("x", x.shape)], outputs=("k", "d", "a"))
        getattr(bl, f"add_reduce_{name}")("k", "x", "k", axes=[1, -1], keepdims=True)
        getattr(bl, f"add_reduce_{name}")("d", "x", "d", axes=[0], keepdims=False)
        getattr(bl, f"add_reduce_{name}")("a", "x", "a", reduce_all=True, keepdims=False)
        v = x.astype(np.float64)
        return bl.spec, {"x": x}, {"k": f(v, axis=(1, 2), keepdims=True).astype(np.float32), "d": f(v, axis=0, keepdims=False).astype(np.float32),
                                   "a": np.array([f(v, axis=None, keepdims=False)], np.float32)}
    _ndr.__name__ = f"nd_reduce_{_name}"
    fixture(_ndr)


@fixture
def nd_argmax_argmin_topk_argsort():
    x = rand(3, 5)
    bl = nd([("x", x.shape)], outputs=("amax", "amin", "tv", "ti", "bs"))
    bl.add_argmax("amax", "x", "amax", axis=1, keepdims=False)
    bl.add_argmin("amin", "x", "amin", axis=0, keepdims=True)
    bl.add_topk("tk", ["x"], ["tv", "ti"], k=2, axis=1)
    bl.add_argsort("bs", "x", "bs", axis=1, descending=False)
    order = np.argsort(-x, 1)[:, :2]
    return bl.spec, {"x": x}, {"amax": x.argmax(1).astype(np.float32), "amin": x.argmin(0)[None].astype(np.float32),
                               "tv": np.take_along_axis(x, order, 1), "ti": order.astype(np.float32),
                               "bs": np.argsort(x, 1).astype(np.float32)}


@fixture
def nd_clip_clamped_relu():
    x = rand(3, 4, low=-8, high=8)
    bl = nd([("x", x.shape)], outputs=("c", "r"))
    bl.add_clip("c", "x", "c", min_value=-1.5, max_value=6.0)
    bl.add_clamped_relu("r", "x", "r", alpha=0.2, beta=5.0)
    return bl.spec, {"x": x}, {"c": np.clip(x, -1.5, 6.0), "r": np.minimum(5.0, np.where(x >= 0, x, 0.2 * x))}


@fixture
def nd_tile_stack_reverse():
    x, z = rand(2, 3), rand(2, 3)
    bl = nd([("x", x.shape), ("z", z.shape)], outputs=("t", "s", "r"))
    bl.add_tile("t", "x", "t", reps=[2, 3])
    bl.add_stack("s", ["x", "z"], "s", axis=1)
    bl.add_reverse("r", "x", "r", reverse_dim=[True, False])
    return bl.spec, {"x": x, "z": z}, {"t": np.tile(x, (2, 3)), "s": np.stack([x, z], 1), "r": x[::-1]}


@fixture
def nd_constant_pad_fill_broadcast():
    x = rand(2, 3)
    bl = nd([("x", x.shape)], outputs=("p", "f", "fl", "b"))
    bl.add_constant_pad("p", ["x"], "p", value=1.5, pad_amounts=[1, 0, 2, 1])
    bl.add_fill_static("f", "f", [2, 2], value=0.75)
    bl.add_fill_like("fl", "x", "fl", value=-2.0)
    bl.add_broadcast_to_static("b", "x", "b", [4, 2, 3])
    return bl.spec, {"x": x}, {"p": np.pad(x, ((1, 0), (2, 1)), constant_values=1.5), "f": np.full((2, 2), 0.75, np.float32),
                               "fl": np.full((2, 3), -2.0, np.float32), "b": np.broadcast_to(x, (4, 2, 3))}


@fixture
def nd_where_triangular_band():
    c, a, b = (rand(3, 4) > 0).astype(np.float32), rand(3, 4), rand(4)
    bl = nd([("c", c.shape), ("a", a.shape), ("b", b.shape)], outputs=("w", "u", "l", "m"))
    bl.add_where_broadcastable("w", ["c", "a", "b"], "w")
    bl.add_upper_triangular("u", "a", "u", k=1)
    bl.add_lower_triangular("l", "a", "l", k=-1)
    bl.add_matrix_band_part("m", "a", "m", num_lower=1, num_upper=0)
    return bl.spec, {"c": c, "a": a, "b": b}, {"w": np.where(c != 0, a, b), "u": np.triu(a, 1), "l": np.tril(a, -1),
                                               "m": np.tril(np.triu(a, -1), 0)}


@fixture
def nd_layer_normalization():
    x = rand(2, 3, 4)
    g, b = rand(3, 4), rand(3, 4)
    bl = nd([("x", x.shape)])
    bl.add_layer_normalization("ln", "x", "y", normalized_shape=[3, 4], gamma=g, beta=b, eps=1e-4)
    v = x.astype(np.float64)
    m, var = v.mean((1, 2), keepdims=True), v.var((1, 2), keepdims=True)
    return bl.spec, {"x": x}, {"y": g * (v - m) / np.sqrt(var + 1e-4) + b}


@fixture
def nd_one_hot_cumsum():
    i = np.array([2, 0, -1, 3], np.float32)
    x = rand(3, 4)
    bl = nd([("i", i.shape), ("x", x.shape)], outputs=("o", "c", "ce"))
    bl.add_one_hot("o", ["i"], "o", one_hot_vector_size=4, axis=-1, on_value=5.0, off_value=-1.0)
    bl.add_cumsum("c", ["x"], "c", axis=1)
    bl.add_cumsum("ce", ["x"], "ce", axis=0, reverse=True, exclusive=True)
    o = np.full((4, 4), -1.0, np.float32)
    for r, k in enumerate(i.astype(int)):
        if 0 <= k < 4:
            o[r, k] = 5.0
    rev = np.flip(np.cumsum(np.flip(x, 0), 0), 0) - x
    return bl.spec, {"i": i, "x": x}, {"o": o, "c": np.cumsum(x, 1), "ce": rev}


@fixture
def nd_embedding_matmul():
    ids = np.array([[2], [0], [4]], np.float32)
    x = rand(2, 3, 4)
    y = rand(4, 5)
    w, e = rand(4, 6), rand(3, 5)
    bl = nd([("ids", ids.shape), ("x", x.shape), ("y", y.shape)], outputs=("emb", "mm", "mw"))
    bl.add_embedding_nd("emb", "ids", "emb", vocab_size=5, embedding_size=3, W=e)
    bl.add_batched_mat_mul("mm", ["x", "y"], "mm")
    bl.add_batched_mat_mul("mw", ["x"], "mw", weight_matrix_rows=4, weight_matrix_columns=6, W=w, bias=rand(6) * 0)
    return bl.spec, {"ids": ids, "x": x, "y": y}, {"emb": e[:, [2, 0, 4]].T, "mm": x @ y, "mw": x @ w}


@fixture
def nd_get_shape_range_copy_constant():
    x = rand(2, 5)
    bl = nd([("x", x.shape)], outputs=("s", "r", "c", "k"))
    bl.add_get_shape("s", "x", "s")
    bl.add_range_static("r", "r", end=2.0, start=-1.0, step=0.75)
    bl.add_copy("c", "x", "c")
    bl.add_load_constant_nd("k", "k", np.arange(6, dtype=np.float32).reshape(2, 3), [2, 3])
    return bl.spec, {"x": x}, {"s": np.array([2, 5], np.float32), "r": np.arange(-1.0, 2.0, 0.75).astype(np.float32), "c": x,
                               "k": np.arange(6, dtype=np.float32).reshape(2, 3)}


@fixture
def nd_shapes_from_constants():
    x, row, like = rand(2, 3), rand(1, 3), rand(3, 2)
    bl = nd([("x", x.shape), ("row", row.shape), ("like", like.shape)], outputs=("rd", "fd", "bd", "bl", "rl", "t"))
    bl.add_load_constant_nd("shape", "shape", np.array([3, 2], np.float32), [2])
    bl.add_load_constant_nd("target", "target", np.array([2, 3], np.float32), [2])
    bl.add_load_constant_nd("reps", "reps", np.array([2, 1], np.float32), [2])
    bl.add_reshape_dynamic("rd", ["x", "shape"], "rd")
    bl.add_fill_dynamic("fd", "shape", "fd", value=0.5)
    bl.add_broadcast_to_dynamic("bd", ["row", "target"], "bd")
    bl.add_broadcast_to_like("bl", ["row", "x"], "bl")
    bl.add_reshape_like("rl", ["x", "like"], "rl")
    bl.add_tile("t", ["x", "reps"], "t")
    return bl.spec, {"x": x, "row": row, "like": like}, {
        "rd": x.reshape(3, 2), "fd": np.full((3, 2), 0.5, np.float32), "bd": np.broadcast_to(row, (2, 3)),
        "bl": np.broadcast_to(row, (2, 3)), "rl": x.reshape(3, 2), "t": np.tile(x, (2, 1))}


@fixture
def sequence_repeat():
    x = rand(2, 3, 4)
    bl = builder([("x", x.shape)])
    bl.add_sequence_repeat("sr", 3, "x", "y")
    # Rank 5 [Seq, Batch, C, H, W]: three sequence steps of the input.
    return bl.spec, {"x": x}, {"y": np.stack([x, x, x])[:, None]}


# ---------------------------------------------------------------------------------------------------------------
# Image inputs and preprocessing
# ---------------------------------------------------------------------------------------------------------------
def image_model(color, scale, biases, mean_image=None):
    """A 1x1 convolution (identity per channel) on an image input, so the output is the network's view of the image."""
    c = 1 if color == "GRAYSCALE" else 3
    bl = NeuralNetworkBuilder([("image", datatypes.Array(c, 4, 5))], [("y", None)])
    w = np.eye(c, dtype=np.float32).reshape(c, c, 1, 1)
    bl.add_convolution("id", c, c, 1, 1, 1, 1, "valid", 1, w.transpose(2, 3, 1, 0), None, False, input_name="image", output_name="y")
    if scale is not None:
        bl.set_pre_processing_parameters(image_input_names=["image"], is_bgr=color == "BGR", red_bias=biases[0],
                                         green_bias=biases[1], blue_bias=biases[2], gray_bias=biases[0], image_scale=scale)
    spec = bl.spec
    if mean_image is not None:
        p = spec.neuralNetwork.preprocessing.add()
        p.featureName = "image"
        p.meanImage.meanImage.extend(mean_image.ravel().tolist())
    inp = spec.description.input[0]
    inp.type.imageType.width, inp.type.imageType.height = 5, 4
    inp.type.imageType.colorSpace = FeatureTypes_pb2.ImageFeatureType.ColorSpace.Value(color)
    return spec


@fixture
def image_rgb_scaler():
    pixels = rng.integers(0, 256, size=(3, 4, 5)).astype(np.float32)  # R, G, B planes
    spec = image_model("RGB", 1 / 64, [-1.0, -0.5, 0.25])
    y = pixels / 64 + np.array([-1.0, -0.5, 0.25], np.float32).reshape(3, 1, 1)
    return spec, {"image": pixels}, {"y": y}, {"image_input": "rgb"}


@fixture
def image_bgr_scaler_mean_image():
    pixels = rng.integers(0, 256, size=(3, 4, 5)).astype(np.float32)  # R, G, B planes
    mean = rng.uniform(0, 2, size=(3, 4, 5)).astype(np.float32)
    spec = image_model("BGR", 1 / 128, [0.5, -0.25, 1.0], mean_image=mean)
    bgr = pixels[::-1]
    y = bgr / 128 + np.array([1.0, -0.25, 0.5], np.float32).reshape(3, 1, 1) - mean
    return spec, {"image": pixels}, {"y": y}, {"image_input": "rgb"}


@fixture
def image_grayscale():
    pixels = rng.integers(0, 256, size=(3, 4, 5)).astype(np.float32)
    spec = image_model("GRAYSCALE", 1 / 255, [-0.5, 0, 0])
    luma = 0.299 * pixels[0] + 0.587 * pixels[1] + 0.114 * pixels[2]
    return spec, {"image": pixels}, {"y": (luma / 255 - 0.5)[None]}, {
        "image_input": "rgb", "tolerance": 1e-5, "note": "grayscale images are made from RGB with Rec. 601 luma weights (the converter's documented choice)"}


# ---------------------------------------------------------------------------------------------------------------
# Recurrent layers: one step (the rank-5 input's sequence axis is 1) from given states
# ---------------------------------------------------------------------------------------------------------------
def sigmoid(v):
    return 1 / (1 + np.exp(-v))


@fixture
def recurrent_simple_tanh():
    i, h = 3, 4
    x, h0 = rand(i), rand(h)
    w, r, b = rand(h, i), rand(h, h), rand(h)
    bl = NeuralNetworkBuilder([("x", datatypes.Array(i)), ("h0", datatypes.Array(h))], [("y", None), ("h", None)])
    bl.add_simple_rnn("rnn", r, w, b, h, i, "TANH", ["x", "h0"], ["y", "h"])
    y = np.tanh(w @ x + r @ h0 + b).reshape(h, 1, 1)
    return bl.spec, {"x": x, "h0": h0}, {"y": y, "h": y}


@fixture
def recurrent_gru():
    i, h = 3, 4
    x, h0 = rand(i), rand(h)
    wz, wr, wo, rz, rr, ro = rand(h, i), rand(h, i), rand(h, i), rand(h, h), rand(h, h), rand(h, h)
    bz, br, bo = rand(h), rand(h), rand(h)
    bl = NeuralNetworkBuilder([("x", datatypes.Array(i)), ("h0", datatypes.Array(h))], [("y", None), ("h", None)])
    bl.add_gru("gru", [rz, rr, ro], [wz, wr, wo], [bz, br, bo], h, i, ["x", "h0"], ["y", "h"], activation="TANH",
               inner_activation="SIGMOID")
    z = sigmoid(wz @ x + rz @ h0 + bz)
    rg = sigmoid(wr @ x + rr @ h0 + br)
    o = np.tanh(wo @ x + ro @ (h0 * rg) + bo)
    y = ((1 - z) * o + z * h0).reshape(h, 1, 1)
    return bl.spec, {"x": x, "h0": h0}, {"y": y, "h": y}


def lstm_step(x, h0, c0, W, R, b, peep, forget_bias, coupled=False):
    """NeuralNetwork.proto's LSTM equations; W, R, b in the builder's order [i, f, o, z]."""
    wi, wf, wo, wz = W
    ri, rf, ro, rz = R
    bi, bf, bo, bz = b
    pi, pf, po = peep
    if forget_bias:
        bf = bf + 1
    ig = sigmoid(wi @ x + ri @ h0 + pi * c0 + bi)
    fg = 1 - ig if coupled else sigmoid(wf @ x + rf @ h0 + pf * c0 + bf)
    z = np.tanh(wz @ x + rz @ h0 + bz)
    c = c0 * fg + ig * z
    og = sigmoid(wo @ x + ro @ h0 + po * c + bo)
    return np.tanh(c) * og, c


@fixture
def recurrent_lstm_peepholes_forget_bias():
    i, h = 3, 4
    x, h0, c0 = rand(i), rand(h), rand(h)
    W, R, b, peep = [rand(h, i) for _ in range(4)], [rand(h, h) for _ in range(4)], [rand(h) for _ in range(4)], [rand(h) for _ in range(3)]
    bl = NeuralNetworkBuilder([("x", datatypes.Array(i)), ("h0", datatypes.Array(h)), ("c0", datatypes.Array(h))],
                              [("y", None), ("h", None), ("c", None)])
    bl.add_unilstm("lstm", R, W, b, h, i, ["x", "h0", "c0"], ["y", "h", "c"], peep=peep, forget_bias=True)
    y, c = lstm_step(x, h0, c0, W, R, b, peep, True)
    return bl.spec, {"x": x, "h0": h0, "c0": c0}, {"y": y.reshape(h, 1, 1), "h": y.reshape(h, 1, 1), "c": c.reshape(h, 1, 1)}


@fixture
def recurrent_lstm_bidirectional():
    i, h = 3, 2
    x = rand(i)
    sets = [([rand(h, i) for _ in range(4)], [rand(h, h) for _ in range(4)], [rand(h) for _ in range(4)]) for _ in range(2)]
    bl = NeuralNetworkBuilder([("x", datatypes.Array(i))], [("y", None)])
    (W, R, b), (Wb, Rb, bb) = sets
    bl.add_bidirlstm("bilstm", R, W, b, Rb, Wb, bb, h, i, ["x"], ["y"])
    zero = np.zeros(h, np.float32)
    yf, _ = lstm_step(x, zero, zero, W, R, b, [zero] * 3, False)
    yb, _ = lstm_step(x, zero, zero, Wb, Rb, bb, [zero] * 3, False)
    return bl.spec, {"x": x}, {"y": np.concatenate([yf, yb]).reshape(2 * h, 1, 1)}


# ---------------------------------------------------------------------------------------------------------------
# Non-maximum suppression models (NonMaximumSuppression.proto)
# ---------------------------------------------------------------------------------------------------------------
def box_iou(a, b):
    ix = max(0.0, min(a[0] + a[2] / 2, b[0] + b[2] / 2) - max(a[0] - a[2] / 2, b[0] - b[2] / 2))
    iy = max(0.0, min(a[1] + a[3] / 2, b[1] + b[3] / 2) - max(a[1] - a[3] / 2, b[1] - b[3] / 2))
    inter = ix * iy
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def nms_reference(conf, boxes, iou_thr, conf_thr, per_class):
    """PickTop: drop scores <= the confidence threshold, keep the best, suppress IoU > threshold, repeat. Per class:
    each label's column on its own (a box is kept for the labels it survives, its other confidences zeroed);
    across classes: one score per box (its best), rows keep every confidence. Rows most confident first."""
    n, c = conf.shape
    def greedy(scores):
        order = [i for i in np.argsort(-scores, kind="stable") if scores[i] > conf_thr]
        kept = []
        for i in order:
            if all(box_iou(boxes[i], boxes[j]) <= iou_thr for j in kept):
                kept.append(i)
        return kept
    if per_class:
        mask = np.zeros_like(conf)
        for k in range(c):
            for i in greedy(conf[:, k]):
                mask[i, k] = 1
        rows = [i for i in range(n) if mask[i].any()]
        out = conf * mask
        rows.sort(key=lambda i: -out[i].max())
        return out[rows], boxes[rows]
    rows = greedy(conf.max(1))
    return conf[rows], boxes[rows]


def nms_model(per_class, iou_thr=0.5, conf_thr=0.3, labels=("a", "b", "c")):
    spec = ct.proto.Model_pb2.Model()
    spec.specificationVersion = 3
    for name, cols in (("scores", len(labels)), ("boxes", 4)):
        f = spec.description.input.add()
        f.name = name
        f.type.multiArrayType.shape.extend([6, cols])
        f.type.multiArrayType.dataType = FeatureTypes_pb2.ArrayFeatureType.ArrayDataType.Value("FLOAT32")
    for name in ("iouThreshold", "confidenceThreshold"):
        f = spec.description.input.add()
        f.name = name
        f.type.doubleType.SetInParent()
        f.type.isOptional = True
    for name, cols in (("confidence", len(labels)), ("coordinates", 4)):
        f = spec.description.output.add()
        f.name = name
        ma = f.type.multiArrayType
        ma.dataType = FeatureTypes_pb2.ArrayFeatureType.ArrayDataType.Value("FLOAT32")
        r = ma.shapeRange.sizeRanges.add(); r.lowerBound, r.upperBound = 0, -1
        r = ma.shapeRange.sizeRanges.add(); r.lowerBound, r.upperBound = cols, cols
    nms = spec.nonMaximumSuppression
    nms.confidenceInputFeatureName, nms.coordinatesInputFeatureName = "scores", "boxes"
    nms.iouThresholdInputFeatureName, nms.confidenceThresholdInputFeatureName = "iouThreshold", "confidenceThreshold"
    nms.confidenceOutputFeatureName, nms.coordinatesOutputFeatureName = "confidence", "coordinates"
    nms.iouThreshold, nms.confidenceThreshold = iou_thr, conf_thr
    nms.pickTop.perClass = per_class
    nms.stringClassLabels.vector.extend(labels)
    # Six boxes: 0-2 overlap heavily (0 strongest in a, 1 strongest in b), 3 apart, 4 overlaps 3 a little,
    # 5 scores under the threshold everywhere.
    boxes = np.array([[0.30, 0.30, 0.20, 0.20], [0.31, 0.31, 0.20, 0.21], [0.29, 0.30, 0.22, 0.20],
                      [0.70, 0.70, 0.20, 0.20], [0.78, 0.72, 0.20, 0.20], [0.50, 0.50, 0.10, 0.10]], np.float32)
    conf = np.array([[0.90, 0.40, 0.00], [0.60, 0.80, 0.10], [0.50, 0.35, 0.05],
                     [0.00, 0.20, 0.70], [0.10, 0.00, 0.65], [0.20, 0.10, 0.25]], np.float32)
    cy, by = nms_reference(conf.astype(np.float64), boxes.astype(np.float64), iou_thr, conf_thr, per_class)
    return spec, {"scores": conf, "boxes": boxes}, {"confidence": cy.astype(np.float32), "coordinates": by.astype(np.float32)}


@fixture
def nms_per_class():
    return nms_model(True)


@fixture
def nms_across_classes():
    return nms_model(False)


# ---------------------------------------------------------------------------------------------------------------
# A layer the converter does not support (for the error tests; no reference)
# ---------------------------------------------------------------------------------------------------------------
def unsupported_custom():
    bl = NeuralNetworkBuilder([("x", datatypes.Array(4))], [("y", None)])
    bl.add_activation("relu0", "RELU", "x", "h")
    layer = bl.add_custom("custom1", ["h"], ["y"])
    layer.custom.className = "MyAppLayer"
    return bl.spec


# ---------------------------------------------------------------------------------------------------------------
def values(a):
    return [float(f"{float(v):.9g}") for v in np.asarray(a, np.float32).ravel()]


def main():
    os.makedirs(OUT, exist_ok=True)
    names = sys.argv[1:] or sorted(FIXTURES)
    global rng
    for name in names:
        # Each fixture draws from its own seed, so adding one leaves the others unchanged.
        rng = np.random.default_rng([20261125, zlib.crc32(name.encode())])
        result = FIXTURES[name]()
        spec, inputs, outputs = result[:3]
        extra = result[3] if len(result) > 3 else {}
        if spec.specificationVersion < 1:
            spec.specificationVersion = 1
        ct.utils.save_spec(spec, os.path.join(OUT, name + ".mlmodel"))
        # Inputs in the shape the model declares (the converted graph's input shape).
        declared = {}
        for f in spec.description.input:
            if f.type.WhichOneof("Type") == "multiArrayType":
                declared[f.name] = list(f.type.multiArrayType.shape)
            elif f.type.WhichOneof("Type") == "imageType":
                declared[f.name] = [1, 3, f.type.imageType.height, f.type.imageType.width]
        for k, v in inputs.items():
            assert int(np.prod(declared[k])) == np.size(v), (name, k, declared[k], np.shape(v))
        record = {"inputs": [{"name": k, "shape": declared[k], "values": values(v)} for k, v in inputs.items()],
                  "outputs": [{"name": k, "shape": list(np.shape(v)), "values": values(v)} for k, v in outputs.items()]}
        record.update(extra)
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(record, f, separators=(",", ":"))
    ct.utils.save_spec(unsupported_custom(), os.path.join(OUT, "unsupported_custom.mlmodel"))
    print(f"wrote {len(names)} fixtures (and unsupported_custom.mlmodel) to {OUT}")


if __name__ == "__main__":
    main()
