"""The peer for `openvision track`: boxmot's ByteTrack fed a MOTChallenge det.txt, frame by frame, writing its
tracks in the same format. Runs in a venv with boxmot (PyPI `boxmot`; scripts/bench makes .venv-boxmot).
Prints one JSON line: frames, tracks, ms per frame spent in ByteTrack.update (reading and writing excluded).

usage: track_boxmot.py DETS.txt OUT.txt [track_thresh match_thresh track_buffer]
"""
import json
import sys
import time

import numpy as np
from boxmot.trackers.box.bytetrack.tracker import ByteTrack


def main():
    dets_path, out_path = sys.argv[1], sys.argv[2]
    track_thresh, match_thresh, track_buffer = (float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])) \
        if len(sys.argv) > 5 else (0.5, 0.8, 30)
    rows = np.loadtxt(dets_path, delimiter=",", ndmin=2)
    last = int(rows[:, 0].max()) if len(rows) else 0
    by_frame = {f: rows[rows[:, 0] == f] for f in range(1, last + 1)}
    tracker = ByteTrack(min_conf=0.1, track_thresh=track_thresh, match_thresh=match_thresh,
                        track_buffer=track_buffer, frame_rate=30)
    image = np.zeros((1080, 1920, 3), dtype=np.uint8)
    lines, ids, elapsed = [], set(), 0.0
    for f in range(1, last + 1):
        r = by_frame[f]
        dets = np.zeros((len(r), 6), dtype=np.float32)
        if len(r):
            dets[:, 0], dets[:, 1] = r[:, 2], r[:, 3]
            dets[:, 2], dets[:, 3] = r[:, 2] + r[:, 4], r[:, 3] + r[:, 5]
            dets[:, 4] = r[:, 6]
        start = time.perf_counter()
        out = tracker.update(dets, image)
        elapsed += time.perf_counter() - start
        for x1, y1, x2, y2, tid, conf, *_ in out:
            ids.add(int(tid))
            lines.append(f"{f},{int(tid)},{x1:.2f},{y1:.2f},{x2 - x1:.2f},{y2 - y1:.2f},{conf:.3f},-1,-1,-1")
    with open(out_path, "w") as fh:
        fh.write("\n".join(lines) + ("\n" if lines else ""))
    print(json.dumps({"frames": last, "tracks": len(ids), "ms_per_frame": elapsed * 1000 / max(last, 1)}))


if __name__ == "__main__":
    main()
