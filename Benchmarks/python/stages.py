"""Prints median per-stage times (ms over all files) of benchmark JSON-lines outputs that carry stages_ms."""
import json
import statistics
import sys

print(f"\n## Per-stage medians over all images (ms)\n{'run':24} {'decode':>8} {'preprocess':>10} {'inference':>9} {'postprocess':>11} {'total':>8}")
for paths in sys.argv[1:]:
    rows = [json.loads(line) for path in paths.split(",") for line in open(path) if line.strip()]
    path = paths.split(",")[0]
    stage = lambda k: statistics.median(r["stages_ms"][k] for r in rows)
    total = statistics.median(r["median_ms"] for r in rows)
    name = path.rsplit("/", 1)[-1].replace(".jsonl", "")
    print(f"{name:24} {stage('decode'):8.2f} {stage('preprocess'):10.2f} {stage('inference'):9.2f} {stage('postprocess'):11.2f} {total:8.2f}")
