"""Peer for the pose and person-mask benchmarks: MediaPipe Python 0.10.14's solutions on the same
files (the same .tflite model files OpenVision converts; XNNPACK on the machine's cores).

pose:  mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1): file -> landmarks
       (cv2.imread, BGR -> RGB, process).
world: the same Pose: file -> world landmarks (pose_world_landmarks; MediaPipe computes them on every run).
segment: Pose(..., enable_segmentation=True): file -> the pose's segmentation mask at the image size.
mask MODEL_SELECTION: mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0|1): file -> mask
       at the image size.
Prints one JSON line per file: median ms over RUNS (after one warm-up), count, payloads (as openvision-bench).
Usage: bench_pose.py pose|world|segment RUNS FILE...  |  bench_pose.py mask MODEL_SELECTION RUNS FILE...
"""
import json
import statistics
import sys
import time

import cv2
import mediapipe as mp


def main() -> None:
    kind = sys.argv[1]
    if kind in ("pose", "world", "segment"):
        runs, files = int(sys.argv[2]), sys.argv[3:]
        solution = mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=kind == "segment")
    else:
        selection, runs, files = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
        solution = mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=selection)
    for path in files:
        times, payloads = [], []
        for i in range(runs + 1):
            t0 = time.perf_counter()
            rgb = cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB)
            result = solution.process(rgb)
            if kind == "pose":
                payloads = ["pose"] if result.pose_landmarks else []
            elif kind == "world":
                payloads = ["pose3d"] if result.pose_world_landmarks else []
            elif kind == "segment":
                m = result.segmentation_mask
                payloads = ["mask %dx%d" % (m.shape[1], m.shape[0])] if m is not None else []
            else:
                m = result.segmentation_mask
                payloads = ["mask %dx%d" % (m.shape[1], m.shape[0])]
            if i:
                times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"file": path, "median_ms": statistics.median(times), "count": len(payloads), "payloads": payloads},
                         sort_keys=True), flush=True)
    solution.close()


if __name__ == "__main__":
    main()
