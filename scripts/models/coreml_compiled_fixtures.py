#!/usr/bin/env python3
"""A small compiled Core ML neural network in the layout Xcode writes (an "Espresso" .mlmodelc), for the compiled-folder
tests (Tests/OpenVisionConvertersTests/CoreML/CoreMLCompiledFolderTests.swift) and the fuzz seeds of scripts/fuzz's
espresso-reader and coremldata targets.

Run in a venv with coremltools==9.0 numpy (never in scripts/setup or CI):

    /tmp/venv/bin/python scripts/models/coreml_compiled_fixtures.py

Writes Tests/Fixtures/coreml/compiled/:

  EspressoForms.mlmodelc/   coremldata.bin (model type 403, a neuralNetworkClassifier with string labels; its
                            ModelDescription serialised by coremltools' protobuf classes), model.espresso.net /
                            .shape / .weights. The layers use the Espresso forms the real folders at hand do not:
                            a stride-2 convolution with explicit pads (pad_mode 0) and a fused tanh; a grouped
                            convolution with "same" padding (pad_mode 1) and float16 weights; a stride-2 convolution
                            with an even kernel and top-left-heavy "same" padding (pad_mode 4); an average pool with
                            explicit pads excluding them from the count; a "same" max pool; a global average pool; a
                            channel-last flatten; an inner product with a fused ReLU and zero-padded biases; softmax.
                            The image input (RGB 9 x 9) has a scaler in transform_params.
  EspressoND.mlmodelc/      an N-D network (shapes with _rank): transposes, a reshape, an N-D inner product, softmax_nd
  expected.json             per folder the input (EspressoForms: RGB pixels, row-major H x W x 3; EspressoND: the
                            6 x 6 values of the [1, 6, 6, 1] input) and the probabilities of a numpy forward pass of
                            the same weights with Core ML's layer definitions (float64).

No Mac was used: the layout is the one read from Xcode's output (docs/coreml.md, "Xcode's compiled folders"); what
these layers mean is Core ML's NeuralNetwork.proto, computed below.
"""
import json
import os
import struct

import numpy as np
from coremltools.proto import FeatureTypes_pb2, Model_pb2

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "coreml", "compiled")
rng = np.random.default_rng(2024)
LABELS = ["cat", "dog", "bird"]
H = W = 9
SCALE, BIAS = 1 / 128.0, [-1.0, -0.5, 0.25]   # y = x / 128 + bias[c], c in RGB order


def description():
    d = Model_pb2.ModelDescription()
    i = d.input.add()
    i.name = "image"
    i.shortDescription = "An RGB image"
    i.type.imageType.width, i.type.imageType.height = W, H
    i.type.imageType.colorSpace = FeatureTypes_pb2.ImageFeatureType.RGB
    o = d.output.add()
    o.name = "probs"
    o.type.dictionaryType.stringKeyType.SetInParent()
    o = d.output.add()
    o.name = "label"
    o.type.stringType.SetInParent()
    d.predictedFeatureName, d.predictedProbabilitiesName = "label", "probs"
    d.metadata.shortDescription = "Espresso layer forms (synthetic)"
    d.metadata.author = "OpenVision tests"
    return d.SerializeToString()


def u32(v): return struct.pack("<I", v)
def u64(v): return struct.pack("<Q", v)


def coremldata(model_type, spec_version, tag, desc, payload):
    return (u32(model_type) + u32(1) + bytes(20) + u64(len(tag)) + tag + u64(spec_version) + bytes(24)
            + u64(len(desc)) + desc + payload)


def classifier_payload(labels, probability_blob):
    body = u64(403) + u64(100) + u64(len(labels))
    for label in labels:
        body += u64(len(label)) + label.encode()
    return body + u64(len(probability_blob)) + probability_blob.encode() + u64(1) + u64(len(probability_blob)) \
        + probability_blob.encode()


