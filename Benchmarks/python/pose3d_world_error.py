#!/usr/bin/env python3
"""Mean 3D joint error of DetectHumanBodyPose3DRequest against MediaPipe Python 0.10.14's world landmarks on the same
files (mp.solutions.pose, static_image_mode=True, model_complexity=1: pose_detection + pose_landmark_full).

    python Benchmarks/python/pose3d_world_error.py make DIR IMAGE...      # the images and variants of them, as PNG
    .build/release/openvision-bench world DIR/*.png > ours.jsonl
    python Benchmarks/python/pose3d_world_error.py compare ours.jsonl DIR/*.png

make: each image as is, mirrored, scaled 0.5× and 1.5×, turned ±15° (white border), so that the two photos with
people give 12 files. compare: per file, the mean distance in mm over MediaPipe's 33 world landmarks and over
Vision's 17 joints made from them as HumanBodyPose3DObservation makes them (root-centred, before the reference-height
scaling), then the means over all files. Needs mediapipe==0.10.14 (not in setup).
"""
import json
import os
import sys

import cv2
import numpy as np


def make(out, paths):
    os.makedirs(out, exist_ok=True)
    for path in paths:
        img = cv2.imread(path)
        h, w = img.shape[:2]
        stem = os.path.splitext(os.path.basename(path))[0]
        variants = {"": img, "-mirror": cv2.flip(img, 1),
                    "-half": cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA),
                    "-large": cv2.resize(img, (w * 3 // 2, h * 3 // 2), interpolation=cv2.INTER_CUBIC)}
        for angle in (15, -15):
            m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1)
            variants["-rot%+d" % angle] = cv2.warpAffine(img, m, (w, h), borderValue=(255, 255, 255))
        for suffix, v in variants.items():
            cv2.imwrite(os.path.join(out, stem + suffix + ".png"), v)


def joints(world):
    """Vision's 17 joints from 33 world landmarks (HumanBodyPose3DObservation's mapping), root-centred."""
    p = np.asarray(world, float)
    root = (p[23] + p[24]) / 2
    shoulder = (p[11] + p[12]) / 2
    head = (p[7] + p[8]) / 2
    top = head + (head - shoulder) * 0.5
    spine = (root + shoulder) / 2
    j = [top, head, shoulder, p[11], p[12], p[13], p[14], p[15], p[16], spine, root, p[23], p[24], p[25], p[26], p[27], p[28]]
    return np.array(j) - root


def compare(ours_path, paths):
    import mediapipe as mp
    ours = {}
    with open(ours_path) as f:
        for row in map(json.loads, f):
            ours[os.path.basename(row["file"])] = row["world"]
    landmark_errors, joint_errors = [], []
    print(f"{'file':28} {'33 landmarks mm':>16} {'17 joints mm':>13}")
    with mp.solutions.pose.Pose(static_image_mode=True, model_complexity=1) as pose:
        for path in paths:
            name = os.path.basename(path)
            r = pose.process(cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2RGB))
            theirs = [[l.x, l.y, l.z] for l in r.pose_world_landmarks.landmark] if r.pose_world_landmarks else None
            mine = ours.get(name)
            if theirs is None or mine is None:
                print(f"{name:28} {'ours ' + ('yes' if mine else 'none'):>16} {'peer ' + ('yes' if theirs else 'none'):>13}")
                continue
            le = np.linalg.norm(np.asarray(mine) - np.asarray(theirs), axis=1).mean() * 1000
            je = np.linalg.norm(joints(mine) - joints(theirs), axis=1).mean() * 1000
            landmark_errors.append(le)
            joint_errors.append(je)
            print(f"{name:28} {le:16.2f} {je:13.2f}")
    print(f"{'mean of ' + str(len(landmark_errors)) + ' files':28} {np.mean(landmark_errors):16.2f} {np.mean(joint_errors):13.2f}")
    print(f"{'max':28} {np.max(landmark_errors):16.2f} {np.max(joint_errors):13.2f}")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3:])
    else:
        compare(sys.argv[2], sys.argv[3:])
