"""Peers for the detection benchmark, same model and files as openvision-bench detect.

  ort:    the Ultralytics ONNX-example way: cv2.imread, resize to the input (Darknet models are
          stretched, not letterboxed), numpy HWC->CHW /255, onnxruntime (2 intra-op threads),
          numpy decode, cv2.dnn.NMSBoxes per class.
  opencv: OpenCV DNN on the Darknet .cfg/.weights: blobFromImage + forward + the same decode/NMS.
Per file: median ms (file -> boxes) and per-stage medians. Prints JSON lines.
Usage: bench_detect.py ort|opencv RUNS MODEL FILE...   (MODEL: .onnx for ort, .cfg for opencv)
"""
import json
import statistics
import sys
import time

import cv2
import numpy as np


def decode(rows, W, H, conf=0.25, iou=0.45):
    cls = rows[:, 5:].argmax(1)
    scores = rows[np.arange(len(rows)), 5 + cls]
    keep = scores >= conf
    rows, cls, scores = rows[keep], cls[keep], scores[keep]
    boxes = np.stack([(rows[:, 0] - rows[:, 2] / 2) * W, (rows[:, 1] - rows[:, 3] / 2) * H, rows[:, 2] * W, rows[:, 3] * H], 1)
    out = []
    for c in np.unique(cls):
        sel = np.where(cls == c)[0]
        for j in np.array(cv2.dnn.NMSBoxes(boxes[sel].tolist(), scores[sel].tolist(), conf, iou)).flatten():
            i = sel[j]
            out.append((int(c), float(scores[i]), boxes[i].tolist()))
    return sorted(out, key=lambda d: -d[1])


def ort_session(model):
    """An onnxruntime CPU session with 2 intra-op threads, as the OpenVision side uses."""
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


def main() -> None:
    kind, runs, model = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == "ort":
        session = ort_session(model)
        inp = session.get_inputs()[0]
        size = (inp.shape[3], inp.shape[2])
        run = lambda blob: np.concatenate(session.run(None, {inp.name: blob}))
    else:
        cv2.setNumThreads(2)
        net = cv2.dnn.readNetFromDarknet(model, model[:-4] + ".weights")
        names = net.getUnconnectedOutLayersNames()
        size = (320, 320)

        def run(blob):
            net.setInput(blob)
            return np.concatenate(net.forward(names))
    for path in sys.argv[4:]:
        stages = {"decode": [], "preprocess": [], "inference": [], "postprocess": []}
        totals, detections = [], []
        for i in range(runs + 1):
            t0 = time.perf_counter()
            im = cv2.imread(path)
            t1 = time.perf_counter()
            if kind == "ort":
                blob = cv2.resize(im, size, interpolation=cv2.INTER_LINEAR)[:, :, ::-1].transpose(2, 0, 1)[None]
                blob = np.ascontiguousarray(blob, dtype=np.float32) / 255.0
            else:
                blob = cv2.dnn.blobFromImage(im, 1 / 255.0, size, swapRB=True, crop=False)
            t2 = time.perf_counter()
            rows = run(blob)
            t3 = time.perf_counter()
            detections = decode(rows, im.shape[1], im.shape[0])
            t4 = time.perf_counter()
            if i == 0:
                continue  # warm-up
            totals.append((t4 - t0) * 1000)
            for k, (a, b) in zip(stages, [(t0, t1), (t1, t2), (t2, t3), (t3, t4)]):
                stages[k].append((b - a) * 1000)
        print(json.dumps({"file": path, "median_ms": statistics.median(totals), "count": len(detections),
                          "stages_ms": {k: statistics.median(v) for k, v in stages.items()},
                          "payloads": [f"{c}:{s:.2f}" for c, s, _ in detections]}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
