"""Peer for the barcode benchmark: zxing-cpp's Python binding (PyPI zxing-cpp 3.1.1) on the same files.

Per file: median ms of file -> barcodes (Pillow decode + zxingcpp.read_barcodes with its defaults:
try_rotate, try_invert, try_downscale, as OpenVision's DetectBarcodesRequest), and of the read alone.
Prints one JSON object per line, like openvision-bench.
"""
import json
import statistics
import sys
import time

import numpy as np
import zxingcpp
from PIL import Image


def main() -> None:
    runs = int(sys.argv[1])
    for path in sys.argv[2:]:
        times, read_times, payloads = [], [], []
        for _ in range(runs):
            start = time.perf_counter()
            with Image.open(path) as image:
                gray = np.asarray(image.convert("L"))
            decoded = time.perf_counter()
            results = zxingcpp.read_barcodes(gray)
            end = time.perf_counter()
            times.append((end - start) * 1000)
            read_times.append((end - decoded) * 1000)
            payloads = sorted(r.text for r in results)
        print(json.dumps({"file": path, "median_ms": statistics.median(times),
                          "read_median_ms": statistics.median(read_times), "count": len(payloads),
                          "payloads": payloads}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
