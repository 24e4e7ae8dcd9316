"""The motion requests' peer: the same OpenCV calls from Python (Debian's python3-opencv 4.6 with contrib,
the library OpenVision links), on the pairs of openvision-bench make-motion-set's manifest.

Per line: both files read as gray (cv2.imread IMREAD_GRAYSCALE) and
  translation: cv2.phaseCorrelate(float32 a, float32 b, Hann window)           (ov_registration.cpp)
  homography:  ORB(1000), BF Hamming knn ratio 0.8, findHomography RANSAC 3; goodFeaturesToTrack(500, 0.01, 8),
               calcOpticalFlowPyrLK (21x21, 1 level, initial flow) from the prediction, findHomography RANSAC 1
  flow:        cv2.DISOpticalFlow_create(PRESET_FAST).calc                     (ov_optical_flow.cpp, medium)
Usage: bench_motion.py RUNS DIR  → JSON lines like openvision-bench motion."""
import json
import os
import statistics
import sys
import time

import cv2
import numpy as np


def translation(a, b):
    (dx, dy), _ = cv2.phaseCorrelate(np.float32(a), np.float32(b), cv2.createHanningWindow(a.shape[::-1], cv2.CV_32F))
    return [f"{dx:.1f}", f"{dy:.1f}"]


def homography(ref, flo):
    orb = cv2.ORB_create(1000)
    kr, dr = orb.detectAndCompute(ref, None)
    kf, df = orb.detectAndCompute(flo, None)
    knn = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(df, dr, k=2)
    good = [m[0] for m in knn if len(m) == 2 and m[0].distance < 0.8 * m[1].distance]
    src = np.float32([kf[m.queryIdx].pt for m in good])
    dst = np.float32([kr[m.trainIdx].pt for m in good])
    first, _ = cv2.findHomography(src, dst, cv2.RANSAC, 3.0)
    corners = cv2.goodFeaturesToTrack(flo, 500, 0.01, 8)
    predicted = cv2.perspectiveTransform(corners, first)
    tracked, status, _ = cv2.calcOpticalFlowPyrLK(flo, ref, corners, predicted.copy(), winSize=(21, 21), maxLevel=1,
                                                  criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 0.01),
                                                  flags=cv2.OPTFLOW_USE_INITIAL_FLOW)
    ok = status.ravel() == 1
    h, _ = cv2.findHomography(corners[ok], tracked[ok], cv2.RANSAC, 1.0)
    hh, ww = flo.shape
    box = cv2.perspectiveTransform(np.float32([[0, 0], [ww, 0], [ww, hh], [0, hh]]).reshape(-1, 1, 2), h / h[2, 2])
    return [f"{x:.0f},{y:.0f}" for x, y in box.reshape(-1, 2)]


def flow(a, b):
    f = cv2.DISOpticalFlow_create(cv2.DISOPTICAL_FLOW_PRESET_FAST).calc(a, b, None)
    return [f"{f[..., 0].mean():.1f}", f"{f[..., 1].mean():.1f}"]


def main() -> None:
    runs, folder = int(sys.argv[1]), sys.argv[2]
    calls = {"translation": translation, "homography": homography, "flow": flow}
    with open(os.path.join(folder, "manifest.txt")) as manifest:
        lines = [line.split() for line in manifest if line.strip()]
    for kind, ref, target in lines:
        times, request_times, payloads = [], [], []
        for _ in range(runs):
            start = time.perf_counter()
            a = cv2.imread(ref, cv2.IMREAD_GRAYSCALE)
            b = cv2.imread(target, cv2.IMREAD_GRAYSCALE)
            decoded = time.perf_counter()
            payloads = calls[kind](a, b)
            end = time.perf_counter()
            times.append((end - start) * 1000)
            request_times.append((end - decoded) * 1000)
        name = os.path.splitext(os.path.basename(ref))[0]
        print(json.dumps({"file": f"{name}:{kind}", "median_ms": statistics.median(times),
                          "read_median_ms": statistics.median(request_times), "count": len(payloads),
                          "payloads": payloads}, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
