"""Peer for the text benchmark: the `tesseract` command line (Debian's tesseract-ocr 5.3) on the same files.

Per file: median ms of `tesseract FILE - --oem 1 --psm PSM` (process start, model load and recognition,
which is what a shell user pays per image), and the recognised lines joined by newlines.
Usage: bench_tesseract_cli.py RUNS PSM FILE...
"""
import json
import statistics
import subprocess
import sys
import time


def main() -> None:
    runs, psm = int(sys.argv[1]), sys.argv[2]
    for path in sys.argv[3:]:
        times, text = [], ""
        for _ in range(runs):
            start = time.perf_counter()
            out = subprocess.run(["tesseract", path, "-", "--oem", "1", "--psm", psm],
                                 capture_output=True, text=True, check=True).stdout
            times.append((time.perf_counter() - start) * 1000)
            text = "\n".join(" ".join(line.split()) for line in out.splitlines() if line.strip())
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "text": text}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
