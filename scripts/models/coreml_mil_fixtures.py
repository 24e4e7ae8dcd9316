#!/usr/bin/env python3
"""ML Program (MIL) fixtures for the Core ML importer's tests (Tests/OpenVisionTests/Models/MILOperationTests.swift).

Run in a venv with coremltools==9.0 numpy (coremltools writes ML Programs on Linux but cannot run them):

    /work/venvs/coremltools-mil/bin/python scripts/models/coreml_mil_fixtures.py

Each fixture is a tiny program written with coremltools' MIL builder (`mb`) and converted by
`ct.convert(prog, convert_to="mlprogram")` (its optimisation passes included) or compressed with
`coremltools.optimize.coreml`, exactly as a PyTorch/TensorFlow conversion writes it. Written to
Tests/Fixtures/coreml-mil/:

  ops/<name>.pb     the serialized MIL Program (Model.proto's `mlProgram` field)
  ops/<name>.bin    its weights/weight.bin, when the program has one
  ops.json          per fixture: iOS target, inputs (values), expected outputs, tolerance, and what the
                    expected values come from
  blobs.bin/.json   a weight file from coremltools' own blob writer, one blob of each type, and its values
  ops/<name>.mil    for some fixtures, the program as model.mil text (the form of compiled .mlmodelc
                    folders; Xcode writes it on macOS only, so rendered here by `mil_text` from the grammar
                    public model.mil files show)

Expected outputs come from the op's source math, never from ONNX: coremltools' own numpy definitions
(`value_inference`, evaluated by building the same ops on constant inputs) where the op has one, else
the numpy reference below written from the op's documentation in coremltools/converters/mil/mil/ops/defs
(conv, pooling, resizing, crop_resize, depth/space moves, normalizations). Compressed weights are expanded
with coremltools' `materialized_val_inference` (what Core ML decompresses to) and the dense math applied.
`unsupported` fixtures hold operations the converter does not lower: the test expects ConversionError
.unsupported naming the operation.
"""
import json, os, shutil, sys, tempfile, warnings, logging
warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)
import numpy as np
import coremltools as ct
from coremltools.converters.mil import Builder as mb
from coremltools.converters.mil.mil import types
import coremltools.optimize.coreml as cto

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/coreml-mil")
rng = np.random.default_rng(20261125)
T15, T16, T17, T18 = ct.target.iOS15, ct.target.iOS16, ct.target.iOS17, ct.target.iOS18
FIXTURES = {}


def randn(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def uniform(lo, hi, *shape):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def rounded(a):
    return [float(f"{float(x):.7g}") for x in np.asarray(a, np.float64).ravel()]


def value_reference(build, arrays, target):
    """coremltools' own value_inference: the same ops built on constants."""
    vals = {}

    @mb.program(input_specs=[mb.TensorSpec(shape=(1,))], opset_version=target)
    def prog(dummy):
        r = build(**{k: v for k, v in arrays.items()})
        rs = r if isinstance(r, (list, tuple)) else [r]
        vals["v"] = [None if v.val is None else np.asarray(v.val) for v in rs]
        return dummy

    if any(v is None for v in vals["v"]):
        raise RuntimeError("no value inference")
    return vals["v"]


def convert(prog, target, precision=ct.precision.FLOAT32, inputs=None):
    kw = {} if inputs is None else {"inputs": inputs}
    return ct.convert(prog, convert_to="mlprogram", compute_precision=precision, minimum_deployment_target=target,
                      skip_model_load=True, **kw)


def save(name, model, inputs, outputs, target, tolerance, source, note=None, unsupported=None):
    os.makedirs(os.path.join(OUT, "ops"), exist_ok=True)
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "m.mlpackage")
    model.save(path)
    spec = model.get_spec()
    with open(os.path.join(OUT, "ops", name + ".pb"), "wb") as f:
        f.write(spec.mlProgram.SerializeToString())
    weights = os.path.join(path, "Data/com.apple.CoreML/weights/weight.bin")
    has_weights = os.path.exists(weights) and os.path.getsize(weights) > 64
    if has_weights:
        shutil.copy(weights, os.path.join(OUT, "ops", name + ".bin"))
    shutil.rmtree(tmp)
    out_names = [o.name for o in spec.description.output]
    entry = {"target": target.name, "weights": has_weights, "source": source,
             "inputs": [{"name": k, "shape": list(v.shape), "dtype": str(v.dtype), "values": rounded(v)} for k, v in inputs.items()]}
    if unsupported:
        entry["unsupported"] = unsupported
    else:
        assert len(out_names) == len(outputs), (name, out_names, len(outputs))
        entry["outputs"] = [{"name": n, "shape": list(np.asarray(v).shape), "values": rounded(v)} for n, v in zip(out_names, outputs)]
        entry["tolerance"] = tolerance
    if note:
        entry["note"] = note
    FIXTURES[name] = entry
    print(f"  {name}: {len(spec.mlProgram.SerializeToString())} B program" + (" + weights" if has_weights else ""))


def spec_of(arr):
    if arr.dtype == np.int32:
        return mb.TensorSpec(shape=arr.shape, dtype=types.int32)
    return mb.TensorSpec(shape=arr.shape)


def make_program(inputs, build, target):
    """An `mb.program` whose inputs are named as `inputs`' keys (mb takes the function's parameter names)."""
    names = list(inputs)
    ns = {"build": build, "NAMES": names}
    exec(f"def f({', '.join(names)}):\n    return build(**dict(zip(NAMES, [{', '.join(names)}])))", ns)
    return mb.program(input_specs=[spec_of(inputs[n]) for n in names], opset_version=target)(ns["f"])


def fixture(name, inputs, build, ref=None, target=T15, tolerance=1e-5, precision=ct.precision.FLOAT32, note=None):
    """A program whose inputs are `inputs` (name -> array) and whose body is build(**vars).
    Expected: ref(**arrays) when given, else coremltools' value_inference of build on the arrays."""
    prog = make_program(inputs, build, target)
    if ref is not None:
        outputs = ref(**inputs)
        source = "numpy reference (see the script)"
    else:
        outputs = value_reference(build, inputs, target)
        source = "coremltools value_inference"
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    model = convert(prog, target, precision)
    save(name, model, inputs, [np.asarray(o, np.float64) for o in outputs], target, tolerance, source, note)


def unsupported_fixture(name, inputs, build, op_type, target=T15):
    prog = make_program(inputs, build, target)
    save(name, convert(prog, target), inputs, [], target, 0, "none", unsupported=op_type)


