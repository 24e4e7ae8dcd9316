#!/usr/bin/env python3
"""Reference outputs for real Core ML files whose compiled form the tests convert, by numpy forward passes of the
source `.mlmodel`s' own weights (float64), for Tests/OpenVisionTests/Models/CoreMLCompiledModelTests.swift.

Run in a venv with coremltools==9.0 numpy pillow (never in scripts/setup or CI), with the source files at hand:

    /tmp/venv/bin/python scripts/models/coreml_compiled_references.py MNISTClassifier.mlmodel \\
        ../shared/models/coreml-wild/PlayerActionClassifier.mlmodel

MNISTClassifier.mlmodel (395,695 bytes, sha256 816d1a222d5272109166ffc819d7ce44aff923a673884e34d982aa74985ba587) is
Apple's gallery model as committed to polashchandradas/SketchAI1 at 4708001dde63419601e7d817859794d4b9fda564, beside the
`MNISTClassifier.mlmodelc/` of ../shared/models/coreml-wild (`git show 4708001d:MNISTClassifier.mlmodel`). It is not in
the repository (a model file).

Writes Tests/Fixtures/coreml/compiled/references.json:
  MNISTClassifier            probabilities for ../shared/models/coreml-wild/inputs/{one,seven,zero}.png (grayscale
                             as the converter's luma, Rec. 601) and for a pattern image (pixel (y, x) = (37 y + 11 x)
                             mod 256)
  PlayerActionClassifier     probabilities for two pose sequences [45, 3, 18]: all zeros, and "wave"
                             (0.5 + 0.2 sin(2 pi (t + k / 18)), its cosine, confidence 0.9), t = 0...1 over 45 frames
"""
import hashlib
import json
import os
import sys

import coremltools as ct
import numpy as np
from PIL import Image

