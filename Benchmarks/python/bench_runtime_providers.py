"""ONNX Runtime's OpenVINO execution provider against the OpenVINO C API's runtime and ONNX Runtime's CPU provider
(issue 35: "measure both and say why"; docs/models.md, "ONNX Runtime's OpenVINO execution provider").

Usage: bench_runtime_providers.py ENGINE THREADS MODEL.onnx...
  ENGINE: ort      ONNX Runtime's CPU provider (the pinned onnxruntime 1.31.1: scripts/setup's venv)
          ort-ov   ONNX Runtime's OpenVINO provider (a venv with onnxruntime-openvino, never installed by setup)
          openvino OpenVINO's own runtime (the openvino 2026.4.0 wheel: the library OpenVision loads)
Each model gets the same seeded input in [-1, 1) (dynamic dimensions: 1 for the first, 320 for the others), fp32,
two untimed runs, then 1.5 s of runs (at least 10). Prints "ENGINE THREADS MODEL MEDIAN_MS PROVIDER" per model and
saves the first output's first 200,000 values to OUT/out-ENGINE-MODEL.npy for comparing engines (OUT: $BENCH_OUT or .).
Run each engine in its own process, alternating, several rounds (the ratios are what to read on a loaded machine).
"""
import os
import statistics
import sys
import time

import numpy as np
import onnx


def input_shapes(path):
    model = onnx.load(path, load_external_data=False)
    initializers = {i.name for i in model.graph.initializer}
    shapes = []
    for i in model.graph.input:
        if i.name in initializers:
            continue
        dims = [d.dim_value if d.dim_value > 0 else (1 if k == 0 else 320)
                for k, d in enumerate(i.type.tensor_type.shape.dim)]
        shapes.append((i.name, dims))
    return shapes


def runner(engine, threads, path, feed):
    if engine in ("ort", "ort-ov"):
        import onnxruntime as ort
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        if engine == "ort-ov":
            session = ort.InferenceSession(path, options, providers=["OpenVINOExecutionProvider"], provider_options=[
                {"device_type": "CPU", "precision": "FP32", "num_of_threads": str(threads)}])
        else:
            session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        return (lambda: session.run(None, feed)), session.get_providers()[0]
    import openvino as ov
    compiled = ov.Core().compile_model(path, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": threads})
    request = compiled.create_infer_request()

    def run():
        result = request.infer(feed)
        return [result[o] for o in compiled.outputs]
    return run, "openvino " + ov.__version__


def main():
    engine, threads, models = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    out_dir = os.environ.get("BENCH_OUT", ".")
    for path in models:
        rng = np.random.default_rng(0)
        feed = {name: rng.uniform(-1, 1, shape).astype(np.float32) for name, shape in input_shapes(path)}
        run, provider = runner(engine, threads, path, feed)
        first = run()
        run()
        times, end = [], time.perf_counter() + 1.5
        while time.perf_counter() < end or len(times) < 10:
            t0 = time.perf_counter()
            run()
            times.append((time.perf_counter() - t0) * 1000)
        name = os.path.basename(path)
        np.save(os.path.join(out_dir, f"out-{engine}-{name}.npy"), np.asarray(first[0]).ravel()[:200000])
        print(f"{engine}\t{threads}\t{name}\t{statistics.median(times):.3f}\t{provider}", flush=True)


if __name__ == "__main__":
    main()
