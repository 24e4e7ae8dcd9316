"""Multi-object tracking, side by side: `openvision track` (with its offline completion; online: --max-gap 0; and
ByteTrack alone: OC-SORT's re-update and BoostTrack's decay and boost turned off, the tracker before issue 29)
vs boxmot's ByteTrack (Benchmarks/python/track_boxmot.py, run with PEER_PYTHON) and a greedy IoU tracker
(Benchmarks/python/track_greedy.py) on the same MOTChallenge detections, scored with py-motmetrics against the ground truth
(IoU >= 0.5): MOTA, IDF1, ID switches; and the tracker's time per frame (update calls only, median of RUNS
runs; each side reports its own, reading and writing excluded).

usage: bench_track.py OPENVISION PEER_PYTHON RUNS SEQUENCE_DIR...   (each with gt/gt.txt and det/det.txt, and for a
moving camera camera/motion.txt: `openvision track --camera-motion` is then run beside the rest)
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

# py-motmetrics 1.4.0 (the latest on PyPI) still calls np.asfarray, which NumPy 2 removed.
if not hasattr(np, "asfarray"):
    np.asfarray = lambda a, dtype=float: np.asarray(a, dtype=dtype)
import motmetrics as mm  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The refinements over ByteTrack turned off (OCM and OCR are off by default): the tracker as it was before them.
BYTETRACK_ALONE = ("--no-reupdate", "--lost-track-decay", "1", "--detection-boost", "0")


def ours(binary, dets, out, extra=()):
    run = subprocess.run([binary, "track", "--detections", dets, "--out", out, *extra],
                         capture_output=True, text=True, check=True)
    m = re.search(r"([0-9.]+) ms per frame", run.stderr)
    return float(m.group(1))


def peer(python, dets, out):
    run = subprocess.run([python, os.path.join(HERE, "track_boxmot.py"), dets, out],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])["ms_per_frame"]


def greedy(dets, out):
    run = subprocess.run([sys.executable, os.path.join(HERE, "track_greedy.py"), dets, out],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])["ms_per_frame"]


def score(gt_path, ts_path):
    gt = mm.io.loadtxt(gt_path, fmt="mot15-2D", min_confidence=1)
    ts = mm.io.loadtxt(ts_path, fmt="mot15-2D")
    acc = mm.utils.compare_to_groundtruth(gt, ts, "iou", distth=0.5)
    s = mm.metrics.create().compute(acc, metrics=["mota", "idf1", "num_switches", "num_false_positives",
                                                  "num_misses", "num_unique_objects"], name="x")
    return {k: float(s[k].iloc[0]) for k in s.columns}


def main():
    binary, python, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seq in sys.argv[4:]:
            name = os.path.basename(os.path.normpath(seq))
            gt, dets = os.path.join(seq, "gt", "gt.txt"), os.path.join(seq, "det", "det.txt")
            frames = max(int(line.split(",")[0]) for line in open(dets) if line.strip())
            sides = [("OpenVision", lambda o: ours(binary, dets, o)),
                     ("OpenVision online (--max-gap 0)", lambda o: ours(binary, dets, o, ("--max-gap", "0"))),
                     ("OpenVision, ByteTrack alone (before)", lambda o: ours(binary, dets, o, BYTETRACK_ALONE)),
                     ("greedy IoU (track_greedy.py)", lambda o: greedy(dets, o)),
                     ("boxmot ByteTrack", lambda o: peer(python, dets, o))]
            motion = os.path.join(seq, "camera", "motion.txt")
            if os.path.exists(motion):  # a moving camera (make_mot_moving_camera.py): ours with its motion too
                sides.insert(1, ("OpenVision, --camera-motion", lambda o: ours(binary, dets, o, ("--camera-motion", motion))))
            results = {}
            for label, run in sides:
                out = os.path.join(tmp, f"{name}-{len(results)}.txt")
                times = [run(out) for _ in range(runs)]
                results[label] = dict(score(gt, out), ms=statistics.median(times))
            rows.append((name, frames, results))
    print(f"\n## Multi-object tracking (ByteTrack's thresholds: track_thresh 0.5, match_thresh 0.8, buffer 30; "
          f"py-motmetrics, IoU >= 0.5; ms per frame = update calls only, median of {runs} runs)")
    print("| sequence | frames | tracker | MOTA | IDF1 | ID sw. | FP | FN | ms/frame | time vs boxmot |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, frames, results in rows:
        base = results["boxmot ByteTrack"]["ms"]
        for label, r in results.items():
            print(f"| {name} | {frames} | {label} | {100 * r['mota']:.1f} | {100 * r['idf1']:.1f} | "
                  f"{int(r['num_switches'])} | {int(r['num_false_positives'])} | {int(r['num_misses'])} | "
                  f"{r['ms']:.3f} | {r['ms'] / base:.2f}x |")


if __name__ == "__main__":
    main()