def conv(x, W, b, stride, same, tlh):
    C, K, kh, kw = W.shape; _, H, Wd = x.shape
    if same:
        oh, ow = -(-H // stride[0]), -(-Wd // stride[1])
        ph = max((oh - 1) * stride[0] + kh - H, 0); pw = max((ow - 1) * stride[1] + kw - Wd, 0)
        pt, pl = ((ph + 1) // 2, (pw + 1) // 2) if tlh else (ph // 2, pw // 2)
        x = np.pad(x, ((0, 0), (pt, ph - pt), (pl, pw - pl)))
    _, H, Wd = x.shape
    oh, ow = (H - kh) // stride[0] + 1, (Wd - kw) // stride[1] + 1
    y = np.zeros((C, oh, ow), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i:i + stride[0] * oh:stride[0], j:j + stride[1] * ow:stride[1]]
            y += np.einsum('ck,khw->chw', W[:, :, i, j], patch)
    return y + b[:, None, None]

def run(nn, x, input_name):
    """The blobs of a (rank-5) NeuralNetwork of the layers MNIST's and the drawing embedder's use, on [C, H, W]."""
    blobs = {input_name: x}
    for l in nn.layers:
        t = l.WhichOneof('layer'); p = getattr(l, t); a = blobs[l.input[0]]
        if t == 'convolution':
            W = np.array(p.weights.floatValue, np.float64).reshape(p.outputChannels, p.kernelChannels, *p.kernelSize)
            b = np.array(p.bias.floatValue, np.float64) if p.hasBias else np.zeros(p.outputChannels)
            same = p.WhichOneof('ConvolutionPaddingType') == 'same'
            y = conv(a, W, b, list(p.stride) or [1, 1], same, same and p.same.asymmetryMode == 1)
        elif t == 'activation':
            assert p.WhichOneof('NonlinearityType') == 'ReLU'; y = np.maximum(a, 0)
        elif t == 'pooling':
            assert p.type == 0 and p.WhichOneof('PoolingPaddingType') == 'valid'
            kh, kw = p.kernelSize; sh, sw = p.stride; C, H, Wd = a.shape
            oh, ow = (H - kh) // sh + 1, (Wd - kw) // sw + 1
            y = np.full((C, oh, ow), -np.inf)
            for i in range(kh):
                for j in range(kw):
                    y = np.maximum(y, a[:, i:i + sh * oh:sh, j:j + sw * ow:sw])
        elif t == 'flatten':
            y = (a.transpose(1, 2, 0) if p.mode == 1 else a).reshape(-1)
        elif t == 'innerProduct':
            W = np.array(p.weights.floatValue, np.float64).reshape(p.outputChannels, p.inputChannels)
            y = W @ a.reshape(-1) + (np.array(p.bias.floatValue) if p.hasBias else 0)
        elif t == 'softmax':
            e = np.exp(a - a.max()); y = e / e.sum()
        else:
            raise SystemExit('layer ' + t)
        blobs[l.output[0]] = y
    return blobs

def w(p): return np.array(p.floatValue, np.float64)
def conv2d(x, W, b, stride):
    N, C, H, Wd = x.shape; O, K, kh, kw = W.shape
    oh, ow = (H - kh) // stride[0] + 1, (Wd - kw) // stride[1] + 1
    y = np.zeros((N, O, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + stride[0] * oh:stride[0], j:j + stride[1] * ow:stride[1]]
            y += np.einsum('ok,nkhw->nohw', W[:, :, i, j], patch)
    return y + b[None, :, None, None]
def run_nd(nn, x):
    """The blobs of PlayerActionClassifier's N-D network (its layer kinds) on the poses [45, 3, 18]."""
    B = {'poses': x}
    for l in nn.layers:
        t = l.WhichOneof('layer'); p = getattr(l, t); ins = [B[i] for i in l.input]; a = ins[0] if ins else None
        if t == 'transpose': y = a.transpose(list(p.axes))
        elif t == 'reshapeStatic': y = a.reshape(list(p.targetShape))
        elif t == 'expandDims':
            y = a
            for ax in sorted(p.axes): y = np.expand_dims(y, ax)
        elif t == 'squeeze': y = np.squeeze(a, tuple(p.axes))
        elif t == 'batchnorm':
            sh = [1] * a.ndim; sh[-3] = p.channels
            g, be, m, v = (w(q).reshape(sh) for q in (p.gamma, p.beta, p.mean, p.variance))
            y = g * (a - m) / np.sqrt(v + p.epsilon) + be
        elif t == 'convolution':
            assert p.WhichOneof('ConvolutionPaddingType') == 'valid'
            assert all(e.startEdgeSize == 0 and e.endEdgeSize == 0 for e in p.valid.paddingAmounts.borderAmounts)
            W = w(p.weights).reshape(p.outputChannels, p.kernelChannels, *p.kernelSize)
            y = conv2d(a, W, w(p.bias) if p.hasBias else np.zeros(p.outputChannels), list(p.stride))
        elif t == 'splitND':
            idx = np.cumsum(list(p.splitSizes))[:-1]; parts = np.split(a, idx, axis=p.axis)
            for o, part in zip(l.output, parts): B[o] = part
            continue
        elif t == 'concatND':
            r = max(v.ndim for v in ins); ins = [v.reshape((1,) * (r - v.ndim) + v.shape) for v in ins]
            y = np.concatenate(ins, axis=p.axis)
        elif t == 'padding':
            assert p.WhichOneof('PaddingType') == 'constant' and p.constant.value == 0
            (h0, h1), (w0, w1) = [(e.startEdgeSize, e.endEdgeSize) for e in p.paddingAmounts.borderAmounts]
            y = np.pad(a, [(0, 0)] * (a.ndim - 2) + [(h0, h1), (w0, w1)])
        elif t == 'addBroadcastable': y = ins[0] + ins[1]
        elif t == 'activation': y = np.maximum(a, 0)
        elif t == 'pooling':
            assert p.type == 1 and p.WhichOneof('PoolingPaddingType') == 'valid'
            kh, kw = p.kernelSize; sh, sw = p.stride; N, C, H, Wd = a.shape
            oh, ow = (H - kh) // sh + 1, (Wd - kw) // sw + 1
            y = np.zeros((N, C, oh, ow))
            for i in range(oh):
                for j in range(ow): y[:, :, i, j] = a[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw].mean(axis=(2, 3))
        elif t == 'loadConstantND': y = w(p.data).reshape(list(p.shape))
        elif t == 'getShape': y = np.array(a.shape, np.float64)
        elif t == 'gather': y = np.take(ins[0], ins[1].astype(int), axis=p.axis)
        elif t == 'reshapeDynamic': y = a.reshape([int(v) for v in ins[1].reshape(-1)])
        elif t == 'softmax':  # on [1, 4]: over the classes (Core ML runs it; the spec asks rank >= 3)
            e = np.exp(a - a.max(axis=-1, keepdims=True)); y = e / e.sum(axis=-1, keepdims=True)
        else: raise SystemExit('layer ' + t)
        B[l.output[0]] = y
    return B


def luma(path):
    rgb = np.asarray(Image.open(path).convert("RGB"), np.float64)
    return (rgb @ np.array([0.299, 0.587, 0.114]))[None]


def pattern():
    y, x = np.mgrid[0:28, 0:28]
    return ((37 * y + 11 * x) % 256).astype(np.float64)[None]


def main():
    mnist_path, action_path = sys.argv[1:3]
    inputs = os.path.join(os.path.dirname(action_path), "inputs")
    images = {name: luma(os.path.join(inputs, name + ".png")) for name in ("one", "seven", "zero")}
    images["pattern"] = pattern()
    out = {}
    spec = ct.utils.load_spec(mnist_path)
    nn = spec.neuralNetworkClassifier
    scale = nn.preprocessing[0].scaler.channelScale
    out["MNISTClassifier"] = {"sha256": hashlib.sha256(open(mnist_path, "rb").read()).hexdigest(), "cases": [
        {"input": name, "probabilities": run(nn, x * scale, "image")["labelProbabilities"].tolist()}
        for name, x in images.items()]}
    nn = ct.utils.load_spec(action_path).neuralNetworkClassifier
    t = np.linspace(0, 1, 45)[:, None]
    xy = 0.5 + 0.2 * np.sin(2 * np.pi * (t + np.arange(18)[None] / 18.0))
    poses = {"zeros": np.zeros((45, 3, 18)), "wave": np.stack([xy, np.cos(xy), np.full_like(xy, 0.9)], axis=1)}
    out["PlayerActionClassifier"] = {"cases": [
        {"input": name, "poses": x.reshape(-1).tolist(),
         "probabilities": run_nd(nn, x)["labelProbabilities"].reshape(-1).tolist()} for name, x in poses.items()]}
    target = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "coreml", "compiled",
                          "references.json")
    with open(target, "w") as f:
        json.dump(out, f)
    for model, entry in out.items():
        for case in entry["cases"]:
            values = case["probabilities"]
            print(model, case["input"], int(np.argmax(values)), max(values))


if __name__ == "__main__":
    main()
