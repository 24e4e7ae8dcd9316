#!/usr/bin/env python3
"""Core ML's classic model types: onnxmltools' convert_coreml against OpenVision's conversion, for scripts/bench's
coreml-classic section.

usage: bench_coreml_classic_peer.py RUNS OURS_DIR FILE.mlmodel...
  OURS_DIR holds OpenVision's conversion of each FILE as NAME.onnx (`openvision models convert`); a fixture's cases
  (inputs and the outputs its source library computes) are in FILE.json beside it (Tests/Fixtures/coreml/classic);
  MarsHabitatPricer's come from its weights.

Needs its own venv: onnxmltools' Core ML converter works only with the libraries of its time (1.16 cannot import its
Core ML side; 1.12.0's tree converter needs protobuf 3's leniency towards bools in int lists):
    python3 -m venv /tmp/venvs/onnxmltools && /tmp/venvs/onnxmltools/bin/pip install onnxmltools==1.12.0 \\
        onnxconverter-common==1.13.0 onnx==1.16.2 coremltools==9.0 "numpy<2" onnxruntime==1.31.1 protobuf==3.20.3
Per file, one JSON line: whether onnxmltools converts it (else its error) and its median conversion time (convert +
serialize, in process), whether each ONNX answers as the library did (largest error, |got − want| / max(|want|, 1), and
label mismatches), and the median time of one onnxruntime run of each ONNX on the same case, the two alternating
(intra-op threads 1; a run includes onnxmltools' ZipMap where its graph has one, as its users get it).
"""
import json, os, sys, time, warnings
warnings.filterwarnings("ignore")
import numpy as np
import onnxruntime as ort
import coremltools
import onnxmltools
# onnxmltools registers its Core ML shape calculators and converters only when these packages are imported.
import onnxmltools.convert.coreml.shape_calculators  # noqa: F401
import onnxmltools.convert.coreml.shape_calculators.neural_network  # noqa: F401
import onnxmltools.convert.coreml.operator_converters  # noqa: F401
import onnxmltools.convert.coreml.operator_converters.neural_network  # noqa: F401

LABELS = []
MARS = [(1.0, 2.0, 750.0), (3.0, 0.0, 1000.0), (0.5, 5.0, 5000.0)]


def cases(path):
    name = os.path.splitext(os.path.basename(path))[0]
    if name == "MarsHabitatPricer":
        w = [136.72672317810523, 653.51101376230667, 5.8540790493029951, -3751.0558784658238]
        return [{"inputs": {"solarPanels": a, "greenhouses": b, "size": c},
                 "outputs": {"price": w[0] * a + w[1] * b + w[2] * c + w[3]}} for a, b, c in MARS]
    return json.load(open(os.path.splitext(path)[0] + ".json"))["cases"]


def feeds(session, inputs):
    out = {}
    for i in session.get_inputs():
        v = inputs[i.name]
        if i.type.startswith("map"):
            out[i.name] = {k: float(x) for k, x in v.items()}
            continue
        dtype = {"tensor(float)": np.float32, "tensor(double)": np.float64, "tensor(int64)": np.int64,
                 "tensor(string)": object}[i.type]
        values = [np.nan if x is None else x for x in (v if isinstance(v, list) else [v])]
        shape = [d if isinstance(d, int) else 1 for d in i.shape] or [len(values)]
        if int(np.prod(shape)) != len(values):
            shape = [1, len(values)]
        out[i.name] = np.array(values, dtype=dtype).reshape(shape)
    return out


def error(outputs, expected):
    """Largest |got − want| / max(|want|, 1) over numbers, arrays and probabilities; label mismatches."""
    worst, mismatches = 0.0, 0
    for name, want in expected.items():
        got = outputs.get(name)
        if got is None:
            return float("inf"), mismatches + 1
        if isinstance(got, list) and got and isinstance(got[0], dict):  # onnxmltools' ZipMap
            got = got[0]
        if isinstance(want, dict):
            probabilities = got if isinstance(got, dict) else dict(zip(LABELS, np.ravel(got)))
            for label, p in want.items():
                q = probabilities.get(label, probabilities.get(int(label) if label.lstrip("-").isdigit() else label, np.nan))
                worst = max(worst, abs(float(q) - p) / max(abs(p), 1))
        elif isinstance(want, str) or (isinstance(want, int) and np.asarray(got).dtype.kind in "iOU"):
            g = np.ravel(got)[0]
            mismatches += str(g.decode() if isinstance(g, bytes) else g) != str(want)
        else:
            g = np.ravel(got).astype(np.float64)
            w = np.ravel(np.array(want, dtype=np.float64))
            if g.size != w.size:
                return float("inf"), mismatches
            worst = max(worst, float(np.max(np.abs(g - w) / np.maximum(np.abs(w), 1))))
    return worst, mismatches


def run_all(session, case):
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, feeds(session, case["inputs"]))))


runs = int(sys.argv[1])
ours_dir = sys.argv[2]
options = ort.SessionOptions()
options.log_severity_level = 3
options.intra_op_num_threads = 1
for path in sys.argv[3:]:
    name = os.path.splitext(os.path.basename(path))[0]
    row = {"model": name}
    spec = coremltools.utils.load_spec(path)
    sessions = {}
    try:
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            data = onnxmltools.convert_coreml(spec, target_opset=13).SerializeToString()
            times.append((time.perf_counter() - t) * 1000)
        row.update(peer_converts=True, peer_convert_ms=float(np.median(times)))
        sessions["peer"] = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    except Exception as e:
        row.update(peer_converts=False, peer_error=f"{type(e).__name__}: {str(e)[:120]}")
    ours = os.path.join(ours_dir, name + ".onnx")
    if os.path.exists(ours):
        sessions["ours"] = ort.InferenceSession(ours, options, providers=["CPUExecutionProvider"])
        meta = sessions["ours"].get_modelmeta().custom_metadata_map
        LABELS = json.loads(meta["coreml"])["classLabels"]
    all_cases = cases(path)
    for who, session in sessions.items():
        try:
            results = [error(run_all(session, c), c["outputs"]) for c in all_cases]
            row[f"{who}_max_error"] = max(r[0] for r in results)
            row[f"{who}_label_mismatches"] = sum(r[1] for r in results)
        except Exception as e:
            row[f"{who}_run_error"] = f"{type(e).__name__}: {str(e)[:120]}"
    if all(f"{w}_max_error" in row for w in ("ours", "peer")):
        # One run of each on the same case, alternating, 20 × RUNS per case; the median per case, then over cases.
        per_case = {"ours": [], "peer": []}
        for c in all_cases:
            prepared = {w: feeds(s, c["inputs"]) for w, s in sessions.items()}
            t = {"ours": [], "peer": []}
            for k in range(20 * runs + 5):
                for w in (("ours", "peer") if k % 2 == 0 else ("peer", "ours")):
                    start = time.perf_counter()
                    sessions[w].run(None, prepared[w])
                    if k >= 5:
                        t[w].append((time.perf_counter() - start) * 1e6)
            for w in t:
                per_case[w].append(float(np.median(t[w])))
        row["ours_run_us"] = float(np.median(per_case["ours"]))
        row["peer_run_us"] = float(np.median(per_case["peer"]))
        row["run_ratio"] = float(np.median([o / p for o, p in zip(per_case["ours"], per_case["peer"])]))
    print(json.dumps(row))
    sys.stdout.flush()