# Weights (Core ML order: convolution [C_out, C_in / groups, kh, kw], inner product [C_out, C_in]).
w1 = rng.normal(0, 0.5, (4, 3, 3, 3)); b1 = rng.normal(0, 0.1, 4)
w2 = rng.normal(0, 0.5, (4, 2, 3, 3)).astype(np.float16).astype(np.float64); b2 = rng.normal(0, 0.1, 4)
w3 = rng.normal(0, 0.5, (6, 4, 2, 2)); b3 = rng.normal(0, 0.1, 6)
w4 = rng.normal(0, 0.1, (3, 6 * 3 * 2)); b4 = np.array([0.5, 1.0, 0.8]) + rng.normal(0, 0.05, 3)

layers = [
    {"type": "convolution", "name": "conv_explicit", "bottom": "image", "top": "c1", "C": 4, "K": 3, "Nx": 3, "Ny": 3,
     "n_groups": 1, "stride_x": 2, "stride_y": 2, "pad_mode": 0, "pad_t": 1, "pad_b": 2, "pad_l": 0, "pad_r": 1,
     "has_biases": 1, "blob_weights": 3, "blob_biases": 1, "fused_relu": 0, "fused_tanh": 1, "has_batch_norm": 0,
     "n_parallel": 1, "pad_fill_mode": 0, "pad_value": 0, "weights": {}, "debug_info": "conv_explicit"},
    {"type": "convolution", "name": "conv_grouped", "bottom": "c1", "top": "c2", "C": 4, "K": 4, "Nx": 3, "Ny": 3,
     "n_groups": 2, "pad_mode": 1, "has_biases": 1, "blob_weights_f16": 7, "blob_biases": 5, "fused_relu": 1,
     "weights": {}},
    {"type": "pool", "name": "avg_explicit", "bottom": "c2", "top": "p1", "avg_or_max": 0, "size_x": 2, "size_y": 2,
     "stride_x": 1, "stride_y": 1, "pad_mode": 0, "pad_t": 1, "pad_b": 0, "pad_l": 1, "pad_r": 0,
     "average_count_exclude_padding": 1, "top_shape_style": 0, "weights": {}},
    {"type": "convolution", "name": "conv_tlh", "bottom": "p1", "top": "c3", "C": 6, "K": 4, "Nx": 2, "Ny": 2,
     "stride_x": 2, "stride_y": 2, "pad_mode": 4, "has_biases": 1, "blob_weights": 11, "blob_biases": 9,
     "weights": {}},
    {"type": "pool", "name": "max_same", "bottom": "c3", "top": "p2", "avg_or_max": 1, "size_x": 3, "size_y": 3,
     "stride_x": 1, "stride_y": 1, "pad_mode": 1, "weights": {}},
    {"type": "pool", "name": "global", "bottom": "p2", "top": "g", "avg_or_max": 0, "is_global": 1, "size_x": 2,
     "size_y": 2, "pad_mode": 0, "weights": {}},
    {"type": "flatten", "name": "flat", "bottom": "p2", "top": "f", "mode": 1, "nd_axis": 0, "weights": {}},
    {"type": "inner_product", "name": "dense", "bottom": "f", "top": "d", "nB": 36, "nC": 3, "has_biases": 1,
     "blob_weights": 15, "blob_biases": 13, "has_relu": 1, "has_tanh": 0, "has_prelu": 0, "weights": {}},
    {"type": "softmax", "name": "probs", "bottom": "d", "top": "probs", "C": 2, "weights": {},
     "attributes": {"is_output": 1}},
]
f32 = lambda a: np.asarray(a, np.float32).tobytes()
blobs = {0: bytes(56), 1: f32(b1), 2: b"", 3: f32(w1), 4: b"", 5: f32(b2), 6: b"",
         7: np.asarray(w2, np.float16).tobytes(), 8: b"", 9: f32(b3), 10: b"", 11: f32(w3), 12: b"",
         13: f32(np.concatenate([b4, np.zeros(9)])), 14: b"", 15: f32(w4)}


def weights_file():
    out = u64(len(blobs))
    for i in sorted(blobs):
        out += u64(i) + u64(len(blobs[i]))
    for i in sorted(blobs):
        out += blobs[i]
    return out