# ---------------------------------------------------------------------------------------------
# numpy references written from the MIL op documentation
# ---------------------------------------------------------------------------------------------
def same_pads(size, kernel, stride, dilation, lower=False):
    dk = (kernel - 1) * dilation + 1
    total = max(0, (-(-size // stride) - 1) * stride + dk - size)
    small = total // 2
    return (total - small, small) if lower else (small, total - small)


def np_conv(x, w, b=None, strides=None, pads=None, dilations=None, groups=1):
    """x [N, C, *D], w [Co, C/groups, *K]; pads [(before, after)] per spatial axis."""
    n, c = x.shape[:2]
    sp = x.ndim - 2
    strides = strides or [1] * sp
    dilations = dilations or [1] * sp
    pads = pads or [(0, 0)] * sp
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + list(pads))
    co = w.shape[0]
    k = w.shape[2:]
    out_sz = [(xp.shape[2 + i] - ((k[i] - 1) * dilations[i] + 1)) // strides[i] + 1 for i in range(sp)]
    y = np.zeros([n, co] + out_sz)
    cig, cog = c // groups, co // groups
    for o in np.ndindex(*out_sz):
        sl = [slice(o[i] * strides[i], o[i] * strides[i] + (k[i] - 1) * dilations[i] + 1, dilations[i]) for i in range(sp)]
        patch = xp[(slice(None), slice(None)) + tuple(sl)]
        for g in range(groups):
            pg = patch[:, g * cig:(g + 1) * cig].reshape(n, -1)
            wg = w[g * cog:(g + 1) * cog].reshape(cog, -1).astype(np.float64)
            y[(slice(None), slice(g * cog, (g + 1) * cog)) + o] = pg @ wg.T
    if b is not None:
        y += b.reshape([1, -1] + [1] * sp)
    return y


def np_conv_transpose(x, w, b=None, strides=None, pads=None, dilations=None, groups=1, out_spatial=None):
    """w [Ci, Co/groups, *K]; full output then cropped by pads (before, after) and / or to out_spatial."""
    n, ci = x.shape[:2]
    sp = x.ndim - 2
    strides = strides or [1] * sp
    dilations = dilations or [1] * sp
    k = w.shape[2:]
    cog = w.shape[1]
    cig = ci // groups
    full = [(x.shape[2 + i] - 1) * strides[i] + (k[i] - 1) * dilations[i] + 1 for i in range(sp)]
    extra = [0] * sp
    if out_spatial is not None and pads is not None:
        extra = [out_spatial[i] - (full[i] - pads[i][0] - pads[i][1]) for i in range(sp)]
    y = np.zeros([n, cog * groups] + [full[i] + extra[i] for i in range(sp)])
    for pos in np.ndindex(*x.shape[2:]):
        for g in range(groups):
            xv = x[(slice(None), slice(g * cig, (g + 1) * cig)) + pos].astype(np.float64)   # [N, cig]
            contrib = np.tensordot(xv, w[g * cig:(g + 1) * cig].astype(np.float64), axes=([1], [0]))  # [N, cog, *K]
            for kk in np.ndindex(*k):
                o = tuple(pos[i] * strides[i] + kk[i] * dilations[i] for i in range(sp))
                y[(slice(None), slice(g * cog, (g + 1) * cog)) + o] += contrib[(slice(None), slice(None)) + kk]
    if b is not None:
        y += b.reshape([1, -1] + [1] * sp)
    pads = pads or [(0, 0)] * sp
    sl = tuple(slice(pads[i][0], y.shape[2 + i] - pads[i][1] if extra[i] == 0 else pads[i][0] + out_spatial[i]) for i in range(sp))
    return y[(slice(None), slice(None)) + sl]


def pool_out(size, k, s, before, after, ceil):
    if ceil:
        o = -(-(size + before + after - k) // s) + 1
        if (o - 1) * s >= size + before and before + after > 0:
            o -= 1
        return o
    return (size + before + after - k) // s + 1


def np_pool(x, kind, kernel, strides, pads, ceil=False, exclude_padding=False):
    sp = x.ndim - 2
    outs = [pool_out(x.shape[2 + i], kernel[i], strides[i], pads[i][0], pads[i][1], ceil) for i in range(sp)]
    y = np.zeros(list(x.shape[:2]) + outs)
    for o in np.ndindex(*outs):
        lo = [o[i] * strides[i] - pads[i][0] for i in range(sp)]
        hi = [lo[i] + kernel[i] for i in range(sp)]
        clo = [max(0, l) for l in lo]
        chi = [min(x.shape[2 + i], h) for i, h in enumerate(hi)]
        win = x[(slice(None), slice(None)) + tuple(slice(a, b) for a, b in zip(clo, chi))].astype(np.float64)
        win = win.reshape(win.shape[0], win.shape[1], -1)
        if kind == "max":
            v = win.max(-1)
        elif kind == "l2":
            v = np.sqrt((win ** 2).sum(-1))
        else:
            if exclude_padding:
                count = win.shape[-1]
            else:  # padded positions count, positions beyond the padding (ceil mode) do not
                count = np.prod([min(hi[i], x.shape[2 + i] + pads[i][1]) - lo[i] for i in range(sp)])
            v = win.sum(-1) / count
        y[(slice(None), slice(None)) + o] = v
    return y


def grid_points(out, size, mode):
    pts = []
    for i in range(out):
        if mode in ("STRICT_ALIGN_CORNERS", "ALIGN_CORNERS"):
            p = ((size - 1) / 2 if mode == "ALIGN_CORNERS" else 0) if out == 1 else i * (size - 1) / (out - 1)
        elif mode == "OFFSET_CORNERS":
            d = max(1, size - 1) / out
            p = 0.5 * d + i * d
        elif mode == "UNALIGN_CORNERS":
            sp = size / out
            p = i * sp + 0.5 * sp - 0.5
        else:  # DEFAULT
            p = 0 if out == 1 else i * (size - size / out) / (out - 1)
        pts.append(min(size - 1, max(0, p)))
    return np.array(pts)


def np_resize_bilinear(x, out_h, out_w, mode):
    def interp(a, axis, out, size):
        p = grid_points(out, size, mode)
        lo = np.floor(p).astype(int)
        hi = np.minimum(lo + 1, size - 1)
        f = (p - lo).reshape([-1 if i == axis else 1 for i in range(a.ndim)])
        return np.take(a, lo, axis) * (1 - f) + np.take(a, hi, axis) * f
    a = interp(x.astype(np.float64), x.ndim - 2, out_h, x.shape[-2])
    return interp(a, x.ndim - 1, out_w, x.shape[-1])


def np_nearest(x, out_h, out_w):
    """src = floor(dst * in / out) (TensorFlow's resize_nearest_neighbor; integer upsampling)."""
    hi = np.floor(np.arange(out_h) * x.shape[-2] / out_h).astype(int)
    wi = np.floor(np.arange(out_w) * x.shape[-1] / out_w).astype(int)
    return x[..., hi, :][..., wi]


def np_crop_resize(x, boxes, idx, th, tw, normalized, pad=0.0, mode="ALIGN_CORNERS"):
    """TensorFlow's CropAndResize (box corners [y1, x1, y2, x2])."""
    n = boxes.shape[0]
    H, W = x.shape[2:]
    out = np.zeros((n, x.shape[1], th, tw))
    for b in range(n):
        y1, x1, y2, x2 = boxes[b].astype(np.float64)
        if normalized:
            y1, y2, x1, x2 = y1 * (H - 1), y2 * (H - 1), x1 * (W - 1), x2 * (W - 1)
        ys = [y1 + (y2 - y1) * (i / (th - 1) if th > 1 else (0.5 if mode == "ALIGN_CORNERS" else 0)) for i in range(th)]
        xs = [x1 + (x2 - x1) * (j / (tw - 1) if tw > 1 else (0.5 if mode == "ALIGN_CORNERS" else 0)) for j in range(tw)]
        img = x[int(idx[b])].astype(np.float64)
        for i, yy in enumerate(ys):
            for j, xx in enumerate(xs):
                if yy < 0 or yy > H - 1 or xx < 0 or xx > W - 1:
                    out[b, :, i, j] = pad
                    continue
                t, l = int(np.floor(yy)), int(np.floor(xx))
                bo, r = min(t + 1, H - 1), min(l + 1, W - 1)
                fy, fx = yy - t, xx - l
                top = img[:, t, l] * (1 - fx) + img[:, t, r] * fx
                bot = img[:, bo, l] * (1 - fx) + img[:, bo, r] * fx
                out[b, :, i, j] = top * (1 - fy) + bot * fy
    return out


def scatter_along_axis_reference(x, idx, upd, axis, mode):
    """MIL scatter_along_axis: output[..., idx[p], ...] (op)= updates[p] along `axis`."""
    out = x.astype(np.float64).copy()
    for p in np.ndindex(*idx.shape):
        q = list(p)
        q[axis] = idx[p]
        q = tuple(q)
        if mode == "update": out[q] = upd[p]
        elif mode == "add": out[q] += upd[p]
        elif mode == "sub": out[q] -= upd[p]
        elif mode == "mul": out[q] *= upd[p]
    return out


def scatter_nd_reference(x, idx, upd, mode):
    out = x.astype(np.float64).copy()
    for p in np.ndindex(*idx.shape[:-1]):
        target = tuple(idx[p])
        if mode == "update": out[target] = upd[p]
        else: out[target] += upd[p]
    return out


def np_depth_to_space(x, b):   # DCR (TensorFlow's order)
    n, c, h, w = x.shape
    return x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)


def np_space_to_depth(x, b):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)


def np_pixel_shuffle(x, r):   # PyTorch's (CRD)
    n, c, h, w = x.shape
    return x.reshape(n, c // (r * r), r, r, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (r * r), h * r, w * r)


def np_pixel_unshuffle(x, r):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // r, r, w // r, r).transpose(0, 1, 3, 5, 2, 4).reshape(n, c * r * r, h // r, w // r)


# ---------------------------------------------------------------------------------------------
# the fixtures
# ---------------------------------------------------------------------------------------------
def elementwise():
    x = randn(2, 3, 4)
    pos = uniform(0.1, 3, 2, 3, 4)
    unit = uniform(-0.9, 0.9, 2, 3, 4)
    for op in ["abs", "ceil", "cos", "cosh", "erf", "exp", "exp2", "floor", "round", "sign", "sin", "sinh", "square",
               "tan", "tanh", "atan", "relu", "relu6", "sigmoid", "softplus", "softsign"]:
        fixture(op, {"x": x * 3}, lambda x, op=op: getattr(mb, op)(x=x))
    for op in ["acos", "asin", "atanh"]:
        fixture(op, {"x": unit}, lambda x, op=op: getattr(mb, op)(x=x))
    fixture("sqrt", {"x": pos}, lambda x: mb.sqrt(x=x))
    fixture("log", {"x": pos}, lambda x: mb.log(x=x))
    fixture("log_epsilon", {"x": pos}, lambda x: mb.log(x=x, epsilon=0.5))
    fixture("rsqrt", {"x": pos}, lambda x: mb.rsqrt(x=x, epsilon=1e-3))
    fixture("inverse", {"x": pos}, lambda x: mb.inverse(x=x, epsilon=1e-2))
    fixture("clip", {"x": x * 3}, lambda x: mb.clip(x=x, alpha=-1.0, beta=2.5))
    fixture("threshold", {"x": x}, lambda x: mb.threshold(x=x, alpha=0.3))
    fixture("cast_fp32_int32", {"x": x * 5}, lambda x: mb.cast(x=x, dtype="int32"))
    xi = rng.integers(-20, 20, (3, 5)).astype(np.int32)
    fixture("cast_int32_fp32", {"x": xi}, lambda x: mb.mul(x=mb.cast(x=x, dtype="fp32"), y=0.5))
    fixture("logical_not", {"x": x}, lambda x: mb.cast(x=mb.logical_not(x=mb.greater(x=x, y=0.0)), dtype="fp32"))


def activations():
    x = randn(2, 3, 4, 5, scale=2)
    fixture("leaky_relu", {"x": x}, lambda x: mb.leaky_relu(x=x, alpha=0.15))
    fixture("prelu", {"x": x}, lambda x: mb.prelu(x=x, alpha=np.array([0.1, 0.2, 0.3], np.float32)))
    fixture("sigmoid_hard", {"x": x}, lambda x: mb.sigmoid_hard(x=x, alpha=0.3, beta=0.4))
    fixture("silu", {"x": x}, lambda x: mb.silu(x=x), ref=lambda x: x / (1 + np.exp(-x.astype(np.float64))))
    for mode in ["EXACT", "TANH_APPROXIMATION", "SIGMOID_APPROXIMATION"]:
        fixture("gelu_" + mode.lower(), {"x": x}, lambda x, mode=mode: mb.gelu(x=x, mode=mode))
    fixture("elu", {"x": x}, lambda x: mb.elu(x=x, alpha=0.7))
    fixture("scaled_tanh", {"x": x}, lambda x: mb.scaled_tanh(x=x, alpha=1.5, beta=0.7))
    fixture("clamped_relu", {"x": x}, lambda x: mb.clamped_relu(x=x, alpha=0.2, beta=1.5))
    fixture("thresholded_relu", {"x": x}, lambda x: mb.thresholded_relu(x=x, alpha=0.5))
    fixture("linear_activation", {"x": x}, lambda x: mb.linear_activation(x=x, alpha=-1.5, beta=0.25))
    fixture("softplus_parametric", {"x": x}, lambda x: mb.softplus_parametric(
        x=x, alpha=np.array([0.5, 1.0, 2.0], np.float32), beta=np.array([1.0, 0.5, 3.0], np.float32)))
    fixture("softmax_axis1", {"x": x}, lambda x: mb.softmax(x=x, axis=1))
    fixture("softmax_last", {"x": x}, lambda x: mb.softmax(x=x))


def binary():
    a, b = randn(2, 3, 4), randn(3, 1)
    pos = uniform(0.5, 2, 2, 3, 4)
    for op in ["add", "sub", "mul", "real_div", "maximum", "minimum", "floor_div", "mod"]:
        fixture(op, {"x": a * 3, "y": b + 2.5 * np.sign(b)}, lambda x, y, op=op: getattr(mb, op)(x=x, y=y))
    fixture("pow", {"x": pos, "y": b}, lambda x, y: mb.pow(x=x, y=y))
    fixture("add_constant", {"x": a}, lambda x: mb.add(x=x, y=np.array([[1.0], [2.0], [3.0]], np.float32)))
    ai, bi = rng.integers(-20, 20, (2, 5)).astype(np.int32), rng.integers(1, 7, (1, 5)).astype(np.int32) * np.array([1, -1, 1, -1, 1], np.int32)
    for op in ["add", "mul", "floor_div", "mod", "maximum"]:
        fixture(op + "_int32", {"x": ai, "y": bi}, lambda x, y, op=op: getattr(mb, op)(x=x, y=y))
    c = np.round(randn(3, 4)).astype(np.float32)
    d = np.round(randn(3, 4)).astype(np.float32)
    for op in ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]:
        fixture(op, {"x": c, "y": d}, lambda x, y, op=op: mb.cast(x=getattr(mb, op)(x=x, y=y), dtype="fp32"))
    for op in ["logical_and", "logical_or", "logical_xor"]:
        fixture(op, {"x": c, "y": d}, lambda x, y, op=op: mb.cast(
            x=getattr(mb, op)(x=mb.greater(x=x, y=0.0), y=mb.less(x=y, y=0.5)), dtype="fp32"))
    fixture("select", {"x": c, "y": d}, lambda x, y: mb.select(cond=mb.greater(x=x, y=y), a=x, b=mb.mul(x=y, y=10.0)))


def convolutions():
    x = randn(1, 4, 9, 8)
    w = randn(6, 4, 3, 3, scale=0.3)
    b = randn(6)
    fixture("conv_valid", {"x": x}, lambda x: mb.conv(x=x, weight=w, bias=b),
            ref=lambda x: np_conv(x, w, b))
    fixture("conv_same_stride2", {"x": x}, lambda x: mb.conv(x=x, weight=w, bias=b, strides=[2, 2], pad_type="same"),
            ref=lambda x: np_conv(x, w, b, strides=[2, 2], pads=[same_pads(9, 3, 2, 1), same_pads(8, 3, 2, 1)]))
    fixture("conv_same_lower", {"x": x}, lambda x: mb.conv(x=x, weight=w, strides=[2, 2], pad_type="same_lower"),
            ref=lambda x: np_conv(x, w, None, strides=[2, 2], pads=[same_pads(9, 3, 2, 1, True), same_pads(8, 3, 2, 1, True)]),
            target=T16)
    fixture("conv_custom_dilated", {"x": x}, lambda x: mb.conv(x=x, weight=w, bias=b, pad_type="custom", pad=[2, 1, 0, 3], dilations=[2, 1]),
            ref=lambda x: np_conv(x, w, b, pads=[(2, 1), (0, 3)], dilations=[2, 1]))
    wg = randn(6, 2, 3, 3, scale=0.3)
    fixture("conv_grouped", {"x": x}, lambda x: mb.conv(x=x, weight=wg, groups=2, pad_type="same"),
            ref=lambda x: np_conv(x, wg, None, pads=[(1, 1), (1, 1)], groups=2))
    wd = randn(4, 1, 3, 3, scale=0.3)
    fixture("conv_depthwise", {"x": x}, lambda x: mb.conv(x=x, weight=wd, bias=b[:4], groups=4, strides=[2, 1], pad_type="custom", pad=[1, 1, 1, 1]),
            ref=lambda x: np_conv(x, wd, b[:4], strides=[2, 1], pads=[(1, 1), (1, 1)], groups=4))
    x1, w1 = randn(2, 3, 11), randn(5, 3, 4, scale=0.3)
    fixture("conv_1d", {"x": x1}, lambda x: mb.conv(x=x, weight=w1, strides=[2]), ref=lambda x: np_conv(x, w1, None, strides=[2]))
    x3, w3 = randn(1, 2, 4, 5, 5), randn(3, 2, 2, 3, 3, scale=0.3)
    fixture("conv_3d", {"x": x3}, lambda x: mb.conv(x=x, weight=w3, pad_type="same"),
            ref=lambda x: np_conv(x, w3, None, pads=[same_pads(4, 2, 1, 1), (1, 1), (1, 1)]))
    # transposed
    xt, wt, bt = randn(1, 4, 5, 4), randn(4, 3, 3, 3, scale=0.3), randn(3)
    fixture("conv_transpose_valid", {"x": xt}, lambda x: mb.conv_transpose(x=x, weight=wt, bias=bt, strides=[2, 2]),
            ref=lambda x: np_conv_transpose(x, wt, bt, strides=[2, 2]))
    fixture("conv_transpose_custom", {"x": xt}, lambda x: mb.conv_transpose(x=x, weight=wt, pad_type="custom", pad=[1, 1, 0, 1], strides=[2, 2]),
            ref=lambda x: np_conv_transpose(x, wt, None, strides=[2, 2], pads=[(1, 1), (0, 1)]))
    fixture("conv_transpose_output_shape", {"x": xt}, lambda x: mb.conv_transpose(
        x=x, weight=wt, bias=bt, pad_type="custom", pad=[1, 1, 1, 1], strides=[2, 2], output_shape=[1, 3, 10, 8]),
        ref=lambda x: np_conv_transpose(x, wt, bt, strides=[2, 2], pads=[(1, 1), (1, 1)], out_spatial=[10, 8]),
        note="PyTorch's output_padding=1")
    fixture("conv_transpose_same", {"x": xt}, lambda x: mb.conv_transpose(x=x, weight=wt, pad_type="same", strides=[2, 2]),
            ref=lambda x: np_conv_transpose(x, wt, None, strides=[2, 2], pads=[(0, 1), (0, 1)]),
            note="full 11x9, output 10x8: the extra row/column cropped at the end (TensorFlow's SAME)")
    wtg = randn(4, 2, 3, 3, scale=0.3)
    fixture("conv_transpose_grouped_dilated", {"x": xt}, lambda x: mb.conv_transpose(x=x, weight=wtg, groups=2, dilations=[2, 1]),
            ref=lambda x: np_conv_transpose(x, wtg, None, dilations=[2, 1], groups=2))
    # fully connected and products
    xl, wl, bl = randn(3, 10), randn(7, 10, scale=0.3), randn(7)
    fixture("linear", {"x": xl}, lambda x: mb.linear(x=x, weight=wl, bias=bl))
    xl3 = randn(2, 3, 10)
    fixture("linear_rank3", {"x": xl3}, lambda x: mb.linear(x=x, weight=wl, bias=bl))
    fixture("linear_no_bias", {"x": xl}, lambda x: mb.linear(x=x, weight=wl))
    ma, mbb = randn(2, 3, 4), randn(2, 5, 4)
    fixture("matmul_transpose_y", {"x": ma, "y": mbb}, lambda x, y: mb.matmul(x=x, y=y, transpose_y=True))
    fixture("matmul_transpose_x", {"x": ma, "y": randn(2, 3, 6)}, lambda x, y: mb.matmul(x=x, y=y, transpose_x=True))
    mc = randn(5, 4)
    fixture("matmul_constant", {"x": ma}, lambda x: mb.matmul(x=x, y=mc, transpose_y=True))
    fixture("matmul_broadcast", {"x": randn(2, 1, 3, 4), "y": randn(5, 4, 2)}, lambda x, y: mb.matmul(x=x, y=y))
    q, k, v = randn(2, 3, 4, 8), randn(2, 3, 5, 8), randn(2, 3, 5, 6)
    fmask = randn(4, 5)
    fixture("scaled_dot_product_attention", {"q": q, "k": k, "v": v}, lambda q, k, v: mb.scaled_dot_product_attention(
        query=q, key=k, value=v, attn_mask=fmask), target=T18)
    bmask = rng.random((1, 4, 5)) > 0.3
    bmask[:, :, 0] = True
    fixture("scaled_dot_product_attention_bool_mask", {"q": q, "k": k, "v": v}, lambda q, k, v: mb.scaled_dot_product_attention(
        query=q, key=k, value=v, attn_mask=bmask), target=T18)
    fixture("einsum", {"x": randn(2, 3, 4, 5), "y": randn(2, 5, 4, 6)}, lambda x, y: mb.einsum(values=(x, y), equation="nchw,nwhu->nchu"))


def pooling():
    x = randn(1, 3, 9, 8)
    fixture("max_pool_valid", {"x": x}, lambda x: mb.max_pool(x=x, kernel_sizes=[3, 3], strides=[2, 2], pad_type="valid"),
            ref=lambda x: np_pool(x, "max", [3, 3], [2, 2], [(0, 0), (0, 0)]))
    fixture("max_pool_same", {"x": x}, lambda x: mb.max_pool(x=x, kernel_sizes=[3, 2], strides=[2, 2], pad_type="same"),
            ref=lambda x: np_pool(np.pad(x, [(0, 0), (0, 0), same_pads(9, 3, 2, 1), same_pads(8, 2, 2, 1)], constant_values=-np.inf),
                                  "max", [3, 2], [2, 2], [(0, 0), (0, 0)]))
    fixture("max_pool_ceil", {"x": x}, lambda x: mb.max_pool(x=x, kernel_sizes=[2, 3], strides=[2, 2], pad_type="custom", pad=[1, 1, 0, 0], ceil_mode=True),
            ref=lambda x: np_pool(x, "max", [2, 3], [2, 2], [(1, 1), (0, 0)], ceil=True))
    fixture("avg_pool_include_padding", {"x": x}, lambda x: mb.avg_pool(x=x, kernel_sizes=[3, 3], strides=[2, 2], pad_type="custom", pad=[1, 1, 1, 1]),
            ref=lambda x: np_pool(x, "avg", [3, 3], [2, 2], [(1, 1), (1, 1)]))
    fixture("avg_pool_exclude_padding", {"x": x}, lambda x: mb.avg_pool(
        x=x, kernel_sizes=[3, 3], strides=[2, 2], pad_type="custom", pad=[1, 1, 1, 1], exclude_padding_from_average=True),
        ref=lambda x: np_pool(x, "avg", [3, 3], [2, 2], [(1, 1), (1, 1)], exclude_padding=True))
    fixture("avg_pool_1d", {"x": randn(2, 3, 10)}, lambda x: mb.avg_pool(x=x, kernel_sizes=[4], strides=[3], pad_type="valid"),
            ref=lambda x: np_pool(x, "avg", [4], [3], [(0, 0)]))
    fixture("l2_pool", {"x": x}, lambda x: mb.l2_pool(x=x, kernel_sizes=[2, 2], strides=[2, 2], pad_type="valid"),
            ref=lambda x: np_pool(x, "l2", [2, 2], [2, 2], [(0, 0), (0, 0)]))
    fixture("global_average_pool", {"x": x}, lambda x: mb.reduce_mean(x=x, axes=[-2, -1], keep_dims=True))
    fixture("global_max_pool", {"x": x}, lambda x: mb.reduce_max(x=x, axes=[2, 3], keep_dims=True))


def normalizations():
    x = randn(2, 3, 4, 5, scale=2) + 1
    mean, var, gamma, beta = randn(3), uniform(0.5, 2, 3), randn(3), randn(3)
    fixture("batch_norm", {"x": x}, lambda x: mb.batch_norm(x=x, mean=mean, variance=var, gamma=gamma, beta=beta, epsilon=1e-3),
            ref=lambda x: (x - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-3) * gamma.reshape(1, 3, 1, 1) + beta.reshape(1, 3, 1, 1))
    fixture("batch_norm_no_affine", {"x": x}, lambda x: mb.batch_norm(x=x, mean=mean, variance=var),
            ref=lambda x: (x - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5))

    def inorm(x):
        m = x.mean(axis=(2, 3), keepdims=True)
        v = x.var(axis=(2, 3), keepdims=True)
        return (x - m) / np.sqrt(v + 1e-4) * gamma.reshape(1, 3, 1, 1) + beta.reshape(1, 3, 1, 1)
    fixture("instance_norm", {"x": x}, lambda x: mb.instance_norm(x=x, gamma=gamma, beta=beta, epsilon=1e-4), ref=inorm, tolerance=2e-5)
    g2, b2 = randn(4, 5), randn(4, 5)
    fixture("layer_norm_trailing", {"x": x}, lambda x: mb.layer_norm(x=x, axes=[-2, -1], gamma=g2, beta=b2, epsilon=1e-5), tolerance=2e-5)
    fixture("layer_norm_channels", {"x": x}, lambda x: mb.layer_norm(x=x, axes=[1], gamma=gamma, beta=beta), tolerance=2e-5)
    fixture("layer_norm_all", {"x": randn(3, 6)}, lambda x: mb.layer_norm(x=x, axes=[0, 1]), tolerance=2e-5)
    fixture("l2_norm", {"x": x}, lambda x: mb.l2_norm(x=x, epsilon=1e-4))

    def lrn(x, size=3, alpha=1e-2, beta_=0.6, k=1.5):
        sq = x.astype(np.float64) ** 2
        out = np.zeros_like(sq)
        c = x.shape[1]
        for i in range(c):
            lo, hi = max(0, i - (size - 1) // 2), min(c, i + size // 2 + 1)
            out[:, i] = x[:, i] / (k + alpha / size * sq[:, lo:hi].sum(1)) ** beta_
        return out
    fixture("local_response_norm", {"x": x}, lambda x: mb.local_response_norm(x=x, size=3, alpha=1e-2, beta=0.6, k=1.5), ref=lrn)


def reductions():
    x = uniform(0.2, 2, 2, 3, 4)
    for op in ["reduce_mean", "reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_l1_norm", "reduce_l2_norm",
               "reduce_log_sum", "reduce_log_sum_exp", "reduce_sum_square"]:
        fixture(op, {"x": x}, lambda x, op=op: getattr(mb, op)(x=x, axes=[0, 2], keep_dims=op in ("reduce_mean", "reduce_max")))
    fixture("reduce_sum_all", {"x": x}, lambda x: mb.reduce_sum(x=x))
    xr = randn(3, 5, 4)
    fixture("reduce_argmax", {"x": xr}, lambda x: mb.reduce_argmax(x=x, axis=1))
    fixture("reduce_argmin_keep", {"x": xr}, lambda x: mb.reduce_argmin(x=x, axis=-1, keep_dims=True))
    fixture("topk", {"x": xr}, lambda x: mb.topk(x=x, k=3, axis=1))
    fixture("topk_ascending", {"x": xr}, lambda x: mb.topk(x=x, k=2, axis=-1, ascending=True))
    fixture("argsort", {"x": xr}, lambda x: mb.argsort(x=x, axis=1))
    fixture("argsort_ascending", {"x": xr}, lambda x: mb.argsort(x=x, axis=-1, ascending=True))
    fixture("cumsum", {"x": xr}, lambda x: mb.cumsum(x=x, axis=1))
    fixture("cumsum_exclusive_reverse", {"x": xr}, lambda x: mb.cumsum(x=x, axis=2, exclusive=True, reverse=True),
            ref=lambda x: np.flip(np.cumsum(np.flip(x.astype(np.float64), 2), 2), 2) - x,
            note="numpy reference: coremltools' value_inference fails on exclusive cumsum")


def shapes():
    x = randn(2, 3, 4)
    fixture("reshape", {"x": x}, lambda x: mb.reshape(x=x, shape=[4, -1]))
    fixture("reshape_zero", {"x": x}, lambda x: mb.reshape(x=x, shape=[0, -1, 2]))
    fixture("transpose", {"x": x}, lambda x: mb.transpose(x=x, perm=[2, 0, 1]))
    x1 = randn(2, 1, 3, 1)
    fixture("squeeze_axes", {"x": x1}, lambda x: mb.squeeze(x=x, axes=[-1]))
    fixture("squeeze_all", {"x": x1}, lambda x: mb.squeeze(x=x))
    fixture("expand_dims", {"x": x}, lambda x: mb.expand_dims(x=x, axes=[0, -1]))
    fixture("flatten2d", {"x": x}, lambda x: mb.flatten2d(x=x, axis=2))
    fixture("flatten2d_negative", {"x": x}, lambda x: mb.flatten2d(x=x, axis=-1))
    y = randn(2, 5, 4)
    fixture("concat", {"x": x, "y": y}, lambda x, y: mb.concat(values=[x, y, x], axis=1))
    fixture("concat_interleave", {"x": x, "y": randn(2, 3, 4)}, lambda x, y: mb.concat(values=[x, y], axis=1, interleave=True),
            ref=lambda x, y: np.stack([x, y], axis=2).reshape(2, 6, 4),
            note="numpy reference from the op documentation (output[:, 0::2] = x, output[:, 1::2] = y): value_inference ignores interleave")
    fixture("split_num", {"x": randn(2, 6, 4)}, lambda x: mb.split(x=x, num_splits=3, axis=1))
    fixture("split_sizes", {"x": randn(2, 6, 4)}, lambda x: mb.split(x=x, split_sizes=[1, 3, 2], axis=1))
    fixture("stack", {"x": x, "y": randn(2, 3, 4)}, lambda x, y: mb.stack(values=[x, y], axis=2))
    fixture("tile", {"x": x}, lambda x: mb.tile(x=x, reps=[1, 2, 3]))
    xp = randn(1, 2, 4, 5)
    fixture("pad_constant", {"x": xp}, lambda x: mb.pad(x=x, pad=[1, 2, 0, 3], mode="constant", constant_val=0.5))
    fixture("pad_reflect", {"x": xp}, lambda x: mb.pad(x=x, pad=[1, 2, 2, 1], mode="reflect"))
    fixture("pad_replicate", {"x": xp}, lambda x: mb.pad(x=x, pad=[0, 0, 0, 0, 2, 1, 1, 3], mode="replicate"))
    xs = randn(4, 6, 5)
    fixture("slice_by_index", {"x": xs}, lambda x: mb.slice_by_index(x=x, begin=[1, 0, 1], end=[3, 6, 5], stride=[1, 2, 2]))
    fixture("slice_by_index_masks", {"x": xs}, lambda x: mb.slice_by_index(
        x=x, begin=[0, 5, 2], end=[2, 0, 4], stride=[1, -2, 1], begin_mask=[True, False, False], end_mask=[False, True, False]))
    fixture("slice_by_index_squeeze", {"x": xs}, lambda x: mb.slice_by_index(
        x=x, begin=[1, -1, 0], end=[2, 0, 5], squeeze_mask=[True, True, False]))
    fixture("slice_by_index_negative", {"x": xs}, lambda x: mb.slice_by_index(x=x, begin=[-3, -1, -4], end=[-1, -6, -1], stride=[1, -1, 2]))
    fixture("slice_by_size", {"x": xs}, lambda x: mb.slice_by_size(x=x, begin=[1, 2, 0], size=[2, -1, 3]))
    idx = np.array([[2, 0], [1, 1], [0, 2]], np.int32)
    fixture("gather", {"x": xs}, lambda x: mb.gather(x=x, indices=idx, axis=1))
    fixture("gather_runtime_indices", {"x": xs, "i": np.array([3, 0, 3, 1], np.int32)}, lambda x, i: mb.gather(x=x, indices=i, axis=0))
    gi = rng.integers(0, 6, (4, 2, 5)).astype(np.int32)
    fixture("gather_along_axis", {"x": xs}, lambda x: mb.gather_along_axis(x=x, indices=gi, axis=1))
    ndi = np.array([[0, 1], [3, 5], [2, 2]], np.int32)
    fixture("gather_nd", {"x": xs}, lambda x: mb.gather_nd(x=x, indices=ndi), ref=lambda x: x[ndi[:, 0], ndi[:, 1]])
    fixture("space_to_depth", {"x": randn(1, 2, 4, 6)}, lambda x: mb.space_to_depth(x=x, block_size=2), ref=lambda x: np_space_to_depth(x, 2))
    fixture("depth_to_space", {"x": randn(1, 8, 2, 3)}, lambda x: mb.depth_to_space(x=x, block_size=2), ref=lambda x: np_depth_to_space(x, 2))
    fixture("pixel_shuffle", {"x": randn(1, 8, 2, 3)}, lambda x: mb.pixel_shuffle(x=x, upscale_factor=2), ref=lambda x: np_pixel_shuffle(x, 2))
    fixture("pixel_unshuffle", {"x": randn(1, 2, 4, 6)}, lambda x: mb.pixel_unshuffle(x=x, downscale_factor=np.uint32(2)),
            ref=lambda x: np_pixel_unshuffle(x, 2), target=T16)
    fixture("reverse", {"x": xs}, lambda x: mb.reverse(x=x, axes=[0, 2]))
    fixture("identity", {"x": xs}, lambda x: mb.mul(x=mb.identity(x=x), y=2.0))
    fixture("one_hot", {"i": np.array([[1, 3], [0, 2]], np.int32)}, lambda i: mb.one_hot(indices=i, one_hot_vector_size=4, axis=1, on_value=2.0, off_value=-1.0),
            ref=lambda i: np.where(np.arange(4).reshape(1, 4, 1) == i[:, None, :], 2.0, -1.0))
    fixture("shape_static", {"x": xs}, lambda x: mb.add(x=x, y=mb.reduce_sum(x=mb.cast(x=mb.shape(x=x), dtype="fp32"))),
            ref=lambda x: x + 15.0, note="shape of a static tensor: a constant")
    fixture("fill", {"x": xs}, lambda x: mb.add(x=mb.fill(shape=[4, 6, 5], value=1.5), y=x), ref=lambda x: x + 1.5)
    xb = randn(2, 5, 6)
    fixture("band_part", {"x": xb}, lambda x: mb.band_part(x=x, lower=1, upper=2))
    fixture("band_part_lower", {"x": xb}, lambda x: mb.band_part(x=x, lower=-1, upper=0))
    sai = np.array([[[0, 2], [1, 0], [3, 2]], [[1, 3], [0, 2], [2, 0]]], np.int32)   # distinct within each row
    sau = randn(2, 3, 2)
    for mode in ["update", "add", "sub", "mul"]:
        fixture(f"scatter_along_axis_{mode}", {"x": randn(2, 3, 4)}, lambda x, mode=mode: mb.scatter_along_axis(
            data=x, indices=sai, updates=sau, axis=2, mode=mode),
            ref=lambda x, mode=mode: scatter_along_axis_reference(x, sai, sau, 2, mode))
    ndi2 = np.array([[0, 1], [1, 2], [0, 1]], np.int32)
    ndu = randn(3, 4)
    for mode in ["update", "add"]:
        fixture(f"scatter_nd_{mode}", {"x": randn(2, 3, 4)}, lambda x, mode=mode: mb.scatter_nd(data=x, indices=ndi2 if mode == "add" else ndi2[:2], updates=ndu if mode == "add" else ndu[:2], mode=mode),
                ref=lambda x, mode=mode: scatter_nd_reference(x, ndi2 if mode == "add" else ndi2[:2], ndu if mode == "add" else ndu[:2], mode),
                note="indices repeat in the add case")
    fixture("fill_like", {"x": xs}, lambda x: mb.add(x=mb.fill_like(ref_tensor=x, value=2.5), y=x), ref=lambda x: x + 2.5, target=T16)
    fixture("fill_runtime_shape", {"s": np.array([2, 3], np.int32)}, lambda s: mb.fill(shape=s, value=-1.5), ref=lambda s: np.full((2, 3), -1.5))
    fixture("non_zero", {"x": np.array([[0, 1.5, 0], [2, 0, -1]], np.float32)}, lambda x: mb.non_zero(x=x))
    fixture("range_1d", {"n": np.array([7], np.int32)}, lambda n: mb.range_1d(start=2, end=mb.squeeze(x=n), step=2),
            ref=lambda n: np.arange(2, 7, 2))
    fixture("crop", {"x": randn(1, 2, 6, 7)}, lambda x: mb.crop(x=x, crop_height=[1, 2], crop_width=[2, 0]),
            ref=lambda x: x[:, :, 1:4, 2:])


def resizing():
    x = randn(1, 2, 3, 4)
    fixture("upsample_nearest_neighbor", {"x": x}, lambda x: mb.upsample_nearest_neighbor(x=x, scale_factor_height=2, scale_factor_width=3),
            ref=lambda x: np_nearest(x, 6, 12))
    fixture("resize_nearest_neighbor", {"x": x}, lambda x: mb.resize_nearest_neighbor(x=x, target_size_height=5, target_size_width=7),
            ref=lambda x: np_nearest(x, 5, 7))
    fixture("upsample_bilinear_align_corners", {"x": x}, lambda x: mb.upsample_bilinear(x=x, scale_factor_height=2.0, scale_factor_width=2.5, align_corners=True),
            ref=lambda x: np_resize_bilinear(x, 6, 10, "STRICT_ALIGN_CORNERS"))
    fixture("upsample_bilinear_half_pixel", {"x": x}, lambda x: mb.upsample_bilinear(x=x, scale_factor_height=2, scale_factor_width=2, align_corners=False),
            ref=lambda x: np_resize_bilinear(x, 6, 8, "UNALIGN_CORNERS"))
    fixture("upsample_bilinear_asymmetric", {"x": x}, lambda x: mb.upsample_bilinear(
        x=x, scale_factor_height=2, scale_factor_width=2, align_corners=False, half_pixel_centers=False),
        ref=lambda x: np_resize_bilinear(x, 6, 8, "DEFAULT"), target=T16)
    for mode in ["DEFAULT", "STRICT_ALIGN_CORNERS", "ALIGN_CORNERS", "OFFSET_CORNERS", "UNALIGN_CORNERS"]:
        fixture("resize_bilinear_" + mode.lower(), {"x": x}, lambda x, mode=mode: mb.resize_bilinear(
            x=x, target_size_height=5, target_size_width=7, sampling_mode=mode),
            ref=lambda x, mode=mode: np_resize_bilinear(x, 5, 7, mode))
    fixture("resize_bilinear_downscale", {"x": randn(1, 2, 7, 9)}, lambda x: mb.resize_bilinear(
        x=x, target_size_height=3, target_size_width=4, sampling_mode="UNALIGN_CORNERS"),
        ref=lambda x: np_resize_bilinear(x, 3, 4, "UNALIGN_CORNERS"))
    fixture("resize_bilinear_rank3", {"x": randn(2, 3, 4)}, lambda x: mb.resize_bilinear(x=x, target_size_height=6, target_size_width=8, sampling_mode="ALIGN_CORNERS"),
            ref=lambda x: np_resize_bilinear(x, 6, 8, "ALIGN_CORNERS"))
    fixture("resize_ios17", {"x": x}, lambda x: mb.resize(x=x, shape=np.array([6, 5], np.int32), resized_dims=np.uint32(2),
                                                          interpolation_mode="LINEAR", sampling_mode="UNALIGN_CORNERS"),
            ref=lambda x: np_resize_bilinear(x, 6, 5, "UNALIGN_CORNERS"), target=T17)
    img = randn(2, 3, 6, 7)
    boxes = np.array([[0.1, 0.2, 0.8, 0.9], [0.0, 0.0, 1.0, 1.0], [-0.2, 0.3, 0.5, 1.2]], np.float32)
    idx = np.array([1, 0, 1], np.int32)
    roi = np.concatenate([idx[:, None].astype(np.float32), boxes], 1).reshape(3, 1, 5, 1, 1)
    fixture("crop_resize", {"x": img}, lambda x: mb.crop_resize(x=x, roi=roi, target_height=4, target_width=5, normalized_coordinates=True,
                                                                box_coordinate_mode="CORNERS_HEIGHT_FIRST", sampling_mode="ALIGN_CORNERS"),
            ref=lambda x: np_crop_resize(x, boxes, idx, 4, 5, True)[:, None], note="TensorFlow CropAndResize; the third box leaves the image")
    fixture("crop_resize_ios17", {"x": img}, lambda x: mb.crop_resize(
        x=x, boxes=boxes * np.array([5, 6, 5, 6], np.float32), box_indices=idx, target_height=3, target_width=3,
        normalized_coordinates=False, sampling_mode="ALIGN_CORNERS", pad_value=-1.0),
        ref=lambda x: np_crop_resize(x, boxes * np.array([5, 6, 5, 6], np.float32), idx, 3, 3, False, pad=-1.0), target=T17)


def quantization_ops():
    x = randn(2, 3, 4)
    fixture("quantize_dequantize", {"x": x}, lambda x: mb.dequantize(
        input=mb.quantize(input=x, scale=np.float32(0.02), zero_point=np.int8(3), output_dtype="int8"), scale=np.float32(0.02), zero_point=np.int8(3)),
        ref=lambda x: (np.clip(np.round(x / np.float32(0.02)) + 3, -128, 127) - 3) * np.float32(0.02), target=T17, tolerance=1e-6)
    fixture("dequantize_per_channel", {"x": x}, lambda x: mb.dequantize(
        input=mb.quantize(input=x, scale=np.array([0.01, 0.02, 0.05], np.float32), axis=1, output_dtype="uint8",
                          zero_point=np.array([128, 120, 100], np.uint8)),
        scale=np.array([0.01, 0.02, 0.05], np.float32), axis=1, zero_point=np.array([128, 120, 100], np.uint8)),
        ref=lambda x: (np.clip(np.round(x / np.array([0.01, 0.02, 0.05], np.float32).reshape(1, 3, 1)) + np.array([128, 120, 100]).reshape(1, 3, 1), 0, 255)
                       - np.array([128, 120, 100]).reshape(1, 3, 1)) * np.array([0.01, 0.02, 0.05], np.float32).reshape(1, 3, 1),
        target=T17, tolerance=1e-6)


def fp16_programs():
    """Programs converted with fp16 compute (coremltools' default): fp16 weights and casts around them.
    Expected: the fp32 math with every constant rounded to fp16 (what the converter computes)."""
    x = randn(1, 3, 6, 6)
    w, b = randn(4, 3, 3, 3, scale=0.3), randn(4)
    w16, b16 = w.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32)
    fixture("fp16_conv_relu", {"x": x}, lambda x: mb.relu(x=mb.conv(x=x, weight=w, bias=b, pad_type="same")),
            ref=lambda x: np.maximum(np_conv(x, w16, b16, pads=[(1, 1), (1, 1)]), 0), precision=ct.precision.FLOAT16, tolerance=1e-5)
    g = randn(6)
    fixture("fp16_layer_norm_softmax", {"x": randn(2, 6)}, lambda x: mb.softmax(x=mb.layer_norm(x=x, axes=[-1], gamma=g, epsilon=1e-3)),
            ref=lambda x: (lambda z: np.exp(z - z.max(-1, keepdims=True)) / np.exp(z - z.max(-1, keepdims=True)).sum(-1, keepdims=True))(
                (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + np.float16(1e-3).astype(np.float64)) * g.astype(np.float16).astype(np.float32)),
            precision=ct.precision.FLOAT16, tolerance=2e-5)


def fp16_io():
    """fp16 program inputs and outputs (iOS 16+): float32 ONNX values at the boundary."""
    x = randn(2, 6).astype(np.float16).astype(np.float32)

    @mb.program(input_specs=[mb.TensorSpec(shape=(2, 6), dtype=types.fp16)], opset_version=T16)
    def prog(x):
        return mb.softmax(x=mb.mul(x=x, y=np.float16(2.0)))
    model = convert(prog, T16, ct.precision.FLOAT16, inputs=[ct.TensorType(name="x", shape=(2, 6), dtype=np.float16)])
    z = x.astype(np.float64) * 2
    e = np.exp(z - z.max(-1, keepdims=True))
    save("fp16_input_output", model, {"x": x}, [e / e.sum(-1, keepdims=True)], T16, 1e-5, "numpy reference",
         note="the program's input and output are fp16 (float32 in the ONNX graph)")


def flexible():
    """A flexible input (RangeDim, default 8x8): unknown dims in the program, shapes read at run time."""
    w = randn(2, 3, 3, 3, scale=0.3)

    from coremltools.converters.mil.mil import get_new_symbol
    h, wd = get_new_symbol(), get_new_symbol()

    @mb.program(input_specs=[mb.TensorSpec(shape=(1, 3, h, wd))], opset_version=T15)
    def prog2(x):
        y = mb.conv(x=x, weight=w, pad_type="same")
        s = mb.shape(x=y)
        flat = mb.reshape(x=y, shape=mb.concat(values=[mb.slice_by_index(x=s, begin=[0], end=[2]), [-1]], axis=0))
        return mb.softmax(x=flat, axis=-1)
    xin = randn(1, 3, 5, 7)
    conv = np_conv(xin, w, None, pads=[(1, 1), (1, 1)]).reshape(1, 2, -1)
    ref = np.exp(conv - conv.max(-1, keepdims=True))
    ref /= ref.sum(-1, keepdims=True)
    model = convert(prog2, T15, inputs=[ct.TensorType(name="x", shape=ct.Shape(shape=(1, 3, ct.RangeDim(4, 16, default=8), ct.RangeDim(4, 16, default=8))))])
    save("flexible_shape", model, {"x": xin}, [ref], T15, 1e-5, "numpy reference", note="input dims 2 and 3 flexible (RangeDim 4...16)")

    # `shape` of a flexible tensor stays an operation: the sizes are read at run time.
    h2 = get_new_symbol()

    @mb.program(input_specs=[mb.TensorSpec(shape=(2, h2))], opset_version=T15)
    def prog3(x):
        return mb.mul(x=x, y=mb.reduce_prod(x=mb.cast(x=mb.shape(x=x), dtype="fp32")))
    xin3 = randn(2, 5)
    model = convert(prog3, T15, inputs=[ct.TensorType(name="x", shape=ct.Shape(shape=(2, ct.RangeDim(1, 10, default=3))))])
    save("flexible_shape_op", model, {"x": xin3}, [xin3 * 10.0], T15, 1e-5, "numpy reference", note="shape of a flexible tensor at run time")


def unsupported():
    x = randn(2, 4)
    unsupported_fixture("unsupported_reverse_sequence", {"x": x}, lambda x: mb.reverse_sequence(
        x=x, lengths=np.array([2, 3], np.int32), seq_axis=1, batch_axis=0), "reverse_sequence")
    unsupported_fixture("unsupported_scatter", {"x": x}, lambda x: mb.scatter(data=x, indices=np.array([1], np.int32),
                                                                              updates=np.ones((1, 4), np.float32)), "scatter")


# ---------------------------------------------------------------------------------------------
# compressed weights
# ---------------------------------------------------------------------------------------------
def decompressed_weights(model):
    """{conv/linear op name: (weight, bias)} as Core ML expands them: coremltools' materialized values."""
    from coremltools.converters.mil.frontend.milproto.load import load as milproto_load
    spec = model.get_spec()
    prog = milproto_load(spec, specification_version=spec.specificationVersion, file_weights_dir=model.weights_dir)
    def materialize(var):
        if var.val is not None:
            return var.val
        op = var.op
        if op.op_type == "constexpr_lut_to_dense" and not hasattr(op, "shape"):   # iOS 18: its LUT may be an expression
            return op.decompress(materialize(op.indices), materialize(op.lut), None if op.vector_axis is None else op.vector_axis.val)
        val = op.materialized_val_inference()
        return val[list(op.outputs).index(var)] if isinstance(val, tuple) else val

    out = {}
    for op in prog.functions["main"].operations:
        if op.op_type not in ("conv", "linear", "matmul"):
            continue
        val = materialize(op.weight if op.op_type != "matmul" else op.y)
        bias = getattr(op, "bias", None)
        out[op.op_type] = (np.asarray(val, np.float64), None if bias is None else np.asarray(bias.val, np.float64))
    return out


def compressed_program(target):
    wc, bc = randn(16, 8, 3, 3, scale=0.2), randn(16, scale=0.1)
    wl, bl = randn(10, 16, scale=0.3), randn(10, scale=0.1)

    @mb.program(input_specs=[mb.TensorSpec(shape=(1, 8, 6, 6))], opset_version=target)
    def prog(x):
        y = mb.relu(x=mb.conv(x=x, weight=wc, bias=bc, pad_type="same"))
        y = mb.reduce_mean(x=y, axes=[2, 3])
        return mb.linear(x=y, weight=wl, bias=bl)
    return prog


def compressed_reference(x, weights):
    wc, bc = weights["conv"]
    wl, bl = weights["linear"]
    y = np.maximum(np_conv(x, wc, bc, pads=[(1, 1), (1, 1)]), 0).mean(axis=(2, 3))
    return y @ wl.T + bl


def cto_fixture(name, target, compress, note):
    model = convert(compressed_program(target), target, ct.precision.FLOAT16)
    model = compress(model)
    ops = {op.type for op in model.get_spec().mlProgram.functions["main"].block_specializations[
        model.get_spec().mlProgram.functions["main"].opset].operations}
    x = randn(1, 8, 6, 6)
    y = compressed_reference(x, decompressed_weights(model))
    save(name, model, {"x": x}, [y], target, 1e-4, "the file's weights as coremltools expands them; fp32 math",
         note=note + "; ops: " + ", ".join(sorted(o for o in ops if o.startswith("constexpr"))))


def compression():
    def pal(**kw):
        return lambda m: cto.palettize_weights(m, cto.OptimizationConfig(global_config=cto.OpPalettizerConfig(weight_threshold=1, **kw)))

    def lin(**kw):
        return lambda m: cto.linear_quantize_weights(m, cto.OptimizationConfig(global_config=cto.OpLinearQuantizerConfig(weight_threshold=1, **kw)))

    def prune(**kw):
        return lambda m: cto.prune_weights(m, cto.OptimizationConfig(global_config=cto.OpMagnitudePrunerConfig(weight_threshold=1, **kw)))

    for bits in [1, 2, 4, 6, 8]:
        cto_fixture(f"ios16_palettize_uniform_{bits}bit", T16, pal(mode="uniform", nbits=bits), f"iOS 16 LUT, {bits}-bit indices")
    cto_fixture("ios16_linear_int8_symmetric", T16, lin(mode="linear_symmetric", dtype="int8"), "iOS 16 affine per channel")
    cto_fixture("ios16_linear_uint8_asymmetric", T16, lin(mode="linear", dtype="uint8", granularity="per_tensor"), "iOS 16 affine per tensor, zero point")
    cto_fixture("ios16_prune_sparse", T16, prune(target_sparsity=0.6), "iOS 16 sparse mask")
    cto_fixture("ios18_palettize_grouped_4bit", T18, pal(mode="uniform", nbits=4, granularity="per_grouped_channel", group_size=4),
                "iOS 18 LUT per group of 4 output channels")
    cto_fixture("ios18_palettize_grouped_3bit", T18, pal(mode="uniform", nbits=3, granularity="per_grouped_channel", group_size=8),
                "iOS 18 LUT, uint3 indices")
    cto_fixture("ios18_palettize_per_channel_2bit", T18, pal(mode="uniform", nbits=2, granularity="per_grouped_channel", group_size=1),
                "iOS 18 LUT per output channel")
    cto_fixture("ios18_palettize_int8_lut", T18, lambda m: cto.linear_quantize_weights(
        pal(mode="uniform", nbits=4)(m), cto.OptimizationConfig(global_config=cto.OpLinearQuantizerConfig(
            mode="linear_symmetric", dtype="int8", granularity="per_tensor", weight_threshold=1)), joint_compression=True),
        "iOS 18 LUT quantized to int8 (shift-scale on the LUT)")
    cto_fixture("ios18_palettize_per_channel_scale", T18, pal(mode="uniform", nbits=4, enable_per_channel_scale=True),
                "iOS 18 LUT with per-channel scales")
    cto_fixture("ios18_linear_int4_block", T18, lin(mode="linear_symmetric", dtype="int4", granularity="per_block", block_size=4),
                "iOS 18 int4 block-wise (4 along the input axis)")
    cto_fixture("ios18_linear_uint4_block_offset", T18, lin(mode="linear", dtype="uint4", granularity="per_block", block_size=8),
                "iOS 18 uint4 block-wise with offsets")
    cto_fixture("ios18_linear_int8_channel", T18, lin(mode="linear_symmetric", dtype="int8"), "iOS 18 int8 per channel")

    def joint(second):
        def f(m):
            m = prune(target_sparsity=0.5)(m)
            cfg = second(joint_compression=True)
            return (cto.palettize_weights if isinstance(cfg, cto.OpPalettizerConfig) else cto.linear_quantize_weights)(
                m, cto.OptimizationConfig(global_config=cfg), joint_compression=True)
        return f
    cto_fixture("ios18_prune_palettize", T18, lambda m: cto.palettize_weights(
        prune(target_sparsity=0.5)(m), cto.OptimizationConfig(global_config=cto.OpPalettizerConfig(mode="uniform", nbits=2, weight_threshold=1)),
        joint_compression=True), "iOS 18 sparse + LUT (lut_to_sparse)")
    cto_fixture("ios18_prune_quantize", T18, lambda m: cto.linear_quantize_weights(
        prune(target_sparsity=0.5)(m), cto.OptimizationConfig(global_config=cto.OpLinearQuantizerConfig(mode="linear_symmetric", dtype="int8", weight_threshold=1)),
        joint_compression=True), "iOS 18 sparse + int8 (sparse_blockwise_shift_scale)")

    # Written with the builder: forms the optimizer does not produce from these settings.
    x = randn(3, 8)
    from coremltools.converters.mil.mil.types import np_uint2_dtype, np_uint6_dtype, np_uint1_dtype

    def matmul_fixture(name, make_weight, target, note, precision=ct.precision.FLOAT16):
        arrays = {"x": x}
        def build(x):
            w = make_weight()
            if w.dtype == types.fp16:
                return mb.cast(x=mb.linear(x=mb.cast(x=x, dtype="fp16"), weight=w), dtype="fp32")
            return mb.linear(x=x, weight=w)
        prog = make_program(arrays, build, target)
        model = convert(prog, target, precision)
        w, _ = decompressed_weights(model)["linear"]
        save(name, model, arrays, [x.astype(np.float64) @ w.T], target, 1e-4, "coremltools materialized_val_inference; fp32 math", note=note)

    vidx = rng.integers(0, 4, (6, 4)).astype(np_uint2_dtype)
    vlut = randn(1, 1, 4, 2, scale=0.5).astype(np.float16)
    matmul_fixture("ios18_lut_vector", lambda: mb.constexpr_lut_to_dense(indices=vidx, lut=vlut, vector_axis=1), T18,
                   "vector palette of 2 along axis 1")
    gidx = rng.integers(0, 64, (6, 8)).astype(np_uint6_dtype)
    glut = randn(3, 2, 64, 1, scale=0.5).astype(np.float16)
    matmul_fixture("ios18_lut_6bit_blocks", lambda: mb.constexpr_lut_to_dense(indices=gidx, lut=glut), T18,
                   "6-bit indices, palettes per block of 2 rows x 4 columns")
    mask = (rng.random((6, 8)) > 0.4).astype(np_uint1_dtype)
    nz = randn(int(mask.sum()), scale=0.5).astype(np.float16)
    matmul_fixture("ios18_sparse_to_dense", lambda: mb.constexpr_sparse_to_dense(nonzero_data=nz, mask=mask), T18, "uint1 mask")
    q = rng.integers(-8, 8, (6, 8)).astype(types.np_int4_dtype)
    sc = uniform(0.01, 0.1, 6, 2).astype(np.float16)
    off = rng.integers(-2, 2, (6, 2)).astype(types.np_int4_dtype)
    matmul_fixture("ios18_blockwise_int4_offset", lambda: mb.constexpr_blockwise_shift_scale(data=q, scale=sc, offset=off), T18,
                   "int4 data and offsets, fp16 scales per 4 columns")
    fsc = uniform(0.5, 1.5, 1, 8).astype(np.float16)
    foff = randn(1, 8, scale=0.1).astype(np.float16)
    qf = randn(6, 8).astype(np.float16)
    matmul_fixture("ios18_blockwise_float_offset", lambda: mb.constexpr_blockwise_shift_scale(data=qf, scale=fsc, offset=foff), T18,
                   "fp16 data and offsets (each step rounded to fp16)")
    q8 = rng.integers(0, 255, (6, 8)).astype(np.uint8)
    matmul_fixture("ios16_affine_uint8_axis1", lambda: mb.constexpr_affine_dequantize(
        quantized_data=q8, zero_point=np.uint8(128), scale=uniform(0.001, 0.01, 8).astype(np.float16), axis=1), T16, "scale along axis 1")
    matmul_fixture("ios16_constexpr_cast", lambda: mb.constexpr_cast(source_val=randn(6, 8).astype(np.float16), output_dtype="fp32"), T16,
                   "fp16 source cast to fp32", precision=ct.precision.FLOAT32)
    pidx = np.packbits(rng.integers(0, 2, 48).astype(np.uint8), bitorder="little")
    matmul_fixture("ios16_lut_1bit", lambda: mb.constexpr_lut_to_dense(indices=pidx, lut=np.array([-0.25, 0.5], np.float16), shape=np.array([6, 8], np.uint32)),
                   T16, "1-bit indices packed LSB first")


def blob_file():
    """A weight file written by coremltools' own blob writer (libmilstoragepython, MILBlob's C++ StorageWriter):
    one blob of every type it writes, with the values, for the reader's test."""
    from coremltools.libmilstoragepython import _BlobStorageWriter
    path = os.path.join(OUT, "blobs.bin")
    writer = _BlobStorageWriter(path)
    entries = []

    def put(kind, method, values, stored=None):
        offset = getattr(writer, method)(np.ascontiguousarray(stored if stored is not None else values))
        entries.append({"dtype": kind, "offset": int(offset), "values": [float(v) for v in np.asarray(values, np.float64).ravel()]})

    put("fp32", "write_float_data", randn(7))
    h = randn(9).astype(np.float16)
    put("fp16", "write_fp16_data", h.astype(np.float32), stored=h.view(np.uint16))
    put("uint8", "write_uint8_data", rng.integers(0, 256, 11).astype(np.uint8))
    put("int8", "write_int8_data", rng.integers(-128, 128, 10).astype(np.int8))
    put("int16", "write_int16_data", rng.integers(-30000, 30000, 5).astype(np.int16))
    put("uint16", "write_uint16_data", rng.integers(0, 65536, 5).astype(np.uint16))
    put("int32", "write_int32_data", rng.integers(-2**31, 2**31 - 1, 4).astype(np.int32))
    put("uint32", "write_uint32_data", rng.integers(0, 2**32 - 1, 4, dtype=np.uint64).astype(np.uint32))
    put("int4", "write_int4_data", rng.integers(-8, 8, 13).astype(np.int8))
    for bits in [1, 2, 3, 4, 6]:
        put(f"uint{bits}", f"write_uint{bits}_data", rng.integers(0, 2 ** bits, 13 + bits).astype(np.uint8))
    del writer
    with open(os.path.join(OUT, "blobs.json"), "w") as f:
        json.dump({"file": "blobs.bin", "writer": "coremltools.libmilstoragepython._BlobStorageWriter", "blobs": entries}, f, indent=0)
    print(f"blobs.bin: {len(entries)} blobs, {os.path.getsize(path)} bytes")


# ---------------------------------------------------------------------------------------------
# model.mil text, as Xcode's Core ML compiler writes it into .mlmodelc folders
# ---------------------------------------------------------------------------------------------
PROTO_TYPES = {1: "bool", 2: "string", 10: "fp16", 11: "fp32", 12: "fp64", 13: "bf16", 21: "int8", 22: "int16", 23: "int32",
               24: "int64", 25: "int4", 31: "uint8", 32: "uint16", 33: "uint32", 34: "uint64", 35: "uint4", 36: "uint2",
               37: "uint1", 38: "uint6", 39: "uint3"}
SUB_BYTE = {"int4": 4, "uint1": 1, "uint2": 2, "uint3": 3, "uint4": 4, "uint6": 6}


def mil_text(program, verbose=False):
    """The ML Program as model.mil text. verbose: program(1.0)'s spelling (tensor<string, []>("x") scalars),
    else program(1.3)'s (string("x")). Floats as C hex floats, arguments and attributes sorted by name."""
    from coremltools.optimize import _utils as optimize_utils

    def vtype(t):
        kind = t.WhichOneof("type")
        if kind == "tensorType":
            tt = t.tensorType
            dt = PROTO_TYPES[tt.dataType]
            if tt.rank == 0 and not verbose:
                return dt
            if tt.rank < 0:
                return f"tensor<{dt}, [*]>"
            dims = ["?" if d.WhichOneof("dimension") == "unknown" else str(d.constant.size) for d in tt.dimensions]
            return f"tensor<{dt}, [{', '.join(dims)}]>"
        if kind == "listType":
            n = t.listType.length
            return f"list<{vtype(t.listType.type)}, {n.constant.size if n.WhichOneof('dimension') == 'constant' else '?'}>"
        if kind == "tupleType":
            return "tuple<" + ", ".join(vtype(x) for x in t.tupleType.types) + ">"
        if kind == "dictionaryType":
            return f"dict<{vtype(t.dictionaryType.keyType)}, {vtype(t.dictionaryType.valueType)}>"
        raise NotImplementedError(kind)

    def number(x, dt):
        if dt.startswith("fp") or dt == "bf16":
            if not np.isfinite(x):
                return "inf" if x > 0 else "-inf" if x < 0 else "nan"
            mantissa, exponent = float(x).hex().split("p")          # 0x1.0f80000000000p-1 -> 0x1.0f8p-1
            mantissa = mantissa.rstrip("0").rstrip(".")
            return f"{mantissa}p{exponent}"
        return str(int(x))

    def literal_items(tv, dt, count):
        kind = tv.WhichOneof("value")
        if kind == "bytes":
            raw = tv.bytes.values
            if dt in SUB_BYTE:
                vals = optimize_utils.restore_elements_from_packed_bits(np.frombuffer(raw, np.uint8), SUB_BYTE[dt], count, dt == "int4")
            else:
                vals = np.frombuffer(raw, {"fp16": np.float16, "int8": np.int8, "uint8": np.uint8, "uint32": np.uint32,
                                           "int16": np.int16, "uint16": np.uint16}[dt])
            return [number(v, dt) for v in vals]
        if kind == "strings":
            return ['"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in tv.strings.values]
        if kind == "bools":
            return ["true" if v else "false" for v in tv.bools.values]
        vals = {"floats": tv.floats.values, "ints": tv.ints.values, "longInts": tv.longInts.values, "doubles": tv.doubles.values}[kind]
        return [number(v, dt) for v in vals]

    def value(v):
        t = vtype(v.type)
        if v.WhichOneof("value") == "blobFileValue":
            b = v.blobFileValue
            path = f'tensor<string, []>("{b.fileName}")' if verbose else f'string("{b.fileName}")'
            off = f"tensor<uint64, []>({b.offset})" if verbose else f"uint64({b.offset})"
            return f"{t}(BLOBFILE(path = {path}, offset = {off}))"
        iv = v.immediateValue
        kind = iv.WhichOneof("value")
        if kind == "tensor":
            tt = v.type.tensorType
            count = int(np.prod([d.constant.size for d in tt.dimensions])) if tt.rank > 0 else 1
            items = literal_items(iv.tensor, PROTO_TYPES[tt.dataType], count)
            body = items[0] if tt.rank == 0 else "[" + ", ".join(items) + "]"
            return f"{t}({body})"
        if kind == "list":
            return f"{t}([" + ", ".join(value(x) for x in iv.list.values) + "])"
        if kind == "tuple":
            return f"{t}((" + ", ".join(value(x) for x in iv.tuple.values) + "))"
        if kind == "dictionary":   # entries as bare literals: {{"k", "v"}, ...}
            return f"{t}({{" + ", ".join("{" + bare(e.key) + ", " + bare(e.value) + "}" for e in iv.dictionary.values) + "})"
        raise NotImplementedError(kind)

    def bare(v):
        text = value(v)
        return text[text.index("(") + 1:-1] if v.type.tensorType.rank == 0 else text

    def argument(arg):
        items = [b.name if b.WhichOneof("binding") == "name" else value(b.value) for b in arg.arguments]
        return items[0] if len(items) == 1 else "(" + ", ".join(items) + ")"

    lines = [f"program({'1.0' if verbose else '1.3'})"]
    attrs = program.attributes
    if attrs:
        lines.append("[" + ", ".join(f"{k} = {value(attrs[k])}" for k in sorted(attrs)) + "]")
    lines.append("{")
    for fname, f in program.functions.items():
        params = ", ".join(f"{vtype(i.type)} {i.name}" for i in f.inputs)
        lines.append(f"    func {fname}<{f.opset}>({params}) {{")
        block = f.block_specializations[f.opset]
        for op in block.operations:
            outs = ", ".join(f"{vtype(o.type)} {o.name}" for o in op.outputs)
            args = ", ".join(f"{k} = {argument(op.inputs[k])}" for k in sorted(op.inputs))
            at = ", ".join(f"{k} = {value(op.attributes[k])}" for k in sorted(op.attributes))
            lines.append(f"            {outs} = {op.type}({args})" + (f"[{at}]" if at else "") + ";")
        lines.append(f"    }} -> ({', '.join(block.outputs)});")
    lines.append("}")
    return "\n".join(lines) + "\n"


TEXT_FIXTURES = ["conv_same_stride2", "conv_transpose_output_shape", "linear", "matmul_transpose_y", "max_pool_ceil",
                 "avg_pool_exclude_padding", "batch_norm", "layer_norm_trailing", "reduce_argmax", "topk", "concat", "split_sizes",
                 "slice_by_index_masks", "pad_reflect", "gather", "upsample_bilinear_align_corners", "resize_bilinear_offset_corners",
                 "crop_resize", "gelu_tanh_approximation", "prelu", "cast_int32_fp32", "select", "flexible_shape", "fp16_conv_relu",
                 "quantize_dequantize", "ios16_palettize_uniform_4bit", "ios16_linear_uint8_asymmetric", "ios16_prune_sparse",
                 "ios16_lut_1bit", "ios18_palettize_grouped_3bit", "ios18_linear_int4_block", "ios18_prune_palettize",
                 "ios18_lut_vector", "ios18_blockwise_int4_offset", "unsupported_reverse_sequence"]


def text_fixtures():
    """model.mil renderings of some fixtures (alternately in program(1.0) and program(1.3) spelling)."""
    from coremltools.proto import MIL_pb2
    for k, name in enumerate(TEXT_FIXTURES):
        program = MIL_pb2.Program()
        with open(os.path.join(OUT, "ops", name + ".pb"), "rb") as f:
            program.ParseFromString(f.read())
        with open(os.path.join(OUT, "ops", name + ".mil"), "w") as f:
            f.write(mil_text(program, verbose=k % 2 == 1))
    print(f"{len(TEXT_FIXTURES)} model.mil renderings")


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "ops"))
    for group in [elementwise, activations, binary, convolutions, pooling, normalizations, reductions, shapes, resizing,
                  quantization_ops, fp16_programs, fp16_io, flexible, compression, unsupported, blob_file, text_fixtures]:
        print(group.__name__)
        group()
    with open(os.path.join(OUT, "ops.json"), "w") as f:     # one fixture per line
        f.write('{"generator": "scripts/models/coreml_mil_fixtures.py", ' + f'"coremltools": "{ct.__version__}", "numpy": "{np.__version__}",\n"fixtures": {{\n')
        f.write(",\n".join(json.dumps(k) + ": " + json.dumps(v, separators=(",", ":")) for k, v in sorted(FIXTURES.items())))
        f.write("\n}}\n")
    total = sum(os.path.getsize(os.path.join(OUT, "ops", n)) for n in os.listdir(os.path.join(OUT, "ops")))
    print(f"{len(FIXTURES)} fixtures, {total} bytes of programs and weights")


if __name__ == "__main__":
    main()
