"""Single-object tracking peer: Python OpenCV's CSRT / KCF (cv2.TrackerCSRT_create / cv2.TrackerKCF_create, default
parameters) on the frames `openvision-bench make-sot-set` wrote, decoded before timing, started on frame 0 from the
truth box (rounded to pixels, as ov_object_tracker.cpp does).

  bench_sot.py RUNS DIR accurate|fast            one JSON line: median_ms (mean ms per tracked frame), boxes
  bench_sot.py compare OURS PEER DIR              per level: per-frame IoU of our boxes with the peer's and with
                                                 the truth (DIR/truth.txt), time ratio (ours / peer); OURS and PEER
                                                 are JSON-lines files, comma-separated for several rounds (the
                                                 median of the rounds' medians is compared)
"""
import glob
import json
import os
import statistics
import sys
import time

import cv2

CREATE = {"accurate": cv2.TrackerCSRT_create, "fast": cv2.TrackerKCF_create}


def track(runs, directory, level):
    files = sorted(glob.glob(os.path.join(directory, "*.png")))
    frames = [cv2.imread(f, cv2.IMREAD_COLOR) for f in files]
    truth = [[float(v) for v in line.split()] for line in open(os.path.join(directory, "truth.txt")) if line.strip()]
    x, y, w, h = truth[0]
    start = (int(round(x)), int(round(y)), int(round(w)), int(round(h)))
    times, init_times = [], []
    boxes = []
    for _ in range(runs):
        tracker = CREATE[level]()
        t0 = time.perf_counter()
        tracker.init(frames[0], start)
        init_times.append((time.perf_counter() - t0) * 1000)
        boxes = [list(map(float, start))]
        spent = 0.0
        for frame in frames[1:]:
            t0 = time.perf_counter()
            ok, box = tracker.update(frame)
            spent += time.perf_counter() - t0
            boxes.append([float(v) for v in box] if ok else boxes[-1])
        times.append(spent * 1000 / (len(frames) - 1))
    print(json.dumps({"file": os.path.basename(directory.rstrip("/")) + ":" + level, "median_ms": statistics.median(times),
                      "init_median_ms": statistics.median(init_times), "boxes": boxes}, sort_keys=True))


def iou(a, b):
    ax1, ay1, ax2, ay2 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    bx1, by1, bx2, by2 = b[0], b[1], b[0] + b[2], b[1] + b[3]
    iw, ih = max(0.0, min(ax2, bx2) - max(ax1, bx1)), max(0.0, min(ay2, by2) - max(ay1, by1))
    union = a[2] * a[3] + b[2] * b[3] - iw * ih
    return iw * ih / union if union > 0 else 0.0


def load(paths):
    rounds = [{row["file"]: row for row in (json.loads(l) for l in open(path) if l.strip())} for path in paths.split(",")]
    merged = {}
    for key, row in rounds[0].items():
        row = dict(row)
        row["median_ms"] = statistics.median(r[key]["median_ms"] for r in rounds if key in r)
        row["rounds_ms"] = [round(r[key]["median_ms"], 2) for r in rounds if key in r]
        merged[key] = row
    return merged


def compare(ours_path, peer_path, truth_dir):
    ours, peer = load(ours_path), load(peer_path)
    truth = [[float(v) for v in line.split()] for line in open(os.path.join(truth_dir, "truth.txt")) if line.strip()]
    print("\n## Single-object tracking: TrackObjectRequest vs Python OpenCV 4.6 (Debian python3-opencv), same frames, "
          "mean ms per tracked frame (median of rounds)")
    print("goal: same boxes (IoU >= 0.95 on every frame), time <= 1.0x")
    print(f"{'level':<22} {'ours ms':>8} {'peer ms':>8} {'ratio':>6} {'min IoU vs peer':>16} {'min IoU vs truth (ours/peer)':>30}")
    for key in sorted(ours):
        if key not in peer:
            continue
        o, p = ours[key], peer[key]
        vs_peer = [iou(a, b) for a, b in zip(o["boxes"], p["boxes"])]
        ours_truth = min(iou(a, t) for a, t in zip(o["boxes"], truth))
        peer_truth = min(iou(a, t) for a, t in zip(p["boxes"], truth))
        ratio = o["median_ms"] / p["median_ms"] if p["median_ms"] else float("nan")
        print(f"{key:<22} {o['median_ms']:>8.2f} {p['median_ms']:>8.2f} {ratio:>5.2f}x {min(vs_peer):>16.3f} "
              f"{ours_truth:>14.3f} / {peer_truth:.3f}   rounds ours {o['rounds_ms']} peer {p['rounds_ms']}")


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        track(int(sys.argv[1]), sys.argv[2], sys.argv[3])
