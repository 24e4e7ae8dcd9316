"""The ceiling that the native work alone puts on `scripts/bench serve`: the CPU time per image of exactly the
native calls both servers make (libjpeg through cv2.imdecode, zxing-cpp's read_barcodes; Yolo-Fastest on ONNX
Runtime with one intra-op thread, so that no spinning pool inflates the CPU time), with nothing around them but
a Python loop. No server on the same cores can answer more than CORES / that time requests per second.

Usage: serve_native_bound.py MODEL.onnx IMAGE...   (prints one line per workload; cores from os.cpu_count())
"""
import os
import statistics
import sys
import time

import cv2
import numpy as np
import onnxruntime as ort
import zxingcpp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_detect import decode  # noqa: E402  (the peer's own decoder)


def main() -> None:
    cv2.setNumThreads(1)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(sys.argv[1], options, providers=["CPUExecutionProvider"])
    inp = session.get_inputs()[0]
    bodies = [open(p, "rb").read() for p in sys.argv[2:]]

    def barcodes(body):
        zxingcpp.read_barcodes(cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_GRAYSCALE))

    def detect(body):
        im = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
        blob = cv2.resize(im, (inp.shape[3], inp.shape[2]))[:, :, ::-1].transpose(2, 0, 1)[None]
        blob = np.ascontiguousarray(blob, dtype=np.float32) / 255.0
        decode(np.concatenate(session.run(None, {inp.name: blob})), im.shape[1], im.shape[0])

    cores = os.cpu_count() or 1
    for name, fn in (("barcodes", barcodes), ("detect", detect)):
        for body in bodies:
            fn(body)  # warm-up
        per_image = []
        for _ in range(5):
            t0 = time.process_time()
            for body in bodies:
                fn(body)
            per_image.append((time.process_time() - t0) / len(bodies) * 1000)
        ms = statistics.median(per_image)
        print(f"{name:9} native calls alone: {ms:.2f} ms CPU per image -> at most {cores * 1000 / ms:.0f} req/s on {cores} cores")


if __name__ == "__main__":
    main()