# Core ML's layer math in numpy (float64), on [C, H, W].
def pad_same(x, k, s, top_left):
    out = [-(-n // st) for n, st in zip(x.shape[1:], s)]
    total = [max((o - 1) * st + kk - n, 0) for o, st, kk, n in zip(out, s, k, x.shape[1:])]
    before = [(t + 1) // 2 if top_left else t // 2 for t in total]
    return [(b, t - b) for b, t in zip(before, total)]


def conv(x, w, b, s, pads, groups=1):
    x = np.pad(x, [(0, 0)] + pads)
    cout, cin_g, kh, kw = w.shape
    oh, ow = (x.shape[1] - kh) // s[0] + 1, (x.shape[2] - kw) // s[1] + 1
    y = np.zeros((cout, oh, ow))
    per = cout // groups
    for o in range(cout):
        g = o // per
        for i in range(kh):
            for j in range(kw):
                patch = x[g * cin_g:(g + 1) * cin_g, i:i + s[0] * oh:s[0], j:j + s[1] * ow:s[1]]
                y[o] += np.tensordot(w[o, :, i, j], patch, axes=1)
    return y + b[:, None, None]


def pool(x, k, s, pads, average, exclude=True):
    c = x.shape[0]
    xp = np.pad(x, [(0, 0)] + pads, constant_values=np.nan)
    oh, ow = (xp.shape[1] - k[0]) // s[0] + 1, (xp.shape[2] - k[1]) // s[1] + 1
    y = np.zeros((c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]].reshape(c, -1)
            y[:, i, j] = np.nanmean(win, axis=1) if average else np.nanmax(win, axis=1)
    return y


pixels = rng.integers(0, 256, (H, W, 3))
x = pixels.transpose(2, 0, 1) * SCALE + np.array(BIAS)[:, None, None]
c1 = np.tanh(conv(x, w1, b1, (2, 2), [(1, 2), (0, 1)]))                     # 4 x 5 x 4
c2 = np.maximum(conv(c1, w2, b2, (1, 1), pad_same(c1, (3, 3), (1, 1), False), groups=2), 0)
p1 = pool(c2, (2, 2), (1, 1), [(1, 0), (1, 0)], average=True)                # 4 x 5 x 4
c3 = conv(p1, w3, b3, (2, 2), pad_same(p1, (2, 2), (2, 2), True))           # 6 x 3 x 2
p2 = pool(c3, (3, 3), (1, 1), pad_same(c3, (3, 3), (1, 1), False), average=False)
f = p2.transpose(1, 2, 0).reshape(-1)                                        # channel last: 36
d = np.maximum(w4 @ f + b4, 0)
probs = np.exp(d - d.max()) / np.exp(d - d.max()).sum()
shapes = {"image": (3, H, W), "c1": c1.shape, "c2": c2.shape, "p1": p1.shape, "c3": c3.shape, "p2": p2.shape,
          "g": (6, 1, 1), "f": (36, 1, 1), "d": (3, 1, 1), "probs": (3, 1, 1)}

folder = os.path.join(ROOT, "EspressoForms.mlmodelc")
os.makedirs(folder, exist_ok=True)
net = {"layers": layers, "transform_params": {"image": {"scale": SCALE, "bias_r": BIAS[0], "bias_g": BIAS[1],
                                                        "bias_b": BIAS[2], "bias_a": 0, "center_mean": 0,
                                                        "is_network_bgr": 0, "is_image_bgr": 0}},
       "storage": "model.espresso.weights", "metadata_in_weights": [], "properties": {}, "analyses": {},
       "format_version": 200}
with open(os.path.join(folder, "model.espresso.net"), "w") as out:
    json.dump(net, out, indent=2)
with open(os.path.join(folder, "model.espresso.shape"), "w") as out:
    table = {k: {"n": 1, "k": s[0], "h": s[1], "w": s[2]} for k, s in shapes.items()}
    json.dump({"layer_shapes": table}, out, indent=2)
with open(os.path.join(folder, "model.espresso.weights"), "wb") as out:
    out.write(weights_file())
with open(os.path.join(folder, "coremldata.bin"), "wb") as out:
    out.write(coremldata(403, 4, b"generic", description(), classifier_payload(LABELS, "probs")))
with open(os.path.join(ROOT, "expected.json"), "w") as out:
    json.dump({"EspressoForms.mlmodelc": {"pixels": pixels.reshape(-1).tolist(), "probs": probs.tolist(),
                                          "labels": LABELS}}, out, indent=1)
print("probs", probs, "shapes", shapes)

# An N-D network (as coremltools 4+ writes Keras models and Xcode compiles them): a multi-array input [1, 6, 6, 1]
# (NHWC), transpose to NCHW, a "same" convolution with fused ReLU, a max pool, transpose back, reshape to [1, 18]
# (dst_h -1), an inner product on [1, 18], softmax_nd over the last axis. Shapes carry _rank.
nd_folder = os.path.join(ROOT, "EspressoND.mlmodelc")
os.makedirs(nd_folder, exist_ok=True)
wc = rng.normal(0, 0.5, (2, 1, 3, 3)); bc = rng.normal(0, 0.1, 2)
wd = rng.normal(0, 0.3, (3, 18)); bd = rng.normal(0, 0.1, 3)
nd_layers = [
    {"type": "transpose", "name": "to_nchw", "bottom": "input_1", "top": "t1", "axis_h": 2, "axis_w": 1, "axis_k": 0,
     "axis_n": 3, "axis_seq": 4},
    {"type": "convolution", "name": "conv", "bottom": "t1", "top": "c", "C": 2, "K": 1, "Nx": 3, "Ny": 3, "n_groups": 1,
     "pad_mode": 1, "has_biases": 1, "blob_weights": 3, "blob_biases": 1, "fused_relu": 1, "fused_tanh": 0,
     "has_batch_norm": 0, "n_parallel": 1, "pad_t": 0, "pad_b": 0, "pad_l": 0, "pad_r": 0, "pad_fill_mode": 0,
     "pad_value": 0, "weights": {}},
    {"type": "pool", "name": "pool", "bottom": "c", "top": "p", "avg_or_max": 1, "size_x": 2, "size_y": 2, "stride_x": 2,
     "stride_y": 2, "pad_mode": 2, "average_count_exclude_padding": 1, "top_shape_style": 0, "weights": {}},
    {"type": "transpose", "name": "to_nhwc", "bottom": "p", "top": "t2", "axis_h": 0, "axis_w": 2, "axis_k": 1,
     "axis_n": 3, "axis_seq": 4},
    {"type": "reshape", "name": "flatten", "bottom": "t2", "top": "r", "dst_seq": 1, "dst_n": 1, "dst_k": 1, "dst_h": -1,
     "dst_w": 18, "dst_nd_rank": 2, "mode": 0, "dynamic_shape": False, "version": 1},
    {"type": "inner_product", "name": "dense", "bottom": "r", "top": "d", "nB": 18, "nC": 3, "has_biases": 1,
     "blob_weights": 7, "blob_biases": 5, "has_relu": 0, "has_tanh": 0, "has_prelu": 0, "weights": {}},
    {"type": "softmax_nd", "name": "softmax", "bottom": "d", "top": "probs", "nd_axis": -1, "attributes": {"is_output": 1}},
]
nd_shapes = {"input_1": (1, 6, 6, 1), "t1": (1, 1, 6, 6), "c": (1, 2, 6, 6), "p": (1, 2, 3, 3), "t2": (1, 3, 3, 2),
             "r": (1, 18), "d": (1, 3), "probs": (1, 3)}
blobs = {0: bytes(56), 1: f32(np.concatenate([bc, np.zeros(6)])), 2: b"", 3: f32(wc), 4: b"",
         5: f32(np.concatenate([bd, np.zeros(9)])), 6: b"", 7: f32(wd)}
with open(os.path.join(nd_folder, "model.espresso.net"), "w") as out:
    json.dump({"layers": nd_layers, "storage": "model.espresso.weights", "format_version": 200}, out, indent=2)
with open(os.path.join(nd_folder, "model.espresso.shape"), "w") as out:
    table = {}
    for k, shape in nd_shapes.items():
        padded = (1,) * (4 - len(shape)) + tuple(shape)
        table[k] = {"n": padded[0], "k": padded[1], "h": padded[2], "w": padded[3], "_rank": len(shape)}
    json.dump({"layer_shapes": table}, out, indent=2)
with open(os.path.join(nd_folder, "model.espresso.weights"), "wb") as out:
    out.write(weights_file())
d = Model_pb2.ModelDescription()
f = d.input.add(); f.name = "input_1"
f.type.multiArrayType.shape.extend([1, 6, 6, 1]); f.type.multiArrayType.dataType = FeatureTypes_pb2.ArrayFeatureType.FLOAT32
f = d.output.add(); f.name = "probs"
f.type.multiArrayType.dataType = FeatureTypes_pb2.ArrayFeatureType.FLOAT32
with open(os.path.join(nd_folder, "coremldata.bin"), "wb") as out:
    out.write(coremldata(500, 4, b"generic", d.SerializeToString(), u64(500) + u64(1) + u64(5) + b"probs"))
nd_input = rng.uniform(-1, 1, (6, 6))
xc = nd_input[None]
yc = np.maximum(conv(xc, wc, bc, (1, 1), pad_same(xc, (3, 3), (1, 1), False)), 0)
yp = pool(yc, (2, 2), (2, 2), [(0, 0), (0, 0)], average=False)
logits = wd @ yp.transpose(1, 2, 0).reshape(-1) + bd
nd_probs = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
expected = json.load(open(os.path.join(ROOT, "expected.json")))
expected["EspressoND.mlmodelc"] = {"input": nd_input.reshape(-1).tolist(), "probs": nd_probs.tolist()}
with open(os.path.join(ROOT, "expected.json"), "w") as out:
    json.dump(expected, out, indent=1)
print("nd probs", nd_probs)

# Fuzz seeds (Fuzz/corpus/espresso-reader, Fuzz/corpus/coremldata): the three Espresso files joined by NULs, and
# coremldata.bin files of each body the reader knows: a classifier's (above), a pipeline's, and a whole Model
# message (tag "spec", as Xcode stores a non-maximum suppression stage).
seeds = os.path.join(os.path.dirname(__file__), "..", "..", "Fuzz", "corpus")
os.makedirs(os.path.join(seeds, "espresso-reader"), exist_ok=True)
os.makedirs(os.path.join(seeds, "coremldata"), exist_ok=True)
with open(os.path.join(seeds, "espresso-reader", "forms"), "wb") as out:
    parts = [open(os.path.join(folder, n), "rb").read() for n in ("model.espresso.net", "model.espresso.shape",
                                                                   "model.espresso.weights")]
    out.write(parts[0] + b"\0" + parts[1] + b"\0" + parts[2])
with open(os.path.join(seeds, "coremldata", "classifier.bin"), "wb") as out:
    out.write(open(os.path.join(folder, "coremldata.bin"), "rb").read())
with open(os.path.join(seeds, "coremldata", "pipeline.bin"), "wb") as out:
    out.write(coremldata(202, 5, b"generic.model0v1.0.0spec", description(), u64(2) + u64(202)))
nms = Model_pb2.Model()
nms.specificationVersion = 5
for name, shape in (("raw_confidence", [0, 3]), ("raw_coordinates", [0, 4])):
    f = nms.description.input.add(); f.name = name
    f.type.multiArrayType.shape.extend(shape)
    f.type.multiArrayType.dataType = FeatureTypes_pb2.ArrayFeatureType.FLOAT32
for name in ("confidence", "coordinates"):
    f = nms.description.output.add(); f.name = name
    f.type.multiArrayType.dataType = FeatureTypes_pb2.ArrayFeatureType.FLOAT32
p = nms.nonMaximumSuppression
p.iouThreshold, p.confidenceThreshold = 0.45, 0.25
p.confidenceInputFeatureName, p.coordinatesInputFeatureName = "raw_confidence", "raw_coordinates"
p.confidenceOutputFeatureName, p.coordinatesOutputFeatureName = "confidence", "coordinates"
p.stringClassLabels.vector.extend(LABELS)
with open(os.path.join(seeds, "coremldata", "nms-spec.bin"), "wb") as out:
    tag = b"spec"
    out.write(u32(610) + u32(1) + bytes(20) + u64(len(tag)) + tag + u64(5) + bytes(24) + nms.SerializeToString())
