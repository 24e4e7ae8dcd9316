"""A greedy IoU tracker (Bochinski, Eiselein and Sikora, "High-Speed Tracking-by-Detection Without Using Image
Information", AVSS 2017), the plainest baseline for `openvision track`: per frame, each track alive on the previous
frame takes the unclaimed detection it overlaps most (IoU >= 0.5, best pairs first); detections left over start
new tracks; a track not matched ends. Every detection scoring at least 0.3 is used and written with its track's
ID on its own frame (the detector's box, no filter). Same input and output as track_boxmot.py: prints one JSON
line with frames, tracks and ms per frame spent in the update (reading and writing excluded).

usage: track_greedy.py DETS.txt OUT.txt [min_score iou_threshold]
"""
import json
import sys
import time

import numpy as np


def iou(a, b):
    """IoU of boxes (x, y, w, h)."""
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def main():
    dets_path, out_path = sys.argv[1], sys.argv[2]
    min_score, threshold, max_age = (float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0.3, 0.3, 5)
    rows = np.loadtxt(dets_path, delimiter=",", ndmin=2)
    last = int(rows[:, 0].max()) if len(rows) else 0
    by_frame = {f: [tuple(r[2:7]) for r in rows[rows[:, 0] == f] if r[6] >= min_score] for f in range(1, last + 1)}
    active = {}  # id -> (last box, last frame matched)
    next_id, lines, elapsed = 1, [], 0.0
    for f in range(1, last + 1):
        dets = by_frame[f]
        start = time.perf_counter()
        pairs = sorted(((iou(box, d), tid, j) for tid, (box, _) in active.items() for j, d in enumerate(dets)), reverse=True)
        taken_t, taken_d, assigned = set(), set(), {}
        for value, tid, j in pairs:
            if value < threshold:
                break
            if tid in taken_t or j in taken_d:
                continue
            taken_t.add(tid); taken_d.add(j); assigned[j] = tid
        for j in range(len(dets)):
            if j not in assigned:
                assigned[j] = next_id
                next_id += 1
        active = {tid: v for tid, v in active.items() if f - v[1] < max_age}
        active.update({assigned[j]: (dets[j][:4], f) for j in range(len(dets))})
        elapsed += time.perf_counter() - start
        for j, d in enumerate(dets):
            lines.append(f"{f},{assigned[j]},{d[0]:.2f},{d[1]:.2f},{d[2]:.2f},{d[3]:.2f},{d[4]:.3f},-1,-1,-1")
    with open(out_path, "w") as fh:
        fh.write("\n".join(lines) + ("\n" if lines else ""))
    print(json.dumps({"frames": last, "tracks": next_id - 1, "ms_per_frame": elapsed * 1000 / max(last, 1)}))


if __name__ == "__main__":
    main()
