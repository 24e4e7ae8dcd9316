#!/usr/bin/env python3
"""The TFLite importer's speed: each MediaPipe model run by tflite-runtime's interpreter (XNNPACK, 2 threads)
vs the ONNX file `openvision models convert` wrote for it, run by ONNX Runtime (2 intra-op threads, all
graph optimisations, the same library version OpenVision loads), on the same random input.

    python Benchmarks/python/bench_tflite.py RUNS MODELS_DIR CONVERTED_DIR [name ...]

Prints one JSON line per model: median ms per inference of each (after 3 warm-up runs; the two run alternately,
one call each per round, so that both see the same machine load), their ratio, and the
largest |difference| between the two runtimes' outputs (a cross-check of the conversion).
"""
import json, os, sys, time
import numpy as np
import onnxruntime as ort
try:
    from tflite_runtime.interpreter import Interpreter
except ImportError:
    from ai_edge_litert.interpreter import Interpreter

def median_ms(fns, runs):
    """Median ms of each function, run alternately (one call of each per round) so both see the same load."""
    for _ in range(3):
        for fn in fns: fn()
    times = [[] for _ in fns]
    for _ in range(runs):
        for fn, ts in zip(fns, times):
            t = time.perf_counter(); fn(); ts.append((time.perf_counter() - t) * 1000)
    return [float(np.median(ts)) for ts in times]

def main():
    runs, models, converted = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    names = sys.argv[4:] or sorted(f[:-7] for f in os.listdir(models) if f.endswith(".tflite"))
    rng = np.random.default_rng(0)
    for name in names:
        it = Interpreter(model_path=os.path.join(models, name + ".tflite"), num_threads=2)
        try:
            it.allocate_tensors()
        except RuntimeError as e:   # MediaPipe's custom ops are not in tflite-runtime
            print(json.dumps({"model": name, "error": str(e).splitlines()[0]})); continue
        d = it.get_input_details()[0]
        x = rng.random(d["shape"], dtype=np.float32)
        def tfl():
            it.set_tensor(d["index"], x); it.invoke()
            return [it.get_tensor(o["index"]) for o in it.get_output_details()]
        so = ort.SessionOptions(); so.intra_op_num_threads = 2; so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        sess = ort.InferenceSession(os.path.join(converted, name + ".onnx"), so, providers=["CPUExecutionProvider"])
        feed = {sess.get_inputs()[0].name: x}
        def onnx(): return sess.run(None, feed)
        diff = max(float(np.abs(a - b).max()) for a, b in zip(tfl(), onnx()))
        t_tfl, t_ort = median_ms([tfl, onnx], runs)
        print(json.dumps({"model": name, "tflite_ms": round(t_tfl, 3), "onnxruntime_ms": round(t_ort, 3),
                          "ratio": round(t_ort / t_tfl, 3), "max_abs_diff": diff}))

if __name__ == "__main__":
    main()
