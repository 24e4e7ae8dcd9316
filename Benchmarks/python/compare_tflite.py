#!/usr/bin/env python3
"""Table of scripts/bench's tflite section: ours (VisionModel on the converted ONNX, 2 threads) vs tflite-runtime
(2 threads) and the same ONNX in Python onnxruntime.  usage: compare_tflite.py OURS.jsonl PEER.jsonl"""
import json, sys
ours = {r["model"]: r for r in map(json.loads, open(sys.argv[1]))}
peer = {r["model"]: r for r in map(json.loads, open(sys.argv[2]))}
print("\n## TFLite models: raw inference, median ms (2 threads)")
print(f"{'model':34} {'ours':>8} {'tflite-rt':>10} {'ours/tfl':>9} {'py ort':>8} {'convert+load':>13} {'cached load':>12}")
for name in sorted(ours):
    o, p = ours[name], peer.get(name, {})
    t = p.get("tflite_ms")
    ratio = f"{o['ours_ms'] / t:.2f}x" if t else "n/a"
    print(f"{name:34} {o['ours_ms']:8.2f} {t if t else float('nan'):10.2f} {ratio:>9} {p.get('onnxruntime_ms', float('nan')):8.2f} "
          f"{o['first_load_ms']:13.0f} {o['cached_load_ms']:12.0f}" + ("" if t else "   (" + p.get("error", "no peer")[:50] + ")"))
