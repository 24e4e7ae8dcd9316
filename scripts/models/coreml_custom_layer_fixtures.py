#!/usr/bin/env python3
"""Fixtures for Core ML custom layers (MLCustomLayer: Tests/VisionCompatTests/MLCustomLayerTests.swift).

Run in a venv of its own (never in scripts/setup or CI):

    python3 -m venv /tmp/cmc/venv && /tmp/cmc/venv/bin/pip install coremltools==9.0 numpy
    /tmp/cmc/venv/bin/python scripts/models/coreml_custom_layer_fixtures.py

Writes to Tests/Fixtures/coreml/custom/:
- ChannelAffine.mlmodel: x [3, 4, 5] -> custom layer `ChannelAffine` (two float weight blobs, scale[3] and shift[3];
  parameters gain (double 1.5), mode (string "affine"), clip (bool true), channels (int 3)) -> sigmoid -> y, built with
  coremltools' NeuralNetworkBuilder.add_custom; ChannelAffine.json: an input and what numpy gives for it,
  y = sigmoid(max(0, (x * scale[c] + shift[c]) * gain)).
- swish_input.png (256 x 256 RGB, stripes and checks) and NeuralMcNeuralNet.json: what numpy gives for hollance's
  NeuralMcNeuralNet.mlmodel (../shared/models/coreml-wild/hollance-NeuralMcNeuralNet.mlmodel) on that image, from the
  file's own weights: conv 3x3 (same padding) -> Swish x * sigmoid(x) (what hollance's app implements) -> global
  average pooling -> inner product -> softmax.
"""
import json, os, struct, warnings, zlib
import numpy as np

warnings.filterwarnings("ignore")
from coremltools.models import datatypes
from coremltools.models.neural_network import NeuralNetworkBuilder
from coremltools.models.utils import load_spec
from coremltools.proto import NeuralNetwork_pb2

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests/Fixtures/coreml/custom")
SHARED = os.path.join(os.path.dirname(ROOT), "shared/models/coreml-wild/hollance-NeuralMcNeuralNet.mlmodel")
rng = np.random.default_rng(20261129)
os.makedirs(OUT, exist_ok=True)


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def channel_affine():
    scale = rng.normal(size=3).astype(np.float32)
    shift = rng.normal(scale=0.5, size=3).astype(np.float32)
    params = NeuralNetwork_pb2.CustomLayerParams()
    params.className = "ChannelAffine"
    params.description = "y = (x * scale[c] + shift[c]) * gain, negatives clipped to 0 when clip"
    params.weights.add().floatValue.extend(scale.tolist())
    params.weights.add().floatValue.extend(shift.tolist())
    params.parameters["gain"].doubleValue = 1.5
    params.parameters["mode"].stringValue = "affine"
    params.parameters["clip"].boolValue = True
    params.parameters["channels"].intValue = 3
    b = NeuralNetworkBuilder([("x", datatypes.Array(3, 4, 5))], [("y", datatypes.Array(3, 4, 5))],
                             disable_rank5_shape_mapping=True)
    b.add_custom("affine", ["x"], ["affine_out"], custom_proto_spec=params)
    b.add_activation("sigmoid", "SIGMOID", "affine_out", "y")
    with open(os.path.join(OUT, "ChannelAffine.mlmodel"), "wb") as f:
        f.write(b.spec.SerializeToString())
    x = rng.normal(size=(3, 4, 5)).astype(np.float32)
    z = (x * scale[:, None, None] + shift[:, None, None]) * np.float32(1.5)
    y = sigmoid(np.maximum(z, 0))
    with open(os.path.join(OUT, "ChannelAffine.json"), "w") as f:
        json.dump({"x": [float(v) for v in x.ravel()], "y": [float(v) for v in y.ravel()],
                   "scale": [float(v) for v in scale], "shift": [float(v) for v in shift]}, f, indent=1)


def png(path, rgb):
    h, w, _ = rgb.shape
    rows = rgb.reshape(h, w * 3).astype(np.int16)
    up = np.vstack([rows[:1], (rows[1:] - rows[:-1]) % 256]).astype(np.uint8)  # filter "Up" (2), "None" on row 0
    raw = b"".join((b"\x00" if y == 0 else b"\x02") + up[y].tobytes() for y in range(h))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def neural_mc_neural_net():
    yy, xx = np.mgrid[0:256, 0:256]
    rgb = np.stack([(xx // 8 % 2) * 16, (yy // 8 % 2) * 16, ((xx + yy) // 16 % 2) * 16], axis=-1).astype(np.uint8)
    png(os.path.join(OUT, "swish_input.png"), rgb)
    spec = load_spec(SHARED)
    nn = spec.neuralNetwork
    conv = nn.layers[0].convolution
    w = np.array(conv.weights.floatValue, dtype=np.float32).reshape(conv.outputChannels, conv.kernelChannels, 3, 3)
    bias = np.array(conv.bias.floatValue, dtype=np.float32)
    x = rgb.transpose(2, 0, 1).astype(np.float32) * nn.preprocessing[0].scaler.channelScale  # [3, 256, 256]
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    out = np.zeros((conv.outputChannels, 256, 256), dtype=np.float64)
    for dy in range(3):
        for dx in range(3):
            out += np.einsum("oc,chw->ohw", w[:, :, dy, dx], padded[:, dy:dy + 256, dx:dx + 256])
    out += bias[:, None, None]
    swish = out * sigmoid(out)
    pooled = swish.mean(axis=(1, 2))
    ip = nn.layers[3].innerProduct
    wd = np.array(ip.weights.floatValue, dtype=np.float64).reshape(ip.outputChannels, ip.inputChannels)
    logits = wd @ pooled + np.array(ip.bias.floatValue, dtype=np.float64)
    e = np.exp(logits - logits.max())
    probs = e / e.sum()
    with open(os.path.join(OUT, "NeuralMcNeuralNet.json"), "w") as f:
        json.dump({"input_png": "swish_input.png", "pooled": [float(v) for v in pooled],
                   "output": [float(v) for v in probs]}, f, indent=1)


channel_affine()
neural_mc_neural_net()
