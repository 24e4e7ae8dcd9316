"""MOTChallenge detections made from a public sequence's ground truth, as a detector of known quality would give
them: IDs dropped, 10 % of the boxes missed, every box jittered (x, y, w, h each moved by up to 2 px, uniform),
15 % of the rest given the low score 0.35, the others 0.9. Deterministic for a seed (default 0).

The sequences: TUD-Campus and TUD-Stadtmitte, whose ground truth ships in the PyPI wheel of py-motmetrics 1.4.0
(`motmetrics/data/<name>/gt.txt`). Writes OUT_DIR/<name>/gt/gt.txt (a copy) and OUT_DIR/<name>/det/det.txt, the
layout `scripts/bench track` reads (OPENVISION_MOT_SEQUENCES).

usage: make_mot_from_gt.py OUT_DIR [GT_TXT...]   (default: the TUD sequences of the installed motmetrics)
"""
import os
import shutil
import sys

import numpy as np

MISSED, JITTER, LOW_FRACTION, LOW_SCORE, HIGH_SCORE = 0.10, 2.0, 0.15, 0.35, 0.9


def make(gt_path, out_dir, seed=0):
    name = os.path.basename(os.path.dirname(os.path.abspath(gt_path)))
    rng = np.random.default_rng(seed)
    rows = np.loadtxt(gt_path, delimiter=",", ndmin=2)
    rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    os.makedirs(os.path.join(out_dir, name, "gt"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, name, "det"), exist_ok=True)
    shutil.copyfile(gt_path, os.path.join(out_dir, name, "gt", "gt.txt"))
    lines = []
    for frame, _, x, y, w, h, *_ in rows:
        # One draw of each kind per box, in this order, whether or not it is used: the same seed gives the
        # same file however the thresholds are set.
        miss, low = rng.random(), rng.random()
        dx, dy, dw, dh = rng.uniform(-JITTER, JITTER, 4)
        if miss < MISSED:
            continue
        score = LOW_SCORE if low < LOW_FRACTION else HIGH_SCORE
        lines.append(f"{int(frame)},-1,{x + dx:.2f},{y + dy:.2f},{max(1.0, w + dw):.2f},{max(1.0, h + dh):.2f},{score},-1,-1,-1")
    with open(os.path.join(out_dir, name, "det", "det.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return name, len(rows), len(lines)


def main():
    out_dir = sys.argv[1]
    paths = sys.argv[2:]
    if not paths:
        import motmetrics
        data = os.path.join(os.path.dirname(motmetrics.__file__), "data")
        paths = [os.path.join(data, n, "gt.txt") for n in ("TUD-Campus", "TUD-Stadtmitte")]
    for path in paths:
        name, boxes, kept = make(path, out_dir)
        print(f"{name}: {boxes} ground-truth boxes, {kept} detections", file=sys.stderr)


if __name__ == "__main__":
    main()
