"""DetectTrajectoriesRequest's peer: the same algorithm with the same OpenCV calls from Python (Debian's
python3-opencv 4.6, the library OpenVision links), per frame: gray read, shrink to <= 640 px (INTER_AREA), the
per-pixel median of the last 7 frames (numpy), absdiff > 30, 3x3 elliptic opening, external contours, moments;
then the linking and least-squares parabola of TrajectoryTracker.swift (ported below, np.polyfit).

  bench_trajectories.py make DIR WIDTH HEIGHT   writes 60 frames of a white ball thrown on a parabola (PNG)
  bench_trajectories.py RUNS DIR                → one JSON line like openvision-bench trajectories"""
import glob
import json
import math
import os
import statistics
import sys
import time
from collections import deque

import cv2
import numpy as np

LENGTH, MIN_R, MAX_R = 30, 0.005, 0.05  # as openvision-bench trajectories


def make(folder, width, height):
    os.makedirs(folder, exist_ok=True)
    s = width / 640
    k = 360 / 202500
    for i in range(60):
        f = np.full((height, width, 3), 60, np.uint8)
        cv2.rectangle(f, (int(400 * s), int(300 * s)), (int(520 * s), int(470 * s)), (110, 110, 110), -1)
        x = 30 + 9.6 * i
        y = 80 + k * (x - 150) ** 2
        cv2.circle(f, (round(x * s), round(y * s)), max(1, round(8 * s)), (255, 255, 255), -1, cv2.LINE_AA)
        cv2.imwrite(os.path.join(folder, f"f{i:03d}.png"), f)


class Tracker:
    def __init__(self):
        self.frames = deque(maxlen=7)
        self.tracks = []  # each: list of (x, y, r, frame)
        self.k = 0

    def blobs(self, gray, rmin, rmax):
        h, w = gray.shape
        f = 1.0
        if max(w, h) > 640:
            f = 640 / max(w, h)
            work = cv2.resize(gray, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
        else:
            work = gray
        fx, fy = w / work.shape[1], h / work.shape[0]
        self.frames.append(work)
        if len(self.frames) < 5:
            return []
        background = np.median(np.stack(self.frames), axis=0).astype(np.uint8)
        _, mask = cv2.threshold(cv2.absdiff(work, background), 30, 255, cv2.THRESH_BINARY)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        out = []
        for c in contours:
            m = cv2.moments(c)
            if m["m00"] <= 0:
                continue
            x, y, bw, bh = cv2.boundingRect(c)
            r = math.sqrt(cv2.countNonZero(mask[y:y + bh, x:x + bw]) * fx * fy / math.pi)
            if rmin <= r <= rmax:
                out.append(((m["m10"] / m["m00"] + 0.5) * fx - 0.5, (m["m01"] / m["m00"] + 0.5) * fy - 0.5, r))
        return sorted(out, key=lambda b: -b[2])[:64]

    @staticmethod
    def predict(samples, k):
        pts = samples[-3:]
        x = y = 0.0
        for i, p in enumerate(pts):
            wgt = 1.0
            for j, q in enumerate(pts):
                if j != i:
                    wgt *= (k - q[3]) / (p[3] - q[3])
            x += wgt * p[0]
            y += wgt * p[1]
        return x, y

    def add(self, gray):
        h, w = gray.shape
        blobs = self.blobs(gray, MIN_R * w, MAX_R * w)
        k = self.k
        self.k += 1
        self.tracks = [t for t in self.tracks if k - t[-1][3] <= 2]
        cands = []
        for ti, t in enumerate(self.tracks):
            px, py = self.predict(t, k)
            last = t[-1]
            step = math.hypot(last[0] - t[-2][0], last[1] - t[-2][1]) if len(t) >= 2 else 0
            gate = 6 * last[2] if len(t) == 1 else 2 * last[2] + 0.5 * step
            for bi, b in enumerate(blobs):
                d = math.hypot(b[0] - px, b[1] - py)
                if d <= gate:
                    cands.append((d, ti, bi))
        taken_t, taken_b = set(), set()
        for d, ti, bi in sorted(cands):
            if ti in taken_t or bi in taken_b:
                continue
            self.tracks[ti].append((*blobs[bi], k))
            taken_t.add(ti)
            taken_b.add(bi)
        for bi, b in enumerate(blobs):
            if bi not in taken_b:
                self.tracks.append([(*b, k)])
        for t in self.tracks:
            del t[:max(0, len(t) - max(4 * LENGTH, 16))]
        results = []
        for t in self.tracks:
            if t[-1][3] != k or len(t) < LENGTH:
                continue
            win = t[-LENGTH:]
            xs = np.array([p[0] / w for p in win])
            ys = np.array([1 - p[1] / h for p in win])
            mr = sum(p[2] for p in win) / len(win)
            if abs(win[-1][0] - win[0][0]) < 2 * mr:
                continue
            direction = 1 if win[-1][0] > win[0][0] else -1
            if any((b[0] - a[0]) * direction < -mr for a, b in zip(win, win[1:])):
                continue
            coef = np.polyfit(xs, ys, 2)
            rms = math.sqrt(np.mean(((ys - np.polyval(coef, xs)) * h) ** 2))
            if rms <= 0.5 * mr + 1:
                results.append(coef)
        return results


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    runs, folder = int(sys.argv[1]), sys.argv[2]
    files = sorted(glob.glob(os.path.join(folder, "*.png")))
    times, request_times, payloads = [], [], []
    for _ in range(runs):
        tracker, spent = Tracker(), 0.0
        start = time.perf_counter()
        last = []
        for f in files:
            gray = cv2.imread(f, cv2.IMREAD_GRAYSCALE)
            t0 = time.perf_counter()
            last = tracker.add(gray)
            spent += time.perf_counter() - t0
        times.append((time.perf_counter() - start) * 1000 / len(files))
        request_times.append(spent * 1000 / len(files))
        payloads = [f"{c:.2f}" for c in (last[0] if last else [])]
    print(json.dumps({"file": os.path.basename(folder.rstrip("/")) + ":trajectories", "median_ms": statistics.median(times),
                      "read_median_ms": statistics.median(request_times), "count": len(payloads), "payloads": payloads},
                     sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
