"""Peer for the classification benchmark: Python onnxruntime on the same ONNX file and files.

cv2.imread, centre crop (the largest centred region with the input's aspect, as OpenVision's
.centerCrop) resized to 224 x 224, RGB,
(x/255 - mean) / std from the model's metadata, onnxruntime with 2 intra-op threads, softmax, top-5.
Usage: bench_classify.py RUNS MODEL FILE...
"""
import json
import statistics
import sys
import time

import cv2
import numpy as np
import onnxruntime as ort


def main() -> None:
    runs, model = int(sys.argv[1]), sys.argv[2]
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 2
    opts.inter_op_num_threads = 1
    session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    mean = np.array(json.loads(meta["mean"]), np.float32).reshape(3, 1, 1)
    std = np.array(json.loads(meta["std"]), np.float32).reshape(3, 1, 1)
    labels = json.loads(meta["labels"])
    for path in sys.argv[3:]:
        times, top = [], []
        for i in range(runs + 1):
            t0 = time.perf_counter()
            im = cv2.imread(path)
            h, w = im.shape[:2]
            side = min(h, w)
            y, x = (h - side) // 2, (w - side) // 2
            im = cv2.resize(im[y:y + side, x:x + side], (224, 224), interpolation=cv2.INTER_LINEAR)
            blob = im[:, :, ::-1].transpose(2, 0, 1).astype(np.float32) / 255.0
            blob = ((blob - mean) / std)[None]
            logits = session.run(["logits"], {"input": blob})[0][0]
            e = np.exp(logits - logits.max())
            p = e / e.sum()
            top = [labels[j].split(",")[0] for j in np.argsort(-p)[:5]]
            if i:
                times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "count": 5, "payloads": top}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
