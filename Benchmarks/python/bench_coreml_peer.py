#!/usr/bin/env python3
"""onnxmltools' Core ML converter (convert_coreml) on Core ML files, for scripts/bench's coreml section.

usage: bench_coreml_peer.py RUNS FILE.mlmodel...   (a FILE.json beside a fixture holds its inputs and expected outputs)

Needs its own venv: onnxmltools' Core ML converter works only with the libraries of its time
(onnxmltools 1.16 lost its data types; 1.12.0 needs onnx < 1.17 and onnxconverter-common 1.13.0):
    python3 -m venv /work/venvs/onnxmltools && /work/venvs/onnxmltools/bin/pip install onnxmltools==1.12.0 \\
        onnxconverter-common==1.13.0 onnx==1.16.2 coremltools==9.0 numpy onnxruntime
Per file, one JSON line: whether it converts (else the error), the median conversion time (convert + serialize),
whether onnxruntime loads the ONNX, and for fixtures the largest error against the expected outputs.
"""
import json, os, sys, time, warnings
warnings.filterwarnings("ignore")
import numpy as np
import onnxruntime as ort
import coremltools
import onnxmltools
# onnxmltools registers its Core ML shape calculators and converters only when these packages are imported.
import onnxmltools.convert.coreml.shape_calculators.neural_network  # noqa: F401
import onnxmltools.convert.coreml.shape_calculators  # noqa: F401
import onnxmltools.convert.coreml.operator_converters  # noqa: F401
import onnxmltools.convert.coreml.operator_converters.neural_network  # noqa: F401

runs = int(sys.argv[1])
so = ort.SessionOptions()
so.log_severity_level = 3
for path in sys.argv[2:]:
    row = {"model": os.path.basename(path)}
    spec = coremltools.utils.load_spec(path)
    times, model = [], None
    try:
        for _ in range(runs):
            t = time.perf_counter()
            model = onnxmltools.convert_coreml(spec, target_opset=13)
            data = model.SerializeToString()
            times.append((time.perf_counter() - t) * 1000)
        row.update(converts=True, convert_ms=float(np.median(times)))
    except Exception as e:
        row.update(converts=False, error=f"{type(e).__name__}: {str(e)[:160]}")
        print(json.dumps(row)); sys.stdout.flush()
        continue
    try:
        sess = ort.InferenceSession(data, so, providers=["CPUExecutionProvider"])
        row["runs"] = True
    except Exception as e:
        row.update(runs=False, run_error=str(e)[:160])
        print(json.dumps(row)); sys.stdout.flush()
        continue
    reference = os.path.splitext(path)[0] + ".json"
    if os.path.exists(reference):
        ref = json.load(open(reference))
        try:
            feeds = {}
            for i in ref["inputs"]:
                declared = [x for x in sess.get_inputs() if x.name == i["name"]][0]
                shape = [d if isinstance(d, int) else 1 for d in declared.shape]
                feeds[i["name"]] = np.array(i["values"], np.float32).reshape(shape)
            outs = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
            worst = 0.0
            for o in ref["outputs"]:
                want = np.array(o["values"], np.float32)
                got = outs[o["name"]].astype(np.float32).ravel()
                if got.size != want.size:
                    worst = float("inf"); break
                worst = max(worst, float(np.max(np.abs(got - want) / np.maximum(1, np.abs(want)))) if want.size else 0.0)
            row["max_error"] = worst
            row["agrees"] = bool(worst <= ref.get("tolerance", 1e-4)) or bool(ref.get("shape_only"))
        except Exception as e:
            row.update(agrees=False, run_error=f"{type(e).__name__}: {str(e)[:160]}")
    print(json.dumps(row)); sys.stdout.flush()
