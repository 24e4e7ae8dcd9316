#!/usr/bin/env python3
"""Reference results of MediaPipe Python 0.10.14 (the solutions API, on the wheel's own model files) for
the body-pose and person-segmentation tests: writes small JSON fixtures.

    python Benchmarks/python/mediapipe_pose_reference.py pose IMAGES... > Tests/Fixtures/MediaPipe/pose-reference.json
    python Benchmarks/python/mediapipe_pose_reference.py mask IMAGES... > Tests/Fixtures/MediaPipe/mask-reference.json
    python Benchmarks/python/mediapipe_pose_reference.py world IMAGES... > Tests/Fixtures/MediaPipe/pose-world-reference.json

pose: mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1) (pose_detection.tflite +
pose_landmark_full.tflite): per image its size and the 33 landmarks (x, y normalised, top-left origin, as
MediaPipe gives them; visibility), or no pose.
world: the same Pose with enable_segmentation=True: per image the 33 world landmarks (x, y, z in metres,
hip-centred, y down, as MediaPipe gives them; visibility), the 33 image landmarks, and the pose's
segmentation mask thresholded at 0.5, run-length encoded as below.
mask: mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=0 and 1): the mask thresholded
at 0.5, run-length encoded row-major (alternating runs of 0 and 1, starting with 0), per model.
Needs mediapipe==0.10.14 (not in scripts/setup: references are committed).
"""
import json
import os
import sys

import cv2
import mediapipe as mp
import numpy as np


def rle(mask):
    flat = mask.reshape(-1).astype(np.uint8)
    runs, current, count = [], 0, 0
    for v in flat:
        if v == current:
            count += 1
        else:
            runs.append(count)
            current, count = v, 1
    runs.append(count)
    return runs


def pose(paths):
    out = {}
    with mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=False) as p:
        for path in paths:
            bgr = cv2.imread(path)
            h, w = bgr.shape[:2]
            r = p.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            lm = None
            if r.pose_landmarks:
                lm = [[round(l.x, 6), round(l.y, 6), round(l.visibility, 4)] for l in r.pose_landmarks.landmark]
            out[os.path.basename(path)] = {"width": w, "height": h, "landmarks": lm}
    return out


def world(paths):
    out = {}
    with mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1, enable_segmentation=True) as p:
        for path in paths:
            bgr = cv2.imread(path)
            h, w = bgr.shape[:2]
            r = p.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
            entry = {"width": w, "height": h, "world": None, "landmarks": None, "mask": None}
            if r.pose_world_landmarks:
                entry["world"] = [[round(l.x, 5), round(l.y, 5), round(l.z, 5), round(l.visibility, 4)]
                                  for l in r.pose_world_landmarks.landmark]
                entry["landmarks"] = [[round(l.x, 6), round(l.y, 6)] for l in r.pose_landmarks.landmark]
            if r.segmentation_mask is not None:
                m = r.segmentation_mask > 0.5
                entry["mask"] = {"rle": rle(m), "foreground": float(m.mean())}
            out[os.path.basename(path)] = entry
    return out


def mask(paths):
    out = {}
    for selection in (0, 1):
        with mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=selection) as s:
            for path in paths:
                bgr = cv2.imread(path)
                h, w = bgr.shape[:2]
                m = s.process(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)).segmentation_mask
                entry = out.setdefault(os.path.basename(path), {"width": w, "height": h})
                entry["model%d" % selection] = {"rle": rle(m > 0.5), "foreground": float((m > 0.5).mean())}
    return out


if __name__ == "__main__":
    kind, paths = sys.argv[1], sys.argv[2:]
    result = {"pose": pose, "world": world, "mask": mask}[kind](paths)
    json.dump({"generator": "mediapipe %s, Benchmarks/python/mediapipe_pose_reference.py %s" % (mp.__version__, kind),
               "images": result}, sys.stdout, separators=(",", ":"))
    print()
