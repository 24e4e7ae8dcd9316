"""The peer of `openvision-bench ocr RUNS accurate FILE...`: Python rapidocr-onnxruntime 1.4.4 (the same
PP-OCRv4 det/cls/rec models, its default config, ONNX Runtime with 2 intra-op threads).
Per file: the median of RUNS timed calls (file path in, lines out; one warm-up call first), and the
lines with their corners (pixels, top-left origin, clockwise from the top-left), as JSONL.
Usage: bench_rapidocr.py RUNS FILE...
"""
import json
import statistics
import sys
import time

from rapidocr_onnxruntime import RapidOCR


def main() -> None:
    runs = int(sys.argv[1])
    engine = RapidOCR(intra_op_num_threads=2, inter_op_num_threads=1)
    for path in sys.argv[2:]:
        times = []
        result = None
        for run in range(runs + 1):
            start = time.perf_counter()
            result, _ = engine(path)
            elapsed = (time.perf_counter() - start) * 1000
            if run > 0:
                times.append(elapsed)
        lines = [{"text": text, "confidence": float(score), "quad": [float(v) for point in box for v in point]}
                 for box, text, score in (result or [])]
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "lines": lines}, sort_keys=True,
                         ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
