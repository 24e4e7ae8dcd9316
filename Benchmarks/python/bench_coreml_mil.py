#!/usr/bin/env python3
"""Speed of a Core ML ML Program lowered to ONNX (MILToONNX) vs the source network's own ONNX file, on ONNX
Runtime, same threads, interleaved rounds, medians.

    MIL_ONNX_OUT=/tmp/mnl.onnx swift test --filter MILSharedPackageTests/mobileNetLikeProgramAndGraph
    ~/.cache/openvision/venv/bin/python Benchmarks/python/bench_coreml_mil.py /tmp/mnl.onnx \\
        [--source /usr/local/share/openvision/models/efficientnet-lite0.onnx] [--threads 1 2] [--runs 200]

The lowered graph is ../shared/models/coreml/MobileNetLike.mlpackage (EfficientNet-Lite0 as an ML Program with
fp16 weights, computed in fp32): it takes pixels 0...255 and applies the image scale / bias itself, and ends
with softmax + argmax (the `classify` op); the source takes normalized input and ends with the logits. Both
are run whole on the same image (../shared/models/coreml/inputs/dog_224.png), graph optimizations at ORT's
default (all), CPU provider.
"""
import argparse, statistics, time
import numpy as np
import onnxruntime as ort
from PIL import Image

ap = argparse.ArgumentParser()
ap.add_argument("lowered")
ap.add_argument("--source", default="/usr/local/share/openvision/models/efficientnet-lite0.onnx")
ap.add_argument("--image", default="../shared/models/coreml/inputs/dog_224.png")
ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
ap.add_argument("--runs", type=int, default=200)
ap.add_argument("--rounds", type=int, default=5)
args = ap.parse_args()

pixels = np.asarray(Image.open(args.image).convert("RGB"), np.float32).transpose(2, 0, 1)[None].copy()
feeds = {"lowered": {"image": pixels}, "source": {"input": (pixels - 127.0) / 128.0}}

for threads in args.threads:
    sessions = {}
    for name, path in [("lowered", args.lowered), ("source", args.source)]:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        sessions[name] = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        for _ in range(20):
            sessions[name].run(None, feeds[name])
    times = {"lowered": [], "source": []}
    for _ in range(args.rounds):          # interleaved so that machine load hits both alike
        for name in ("lowered", "source"):
            s, f = sessions[name], feeds[name]
            for _ in range(args.runs // args.rounds):
                t = time.perf_counter()
                s.run(None, f)
                times[name].append((time.perf_counter() - t) * 1000)
    a, b = statistics.median(times["lowered"]), statistics.median(times["source"])
    print(f"threads {threads}: lowered ML Program {a:.3f} ms, source ONNX {b:.3f} ms (medians of {len(times['lowered'])}), "
          f"ratio {a / b:.3f}")
